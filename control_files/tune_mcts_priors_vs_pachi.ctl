competition_type = 'spsa_tuner'

description = """
Tune the fast Go engine's new knowledge parameters with SPSA at a time
control (issue 35): the weight of its heuristic priors, the atari and
distance-to-the-last-move priors (off by default) and the RAVE schedule, on
9x9, komi 7.5, area scoring, 'absolute 10' for both sides (the ringmaster's
clock). Each perturbed candidate plays Pachi 12.90 (no DCNN, one thread, no
pondering) once, with the same colour (head_to_head = False), so the
gradient is measured against Pachi itself; a pair only moves theta when one
candidate wins and the other loses, so this needs a start that wins some
games (reports/mcts_vs_pachi.md); the answer then plays 100 confirmation
games against the start. Pachi is not installed by CI: build it from its
public source and give its binary in PACHI (default: pachi on the PATH;
Debian's pachi package is a platform game, not this engine); GNU Go in
/usr/games scores games whose dead stones the players dispute:
    PACHI=/path/to/pachi ringmaster run control_files/tune_mcts_priors_vs_pachi.ctl -j 1
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')
GNUGO = '/usr/games/gnugo'

# Disputes over dead stones (our engine lists none where the opponent may list some)
# go to a GNU Go referee; without it such a game has no result (2 of 60 in
# reports/mcts_vs_pachi.md, section 4).
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

players = {
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'

opponent = 'pachi'
candidate_colour = 'random'
head_to_head = False
number_of_games = 400
confirm_games = 100

parameters = [
    Parameter('prior_weight', scale=LOG(5, 80), start=20, format='prior-weight: %.1f'),
    Parameter('prior_atari', scale=LINEAR(0, 2), start=0, format='prior-atari: %.2f'),
    Parameter('prior_near', scale=LINEAR(0, 2), start=0, format='prior-near: %.2f'),
    Parameter('rave', scale=LOG(300, 30000), start=3000, format='rave: %.0f'),
]


def make_candidate(prior_weight, prior_atari, prior_near, rave):
    return Player([PYTHON, '-m', 'players', 'mcts', '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1',
                   '--prior-weight', repr(prior_weight), '--prior-atari', repr(prior_atari),
                   '--prior-near', repr(prior_near), '--rave', repr(rave)],
                  discard_stderr=True)
