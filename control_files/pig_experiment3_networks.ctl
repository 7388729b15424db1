competition_type = 'playoff'
description = """Seed 001's Experiment 3, network variants: pig-mcts in each chance mode, with the network
trained in that mode, against Hold20. Pig to 50, at most 200 turns; 50 simulations per decision
for every mode (the seed's 50 MCTS iterations); PUCT with the seed's arena settings. Each network is the seed's MLP (width 64,
depth 4) after 6 iterations of self-play in its own mode (600 games, 50 simulations a move; the
training command is in reports/pig_experiment3.md). The chance modes also play with their chance
states valued through the outcomes (--afterstate-values). Engines are kept between games."""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120
reuse_engines = True


def network(mode, *options):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--model', os.path.join(MODELS, f'pig50_{mode}_iter6.pt'), '--playouts', '50',
                   *options])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: network(mode) for mode in MODES})
# The chance modes again, their chance states valued through the six outcomes' values
# (--afterstate-values) instead of by the network, which was trained on decision states
# only. Added during the run, after 981 games of the first four matchups.
CHANCE_MODES = ['sampling', 'progressive', 'expectimax']
players.update({f'{mode}_as': network(mode, '--afterstate-values') for mode in CHANCE_MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
matchups += [Matchup(f'{mode}_as', 'hold20', id=f'{mode}_as', alternating=True, number_of_games=1200)
             for mode in CHANCE_MODES]
