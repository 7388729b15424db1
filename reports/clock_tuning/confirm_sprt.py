"""After the tuning event: write and run an SPRT playoff of the tuned --expand-after against the default.

Usage (from this folder): python confirm_sprt.py -- reads the tuner's recommendation from
`ringmaster show tune_mcts_expand_after.ctl --json`, writes confirm_sprt.ctl (the same
engine, board and time control, colours alternating) and runs it (-j 1).
"""

from __future__ import annotations

import json
import subprocess
import sys

CTL = """competition_type = 'playoff'

description = \"\"\"
SPRT of the spsa_tuner's answer (tune_mcts_expand_after.ctl: {parameters})
against our rollout MCTS engine at its default (--expand-after 2), at the same time
control: 7x7 Go, komi 8.5, 'fischer 2 0.05', colours alternating.
\"\"\"


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--playouts', '100000000', *options],
                  discard_stderr=True)


players = {{
    'tuned': mcts('--expand-after', '{expand_after}'),
    'default': mcts(),
}}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200
time_control = 'fischer 2 0.05'
reuse_engines = True

matchups = [Matchup('tuned', 'default', alternating=True, number_of_games=1000,
                    sprt={{'elo0': 0, 'elo1': 30, 'alpha': 0.05, 'beta': 0.05}})]
"""


def expand_after(parameters: str) -> str:
    """'expand_after: 5' -> '5': the value as the report shows it."""
    return dict(part.split(": ") for part in parameters.split("; "))["expand_after"]


def main() -> None:
    shown = subprocess.run(["ringmaster", "show", "tune_mcts_expand_after.ctl", "--json"],
                           capture_output=True, text=True, check=True)
    recommended = json.loads(shown.stdout)["recommended"]
    with open("confirm_sprt.ctl", "w") as f:
        f.write(CTL.format(parameters=recommended["parameters"],
                           expand_after=expand_after(recommended["parameters"])))
    sys.exit(subprocess.call(["ringmaster", "run", "confirm_sprt.ctl", "-j", "1", "-q"]))


if __name__ == "__main__":
    main()
