competition_type = 'playoff'

description = """
Othello 8x8, the goal of issue 14: our AlphaZero network (players/models/othello8.pt) at no
more than 1 second a move on one CPU core (0.9 s of search, so that the whole answer to
genmove stays within the second) against GRhino (apt-get install grhino): 100 games
against level 3 (its default), 50 against level 1 and 6 against level 5 (which thinks for
about 4.5 minutes of CPU a game), alternating colours. One game at a time:
    ringmaster run control_files/othello8_az_vs_grhino.ctl
"""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')
GRHINO = '/usr/games/gtp-rhino'

players = {
    # --sample-plies 4: the first 4 plies in proportion to visits, so that games differ.
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model', MODELS + '/othello8.pt',
                  '--device', 'cpu', '--threads', '1', '--seconds', '0.9', '--batch', '8',
                  '--sample-plies', '4']),
    'rhino1': Player(GRHINO + ' --level 1'),
    'rhino3': Player(GRHINO + ' --level 3'),
    'rhino5': Player(GRHINO + ' --level 5'),
}

game = 'othello'
board_size = 8
komi = 0
scorer = 'internal'

matchups = [
    Matchup('az', 'rhino3', id='az-rhino3', alternating=True, number_of_games=100),
    Matchup('az', 'rhino1', id='az-rhino1', alternating=True, number_of_games=50),
    Matchup('az', 'rhino5', id='az-rhino5', alternating=True, number_of_games=6),
]
