competition_type = 'playoff'

description = """
SPRT of the spsa_tuner's answer against Pachi (tune_best_vs_pachi.ctl: c 0.058,
rave 1007, prior-weight 47.1, prior-atari 0.06) against the untuned engine it started from (c 0.2, rave 3000, prior-weight 20,
prior-atari 0), both the best engine of reports/mcts_vs_pachi.md section 9
(ladder reading, --time-manage --time-extend 2 --time-early), at the tuning's
clock: 9x9, komi 7.5, area scoring, 'absolute 20' for both sides, colours
alternating; H0 'at most +0 Elo' against H1 'at least +100 Elo' (alpha = beta
= 0.05, pentanomial), at most 300 games. reports/mcts_vs_pachi.md (section 10)
says what it found; run it from this folder:
    ringmaster run confirm_sprt.ctl -j 2
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1',
                   '--time-manage', '--time-extend', '2', '--time-early', *options],
                  discard_stderr=True)


TUNED = ('--c', '0.05798', '--rave', '1007', '--prior-weight', '47.06', '--prior-atari', '0.06499')

players = {
    'mcts-tuned': mcts(*TUNED),
    'mcts-untuned': mcts(),
}

board_size = 9
komi = 7.5
scorer = 'internal'
# Our engine lists no dead stones: GNU Go settles the games both pass out with stones in dispute.
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-tuned', 'mcts-untuned', alternating=True, number_of_games=300,
            sprt={'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}),
]
