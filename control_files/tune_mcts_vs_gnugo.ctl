competition_type = 'mc_tuner'

description = """
Tune two settings of our rollout MCTS engine against GNU Go (level 0) on 9x9:
the exploration constant (log scale, 8 values) and the playout policy (light or
heavy): a grid of 16 candidates. (A depth-2 tree would split only c again:
the policy's two values are used up at the first level.) Needs GNU Go in
/usr/games (Debian's gnugo package).
    ringmaster run control_files/tune_mcts_vs_gnugo.ctl -j 8
At even strength GNU Go wins nearly every game against 800 playouts, so the
candidates take black with a negative komi (a handicap would do as well: our
engine answers the handicap commands): adjust komi until a typical candidate wins 30-70% of its games
(and set initial_wins / initial_visits near that rate), or the tuner has
nothing to tell apart.
"""

GNUGO = '/usr/games/gnugo'

players = {
    'gnugo-l0': Player([GNUGO, '--mode', 'gtp', '--chinese-rules', '--capture-all-dead',
                        '--level', '0']),
}

board_size = 9
komi = -10.5
scorer = 'players'

opponent = 'gnugo-l0'
candidate_colour = 'b'
number_of_games = 2000

parameters = [
    Parameter('c', scale=LOG(0.1, 4.0), split=8, format='c: %.2f'),
    Parameter('policy', scale=EXPLICIT(['light', 'heavy']), split=2, format='%s'),
]


def make_candidate(c, policy):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
                   '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
                   '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
                   '--no-time-early',
                   '--playouts', '800', '--c', repr(c),
                   '--policy', policy], discard_stderr=True)


exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
max_depth = 1
summary_spec = [8, 8]
log_tree_to_history_period = 100

stop_when_confident = 0.95
confirm_games = 100
