"""`python -m players mcts` as a real process: odd input never crashes it, EOF ends it cleanly,
and killing it leaves no process behind."""

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.integration


def run_session(text, *args):
    return subprocess.run([sys.executable, "-m", "players", "mcts", "--playouts", "30",
                           "--seed", "1", *args], input=text, capture_output=True, text=True,
                          timeout=120, check=False)


def responses(stdout):
    return [block.strip() for block in stdout.split("\n\n") if block.strip()]


def test_odd_input_gets_answers_and_eof_ends_session():
    lines = [
        "",
        "# a comment",
        "1 protocol_version",
        "boardsize\t7",
        "\x01play b D4",
        "frobnicate 1 2 3",
        "play b " + "Z" * 5000,
        "2 genmove w",
        "komi seven",
        "play w D4",
        "final_score",
    ]
    result = run_session("\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    answers = responses(result.stdout)
    assert answers[0] == "=1 2"
    assert answers[1] == "="
    assert answers[2] == "="
    assert answers[3].startswith("?")                  # unknown command
    assert answers[4].startswith("?")                  # bad vertex
    assert answers[5].startswith("=2 ") and len(answers[5]) > 3
    assert answers[6].startswith("?")                  # bad komi
    assert answers[7].startswith("?")                  # occupied
    assert answers[8].startswith("= ")
    assert len(answers) == 9


def test_bad_options_exit_with_usage_error():
    result = run_session("quit\n", "--mode", "leaf", "--engine", "fast")
    assert result.returncode == 2
    assert "fast engine" in result.stderr
    result = run_session("quit\n", "--playouts", "0")
    assert result.returncode == 2
    for seconds, why in (("-1", "a positive number of seconds"), ("0", "a positive number of seconds"),
                         ("nan", "a finite number")):   # these searched nothing and played a move
        result = run_session("quit\n", "--seconds", seconds)
        assert result.returncode == 2
        assert result.stderr.strip().splitlines() == [
            f"mcts: --seconds must be {why}, not {float(seconds):g}"]


# No process outlives the engine, however it is killed

def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _session(sid: int) -> list[int]:
    """The live processes of session sid (the engine's, started with start_new_session)."""
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()
            and (fields := _stat(int(entry))) is not None and int(fields[3]) == sid
            and _alive(int(entry))]


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("engine, signum", [
    pytest.param(engine, signum, id=f"{engine}-{signum.name}")
    for engine in ("generic", "fast") for signum in (signal.SIGTERM, signal.SIGKILL)])
def test_root_parallel_workers_die_with_the_engine(engine, signum):
    """Killed in the middle of a genmove (SIGTERM, or SIGKILL, as a controller that kills only
    the engine's pid does), the engine leaves no worker process searching behind."""
    proc = subprocess.Popen([sys.executable, "-m", "players", "mcts", "--engine", engine,
                             "--mode", "root", "--threads", "2", "--playouts", "100000000"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    others: list[int] = []
    try:
        proc.stdin.write("boardsize 9\ngenmove b\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 120
        if engine == "generic":        # two workers (and the resource tracker), searching
            while time.monotonic() < deadline:
                others = [pid for pid in _session(proc.pid) if pid != proc.pid]
                workers = [pid for pid in others if _cpu_seconds(pid) >= 2.0]
                if len(workers) >= 2:
                    break
                time.sleep(0.2)
            assert len(others) >= 2, "the workers never searched"
        else:                          # the fast engine's roots are threads: searching
            while time.monotonic() < deadline and _cpu_seconds(proc.pid) < 3.0:
                time.sleep(0.2)
        others = [pid for pid in _session(proc.pid) if pid != proc.pid]
        os.kill(proc.pid, signum)
        proc.wait(timeout=30)
        until = time.monotonic() + 5
        while time.monotonic() < until and any(_alive(pid) for pid in others):
            time.sleep(0.1)
        assert not [pid for pid in others if _alive(pid)], "processes outlived the engine"
        assert not _session(proc.pid)
    finally:
        for pid in [proc.pid, *others]:
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=30)
