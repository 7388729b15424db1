competition_type = 'playoff'

description = """
Othello 6x6 at equal time per move (0.25 s each): the committed AlphaZero network
against UCT with random rollouts (players.othello_mcts, on the players.mcts core).
Run from the repository root, one game at a time so both engines get a whole core:
    ringmaster run control_files/othello6_vs_mcts.ctl
"""

players = {
    'az': Player([PYTHON, '-m', 'players', 'alphazero', '--model', 'players/models/othello6.pt',
                  '--device', 'cpu', '--seconds', '0.25', '--batch', '8']),
    'mcts': Player([PYTHON, '-m', 'players.othello_mcts', '--seconds', '0.25']),
}

game = 'othello'
board_size = 6
komi = 0
scorer = 'internal'

matchups = [
    Matchup('az', 'mcts', alternating=True, number_of_games=100),
]
