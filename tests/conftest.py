"""Shared fixtures: the fakes directory on sys.path, and a helper to write control files."""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(TESTS_DIR, "fakes"))


@pytest.fixture
def write_ctl(tmp_path):
    """write_ctl(text, name='comp.ctl') -> path of a control file in a temporary directory."""
    def write(text: str, name: str = "comp.ctl") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return str(path)
    return write
