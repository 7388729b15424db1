competition_type = 'playoff'

description = """
Our fast Go engine capturing what the opponent left in atari in its heavy
playouts (--capture-left: when nothing answers the last move, a capture of
a group in atari beside the mover's own last move), head to head against
itself without it, both with ladder reading (the default) and the clock
budget (--time-manage), on 9x9, komi 7.5, area scoring, alternating
colours, both at 'absolute 20' (the ringmaster's clock: 20 s each for the
whole game); stopped by an SPRT of H0 'at most +0 Elo' against H1 'at least
+100 Elo' (alpha = beta = 0.05), or at 80 games. reports/mcts_vs_pachi.md
says what it found; run it from this folder:
    ringmaster run left_vs_base.ctl -j 2
"""


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--time-extend', '0',
                   '--no-time-early',
                   '--engine', 'fast', '--policy', 'heavy',
                   '--playouts', '100000000', '--threads', '1', '--time-manage', '--ladders',
                   *options],
                  discard_stderr=True)


players = {
    'mcts-left': mcts('--capture-left'),
    'mcts-ladders': mcts(),
}

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 20'

sprt = {'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}

matchups = [
    Matchup('mcts-left', 'mcts-ladders', alternating=True, number_of_games=80),
]
