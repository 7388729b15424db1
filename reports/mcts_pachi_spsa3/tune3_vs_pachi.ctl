competition_type = 'spsa_tuner'

description = """
The third SPSA run against Pachi (issue 35, reports/mcts_vs_pachi.md section
12), at 'absolute 60', the clock where the 50% goal is measured and where Pachi
plays its normal strength: the first two runs tuned at 'absolute 20', where
Pachi thinks 0.26 s a move against 1.04 s at 'absolute 60'. It starts from the
second run's answer (reports/mcts_pachi_spsa2/tune2_vs_pachi.ctl, the engine's
defaults since d0f9fe4) and adds --time-max, the most a move extended by
--time-extend may take, in budgets (the engine left 12.6 s of its 60 unspent
on average in round2_60_vs_pachi.ctl). 9x9, komi 7.5, area scoring; each
perturbed candidate plays Pachi 12.90 (no DCNN, one thread, no pondering)
once. Build Pachi from its public source and give its binary in PACHI
(default: pachi on the PATH):
    PACHI=/path/to/pachi ringmaster run tune3_vs_pachi.ctl -j 2   (from reports/mcts_pachi_spsa3)
It was stopped after 99 of its 300 games (ringmaster stop) when the learnt
shape prior went to its SPRT, which it won; it resumes where it stopped, with
the engine it ran (--prior-shape 0, the default then, named below).
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
time_control = 'absolute 60'

opponent = 'pachi'
candidate_colour = 'random'
head_to_head = False
number_of_games = 300
confirm_games = 0

parameters = [
    Parameter('c', scale=LOG(0.005, 0.3), start=0.0334, format='c: %.4f'),
    Parameter('rave', scale=LOG(100, 10000), start=591.2, format='rave: %.0f'),
    Parameter('prior_weight', scale=LOG(10, 250), start=27.79, format='prior-weight: %.1f'),
    Parameter('prior_even', scale=LOG(2, 50), start=14.41, format='prior-even: %.1f'),
    Parameter('prior_pattern', scale=LINEAR(0, 2), start=0.8104, format='prior-pattern: %.2f'),
    Parameter('prior_edge', scale=LINEAR(0, 3), start=1.215, format='prior-edge: %.2f'),
    Parameter('prior_near', scale=LINEAR(0, 2), start=1.165, format='prior-near: %.2f'),
    Parameter('time_max', scale=LOG(1, 4), start=2.0, format='time-max: %.2f'),
]


def make_candidate(c, rave, prior_weight, prior_even, prior_pattern, prior_edge, prior_near,
                   time_max):
    return Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', '--ladders',
                   '--time-manage', '--time-extend', '2', '--time-early',
                   '--prior-atari', '0.065',
                   '--c', repr(c), '--rave', repr(rave),
                   '--prior-weight', repr(prior_weight), '--prior-even', repr(prior_even),
                   '--prior-pattern', repr(prior_pattern), '--prior-edge', repr(prior_edge),
                   '--prior-near', repr(prior_near), '--time-max', repr(time_max),
                   '--prior-shape', '0'],
                  discard_stderr=True)
