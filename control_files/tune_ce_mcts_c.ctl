competition_type = 'ce_tuner'

description = """
Cross-entropy tuning of the UCT exploration constant of our rollout MCTS
engine on 7x7 Go, against the same engine at c = 1.0. The tuner
works on log10(c), so the search moves on a log scale.
    ringmaster run control_files/tune_ce_mcts_c.ctl -j 2
"""

PLAYOUTS = 100


def mcts(c):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
                   '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
                   '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
                   '--no-time-early',
                   '--playouts', str(PLAYOUTS), '--c', repr(c)],
                  discard_stderr=True)


players = {
    'mcts-c1': mcts(1.0),
}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200

opponent = 'mcts-c1'
candidate_colour = 'random'


def from_log10(x):
    return 10 ** max(-2.0, min(1.0, x))


parameters = [
    Parameter('c', initial_mean=-0.3, initial_variance=0.25, transform=from_log10,
              format='c: %.3f'),
]


def make_candidate(c):
    return mcts(c)


number_of_generations = 6
samples_per_generation = 8
batch_size = 6
elite_proportion = 0.25
step_size = 0.6
confirm_games = 40
