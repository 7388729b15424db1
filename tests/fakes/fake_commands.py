"""Command lines for the subprocess fake engines used by tests."""

from __future__ import annotations

import os
import sys

FAKES_DIR = os.path.dirname(os.path.abspath(__file__))
FAKE_ENGINE = os.path.join(FAKES_DIR, "fake_engine.py")


def fake_engine_command(*options: str) -> list[str]:
    """argv for the subprocess fake engine with the given options."""
    return [sys.executable, FAKE_ENGINE, *options]
