competition_type = 'spsa_tuner'

description = """
Tune a speed-for-quality setting of our rollout MCTS engine at a fixed time
control: --expand-after, the visits an edge needs before its child node is
made (and its heuristic priors computed). Fewer means a deeper, better informed
tree but slower playouts; more, more playouts in the same time. Only a clock
makes this a fair question: at a fixed number of playouts the deepest tree
always wins. 7x7 Go, komi 8.5, 'fischer 2 0.05' for both sides (the engine is
told it exactly by kata-time_settings), starting from the middle of the range,
with SPSA (the perturbed candidates play each other; the confirmation games
play the start). reports/clock.md says how
to run it (from this folder), then the SPRT of its answer (confirm_sprt.py):
    ringmaster run tune_mcts_expand_after.ctl -j 1
"""


def mcts(expand_after=None):
    command = [PYTHON, '-m', 'players', 'mcts',
               # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
               '--c', '0.2', '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
               '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
               '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
               '--no-time-early',
               '--playouts', '100000000']
    if expand_after is not None:
        command += ['--expand-after', str(expand_after)]
    return Player(command, discard_stderr=True)


players = {
    'mcts-default': mcts(),
}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200
time_control = 'fischer 2 0.05'

opponent = 'mcts-default'
candidate_colour = 'random'
number_of_games = 200
confirm_games = 40

parameters = [
    Parameter('expand_after', scale=LOG(1, 32, integer=True), format='expand_after: %d'),
]


def make_candidate(expand_after):
    return mcts(expand_after)
