"""Shared fixtures: write_ctl for control files, and gnugo (skipped when absent, except in CI)."""

from __future__ import annotations

import os
import textwrap

import pytest

GNUGO = "/usr/games/gnugo"


@pytest.fixture
def write_ctl(tmp_path):
    """write_ctl(text, name='comp.ctl') -> path of a control file in a temporary directory."""
    def write(text: str, name: str = "comp.ctl") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return str(path)
    return write


@pytest.fixture
def gnugo() -> str:
    """The path of GNU Go; skips the test if it isn't installed, except when CI is set (fails)."""
    if not os.access(GNUGO, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"GNU Go is required in CI but {GNUGO} is missing "
                        f"(.ci/run installs it: apt-get install gnugo)")
        pytest.skip(f"GNU Go is not installed at {GNUGO} (apt-get install gnugo)")
    return GNUGO
