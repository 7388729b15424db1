competition_type = 'mc_tuner'

description = """
The first thing to run: a small tuning event. It tunes the UCT exploration
constant c of our MCTS engine (300 light playouts a move) on 9x9 Go, komi 7.5,
against the same engine with c = 0.2 (with the search's other numbers, the
engine's defaults before they were tuned against Pachi in reports/mcts_vs_pachi.md),
over five values of c from 0.016 to 0.63 on a log scale. About two minutes at -j 2 on two cores:
    ringmaster run control_files/tune.ctl -j 2
The report (tune.report, tune.html) says whether these games settle which c is
best, and what would (a longer run: number_of_games, or run again after raising it).
"""


def mcts(c):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--rave', '3000', '--prior-weight', '20', '--prior-atari', '0',
                   '--prior-even', '10', '--prior-pattern', '0.5', '--prior-edge', '1',
                   '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
                   '--no-time-early',
                   '--playouts', '300', '--policy', 'light',
                   '--c', repr(c)], discard_stderr=True)


players = {
    'mcts-c0.2': mcts(0.2),
}

board_size = 9
komi = 7.5
scorer = 'internal'
move_limit = 250
reuse_engines = True

opponent = 'mcts-c0.2'
candidate_colour = 'random'
number_of_games = 120

parameters = [
    Parameter('c', scale=LOG(0.01, 1.0), split=5, format='c: %.3f'),
]


def make_candidate(c):
    return mcts(c)


exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
summary_spec = [5]
