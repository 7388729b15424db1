"""docs/tutorial.md stays true: every command on the page is run, in order, and says what the page says."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TUTORIAL = os.path.join(ROOT, "docs", "tutorial.md")


def shell_blocks() -> list[str]:
    with open(TUTORIAL, encoding="utf-8") as f:
        return re.findall(r"```sh\n(.*?)```", f.read(), flags=re.S)


def test_the_tutorial_has_its_steps_and_no_command_outside_the_blocks_the_test_runs():
    blocks = shell_blocks()
    assert len(blocks) == 10
    text = "".join(blocks)
    for command in ("ringmaster check gnugo.ctl", "ringmaster run gnugo.ctl -j 2",
                    "ringmaster run tune_c.ctl -j 2", "ringmaster run spsa_c.ctl -j 2"):
        assert command in text
    with open(TUTORIAL, encoding="utf-8") as f:
        fences = re.findall(r"^```(\S*)$", f.read(), flags=re.M)
    assert fences[0::2] == ["sh"] * len(blocks)   # every block on the page is one the test runs


@pytest.mark.integration
def test_every_command_of_the_tutorial_runs_as_the_page_says(tmp_path, gnugo):
    # `ringmaster` is this checkout's, whatever is installed.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "ringmaster"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m ringmaster.cli "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])}
    script = "\n".join(shell_blocks())
    proc = subprocess.run(["bash", "-e", "-x", "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    # Step 2: the playoff's report, its files, and a second run that plays only the new games.
    assert "mcts v gnugo (2/2 games)" in out and "mcts v gnugo (4/4 games)" in out
    assert re.search(r"Elo mcts - gnugo: .* LOS ", out)
    for name in ("gnugo.report", "gnugo.html", "gnugo.games", "gnugo.log", "gnugo.hist", "gnugo.status"):
        assert re.search(rf"^{re.escape(name)}$", out, flags=re.M), name
    assert out.count("game 0_0: ") == 1 and "game 0_3: " in out
    # Steps 3 and 4: each tuning run ends with its verdict.
    assert out.count("Verdict: ") == 2
    assert "parameter c: 'split' has no effect on spsa_tuner" in out + proc.stderr   # as step 4 says
    assert "8/8 tuning games played" in out and "8/8 games played" in out
    assert "confirmation games (2/2) for c: " in out and "against the start" in out
    # Step 5: reset leaves only the control files.
    assert out.rstrip().splitlines()[-3:] == ["gnugo.ctl", "spsa_c.ctl", "tune_c.ctl"]
