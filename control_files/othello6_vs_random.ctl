competition_type = 'playoff'

description = """
Othello 6x6: the committed AlphaZero network (players/models/othello6.pt) against
uniformly random play.
    ringmaster run control_files/othello6_vs_random.ctl --parallel 2
"""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')

players = {
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model', MODELS + '/othello6.pt',
                  '--device', 'cpu', '--playouts', '64', '--batch', '8']),
    'random': Player([PYTHON, '-m', 'players', 'random-othello']),
}

game = 'othello'
board_size = 6
komi = 0
scorer = 'internal'

matchups = [
    Matchup('az', 'random', alternating=True, number_of_games=200),
]
