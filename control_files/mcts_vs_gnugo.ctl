competition_type = 'playoff'

description = """
Our MCTS engine (fast search: UCT with RAVE and priors, heavy playouts,
at most 4.5 seconds a move, one thread) against GNU Go level 10 on 9x9,
komi 7.5, alternating colours, area scoring. Needs GNU Go in /usr/games
(Debian's gnugo package). The goal is 100 games; reports/mcts_vs_gnugo.md
says how many were played and with which command:
    ringmaster run control_files/mcts_vs_gnugo.ctl -j 1
"""

GNUGO = '/usr/games/gnugo'

players = {
    'mcts': Player([PYTHON, '-m', 'players', 'mcts',
                    # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                    '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                    '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                    '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                    '--time-extend', '0', '--no-time-early',
                    '--engine', 'fast',
                    '--policy', 'heavy', '--seconds', '4.5', '--playouts', '200000',
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
    Matchup('mcts', 'gnugo-l10', alternating=True, number_of_games=100),
]
