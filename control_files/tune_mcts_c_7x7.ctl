competition_type = 'mc_tuner'

description = """
Tune the UCT exploration constant of our rollout MCTS engine on 7x7 Go,
against the same engine at c = 1.0. Works out of the box:
    ringmaster run control_files/tune_mcts_c_7x7.ctl -j 2
The event stops early once the best candidate beats every other with
posterior probability 0.95, then the winner plays 40 fresh games.
"""

PLAYOUTS = 100


def mcts(c, seed=None):
    command = [PYTHON, '-m', 'players', 'mcts',
               # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
               '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
               '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
               '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
               '--no-time-early',
               '--playouts', str(PLAYOUTS), '--c', repr(c)]
    return Player(command, discard_stderr=True)


players = {
    'mcts-c1': mcts(1.0),
}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200

opponent = 'mcts-c1'
candidate_colour = 'random'
number_of_games = 400

parameters = [
    Parameter('c', scale=LOG(0.05, 5.0), split=8, format='c: %.3f'),
]


def make_candidate(c):
    return mcts(c)


exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
summary_spec = [8]
log_tree_to_history_period = 50

stop_when_confident = 0.95
confirm_games = 40
