"""Resume after the ringmaster is killed: every finished game counted once, records and state agree."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from fake_commands import fake_engine_command
from sgfmill import sgf

from ringmaster.persistence import reconcile_history

GAMES = 12

CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
matchups = [Matchup('p', 'q', alternating=True, number_of_games={games})]
"""


def _default_sigint() -> None:
    # A shell without job control starts background commands with SIGINT ignored,
    # and Python then never raises KeyboardInterrupt: give the run a terminal's default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_run(ctl: str, *options: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q", *options],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)


def check_consistent(ctl: str, games: int) -> None:
    base = ctl[:-4]
    state = json.load(open(base + ".status"))
    results = state["competition"]["results"]["0"]
    ids = [r["game_id"] for r in results]
    assert len(ids) == len(set(ids)) == games
    history = open(base + ".hist").read().splitlines()
    assert sorted(line.split()[0] for line in history) == sorted(ids)
    assert sorted(os.listdir(base + ".games")) == sorted(f"{i}.sgf" for i in ids)
    for r in results:
        with open(f"{base}.games/{r['game_id']}.sgf", "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        assert game.get_root().get("RE") == r["sgf_result"]
    assert not [n for n in os.listdir(base + ".games") if n.startswith(".tmp")]


@pytest.mark.parametrize("parallel", [[], ["-j", "2"]])
def test_kill_9_of_the_whole_group_at_random_moments(write_ctl, parallel):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=GAMES))
    rng = random.Random(20261122)
    for _ in range(4):
        proc = start_run(ctl, *parallel)
        time.sleep(rng.uniform(0.4, 2.0))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    proc = start_run(ctl, *parallel)
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    check_consistent(ctl, GAMES)


def test_ctrl_c_interrupts_and_the_next_run_finishes(write_ctl):
    # Engines that think 20 ms a move, so that games are still in progress at the interrupt.
    slow = ("--move-delay", "0.02")
    ctl = write_ctl(CTL.format(p=fake_engine_command(*slow), q=fake_engine_command(*slow),
                               games=30))
    proc = start_run(ctl, "-j", "2")
    time.sleep(1.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert b"Traceback" not in stderr
    assert "games in progress were" in open(ctl[:-4] + ".log").read()
    proc = start_run(ctl, "-j", "2")
    proc.communicate(timeout=120)
    assert proc.returncode == 0
    check_consistent(ctl, 30)


def test_history_reconciliation(tmp_path):
    path = tmp_path / "h.hist"
    path.write_text("a\nb\nc-partial")
    assert reconcile_history(str(path), 4, "b\n") is None     # a line past the state: cut
    assert path.read_text() == "a\nb\n"
    path.write_text("a\n")
    assert reconcile_history(str(path), 4, "b\n") is None     # the last append lost: redone
    assert path.read_text() == "a\nb\n"
    path.write_text("")
    assert "shorter than the state expects" in reconcile_history(str(path), 4, "b\n")
