competition_type = 'ce_tuner'

description = """
Cross-entropy tuning of the UCT exploration constant of our rollout MCTS
engine on 7x7 Go, against the engine with the default constant. The tuner
works on log10(c), so the search moves on a log scale.
    ringmaster run control_files/tune_ce_mcts_c.ctl -j 2
"""

PLAYOUTS = 100


def mcts(c):
    return Player([PYTHON, '-m', 'players', 'mcts', '--playouts', str(PLAYOUTS), '--c', repr(c)],
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
