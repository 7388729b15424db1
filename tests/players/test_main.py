"""`python -m players NAME`: a missing optional package is a message that says what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from players.__main__ import main

# Run the players launcher with numba (or torch) made unimportable, as without the extra.
WITHOUT = """
import sys
sys.modules[{package!r}] = None
from players.__main__ import main
sys.exit(main({argv!r}))
"""


@pytest.mark.integration
@pytest.mark.parametrize("package, name, install", [
    ("numba", "mcts", "pip install -e '.[engines]' (or pip install numba)"),
])
def test_a_missing_engines_extra_says_what_to_install(package, name, install):
    script = WITHOUT.format(package=package, argv=[name, "--help"])
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"players {name}: needs {package}, which isn't installed: ")
    assert install in result.stderr


def test_unknown_name_and_usage(capsys):
    assert main(["nonsense"]) == 2
    assert "unknown name 'nonsense'" in capsys.readouterr().err
