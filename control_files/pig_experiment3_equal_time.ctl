competition_type = 'playoff'
description = """Seed 001's Experiment 3, rollout variants at equal time: pig-mcts in each chance mode
against Hold20, every mode given 0.04 s of search a decision (wall clock) instead of 500 simulations,
which is about what hidden mode's 500 simulations cost (12,000-14,000 simulations a second with these
rollouts; reports/pig_experiment3.md, "Speed"). Otherwise as pig_experiment3.ctl: Pig to 50, at most
200 turns; PUCT (c_puct 2.0) with priors of 0.8 on the choice of 'keep pace and end race' (the
searcher) or Hold20 (the other), leaves valued by rollouts played the same way (race:hold20), a
chance node's prior by 8 rollouts. Run it with -j no larger than the free cores: the time is wall
clock, so a busy machine gives every mode fewer simulations."""

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120
reuse_engines = True


def mcts(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--rollouts', 'race:hold20', '--prior', 'race:hold20', '--prior-weight', '0.8',
                   '--prior-rollouts', '8', '--seconds', '0.04', '--c', '2.0'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: mcts(mode) for mode in MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
