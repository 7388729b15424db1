competition_type = 'allplayall'
description = """Seed 001's Experiment 3, the modes against each other: pig-mcts in its four chance modes,
all-play-all, 300 games a pairing (first and second seats alternating by round). The same agents
as pig_experiment3.ctl: Pig to 50, at most 200 turns, 500 simulations per decision, PUCT (c_puct
2.0) with priors of 0.8 on 'keep pace and end race', rollouts race:hold20, a chance node's prior
by 8 rollouts."""

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120


def mcts(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--rollouts', 'race:hold20', '--prior', 'race:hold20', '--prior-weight', '0.8',
                   '--prior-rollouts', '8', '--playouts', '500', '--c', '2.0'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {mode: mcts(mode) for mode in MODES}
competitors = MODES
rounds = 300
