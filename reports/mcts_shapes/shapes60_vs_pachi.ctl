competition_type = 'playoff'

description = """
The engine with the learnt shape prior (--prior-shape 0.3, which won its SPRT
head to head in shapes_sprt.ctl) against Pachi at its normal strength: the
engine's defaults since d0f9fe4, every value named (--c 0.0334 --rave 591.2
--prior-weight 27.79 --prior-even 14.41 --prior-pattern 0.8104 --prior-edge
1.215 --prior-near 1.165 --prior-atari 0.065, ladder reading, --time-manage
--time-extend 2 --time-early), against Pachi 12.90 (no DCNN, one thread, no
pondering) on 9x9, komi 7.5, area scoring, alternating colours, both at
'absolute 60' (reports/mcts_pachi_spsa2/round2_60_vs_pachi.ctl is the same
engine without the shape prior). Build Pachi from its public source and give
its binary in PACHI (default: pachi on the PATH; Debian's pachi package is a
platform game, not this engine); GNU Go (Debian's gnugo) is the referee for
dead stones. reports/mcts_vs_pachi.md (section 12) says what it found; run it
from this folder:
    PACHI=/path/to/pachi ringmaster run shapes60_vs_pachi.ctl -j 2
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')

players = {
    'mcts-shapes': Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast',
                           '--policy', 'heavy', '--playouts', '100000000', '--threads', '1',
                           '--ladders', '--time-manage', '--time-extend', '2', '--time-early',
                           '--prior-atari', '0.065', '--c', '0.0334', '--rave', '591.2',
                           '--prior-weight', '27.79', '--prior-even', '14.41',
                           '--prior-pattern', '0.8104', '--prior-edge', '1.215',
                           '--prior-near', '1.165', '--prior-shape', '0.3'],
                          discard_stderr=True),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
# Our engine lists no dead stones: GNU Go settles the games whose lists differ.
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
time_control = 'absolute 60'

matchups = [
    Matchup('mcts-shapes', 'pachi', alternating=True, number_of_games=100),
]
