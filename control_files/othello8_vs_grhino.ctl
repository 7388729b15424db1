competition_type = 'allplayall'

description = """
Othello 8x8: our rollout UCT engine and our AlphaZero network (players/models/othello8.pt),
each at 1 second a move on one core (0.9 s of search, the rest for the answer), against
GRhino (apt-get install grhino) at levels 1, 3 and 5. Every pairing plays `rounds` games,
alternating colours; the report gives the Elo of each pairing and joint ratings. GRhino has
no clock: level 5 searches deep and takes tens of seconds a move, so its pairings are the slow
ones. One game at a time gives each engine a core:
    ringmaster run control_files/othello8_vs_grhino.ctl
"""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')
GRHINO = '/usr/games/gtp-rhino'

players = {
    'mcts': Player([PYTHON, '-m', 'players', 'othello-mcts', '--seconds', '0.9']),
    # --sample-plies 4: the first 4 plies in proportion to visits, so that games differ.
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model', MODELS + '/othello8.pt',
                  '--device', 'cpu', '--threads', '1', '--seconds', '0.9', '--batch', '8',
                  '--sample-plies', '4']),
    'rhino1': Player(GRHINO + ' --level 1'),
    'rhino3': Player(GRHINO + ' --level 3'),
    'rhino5': Player(GRHINO + ' --level 5', timeout=900),
}

game = 'othello'
board_size = 8
komi = 0
scorer = 'internal'

competitors = ['az', 'mcts', 'rhino1', 'rhino3', 'rhino5']
rounds = 20
