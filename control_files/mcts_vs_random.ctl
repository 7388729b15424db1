competition_type = 'playoff'

description = """
Our UCT engine (1,000 heavy playouts a move) against the random player and
against a weaker version of itself (200 light playouts), 9x9, komi 7.5.
Needs nothing but this project: the quick way to see the ringmaster work.
"""

def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   *options], timeout=120)

players = {
    'mcts-1000': mcts('--playouts', '1000', '--policy', 'heavy'),
    'mcts-200': mcts('--playouts', '200', '--policy', 'light'),
    'random': Player([PYTHON, '-m', 'players', 'random']),
}

board_size = 9
komi = 7.5
scorer = 'internal'

matchups = [
    Matchup('mcts-1000', 'random', alternating=True, number_of_games=4),
    Matchup('mcts-1000', 'mcts-200', alternating=True, number_of_games=8),
]
