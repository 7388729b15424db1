competition_type = 'playoff'

description = """
Our fast Go engine after the search speed-ups of 0161a82 (1.34x light,
1.28x heavy playouts a second; reports/mcts_vs_pachi.md section 1), against
Pachi 12.90 (no DCNN, one thread, no pondering) on 9x9, komi 7.5, area
scoring, alternating colours, both at 'absolute 20', as in time_vs_pachi.ctl:
  mcts-manage     the clock budget alone (--time-manage), time_vs_pachi.ctl's
                  best variant, now with the faster search
  mcts-tuned      the same with SPSA's priors and RAVE
                  (reports/mcts_priors_spsa: prior-weight 19.4, prior-atari
                  0.51, prior-near 0.16, rave 1564)
Pachi is not installed by CI: build it from its public source and give its
binary in PACHI (default: pachi on the PATH; Debian's pachi package is a
platform game, not this engine). reports/mcts_vs_pachi.md says what it found;
run it from this folder:
    PACHI=/path/to/pachi ringmaster run speed_vs_pachi.ctl -j 1
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')
TUNED = ('--prior-weight', '19.4', '--prior-atari', '0.51', '--prior-shape', '0', '--prior-near', '0.16', '--rave', '1564')


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
    'mcts-manage': mcts(),
    'mcts-tuned': mcts(*TUNED),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-manage', 'pachi', alternating=True, number_of_games=40),
    Matchup('mcts-tuned', 'pachi', alternating=True, number_of_games=40),
]
