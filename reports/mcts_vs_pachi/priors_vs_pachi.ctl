competition_type = 'playoff'

description = """
Each new prior of our fast Go engine switched on alone (and RAVE and tree
reuse each switched off alone), side by side against
Pachi 12.90 (no DCNN, one thread, no pondering) on 9x9, komi 7.5, area scoring,
alternating colours, both at 'absolute 10' (the ringmaster's clock: each side
has 10 s for the whole game). Pachi is not installed by CI: build it from its
public source and give its binary in PACHI (default: pachi on the PATH;
Debian's pachi package is a platform game, not this engine).
reports/mcts_vs_pachi.md says what it found; run it from this folder:
    PACHI=/path/to/pachi ringmaster run priors_vs_pachi.ctl -j 1
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
    'mcts-atari': mcts('--prior-atari', '1'),
    'mcts-near': mcts('--prior-shape', '0', '--prior-near', '1'),
    'mcts-norave': mcts('--rave', '0'),
    'mcts-noreuse': mcts('--no-reuse'),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'

matchups = [
    Matchup('mcts-base', 'pachi', alternating=True, number_of_games=20),
    Matchup('mcts-atari', 'pachi', alternating=True, number_of_games=20),
    Matchup('mcts-near', 'pachi', alternating=True, number_of_games=20),
    Matchup('mcts-norave', 'pachi', alternating=True, number_of_games=12),
    Matchup('mcts-noreuse', 'pachi', alternating=True, number_of_games=12),
]
