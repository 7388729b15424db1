competition_type = 'bayes_tuner'

description = """
Tune two parameters of our rollout MCTS engine (the UCT exploration constant
--c and the RAVE equivalence --rave) on 7x7 Go with 100 playouts a move,
against the same engine at its defaults (--c 0.2 --rave 3000), with a
Gaussian-process model. Works out of the box:
    ringmaster run reports/tune_mcts_bayes_7x7/tune_mcts_bayes_7x7.ctl -j 1
Switch competition_type to 'spsa_tuner' (or to 'mc_tuner', which also wants
exploration_coefficient, initial_visits, initial_wins and a split per
parameter) to tune the same parameters another way.
"""

PLAYOUTS = 100


def mcts(c=None, rave=None):
    command = [PYTHON, '-m', 'players', 'mcts',
               # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
               '--c', '0.2', '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
               '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
               '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
               '--no-time-early',
               '--playouts', str(PLAYOUTS)]
    if c is not None:
        command += ['--c', repr(c)]
    if rave is not None:
        command += ['--rave', repr(rave)]
    return Player(command, discard_stderr=True)


players = {
    'mcts-default': mcts(),
}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200
reuse_engines = True

opponent = 'mcts-default'
candidate_colour = 'random'
number_of_games = 400
confirm_games = 200
trend = 'constant'      # the model this event ran with (the default became 'quadratic' later)

parameters = [
    Parameter('c', scale=LOG(0.02, 2.0), format='c: %.3f'),
    Parameter('rave', scale=LOG(30.0, 30000.0), format='rave: %.0f'),
]


def make_candidate(c, rave):
    return mcts(c, rave)
