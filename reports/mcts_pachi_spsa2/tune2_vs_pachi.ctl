competition_type = 'spsa_tuner'

description = """
The second SPSA run against Pachi (issue 35, reports/mcts_vs_pachi.md section
11): it starts from the first run's answer (--c 0.058 --rave 1007
--prior-weight 47.1 --prior-atari 0.065, reports/mcts_pachi_spsa/), widens
--c's range below that run's floor, and adds the even prior and three prior
factors left at their hand-set values: the 3x3 shape prior, the first-line
penalty and the distance to the last move. 9x9, komi 7.5, area scoring,
'absolute 20' for both sides; each perturbed candidate plays Pachi 12.90 (no
DCNN, one thread, no pondering) once, with the same colour. Build Pachi from
its public source and give its binary in PACHI (default: pachi on the PATH):
    PACHI=/path/to/pachi ringmaster run tune2_vs_pachi.ctl -j 2   (from reports/mcts_pachi_spsa2)
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')
GNUGO = '/usr/games/gnugo'

# Our engine lists no dead stones; GNU Go settles the games whose lists differ.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

players = {
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

opponent = 'pachi'
candidate_colour = 'random'
head_to_head = False
number_of_games = 300
confirm_games = 0

parameters = [
    Parameter('c', scale=LOG(0.005, 0.3), start=0.058, format='c: %.4f'),
    Parameter('rave', scale=LOG(100, 10000), start=1007, format='rave: %.0f'),
    Parameter('prior_weight', scale=LOG(10, 250), start=47.1, format='prior-weight: %.1f'),
    Parameter('prior_even', scale=LOG(2, 50), start=10, format='prior-even: %.1f'),
    Parameter('prior_pattern', scale=LINEAR(0, 2), start=0.5, format='prior-pattern: %.2f'),
    Parameter('prior_edge', scale=LINEAR(0, 3), start=1, format='prior-edge: %.2f'),
    Parameter('prior_near', scale=LINEAR(0, 2), start=0, format='prior-near: %.2f'),
]


def make_candidate(c, rave, prior_weight, prior_even, prior_pattern, prior_edge, prior_near):
    return Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1',
                   '--time-manage', '--time-extend', '2', '--time-early',
                   '--prior-atari', '0.065',
                   '--c', repr(c), '--rave', repr(rave),
                   '--prior-weight', repr(prior_weight), '--prior-even', repr(prior_even),
                   '--prior-pattern', repr(prior_pattern), '--prior-edge', repr(prior_edge),
                   '--prior-shape', '0', '--prior-near', repr(prior_near)],
                  discard_stderr=True)
