competition_type = 'playoff'

description = """
Othello 6x6 at equal time per move (0.25 s each): the committed AlphaZero network
against UCT with random rollouts (`python -m players othello-mcts`, on the players.mcts core).
One game at a time, so both engines get a whole core:
    ringmaster run control_files/othello6_vs_mcts.ctl
"""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')

players = {
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model', MODELS + '/othello6.pt',
                  '--device', 'cpu', '--seconds', '0.25', '--batch', '8']),
    'mcts': Player([PYTHON, '-m', 'players', 'othello-mcts', '--seconds', '0.25']),
}

game = 'othello'
board_size = 6
komi = 0
scorer = 'internal'

matchups = [
    Matchup('az', 'mcts', alternating=True, number_of_games=100),
]
