"""`python -m players NAME`: a missing optional package is a message that says what to install."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from players.__main__ import main

# Run the players launcher with numba (or torch) made unimportable, as without the extra.
WITHOUT = """
import sys
sys.modules[{package!r}] = None
from players.__main__ import main
sys.exit(main({argv!r}))
"""


MODELS = Path(__file__).resolve().parents[2] / "players" / "models"
TORCH = "pip install torch (the CPU build: pip install torch==2.13.0, then pip install -e '.[engines]')"


@pytest.mark.integration
@pytest.mark.parametrize("package, argv, install", [
    ("numba", ["mcts", "--help"], "pip install -e '.[engines]' (or pip install numba)"),
    # These import torch only as they load the network.
    ("torch", ["alphazero", "--model", str(MODELS / "othello6.pt")], TORCH),
    ("torch", ["pig-mcts", "--model", str(MODELS / "pig50_hidden_iter6.pt")], TORCH),
    ("torch", ["train", "--run-dir", "no-such-run"], TORCH),
])
def test_a_missing_engines_extra_says_what_to_install(package, argv, install):
    name = argv[0]
    script = WITHOUT.format(package=package, argv=argv)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"players {name}: needs {package}, which isn't installed: ")
    assert install in result.stderr


def test_unknown_name_and_usage(capsys):
    assert main(["nonsense"]) == 2
    assert "unknown name 'nonsense'" in capsys.readouterr().err


ENGINES = ("mcts", "random", "alphazero", "random-othello", "othello-mcts", "pig-hold", "pig-mcts")


@pytest.mark.parametrize("name", ENGINES)
def test_each_engines_help_gives_every_options_default(name, capsys):
    """docs/engines.md: `--help` lists every option with its default (random --seed and
    othello-mcts --seconds, among others, gave none; random-othello --seed had no help)."""
    with pytest.raises(SystemExit) as exit_:
        main([name, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    options = text.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    items = [" ".join(item.split()) for item in re.split(r"\n  (?=-)", "\n" + options) if item.strip()]
    assert len(items) > 1, text
    required = {("alphazero", "--model")}
    undefaulted = [item for item in items if "default" not in item and not item.startswith("-h")
                   and (name, item.split()[0]) not in required]
    assert undefaulted == []


@pytest.mark.parametrize("argv, message", [
    (["mcts", "--c", "nan"], "mcts: --c must be a finite number, not nan"),
    (["mcts", "--c", "inf"], "mcts: --c must be a finite number, not inf"),
    (["mcts", "--rave=-inf"], "mcts: --rave must be a finite number, not -inf"),
    (["mcts", "--prior-self-atari", "nan"], "mcts: --prior-self-atari must be a finite number, not nan"),
    (["mcts", "--c", "-5"], "mcts: --c must be at least 0, not -5"),
    (["mcts", "--threads", "0"], "mcts: --playouts and --threads must be at least 1"),
    (["othello-mcts", "--c", "nan"], "othello-mcts: --c must be a finite number, not nan"),
    (["pig-mcts", "--c", "inf"], "pig-mcts: --c must be a finite number, not inf"),
    (["pig-mcts", "--prior-virtual-visits", "nan"],
     "pig-mcts: --prior-virtual-visits must be a finite number, not nan"),
    (["alphazero", "--model", "x.pt", "--c-puct", "nan"],
     "alphazero: --c-puct must be a finite number, not nan"),
    (["train", "--run-dir", "{tmp}/run", "--c-puct", "inf"],
     "train: --c-puct must be a finite number, not inf"),
    (["train", "--run-dir", "{tmp}/run", "--minutes", "nan"],
     "train: --minutes must be a finite number, not nan"),
])
def test_a_float_option_must_be_a_finite_number(argv, message, capsys, tmp_path):
    """float() takes 'nan' and 'inf': mcts --c nan then passed every move. Each float option
    refuses them in one line naming it (and --c -5 no longer blames --threads)."""
    assert main([arg.format(tmp=tmp_path) for arg in argv]) == 2
    assert not (tmp_path / "run").exists()   # refused before a run is begun
    assert capsys.readouterr().err == message + "\n"


def test_train_help_lists_only_the_games_train_plays(capsys):
    """--help listed go-light, which --game refuses (no network plays it)."""
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "go-light" not in text
    assert "othello" in text and "pig" in text


@pytest.mark.parametrize("option, value, message", [
    ("--iterations", "-1", "train: --iterations must be at least 1, not -1"),
    ("--iterations", "0", "train: --iterations must be at least 1, not 0"),
    ("--minutes", "0", "train: --minutes must be a positive number, not 0"),
])
def test_train_refuses_a_meaningless_stopping_point(option, value, message, tmp_path, capsys):
    """--iterations -1 was accepted silently; it is refused before any run is made."""
    assert main(["train", "--run-dir", str(tmp_path / "run"), f"{option}={value}"]) == 2
    assert capsys.readouterr().err == message + "\n"
    assert not (tmp_path / "run").exists()


def test_train_refuses_a_saved_option_that_differs_on_resume(tmp_path, capsys):
    """--game othello8 on a pig50 run resumed silently as pig50; it is refused, naming both."""
    import json
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"game": "pig50", "simulations": 64}))
    (run / "state.json").write_text("{}")
    assert main(["train", "--run-dir", str(run), "--game", "othello8"]) == 2
    assert capsys.readouterr().err == (f"train: --game othello8: the run in {run} has pig50; leave it "
                                       "out to resume, or give a new --run-dir for a new run\n")
