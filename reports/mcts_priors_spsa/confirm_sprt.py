"""After the tuning event: write and run an SPRT playoff of the tuned priors against the untuned engine.

Usage (from this folder): python confirm_sprt.py -- reads the tuner's answer from
`ringmaster show tune_mcts_priors_vs_gnugo.ctl --json`, writes confirm_sprt.ctl (the answer
against the engine's defaults, same board and time control, colours alternating, an SPRT) and
tuned_vs_pachi.ctl (the answer against Pachi, run by hand with PACHI set), then runs the SPRT
(-j 1). Run it with the PYTHONPATH of the checkout whose ringmaster and engine it measures.
"""

from __future__ import annotations

import json
import subprocess
import sys

ENGINE = """

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


TUNED = ({options})
"""

COMMON = """
GNUGO = '/usr/games/gnugo'

# Disputes over dead stones (our engine lists none) go to a GNU Go referee.
referee = Player([GNUGO, '--mode', 'gtp', '--chinese-rules'])

board_size = 9
komi = 7.5
scorer = 'internal'
time_control = 'absolute 10'
"""

SPRT = """competition_type = 'playoff'

description = \"\"\"
SPRT of the spsa_tuner's answer (tune_mcts_priors_vs_gnugo.ctl: {parameters})
against our fast Go engine at its defaults (prior-weight 20, prior-atari 0,
prior-near 0, rave 3000), at the tuning's time control: 9x9, komi 7.5, area
scoring, 'absolute 10' for both sides, colours alternating; H0 'at most +0
Elo' against H1 'at least +100 Elo' (alpha = beta = 0.05), at most 400 games (200 at
first; raised to 400 after them with the bounds unchanged, reports/mcts_vs_pachi.md section 6).
reports/mcts_vs_pachi.md (section 6) says what it found; run it from this folder:
    ringmaster run confirm_sprt.ctl -j 1
\"\"\"
""" + ENGINE + COMMON + """
players = {{
    'mcts-tuned': mcts(*TUNED),
    'mcts-base': mcts(),
}}

matchups = [Matchup('mcts-tuned', 'mcts-base', alternating=True, number_of_games=400,
                    sprt={{'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}})]
"""

PACHI = """competition_type = 'playoff'

description = \"\"\"
The spsa_tuner's answer (tune_mcts_priors_vs_gnugo.ctl: {parameters}) against
Pachi 12.90 (no DCNN, one thread, no pondering) at 'absolute 10', as the base
engine played it in reports/mcts_vs_pachi/priors_vs_pachi.ctl: 9x9, komi 7.5,
area scoring, colours alternating. Pachi is not installed by CI: build it from
its public source and give its binary in PACHI (default: pachi on the PATH);
run it from this folder:
    PACHI=/path/to/pachi ringmaster run tuned_vs_pachi.ctl -j 1
\"\"\"

import os

PACHI = os.environ.get('PACHI', 'pachi')
""" + ENGINE + COMMON + """
players = {{
    'mcts-tuned': mcts(*TUNED),
    'pachi': Player([PACHI, 'threads=1,pondering=0'], discard_stderr=True),
}}

matchups = [Matchup('mcts-tuned', 'pachi', alternating=True, number_of_games=20)]
"""

OPTIONS = {"prior-weight": "--prior-weight", "prior-atari": "--prior-atari",
           "prior-near": "--prior-near", "rave": "--rave"}


def tuned_options(parameters: str) -> str:
    """'prior-weight: 20.0; ...; rave: 3000' -> "'--prior-weight', '20.0', ..." for the ctl."""
    values = dict(part.split(": ") for part in parameters.split("; "))
    return ", ".join(f"'{OPTIONS[name]}', '{value}'" for name, value in values.items()) + ","


def main() -> None:
    shown = subprocess.run([sys.executable, "-m", "ringmaster.cli", "show",
                            "tune_mcts_priors_vs_gnugo.ctl", "--json"],
                           capture_output=True, text=True, check=True)
    parameters = json.loads(shown.stdout)["recommended"]["parameters"]
    options = tuned_options(parameters)
    for name, text in (("confirm_sprt.ctl", SPRT), ("tuned_vs_pachi.ctl", PACHI)):
        with open(name, "w") as f:
            f.write(text.format(parameters=parameters, options=options))
    sys.exit(subprocess.call([sys.executable, "-m", "ringmaster.cli", "run", "confirm_sprt.ctl",
                              "-j", "1", "-q"]))


if __name__ == "__main__":
    main()
