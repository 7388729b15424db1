competition_type = 'playoff'

description = """
SPRT of the bayes_tuner's recommendation (tune_mcts_bayes_7x7.ctl: c: 0.160; rave: 2767)
against our rollout MCTS engine at its defaults (--c 0.2 --rave 3000), 7x7 Go,
100 playouts a move, colours alternating.
"""

PLAYOUTS = 100


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--playouts', str(PLAYOUTS), *options],
                  discard_stderr=True)


players = {
    'tuned': mcts('--c', '0.160', '--rave', '2767'),
    'default': mcts(),
}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200
reuse_engines = True

matchups = [Matchup('tuned', 'default', alternating=True, number_of_games=1000,
                    sprt={'elo0': 0, 'elo1': 30, 'alpha': 0.05, 'beta': 0.05})]
