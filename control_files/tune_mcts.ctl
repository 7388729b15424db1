competition_type = 'mc_tuner'

description = """
Tune the exploration constant c of our fast MCTS engine (UCT with RAVE and
priors, heavy playouts, 1,000 playouts a move) on 9x9, komi 7.5, against a
fixed opponent: the same engine at c = 0.2 (its default when this ran; since
tuned to 0.0334, reports/mcts_vs_pachi.md). With RAVE the best
c is small, so the scale is logarithmic from 0.01 to 2.
    ringmaster run control_files/tune_mcts.ctl -j 2
"""

PLAYOUTS = '1000'


def mcts(c):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
                   '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
                   '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
                   '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', PLAYOUTS, '--c', repr(c), '--resign', '0.05'],
                  discard_stderr=True)


players = {
    'mcts-c0.2': mcts(0.2),
}

board_size = 9
komi = 7.5
scorer = 'internal'
move_limit = 250

opponent = 'mcts-c0.2'
candidate_colour = 'random'
number_of_games = 500

parameters = [
    Parameter('c', scale=LOG(0.01, 2.0), split=8, format='c: %.3f'),
]


def make_candidate(c):
    return mcts(c)


exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
summary_spec = [8]
log_tree_to_history_period = 50

stop_when_confident = 0.95
confirm_games = 50
