competition_type = 'playoff'
description = """Seed 001's Experiment 3 (rollout variants): each chance mode of pig-mcts against Hold20,
Pig to 50 with at most 200 turns, equal time per decision (0.15 s), seats alternating."""

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 60


def mcts(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--rollouts', 'hold20', '--seconds', '0.15', '--c', '1.0'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: mcts(mode) for mode in MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
