"""Root parallelism: independent searches of one position merged at the root."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import players
from players.mcts.parallel import merge_results
from players.mcts.policies import SearchResult


def test_merge_results_adds_visits_and_weights_values():
    a = SearchResult(np.array([3.0, 1.0, 0.0]), np.array([0.5, -1.0, 0.0]), 0.2, 0, 4)
    b = SearchResult(np.array([1.0, 5.0, 0.0]), np.array([-0.5, 0.2, 0.0]), 0.0, 1, 6)
    merged = merge_results([a, b])
    assert merged.visit_counts.tolist() == [4.0, 6.0, 0.0]
    assert merged.q_values == pytest.approx([0.25, (-1.0 + 1.0) / 6, 0.0])
    assert merged.best_action == 1
    assert merged.simulations == 10
    assert merged.root_value == pytest.approx(0.08)
    with pytest.raises(ValueError):
        merge_results([])


# Each way the workers die with their parent, alone

POOL_SCRIPT = '''
import os, sys, threading, time
from players.mcts import parallel

def start(way):
    parallel._parent_death_signal(0)          # no parent-death signal: only `way` is left
    if way == "poll":                          # as where prctl can't be had
        parallel._parent_death_signal = lambda signum: False
        parallel._die_with_parent(os.getppid())

def search(seconds):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        pass
    return os.getpid()

if __name__ == "__main__":
    pool = parallel.RootParallel(2, start, (sys.argv[1],))
    pool.run(search, [(1.0,), (1.0,)])
    print("ready", flush=True)
    pool.run(search, [(600.0,), (600.0,)])
'''


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.isdigit() and int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.integration
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("way, signum", [("sigterm", signal.SIGTERM), ("poll", signal.SIGKILL)],
                         ids=["sigterm-stops-the-pool", "workers-poll-their-parent"])
def test_workers_die_with_their_parent_by_each_way_alone(tmp_path, way, signum):
    """With the parent-death signal off: the parent's SIGTERM handler stops its workers; and
    workers that watch os.getppid() (where prctl isn't there) end when the parent is killed."""
    script = tmp_path / "pool.py"
    script.write_text(POOL_SCRIPT)
    root = str(Path(players.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, str(script), way], stdout=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    workers: list[int] = []
    try:
        assert proc.stdout.readline().strip() == "ready"
        workers = [pid for pid in _children(proc.pid)
                   if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        assert len(workers) == 2
        os.kill(proc.pid, signum)
        proc.wait(timeout=30)
        until = time.monotonic() + 5
        while time.monotonic() < until and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
    finally:
        for pid in [proc.pid, *workers]:
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=30)
