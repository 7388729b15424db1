competition_type = 'playoff'

description = """
The best engine of reports/mcts_vs_pachi.md section 9 (ladder reading, the
default, and --time-manage --time-extend 2 --time-early) with the answer of
the SPSA run against Pachi (tune_best_vs_pachi.ctl: --c 0.058 --rave 1007
--prior-weight 47.1 --prior-atari 0.065), which beat the untuned engine head
to head (confirm_sprt.ctl), against Pachi 12.90 (no DCNN, one thread, no
pondering) on 9x9, komi 7.5, area scoring, alternating colours, both at
'absolute 20' (best20_vs_pachi.ctl in reports/mcts_vs_pachi is the untuned
engine at the same clock). Pachi is not installed by CI: build it from its
public source and give its binary in PACHI (default: pachi on the PATH;
Debian's pachi package is a platform game, not this engine); GNU Go
(Debian's gnugo) is the referee for dead stones. reports/mcts_vs_pachi.md
(section 10) says what it found; run it from this folder:
    PACHI=/path/to/pachi ringmaster run tuned20_vs_pachi.ctl -j 2
"""

import os

PACHI = os.environ.get('PACHI', 'pachi')


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
    'mcts-tuned': mcts('--time-manage', '--time-extend', '2', '--time-early',
                       '--c', '0.05798', '--rave', '1007', '--prior-weight', '47.06',
                       '--prior-atari', '0.06499'),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

board_size = 9
komi = 7.5
scorer = 'internal'
# Our engine lists no dead stones: GNU Go settles the games whose lists differ.
referee = Player('/usr/games/gnugo --mode gtp --chinese-rules')
time_control = 'absolute 20'

matchups = [
    Matchup('mcts-tuned', 'pachi', alternating=True, number_of_games=60),
]
