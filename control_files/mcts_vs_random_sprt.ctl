competition_type = 'playoff'

description = """
Our UCT engine (200 light playouts a move) against the random player, 9x9,
stopped by an SPRT as soon as it is decided (H1: at least +200 Elo), in colour-
swapped pairs. Needs nothing but this project:
    ringmaster run control_files/mcts_vs_random_sprt.ctl
then open control_files/mcts_vs_random_sprt.html.
"""

players = {
    'mcts-200': Player([PYTHON, '-m', 'players', 'mcts', '--playouts', '200', '--policy', 'light'],
                       timeout=120),
    'random': Player([PYTHON, '-m', 'players', 'random']),
}

board_size = 9
komi = 7.5
scorer = 'internal'

matchups = [
    Matchup('mcts-200', 'random', alternating=True, number_of_games=200,
            sprt={'elo0': 0, 'elo1': 200, 'alpha': 0.05, 'beta': 0.05}),
]
