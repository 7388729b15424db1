competition_type = 'allplayall'

description = """
Othello 6x6: committed checkpoints of one training run (players/models/) and a random
player, every pairing 20 games; the report gives each checkpoint's Elo.
Run from the repository root:
    ringmaster run control_files/othello6_checkpoints.ctl --parallel 2
"""

def az(model):
    return Player([PYTHON, '-m', 'players', 'alphazero', '--model', model,
                   '--device', 'cpu', '--playouts', '64', '--batch', '8', '--sample-plies', '4'])

players = {
    'iter05': az('players/models/othello6_iter0005.pt'),
    'iter30': az('players/models/othello6_iter0030.pt'),
    'final': az('players/models/othello6.pt'),
    'random': Player([PYTHON, '-m', 'players.random_othello']),
}

game = 'othello'
board_size = 6
komi = 0
scorer = 'internal'

competitors = ['final', 'iter30', 'iter05', 'random']
rounds = 20
