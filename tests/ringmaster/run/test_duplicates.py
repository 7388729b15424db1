"""Duplicate games: deterministic engines replaying one game are flagged everywhere, with a hint."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ringmaster.run.game_index import GameEntry, duplicate_games
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command

GAMES = 6


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def run(write_ctl, top=""):
    # The fake engines are deterministic: each plays the first legal point it finds.
    ctl = write_ctl(playoff_ctl(games=GAMES, p=fake_engine_command("--name", "p"),
                               q=fake_engine_command("--name", "q"), top=top))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    return ctl


def test_deterministic_engines_replaying_their_games_are_flagged(write_ctl):
    ctl = run(write_ctl)
    report = Path(ctl[:-4] + ".report").read_text()
    assert ("duplicate games: 4 of 6 games repeat an earlier game move for move "
            "(e.g. 0_2 = 0_0, 0_3 = 0_1, 0_4 = 0_0); deterministic engines") in report
    assert "openings = Openings(...)" in report and "seed" in report
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["duplicates"]["count"] == 4 and "Openings" in data["duplicates"]["hint"]
    assert [g["duplicate_of"] for g in data["games"]] == [None, None, "0_0", "0_1", "0_0", "0_1"]
    rows = list(csv.DictReader(io.StringIO(invoke("show", ctl, "--csv").output)))
    assert [r["duplicate_of"] for r in rows] == ["", "", "0_0", "0_1", "0_0", "0_1"]
    page = Path(ctl[:-4] + ".html").read_text()
    assert "Duplicate games: 4 games repeat an earlier game" in page
    assert "<th class=\"l\">same as</th>" in page


def test_an_opening_suite_makes_the_games_differ(write_ctl, tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    for name, move in (("a.sgf", "cc"), ("b.sgf", "bc"), ("c.sgf", "bb")):
        (suite / name).write_text(f"(;SZ[5];B[{move}])")
    ctl = run(write_ctl, "openings = Openings('suite')")
    assert "duplicate" not in Path(ctl[:-4] + ".report").read_text()
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["duplicates"]["count"] == 0
    assert "Duplicate games" not in Path(ctl[:-4] + ".html").read_text()


def test_duplicates_need_the_same_players_in_the_same_colours():
    entries = [GameEntry("0", "a", "b", "B+1", fingerprint="f"),
               GameEntry("1", "b", "a", "B+1", fingerprint="f"),    # colours swapped: no
               GameEntry("2", "a", "b", "void", fingerprint="f"),   # void: no
               GameEntry("3", "a", "b", "W+1", fingerprint=None),   # unknown: no
               GameEntry("4", "a", "b", "B+1", fingerprint="g"),
               GameEntry("5", "a", "b", "B+1", fingerprint="f")]
    assert duplicate_games(entries) == {"5": "0"}
