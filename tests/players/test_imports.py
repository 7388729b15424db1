"""Only the network code (players/nets/) imports torch; the engines import it only as they load a network."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "players"
NETS = PLAYERS / "nets"


def imports_torch(path: Path) -> bool:
    """Whether a module imports torch anywhere in it (lazy imports included)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name == "torch" or name.startswith("torch.") for name in names):
            return True
    return False


def test_only_the_network_code_imports_torch():
    outside = [str(path.relative_to(ROOT)) for path in sorted(PLAYERS.rglob("*.py"))
               if NETS not in path.parents and imports_torch(path)]
    assert outside == []
    assert imports_torch(NETS / "model.py")   # the check sees an import where there is one


@pytest.mark.integration
@pytest.mark.parametrize("module", ["players.engines.alphazero", "players.engines.pig_mcts"])
def test_an_engine_module_loads_without_torch(module):
    script = f"import sys, {module}; print('torch' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False"]
