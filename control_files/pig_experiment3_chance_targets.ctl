competition_type = 'playoff'
description = """Seed 001's Experiment 3, network variants trained with the chance-state targets:
pig-mcts in each chance mode, with the network trained in that mode, against Hold20. Pig to 50,
at most 200 turns; 50 simulations per decision for every mode (the seed's 50 MCTS iterations);
PUCT with the seed's arena settings; chance states valued by the network itself. Each network is
the seed's MLP (width 64, depth 4) after 40 minutes of self-play and training in its own mode, all
four at once on the same machine, with the seed's settings (200 games an iteration, 50
simulations a move, batch 16, cyclic Nesterov 1e-3 to 1e-2, L2 1e-4, buffer 100,000) and
self-play recording chance states as value targets; the command is in reports/pig_experiment3.md.
Engines are kept between games."""

import os

# The committed networks, wherever the ringmaster is run from.
MODELS = os.path.join(os.path.dirname(__file__), '..', 'players', 'models')

game = 'pig'
pig_target = 50
pig_max_turns = 200
timeout = 120
reuse_engines = True


def network(mode):
    return Player([PYTHON, '-m', 'players', 'pig-mcts', '--chance-mode', mode,
                   '--model', os.path.join(MODELS, f'pig50_{mode}_40min.pt'), '--playouts', '50'])


MODES = ['hidden', 'sampling', 'progressive', 'expectimax']
players = {'hold20': Player([PYTHON, '-m', 'players', 'pig-hold', '--hold-at', '20'])}
players.update({mode: network(mode) for mode in MODES})
matchups = [Matchup(mode, 'hold20', id=mode, alternating=True, number_of_games=1200)
            for mode in MODES]
