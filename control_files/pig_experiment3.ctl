competition_type = 'playoff'
description = """Seed 001's Experiment 3, rollout variants: pig-mcts in each chance mode against Hold20.
Pig to 50, at most 200 turns; 500 simulations per decision for every mode; UCT (c 1.0) valued by
rollouts in which the searching player keeps pace and ends the race and the other holds at 20."""

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120


def mcts(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--rollouts', 'race:hold20', '--playouts', '500', '--c', '1.0'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: mcts(mode) for mode in MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
