competition_type = 'playoff'

description = """
Our MCTS engine (fast search: UCT with RAVE and priors, heavy playouts, one
thread) against GNU Go level 10 on 9x9, komi 7.5, alternating colours, area
scoring, both at 'absolute 60': a clock the ringmaster keeps, tells each engine
(kata-time_settings for ours, time_settings for GNU Go, time_left before each
move) and enforces. The playout limit is out of reach, so the clock alone
decides how long our engine thinks. Needs GNU Go in /usr/games (Debian's gnugo
package). reports/clock.md says how to run it and what it found:
    ringmaster run control_files/mcts_vs_gnugo_absolute60.ctl -j 1
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
                    '--policy', 'heavy', '--playouts', '100000000', '--threads', '1']),
    'gnugo-l10': Player([GNUGO, '--mode', 'gtp', '--level', '10', '--chinese-rules',
                         '--capture-all-dead']),
}

# Disputes over dead stones (our engines list none; GNU Go may list its own) go to a
# third GNU Go; without it such a game would have no result.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 60'

matchups = [
    Matchup('mcts', 'gnugo-l10', alternating=True, number_of_games=40),
]
