competition_type = 'playoff'

description = """
Playout quality: our MCTS engine with LIGHT playouts (random moves that
never fill their own eyes; no captures, atari escapes or patterns), otherwise
as in mcts_vs_gnugo.ctl (fast search, 4.5 seconds a move, one thread),
against GNU Go level 10 on 9x9, komi 7.5, alternating colours. Compare with
mcts_vs_gnugo.ctl, which uses heavy playouts. Needs GNU Go in /usr/games.
    ringmaster run control_files/mcts_light_vs_gnugo.ctl -j 2
"""

GNUGO = '/usr/games/gnugo'

players = {
    'mcts-light': Player([PYTHON, '-m', 'players', 'mcts',
                          # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                          '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                          '--prior-atari', '0', '--prior-even', '10',
                          '--prior-pattern', '0.5', '--prior-edge', '1',
                          '--prior-shape', '0', '--prior-near', '0', '--no-time-manage', '--time-extend', '0',
                          '--no-time-early',
                          '--engine', 'fast',
                          '--policy', 'light', '--seconds', '4.5', '--playouts', '400000',
                          '--threads', '1'], timeout=60),
    'gnugo-l10': Player([GNUGO, '--mode', 'gtp', '--level', '10', '--chinese-rules',
                         '--capture-all-dead'], timeout=60),
}

# Disputes over dead stones (our engines list none; GNU Go may list its own) go to a
# third GNU Go; without it such a game would have no result.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

board_size = 9
komi = 7.5
scorer = 'internal'

matchups = [
    Matchup('mcts-light', 'gnugo-l10', alternating=True, number_of_games=20),
]
