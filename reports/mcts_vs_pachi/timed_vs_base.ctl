competition_type = 'playoff'

description = """
Our fast Go engine with its time management, all of it (--time-manage
--time-extend 2 --time-early) and the clock budget alone (--time-manage),
each head to head against itself without it (the base), on 9x9, komi 7.5,
area scoring, alternating colours, both at 'absolute 20' (the ringmaster's
clock: 20 s each for the whole game); each matchup stopped by an SPRT of H0
'at most +0 Elo' against H1 'at least +100 Elo' (alpha = beta = 0.05), or at
60 games, or by hand when the session's time ran out (the matchups are kept
level). reports/mcts_vs_pachi.md says what it
found; run it from this folder:
    ringmaster run timed_vs_base.ctl -j 1
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', *options],
                  discard_stderr=True)


players = {
    'mcts-timed': mcts('--time-manage', '--time-extend', '2', '--time-early'),
    'mcts-manage': mcts('--time-manage'),
    'mcts-base': mcts(),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

sprt = {'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}

matchups = [
    Matchup('mcts-timed', 'mcts-base', alternating=True, number_of_games=60),
    Matchup('mcts-manage', 'mcts-base', alternating=True, number_of_games=60),
]
