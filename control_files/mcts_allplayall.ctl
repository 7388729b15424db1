competition_type = 'allplayall'

description = """
All-play-all on 9x9 between the random player and our UCT engine at three
strengths: the grid shows wins and losses, and each pairing its Elo difference.
"""

def mcts(playouts, policy='heavy'):
    return Player([PYTHON, '-m', 'players', 'mcts', '--playouts', str(playouts),
                   '--policy', policy], timeout=120)

players = {
    'random': Player([PYTHON, '-m', 'players', 'random']),
    'mcts-100-light': mcts(100, 'light'),
    'mcts-300': mcts(300),
    'mcts-1000': mcts(1000),
}

board_size = 9
komi = 7.5
scorer = 'internal'

competitors = ['random', 'mcts-100-light', 'mcts-300', 'mcts-1000']
rounds = 4
