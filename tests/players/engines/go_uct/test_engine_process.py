"""`python -m players mcts` as a real process: odd input never crashes it, and EOF ends it cleanly."""

import subprocess
import sys

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
