competition_type = 'playoff'

description = """
Issue 31's second check: GRhino level 3 against our Othello network (players/models/othello8.pt,
100 playouts a move at a fixed seed: deterministic, as GRhino is) from the shipped 8x8 suite,
games 2k and 2k+1 one opening with colours swapped: 100 games as 50 pairs, no duplicates.
"""

import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')

players = {
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model',
                  os.path.join(ROOT, 'players', 'models', 'othello8.pt'),
                  '--device', 'cpu', '--threads', '1', '--playouts', '100', '--seed', '1'],
                 cwd=ROOT),
    'rhino3': Player('/usr/games/gtp-rhino --level 3'),
}

game = 'othello'
board_size = 8
komi = 0
scorer = 'internal'
openings = Openings('../../openings/othello8')
matchups = [Matchup('az', 'rhino3', number_of_games=100)]
