"""docs/development.md: `python bench/SCRIPT.py --help` gives each script's options."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.integration
@pytest.mark.parametrize("script, says", [
    # These parse their own command lines: --help exited 2 ("give the bench command after
    # '--'", "usage: replay_engine.py --script FILE"), or waited for GTP on stdin.
    ("compare_commits.py", "--base REV"),
    ("replay_engine.py", "--script FILE [--cpu-log LOG]"),
    ("fast_engine.py", "--moves N"),
])
def test_a_bench_script_that_parses_its_own_options_answers_help(script, says):
    result = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=BENCH)
    assert result.returncode == 0, result.stderr
    assert says in result.stdout


SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if 'if __name__ == "__main__"' in p.read_text())


@pytest.mark.integration
@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_script_answers_help(script):
    # bench_reports.py took --help for a state directory and died with a traceback.
    result = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=120, cwd=BENCH)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() and "Traceback" not in result.stderr
