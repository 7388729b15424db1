competition_type = 'allplayall'

description = """
Othello 6x6: committed checkpoints of one training run (players/models/) and a random
player, every pairing 20 games; the report gives each checkpoint's Elo.
Run with:
    ringmaster run control_files/othello6_checkpoints.ctl --parallel 2
"""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')

def az(model):
    return Player([PYTHON, '-m', 'players', 'alphazero', '--model', model,
                   '--device', 'cpu', '--playouts', '64', '--batch', '8', '--sample-plies', '4'])

players = {
    'iter05': az(MODELS + '/othello6_iter0005.pt'),
    'iter30': az(MODELS + '/othello6_iter0030.pt'),
    'final': az(MODELS + '/othello6.pt'),
    'random': Player([PYTHON, '-m', 'players', 'random-othello']),
}

game = 'othello'
board_size = 6
komi = 0
scorer = 'internal'

competitors = ['final', 'iter30', 'iter05', 'random']
rounds = 20
