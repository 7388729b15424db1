"""The subreaper: orphans an engine leaves are killed and reaped; shared services are left to end."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from ringmaster.gtp.launch import SHARED_SERVICE_VARIABLE
from ringmaster.reaper import (
    child_pids,
    has_children,
    kill_orphans,
    listed_children,
    new_service_token,
    reaping,
    spare,
    unspare,
)
from tests.conftest import processes_mentioning

# A parent that starts a grandchild in a new session (keeping nothing of ours), prints its
# pid and exits at once: the grandchild is orphaned, as an engine's escaped child is.
ORPHANER = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", sys.argv[1]],
                         start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=dict(__import__('os').environ, **EXTRA))
print(child.pid, flush=True)
"""


def orphan(marker: str, shared: str | None = None) -> int:
    """An orphan's pid; shared: the value of its SHARED_SERVICE_VARIABLE, if any."""
    extra = {SHARED_SERVICE_VARIABLE: shared} if shared is not None else {}
    script = ORPHANER.replace("EXTRA", repr(extra))
    output = subprocess.run([sys.executable, "-c", script, marker], capture_output=True,
                            text=True, check=True).stdout
    return int(output)


def wait_until_ours(pid: int) -> None:
    deadline = time.monotonic() + 20
    while pid not in child_pids(os.getpid()):
        assert time.monotonic() < deadline, "the orphan was never re-parented to us"
        time.sleep(0.01)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.mark.integration
def test_orphans_are_killed_and_shared_services_spared(no_leftover_processes):
    ours = set(child_pids(os.getpid()))   # what other tests left us: not for us to kill
    with reaping(lambda: ours) as active:
        if not active:
            pytest.skip("this system has no PR_SET_CHILD_SUBREAPER")
        token = new_service_token()
        stray = orphan(no_leftover_processes)
        service = orphan(no_leftover_processes, shared=token)
        # An engine can't exempt a process of its own: the old "1", or any value but a token.
        forged = [orphan(no_leftover_processes, shared=value) for value in ("1", "x" + token[1:])]
        for pid in [stray, service, *forged]:
            wait_until_ours(pid)
        killed = kill_orphans(keep=ours)
        assert sorted(killed) == sorted([stray, *forged])
        assert not alive(stray) and alive(service) and not any(alive(pid) for pid in forged)
        os.kill(service, 9)   # it would end by itself; ours now, so we reap it
        os.waitpid(service, 0)


@pytest.mark.integration
def test_leaving_reaping_kills_what_is_left(no_leftover_processes):
    ours = set(child_pids(os.getpid()))
    with reaping(lambda: ours) as active:
        if not active:
            pytest.skip("this system has no PR_SET_CHILD_SUBREAPER")
        stray = orphan(no_leftover_processes)
        wait_until_ours(stray)
    assert not alive(stray)


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])


@pytest.mark.integration
def test_the_children_lists_name_what_a_scan_of_proc_finds():
    children = [sleeper(), sleeper()]
    try:
        listed = listed_children()
        if listed is None:
            pytest.skip("this kernel has no /proc/self/task/*/children")
        assert {child.pid for child in children} <= listed
        assert listed == set(child_pids(os.getpid()))
    finally:
        for child in children:
            child.kill()
            child.wait()


@pytest.mark.integration
def test_an_orphan_is_killed_beside_a_spared_child(no_leftover_processes):
    ours = set(child_pids(os.getpid()))
    kept = sleeper()   # as an engine kept for the next game
    spare(kept.pid)
    try:
        with reaping(lambda: ours) as active:
            if not active:
                pytest.skip("this system has no PR_SET_CHILD_SUBREAPER")
            assert kill_orphans(keep=ours) == []
            stray = orphan(no_leftover_processes)
            wait_until_ours(stray)
            assert kill_orphans(keep=ours) == [stray]
            assert not alive(stray) and alive(kept.pid)
    finally:
        unspare(kept.pid)
        kept.kill()
        kept.wait()


@pytest.mark.integration
def test_our_own_helpers_are_kept():
    from multiprocessing import resource_tracker

    from ringmaster.reaper import helper_pids
    resource_tracker.ensure_running()
    tracker = resource_tracker._resource_tracker._pid
    ours = set(child_pids(os.getpid()))
    with reaping(lambda: ours | helper_pids()) as active:
        if not active:
            pytest.skip("this system has no PR_SET_CHILD_SUBREAPER")
        assert tracker in helper_pids()
        kill_orphans(keep=ours | helper_pids())
        assert alive(tracker)
    assert alive(tracker)


@pytest.mark.integration
def test_has_children_sees_a_live_child_and_none_once_reaped():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        assert has_children()
    finally:
        child.kill()
        child.wait()
    # Other tests may have left pytest children of its own; only ours is known gone.
    assert has_children() == bool(child_pids(os.getpid()))


CHAIN = """
import os, subprocess, sys, time
depth, marker = int(sys.argv[1]), sys.argv[2]
if depth > 0:
    subprocess.Popen([sys.executable, __file__, str(depth - 1), marker], start_new_session=True,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if depth < CHAIN_LENGTH:    # all but the first: sleep, each a new session's leader
    time.sleep(600)
"""


@pytest.mark.integration
def test_a_chain_of_sessions_deeper_than_any_bound_is_killed_whole(tmp_path, no_leftover_processes):
    # Each process of the chain starts the next in a new session; the first exits, so the
    # chain's head is re-parented to us with 119 below it.
    length = 120
    script = tmp_path / "chain.py"
    script.write_text(CHAIN.replace("CHAIN_LENGTH", str(length)))
    ours = set(child_pids(os.getpid()))
    with reaping(lambda: ours) as active:
        if not active:
            pytest.skip("this system has no PR_SET_CHILD_SUBREAPER")
        subprocess.run([sys.executable, str(script), str(length), no_leftover_processes], check=True)
        deadline = time.monotonic() + 60
        while (started := len(processes_mentioning(no_leftover_processes))) < length:
            assert time.monotonic() < deadline, f"only {started} started"
            time.sleep(0.1)
        kill_orphans(keep=ours)
        assert processes_mentioning(no_leftover_processes) == set()
