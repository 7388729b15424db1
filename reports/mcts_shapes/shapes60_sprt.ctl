competition_type = 'playoff'

description = """
The learnt shape prior's SPRT again, at Pachi's clock: --prior-shape 0.3
(players/engines/go_uct/shapes_pachi.txt) against the engine without it, both
the engine's defaults since d0f9fe4 with every value named (--c 0.0334 --rave
591.2 --prior-weight 27.79 --prior-even 14.41 --prior-pattern 0.8104
--prior-edge 1.215 --prior-near 1.165 --prior-atari 0.065, ladder reading,
--time-manage --time-extend 2 --time-early), head to head: 9x9, komi 7.5, area
scoring, 'absolute 60' for both sides, colours alternating; H0 'at most +0
Elo' against H1 'at least +100 Elo' (alpha = beta = 0.05, pentanomial), at
most 200 games. reports/mcts_vs_pachi.md (section 12) says what it found, and
whether the +110 Elo of shapes_sprt.ctl at 'absolute 20' holds at 60 s; run it
from this folder:
    ringmaster run shapes60_sprt.ctl -j 2
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', '--ladders',
                   '--time-manage', '--time-extend', '2', '--time-early',
                   '--c', '0.0334', '--rave', '591.2', '--prior-weight', '27.79',
                   '--prior-even', '14.41', '--prior-pattern', '0.8104', '--prior-edge', '1.215',
                   '--prior-near', '1.165', '--prior-atari', '0.065', *options],
                  discard_stderr=True)


players = {
    'mcts-shapes': mcts('--prior-shape', '0.3'),
    'mcts': mcts('--prior-shape', '0'),
}

board_size = 9
komi = 7.5
scorer = 'internal'
# Our engine lists no dead stones: GNU Go settles the games both pass out with stones in dispute.
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
time_control = 'absolute 60'

matchups = [
    Matchup('mcts-shapes', 'mcts', alternating=True, number_of_games=200,
            sprt={'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}),
]
