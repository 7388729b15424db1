competition_type = 'playoff'

description = """
Our UCT engine (200 light playouts a move) against the random player, 9x9,
stopped by an SPRT as soon as it is decided (H1: at least +200 Elo), in colour-
swapped pairs. Needs nothing but this project:
    ringmaster run control_files/mcts_vs_random_sprt.ctl
then open control_files/mcts_vs_random_sprt.html.
"""

players = {
    'mcts-200': Player([PYTHON, '-m', 'players', 'mcts',
                        # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                        '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                        '--prior-atari', '0', '--prior-even', '10',
                        '--prior-pattern', '0.5', '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0',
                        '--no-time-manage', '--time-extend', '0', '--no-time-early',
                        '--playouts', '200', '--policy', 'light'],
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
