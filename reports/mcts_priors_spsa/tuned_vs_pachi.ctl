competition_type = 'playoff'

description = """
The spsa_tuner's answer (tune_mcts_priors_vs_gnugo.ctl: prior-weight: 19.4; prior-atari: 0.51; prior-near: 0.16; rave: 1564) against
Pachi 12.90 (no DCNN, one thread, no pondering) at 'absolute 10', as the base
engine played it in reports/mcts_vs_pachi/priors_vs_pachi.ctl: 9x9, komi 7.5,
area scoring, colours alternating. Pachi is not installed by CI: build it from
its public source and give its binary in PACHI (default: pachi on the PATH);
run it from this folder:
    PACHI=/path/to/pachi ringmaster run tuned_vs_pachi.ctl -j 1
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


TUNED = ('--prior-weight', '19.4', '--prior-atari', '0.51', '--prior-shape', '0', '--prior-near', '0.16', '--rave', '1564',)

GNUGO = '/usr/games/gnugo'

# Disputes over dead stones (our engine lists none) go to a GNU Go referee.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'

players = {
    'mcts-tuned': mcts(*TUNED),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}

matchups = [Matchup('mcts-tuned', 'pachi', alternating=True, number_of_games=20)]
