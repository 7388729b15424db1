competition_type = 'playoff'

description = """
Our fast Go engine reading ladders in its heavy playouts (--ladders: no
running from atari into a ladder that catches), with the clock budget
(--time-manage), against Pachi 12.90 (no DCNN, one thread, no pondering) on
9x9, komi 7.5, area scoring, alternating colours, both at 'absolute 20', as
in speed_vs_pachi.ctl (whose mcts-manage is this engine without --ladders).
Pachi is not installed by CI: build it from its public source and give its
binary in PACHI (default: pachi on the PATH; Debian's pachi package is a
platform game, not this engine). reports/mcts_vs_pachi.md says what it found;
run it from this folder:
    PACHI=/path/to/pachi ringmaster run ladders_vs_pachi.ctl -j 1
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--time-extend', '0',
                   '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', '--time-manage', *options],
                  discard_stderr=True)


players = {
    'mcts-ladders': mcts('--ladders'),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-ladders', 'pachi', alternating=True, number_of_games=40),
]
