competition_type = 'playoff'

description = """
Time management of our fast Go engine, each piece switched on alone and all
together, side by side against Pachi 12.90 (no DCNN, one thread, no
pondering) on 9x9, komi 7.5, area scoring, alternating colours, both at
'absolute 20' (the ringmaster's clock: each side has 20 s for the whole game):
  --time-manage       the clock spent like Pachi's timeinfo.c: moves to go from the
                      empty points, the lag measured from the clock, a small reserve
  --time-extend 2     think up to twice the budget while the choice is unclear
  --time-early        stop when the runner-up can't catch the leader in time
The matchups are kept level; the run was stopped after about 70 minutes of play.
Pachi is not installed by CI: build it from its public source and give its
binary in PACHI (default: pachi on the PATH; Debian's pachi package is a
platform game, not this engine). reports/mcts_vs_pachi.md says what it found;
run it from this folder:
    PACHI=/path/to/pachi ringmaster run time_vs_pachi.ctl -j 1
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')


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


players = {
    'mcts-base': mcts(),
    'mcts-manage': mcts('--time-manage'),
    'mcts-timed': mcts('--time-manage', '--time-extend', '2', '--time-early'),
    'mcts-extend': mcts('--time-extend', '2'),
    'mcts-early': mcts('--time-early'),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-base', 'pachi', alternating=True, number_of_games=60),
    Matchup('mcts-manage', 'pachi', alternating=True, number_of_games=60),
    Matchup('mcts-timed', 'pachi', alternating=True, number_of_games=60),
    Matchup('mcts-extend', 'pachi', alternating=True, number_of_games=16),
    Matchup('mcts-early', 'pachi', alternating=True, number_of_games=16),
]
