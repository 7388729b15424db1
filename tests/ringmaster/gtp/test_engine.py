"""The engine side of GTP: line parsing, response format, and the shared board-game commands."""

from __future__ import annotations

import io

import pytest

from players.engines.random_go import make_engine
from ringmaster.gtp.engine import (
    GtpEngine,
    board_game_commands,
    format_response,
    parse_command_line,
    run_gtp_session,
)


def test_parse_command_line():
    assert parse_command_line("12 genmove\tb # a comment\n") == ("12", "genmove", ["b"])
    assert parse_command_line("  # only a comment") is None
    assert parse_command_line("play b\x07 C3") == (None, "play", ["b", "C3"])


def test_only_ascii_digits_make_a_command_id():
    assert parse_command_line("\u00b27 name") == (None, "\u00b27", ["name"])
    assert parse_command_line("\u0663 name") == (None, "\u0663", ["name"])


def boom(args: list[str]) -> int:
    return int("x\ny")


def test_a_handler_that_fails_unexpectedly_gets_a_failure_response_and_the_session_goes_on():
    engine = GtpEngine("e", "1")
    engine.add_command("boom", boom)
    out, err = io.StringIO(), io.StringIO()
    run_gtp_session(engine, io.StringIO("7 boom  a\x07b\nname\n"), out, err)
    assert out.getvalue() == ("?7 internal error: ValueError: invalid literal for int() with base 10: "
                              "'x\\ny' (traceback on stderr)\n\n= e\n\n")
    # The traceback, under the command (as parsed: no control characters), on stderr.
    lines = err.getvalue().splitlines()
    assert lines[:2] == ["internal error in GTP command: boom ab", "Traceback (most recent call last):"]
    assert '    return int("x\\ny")' in lines
    assert lines[-1] == "ValueError: invalid literal for int() with base 10: 'x\\ny'"


def test_a_handler_bug_is_answered_even_when_stderr_cannot_be_written():
    engine = GtpEngine("e", "1")
    engine.add_command("boom", boom)
    out, err = io.StringIO(), io.StringIO()
    err.close()
    run_gtp_session(engine, io.StringIO("boom\nname\n"), out, err)
    assert out.getvalue().endswith("(traceback on stderr)\n\n= e\n\n")


BUGGY_ENGINE = """
import sys
sys.path.insert(0, {root!r})
from ringmaster.gtp.engine import GtpEngine, board_game_commands, run_gtp_session
engine = GtpEngine("buggy", "1")
engine.add_commands(board_game_commands(
    set_size=lambda size: None, clear=lambda: None, set_komi=lambda komi: None,
    play=lambda colour, vertex: None, genmove=lambda colour: str(1 / 0)))
engine.add_command("final_status_list", lambda args: "")
run_gtp_session(engine)
"""


@pytest.mark.integration
def test_a_handler_bug_in_a_game_leaves_its_traceback_in_the_log(write_ctl, tmp_path):
    # An engine's stderr goes to FILE.log (stderr_to_log): where the forfeit's reason sends the user.
    import os
    import sys
    from pathlib import Path

    from tests.fakes.cli import invoke
    from tests.fakes.control_files import playoff_ctl
    from tests.fakes.fake_commands import fake_engine_command
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    engine = tmp_path / "buggy.py"
    engine.write_text(BUGGY_ENGINE.format(root=root))
    ctl = write_ctl(playoff_ctl(p=[sys.executable, str(engine)], q=fake_engine_command("--name", "q"),
                                games=1))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    log = Path(ctl[:-4] + ".log").read_text()
    assert "internal error: ZeroDivisionError: division by zero (traceback on stderr)" in log
    assert "[0_0 p] internal error in GTP command: genmove b" in log
    assert "[0_0 p] Traceback (most recent call last):" in log
    assert "[0_0 p] ZeroDivisionError: division by zero" in log


@pytest.mark.integration
def test_bytes_that_arent_utf8_get_a_failure_response_under_a_strict_locale():
    import os
    import subprocess
    import sys
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run([sys.executable, "-m", "players", "random"], input=b"name \xff\nname\nquit\n",
                          capture_output=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.decode().split("\n\n")[:3] == ["= random", "= random", "="]


def test_format_response():
    assert format_response("3", False, "C3") == "=3 C3\n\n"
    assert format_response(None, True, "") == "?\n\n"


def test_session_answers_until_quit():
    engine = GtpEngine("e", "1")
    out = io.StringIO()
    run_gtp_session(engine, io.StringIO("1 name\nfoo\nquit\nname\n"), out)
    assert out.getvalue() == "=1 e\n\n? unknown command\n\n=\n\n"


def make_recording_engine():
    calls = []

    def set_size(size):
        if size > 19:
            raise ValueError(size)
        calls.append(("size", size))
    engine = GtpEngine("e", "1")
    engine.add_commands(board_game_commands(
        set_size=set_size, clear=lambda: calls.append(("clear",)),
        set_komi=lambda k: calls.append(("komi", k)),
        play=lambda c, v: calls.append(("play", c, v)),
        genmove=lambda c: calls.append(("genmove", c)) or "pass"))
    return engine, calls


@pytest.mark.parametrize("command, args, message", [
    ("boardsize", [], "boardsize needs an integer"),
    ("boardsize", ["x"], "boardsize needs an integer"),
    ("boardsize", ["21"], "unacceptable size"),
    ("komi", ["seven"], "komi needs a number"),
    ("komi", ["nan"], "komi needs a finite number"),
    ("komi", ["-inf"], "komi needs a finite number"),
    ("play", ["b"], "play needs a colour and a vertex"),
    ("play", ["red", "C3"], "invalid color"),
    ("genmove", [], "genmove needs a colour"),
])
def test_board_game_commands_check_arguments(command, args, message):
    engine, calls = make_recording_engine()
    assert engine.run_command(command, args) == (True, message, False)
    assert calls == []


def test_board_game_commands_pass_clean_values():
    engine, calls = make_recording_engine()
    for command, args in (("boardsize", ["9"]), ("clear_board", []), ("komi", ["6.5"]),
                          ("play", ["White", "C3"]), ("genmove", ["B"])):
        assert engine.run_command(command, args)[0] is False
    assert calls == [("size", 9), ("clear",), ("komi", 6.5), ("play", "w", "C3"),
                     ("genmove", "b")]


def test_random_player_plays_legal_moves_and_refuses_occupied_points():
    engine = make_engine(seed=3)
    assert engine.run_command("boardsize", ["5"])[0] is False
    assert engine.run_command("play", ["b", "C3"])[0] is False
    assert engine.run_command("play", ["w", "C3"]) == (True, "illegal move", False)
    assert engine.run_command("play", ["w", "Z9"]) == (True, "invalid vertex", False)
    failed, move, _ = engine.run_command("genmove", ["w"])
    assert not failed and move not in ("C3", "pass")
