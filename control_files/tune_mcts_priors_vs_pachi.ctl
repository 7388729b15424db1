competition_type = 'spsa_tuner'

description = """
Tune our fast Go engine's search against Pachi with SPSA at the clock it is
measured at (issue 35): the UCT exploration constant, the RAVE schedule, the
weight of the heuristic priors and the atari prior (off by default), on 9x9,
komi 7.5, area scoring, 'absolute 20' for both sides. Every candidate is the
best engine of reports/mcts_vs_pachi.md section 9 (ladder reading, the
default, and --time-manage --time-extend 2 --time-early), which scores about
20% against Pachi here. Each perturbed candidate plays Pachi 12.90 (no DCNN,
one thread, no pondering) once, with the same colour (head_to_head = False),
so the gradient is measured against Pachi itself; a pair only moves theta
when one candidate wins and the other loses. The answer is confirmed by an
SPRT against the untuned engine (reports/mcts_pachi_spsa/). Pachi is not
installed by CI: build it from its public source and give its binary in
PACHI (default: pachi on the PATH; Debian's pachi package is a platform
game, not this engine); GNU Go in /usr/games scores games whose dead stones
the players dispute:
    PACHI=/path/to/pachi ringmaster run control_files/tune_mcts_priors_vs_pachi.ctl -j 2
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')
GNUGO = '/usr/games/gnugo'

# Our engine lists no dead stones; a GNU Go referee settles the games whose lists
# differ (without it such a game has no result: reports/mcts_vs_pachi.md, section 4).
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

players = {
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True,
                    missing_hint="set PACHI to the path of Pachi's binary, built from its "
                                 "public source, or put pachi on PATH"),
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
    Parameter('c', scale=LOG(0.05, 0.8), start=0.2, format='c: %.3f'),
    Parameter('rave', scale=LOG(300, 30000), start=3000, format='rave: %.0f'),
    Parameter('prior_weight', scale=LOG(5, 80), start=20, format='prior-weight: %.1f'),
    Parameter('prior_atari', scale=LINEAR(0, 2), start=0, format='prior-atari: %.2f'),
]


def make_candidate(c, rave, prior_weight, prior_atari):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
                   '--prior-shape', '0', '--prior-near', '0',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1',
                   '--time-manage', '--time-extend', '2', '--time-early',
                   '--c', repr(c), '--rave', repr(rave),
                   '--prior-weight', repr(prior_weight), '--prior-atari', repr(prior_atari)],
                  discard_stderr=True)
