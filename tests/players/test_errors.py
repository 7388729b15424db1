"""A refusal the user can fix is one line with one exit status per kind; a bug is a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from players import errors
from players.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "players" / "models"


def refused(capsys, argv: list[str]) -> tuple[int, str]:
    """`python -m players ARGV`'s exit status and the one line it prints on stderr."""
    status = main(argv)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return status, lines[0]


def test_a_file_that_isnt_a_checkpoint_has_one_status_from_every_engine(capsys, tmp_path):
    garbage = tmp_path / "garbage.pt"
    garbage.write_text("not a network\n")
    for name, *options in (["alphazero", "--device", "cpu"], ["pig-mcts"]):
        status, line = refused(capsys, [name, "--model", str(garbage), *options])
        assert status == errors.EXIT_CHECKPOINT != errors.EXIT_USAGE, name
        assert line.startswith(f"{name}: {garbage}: not a checkpoint, or a corrupt or truncated one")
        status, line = refused(capsys, [name, "--model", str(tmp_path / "none.pt")])
        assert status == errors.EXIT_CHECKPOINT
        assert line.startswith(f"{name}: {tmp_path / 'none.pt'}: no such checkpoint file")


def test_bad_options_have_the_usage_status_from_every_engine(capsys):
    assert refused(capsys, ["alphazero", "--model", str(MODELS / "othello6.pt"), "--device", "gpu"]) \
        == (errors.EXIT_USAGE, "alphazero: --device 'gpu': expected auto, cpu, cuda or cuda:N")
    assert refused(capsys, ["pig-mcts", "--prior-weight", "2"]) == \
        (errors.EXIT_USAGE, "pig-mcts: --prior-weight must be at least 0.5 and below 1")
    assert refused(capsys, ["mcts", "--engine", "fast", "--mode", "leaf"]) == \
        (errors.EXIT_USAGE, "mcts: the fast engine runs serial, tree- or root-parallel")


def boom(*args, **kwargs):
    raise RuntimeError("a bug of ours")


def test_a_bug_while_alphazero_starts_is_a_traceback(monkeypatch):
    from players.nets import inference
    monkeypatch.setattr(inference, "LocalPredictor", boom)   # torch's error for a shape or device bug
    with pytest.raises(RuntimeError, match="a bug of ours"):
        main(["alphazero", "--model", str(MODELS / "othello6.pt"), "--device", "cpu",
              "--server", "off"])


def test_a_bug_while_pig_mcts_starts_is_a_traceback(monkeypatch):
    from players.nets import inference

    def value_bug(*args, **kwargs):
        raise ValueError("a bug of ours")
    monkeypatch.setattr(inference, "StateEvaluator", value_bug)
    with pytest.raises(ValueError, match="a bug of ours"):
        main(["pig-mcts", "--model", str(MODELS / "pig50_hidden_iter6.pt")])


def test_a_bug_while_mcts_starts_is_a_traceback(monkeypatch):
    from players.engines import gtp_adapter

    def value_bug(*args, **kwargs):
        raise ValueError("a bug of ours")
    monkeypatch.setattr(gtp_adapter, "make_engine", value_bug)
    with pytest.raises(ValueError, match="a bug of ours"):
        main(["mcts", "--engine", "generic"])


def test_the_engines_page_lists_every_exit_status():
    text = (ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    section = text.split("### Exit statuses", 1)[1].split("\n## ", 1)[0]
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", section, re.M)}
    codes = {value for name, value in vars(errors).items() if name.startswith("EXIT_")}
    assert documented == codes | {0}
    classes = [errors.UsageError, errors.CheckpointError, errors.RunDirError, errors.ServerError]
    assert len({cls.exit_code for cls in classes}) == len(classes)
    assert all(issubclass(cls, errors.PlayersError) for cls in classes)
