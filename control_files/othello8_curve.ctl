competition_type = 'playoff'

description = """
Othello 8x8, the training curve: checkpoints of the run in runs/othello8 (python -m players
train --game othello8 --run-dir runs/othello8 ...) after 0 and 30 minutes and every hour of
its training, each against GRhino levels 1 and 3 and our rollout UCT at 400 playouts (a rung
between random play and GRhino), 10 games per pairing, alternating colours; the UCT engine
also plays GRhino, so that the joint ratings put everyone on one scale. The network searches a fixed 200 playouts
a move, so that the machine's load doesn't move the curve. New checkpoints join as the run
goes on; run it again to play their games:
    nice -n 10 ringmaster run control_files/othello8_curve.ctl -q
The committed network (players/models/othello8.pt) plays as 'final', with or without that run
directory.
"""

import json
import os

HERE = os.path.dirname(__file__)
MODELS = os.path.join(HERE, '..', 'players', 'models')
RUN = os.path.join(HERE, '..', 'runs', 'othello8')
GRHINO = '/usr/games/gtp-rhino'


def az(model):
    return Player([PYTHON, '-m', 'players', 'alphazero', '--model', model, '--device', 'cpu',
                   '--threads', '1', '--playouts', '200', '--batch', '8', '--sample-plies', '4'])


def checkpoints_by_training_time(run):
    """{'min030': path, ...}: the last checkpoint written by 30 minutes, 1 hour, 2 hours... of training."""
    with open(os.path.join(run, 'metrics.json')) as f:
        rows = json.load(f)
    found = {'min000': os.path.join(run, 'checkpoints', 'iter_0000.pt')}
    minutes = 30
    while rows and minutes * 60 <= rows[-1]['elapsed_s']:
        done = [r['iteration'] for r in rows if r['elapsed_s'] <= minutes * 60] or [0]
        found[f'min{minutes:03d}'] = os.path.join(run, 'checkpoints', f'iter_{done[-1]:04d}.pt')
        minutes += 30 if minutes < 60 else 60
    return found


networks = {}
if os.path.exists(os.path.join(RUN, 'metrics.json')):
    networks = checkpoints_by_training_time(RUN)
# The committed network (the run's iteration 81, after 2 h 12 min), the one the goal match plays.
networks['final'] = os.path.join(MODELS, 'othello8.pt')

players = {code: az(path) for code, path in networks.items()}
players['rhino1'] = Player(GRHINO + ' --level 1')
players['rhino3'] = Player(GRHINO + ' --level 3')
players['mcts400'] = Player([PYTHON, '-m', 'players', 'othello-mcts', '--playouts', '400'])
OPPONENTS = ('rhino1', 'rhino3', 'mcts400')

game = 'othello'
board_size = 8
komi = 0
scorer = 'internal'

# Ids name the pairing, so that checkpoints joining later leave the earlier results in place.
matchups = [Matchup('mcts400', rhino, id=f'mcts400-{rhino}', alternating=True, number_of_games=10)
            for rhino in ('rhino1', 'rhino3')]
matchups += [Matchup(code, opponent, id=f'{code}-{opponent}', alternating=True, number_of_games=10)
             for code in networks for opponent in OPPONENTS]
