competition_type = 'playoff'
description = """Seed 001's Experiment 3, rollout variants: pig-mcts in each chance mode against Hold20.
Pig to 50, at most 200 turns; 500 simulations per decision for every mode; PUCT (c_puct 2.0) with
priors of 0.8 on the choice of 'keep pace and end race' (the searcher) or Hold20 (the other), leaves
valued by rollouts played the same way (race:hold20), a chance node's prior by 8 rollouts."""

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120


def mcts(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--rollouts', 'race:hold20', '--prior', 'race:hold20', '--prior-weight', '0.8',
                   '--prior-rollouts', '8', '--playouts', '500', '--c', '2.0'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: mcts(mode) for mode in MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
