competition_type = 'allplayall'

description = """
All-play-all on 9x9 between the random player and our UCT engine at three
strengths: the grid shows wins and losses, and each pairing its Elo difference.
"""

def mcts(playouts, policy='heavy'):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--playouts', str(playouts),
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
