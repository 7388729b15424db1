competition_type = 'spsa_tuner'

description = """
Tune the fast Go engine's new knowledge parameters with SPSA at a time
control (issue 35): the weight of its heuristic priors, the atari and
distance-to-the-last-move priors (off by default) and the RAVE schedule, on
9x9, komi 7.5, area scoring, 'absolute 10' for both sides (the ringmaster's
clock). Each perturbed candidate plays GNU Go level 10 once, with the same
colour (head_to_head = False), so the gradient is measured against GNU Go;
then the answer plays 100 confirmation games against the start (the untuned
engine), colours alternating. Needs GNU Go in
/usr/games (Debian's gnugo package):
    ringmaster run control_files/tune_mcts_priors_vs_gnugo.ctl -j 1
"""

GNUGO = '/usr/games/gnugo'

# Disputes over dead stones (our engine lists none where the opponent may list some)
# go to a GNU Go referee; without it such a game has no result (2 of 60 in
# reports/mcts_vs_pachi.md, section 4).
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

players = {
    'gnugo-l10': Player([GNUGO, '--mode', 'gtp', '--level', '10', '--chinese-rules',
                         '--capture-all-dead']),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'

opponent = 'gnugo-l10'
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
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--no-time-manage', '--time-extend', '0',
                   '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1',
                   '--prior-weight', repr(prior_weight), '--prior-atari', repr(prior_atari),
                   '--prior-shape', '0', '--prior-near', repr(prior_near), '--rave', repr(rave)],
                  discard_stderr=True)
