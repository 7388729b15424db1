"""Shared fixtures (write_ctl, gnugo, no_leftover_processes); slow and gpu opt-in; a parallel unit tier."""

from __future__ import annotations

import gc
import os
import signal
import textwrap
import time

import pytest

GNUGO = "/usr/games/gnugo"
GRHINO = "/usr/games/gtp-rhino"
OPT_IN_MARKERS = ("slow", "gpu")


UNIT_TIER = "not integration"
UNIT_TIER_WORKERS = 2


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config) -> None:
    """Run the whole unit tier (-m "not integration", no paths given) on two workers.

    Its tests are many short ones that start no processes, so pytest-xdist spreads
    them over two cores (on the project's 2-core machine, 3 runs each: a median of
    20.5 s against 29.2 s in one process). Only then: a chosen file, another -m, an explicit -n (-n 0 for one
    process), a worker of its own or a machine with one core runs as pytest does.
    """
    if (config.getoption("markexpr", "").strip() != UNIT_TIER
            or config.args_source != pytest.Config.ArgsSource.TESTPATHS
            or config.getoption("numprocesses", None) is not None
            or config.getoption("collectonly") or os.environ.get("PYTEST_XDIST_WORKER")
            or (os.cpu_count() or 1) < UNIT_TIER_WORKERS
            or not config.pluginmanager.hasplugin("xdist")):
        return
    config.option.numprocesses = UNIT_TIER_WORKERS
    config.option.dist = "load"


def pytest_collection_finish(session) -> None:
    """Freeze what collection imported (torch, numba, numpy...) out of the cyclic collector's sight.

    Every full collection during the run, the five that pytest makes at the end to
    find unraisable exceptions, and the interpreter's own at exit would otherwise
    walk that whole heap again (about 1.5 s of the unit tier's time).
    """
    gc.freeze()


def pytest_collection_modifyitems(config, items) -> None:
    """Leave out slow and gpu tests unless the -m expression names their marker.

    So `-m "not integration"` is the unit tier without them, and `-m slow`
    or `-m gpu` selects them.
    """
    expression = config.getoption("markexpr") or ""
    skipped = [m for m in OPT_IN_MARKERS if m not in expression]
    kept, deselected = [], []
    for item in items:
        (deselected if any(item.get_closest_marker(m) for m in skipped) else kept).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture
def write_ctl(tmp_path):
    """write_ctl(text, name='comp.ctl') -> path of a control file in a temporary directory."""
    def write(text: str, name: str = "comp.ctl") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return str(path)
    return write


@pytest.fixture
def fsync_targets(monkeypatch) -> list[str]:
    """The files and directories os.fsync is called on during the test, in order."""
    synced: list[str] = []
    real = os.fsync

    def recording(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return synced


@pytest.fixture
def virtual_time(monkeypatch):
    """The ringmaster's game clocks read a VirtualTime, which in-process fake engines
    advance when they think (--think): losses on time tested without real timing."""
    from ringmaster.game import timekeeper
    from tests.fakes import channels
    clock = channels.VirtualTime()
    monkeypatch.setattr(channels, "VIRTUAL_TIME", clock)
    monkeypatch.setattr(timekeeper, "monotonic", clock.monotonic)
    return clock


@pytest.fixture
def gnugo() -> str:
    """The path of GNU Go; skips the test if it isn't installed, except when CI is set (fails)."""
    if not os.access(GNUGO, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"GNU Go is required in CI but {GNUGO} is missing "
                        f"(.ci/run installs it: apt-get install gnugo)")
        pytest.skip(f"GNU Go is not installed at {GNUGO} (apt-get install gnugo)")
    return GNUGO


@pytest.fixture
def grhino() -> str:
    """The path of GRhino's GTP engine; skips the test if it isn't installed, except in CI (fails)."""
    if not os.access(GRHINO, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"GRhino is required in CI but {GRHINO} is missing "
                        f"(.ci/run installs it: apt-get install grhino)")
        pytest.skip(f"GRhino is not installed at {GRHINO} (apt-get install grhino)")
    return GRHINO


def processes_mentioning(text: str) -> set[int]:
    """Pids of live (not zombie) processes whose command line contains text."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmdline and state != b"Z":
            found.add(int(name))
    return found


def gone_within(path: str, seconds: float, poll: float = 0.1) -> bool:
    """Whether path stops existing within seconds (an inference server's socket, when it ends)."""
    deadline = time.monotonic() + seconds
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(poll)
    return not os.path.exists(path)


@pytest.fixture
def no_leftover_processes(tmp_path):
    """Fails the test if a process whose command line names tmp_path outlives it (after 10 s).

    Engines, their children and inference servers started for a test all name
    a file under tmp_path; any left behind are killed, then reported.
    """
    marker = str(tmp_path)
    before = processes_mentioning(marker)
    yield marker
    deadline = time.monotonic() + 10
    while (left := processes_mentioning(marker) - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"processes left behind: {sorted(left)}"
