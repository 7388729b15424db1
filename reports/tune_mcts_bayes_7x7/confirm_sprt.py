"""After the tuning event: write and run an SPRT playoff of the tuned engine against the engine's defaults.

Usage (from this folder): python confirm_sprt.py  -- reads the tuner's recommendation from
`ringmaster show tune_mcts_bayes_7x7.ctl --json`, writes confirm_sprt.ctl and runs it (-j 1).
"""

from __future__ import annotations

import json
import subprocess
import sys

CTL = """competition_type = 'playoff'

description = \"\"\"
SPRT of the bayes_tuner's recommendation (tune_mcts_bayes_7x7.ctl: {parameters})
against our rollout MCTS engine at its defaults (--c 0.2 --rave 3000), 7x7 Go,
100 playouts a move, colours alternating.
\"\"\"

PLAYOUTS = 100


def mcts(*options):
    return Player([PYTHON, '-m', 'players', 'mcts',
                   # the engine's defaults when this ran (since tuned: reports/mcts_vs_pachi.md)
                   '--c', '0.2', '--rave', '3000', '--prior-weight', '20',
                   '--prior-atari', '0', '--prior-even', '10', '--prior-pattern', '0.5',
                   '--prior-edge', '1', '--prior-shape', '0', '--prior-near', '0', '--no-time-manage',
                   '--time-extend', '0', '--no-time-early',
                   '--playouts', str(PLAYOUTS), *options],
                  discard_stderr=True)


players = {{
    'tuned': mcts('--c', {c}, '--rave', {rave}),
    'default': mcts(),
}}

board_size = 7
komi = 8.5
scorer = 'internal'
move_limit = 200
reuse_engines = True

matchups = [Matchup('tuned', 'default', alternating=True, number_of_games=1000,
                    sprt={{'elo0': 0, 'elo1': 30, 'alpha': 0.05, 'beta': 0.05}})]
"""


def main() -> None:
    shown = subprocess.run(["ringmaster", "show", "tune_mcts_bayes_7x7.ctl", "--json"],
                           capture_output=True, text=True, check=True)
    recommended = json.loads(shown.stdout)["recommended"]
    c, rave = _engine(recommended["parameters"])
    with open("confirm_sprt.ctl", "w") as f:
        f.write(CTL.format(parameters=recommended["parameters"], c=repr(c), rave=repr(rave)))
    sys.exit(subprocess.call(["ringmaster", "run", "confirm_sprt.ctl", "-j", "1", "-q"]))


def _engine(text: str) -> tuple[str, str]:
    """'c: 0.147; rave: 3219' -> ('0.147', '3219'): the values as the report shows them (rounded)."""
    values = dict(part.split(": ") for part in text.split("; "))
    return values["c"], values["rave"]


if __name__ == "__main__":
    main()
