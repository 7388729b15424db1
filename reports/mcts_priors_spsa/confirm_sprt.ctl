competition_type = 'playoff'

description = """
SPRT of the spsa_tuner's answer (tune_mcts_priors_vs_gnugo.ctl: prior-weight: 19.4; prior-atari: 0.51; prior-near: 0.16; rave: 1564)
against our fast Go engine at its defaults (prior-weight 20, prior-atari 0,
prior-near 0, rave 3000), at the tuning's time control: 9x9, komi 7.5, area
scoring, 'absolute 10' for both sides, colours alternating; H0 'at most +0
Elo' against H1 'at least +100 Elo' (alpha = beta = 0.05), at most 400 games (200 at
first; raised to 400 after them with the bounds unchanged, reports/mcts_vs_pachi.md section 6).
reports/mcts_vs_pachi.md (section 6) says what it found; run it from this folder:
    ringmaster run confirm_sprt.ctl -j 1
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', *options],
                  discard_stderr=True)


TUNED = ('--prior-weight', '19.4', '--prior-atari', '0.51', '--prior-shape', '0', '--prior-near', '0.16', '--rave', '1564',)

GNUGO = '/usr/games/gnugo'

# Disputes over dead stones (our engine lists none) go to a GNU Go referee.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'

players = {
    'mcts-tuned': mcts(*TUNED),
    'mcts-base': mcts(),
}

matchups = [Matchup('mcts-tuned', 'mcts-base', alternating=True, number_of_games=400,
                    sprt={'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05})]
