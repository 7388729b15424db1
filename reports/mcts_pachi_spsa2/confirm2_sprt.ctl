competition_type = 'playoff'

description = """
SPRT of the second SPSA run's answer against Pachi (tune2_vs_pachi.ctl: --c
0.0334 --rave 591.2 --prior-weight 27.79 --prior-even 14.41 --prior-pattern
0.8104 --prior-edge 1.215 --prior-near 1.165, with --prior-atari 0.065 as
tuned) against the engine it started from, the first run's answer and the
engine's defaults since (reports/mcts_pachi_spsa: --c 0.05798 --rave 1007
--prior-weight 47.06 --prior-atari 0.06499, --prior-even 10 --prior-pattern 0.5
--prior-edge 1 --prior-near 0), both with ladder reading and --time-manage
--time-extend 2 --time-early, every value named, at the tuning's clock: 9x9,
komi 7.5, area scoring, 'absolute 20' for both sides, colours alternating; H0
'at most +0 Elo' against H1 'at least +100 Elo' (alpha = beta = 0.05,
pentanomial), at most 150 games. reports/mcts_vs_pachi.md (section 11) says
what it found; run it from this folder:
    ringmaster run confirm2_sprt.ctl -j 2
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', '--ladders',
                   '--time-manage', '--time-extend', '2', '--time-early',
                   '--c', '0.05798', '--rave', '1007', '--prior-weight', '47.06',
                   '--prior-atari', '0.06499', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', *options],
                  discard_stderr=True)


ROUND2 = ('--c', '0.0334', '--rave', '591.2', '--prior-weight', '27.79', '--prior-even', '14.41',
          '--prior-pattern', '0.8104', '--prior-edge', '1.215', '--prior-shape', '0', '--prior-near', '1.165',
          '--prior-atari', '0.065')

players = {
    'mcts-round2': mcts(*ROUND2),
    'mcts-round1': mcts(),
}

board_size = 9
komi = 7.5
scorer = 'internal'
# Our engine lists no dead stones: GNU Go settles the games both pass out with stones in dispute.
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-round2', 'mcts-round1', alternating=True, number_of_games=150,
            sprt={'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}),
]
