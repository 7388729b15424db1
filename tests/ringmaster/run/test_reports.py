"""A run's reports from its state: games listed by id, and standard JSON for show --json and FILE.html."""

from __future__ import annotations

import json
import math
import os
import re
from types import SimpleNamespace

from ringmaster.control_file import load_control_file
from ringmaster.reporting.html import render_html
from ringmaster.run.game_index import GameEntry
from ringmaster.run.paths import CompetitionPaths
from ringmaster.run.reports import RunReports, finite
from ringmaster.stats.timing import RunClock
from tests.fakes.channels import fake_engine_channel
from tests.fakes.cli import invoke
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command

CTL = """competition_type = 'playoff'
players = {'a': Player('ea'), 'b': Player('eb')}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b', number_of_games=12)]
"""


def test_the_html_game_table_and_json_list_games_by_id_not_by_when_they_finished(write_ctl, tmp_path):
    competition = load_control_file(write_ctl(CTL)).make_competition()
    competition.set_clean_status()
    finished = ["0_10", "0_2", "0_11", "0_1", "0_9"]
    run = SimpleNamespace(competition=competition, paths=CompetitionPaths(str(tmp_path), "comp"),
                          clock=RunClock(), void_game_count=0,
                          game_index=[GameEntry(i, "a", "b", "B+R", winner="a") for i in finished])
    os.mkdir(run.paths.games)
    for game_id in finished:
        (tmp_path / "comp.games" / f"{game_id}.sgf").write_text("(;)")
    report = RunReports(run).json()
    assert [g["game_id"] for g in report["games"]] == ["0_1", "0_2", "0_9", "0_10", "0_11"]
    page = render_html(report)
    table = page[page.index("<h2>Games</h2>"):]
    assert re.findall(r'<a href="comp.games/(0_\d+).sgf"', table) == ["0_1", "0_2", "0_9", "0_10", "0_11"]


def test_the_game_index_links_only_the_records_that_are_there(write_ctl, tmp_path):
    """record_games = False writes no record: no link (it was 'n.games/0_0.sgf', dead). A Pig
    game's record is ID.json; a replayed void game's second record ID_2.sgf."""
    competition = load_control_file(write_ctl(CTL)).make_competition()
    competition.set_clean_status()
    entries = [GameEntry("0_1", "a", "b", "void"), GameEntry("0_1", "a", "b", "void"),
               GameEntry("0_1", "a", "b", "B+R", winner="a"), GameEntry("0_2", "a", "b", "B+R", winner="a")]
    paths = CompetitionPaths(str(tmp_path), "comp")
    run = SimpleNamespace(competition=competition, paths=paths, clock=RunClock(), void_game_count=2,
                          game_index=entries)
    report = RunReports(run).json()
    page = render_html(report)
    assert "<a href" not in page[page.index("<h2>Games</h2>"):]
    assert [g["record"] for g in report["games"]] == [None] * 4
    os.mkdir(paths.games)
    os.mkdir(paths.void)
    for name in ("comp.games/0_1.json", "comp.void/0_1.sgf", "comp.void/0_1_2.sgf"):
        (tmp_path / name).write_text("x")
    report = RunReports(run).json()
    assert [g["record"] for g in report["games"]] == [
        "comp.void/0_1.sgf", "comp.void/0_1_2.sgf", "comp.games/0_1.json", None]
    table = render_html(report)
    table = table[table.index("<h2>Games</h2>"):]
    assert re.findall(r'<a href="([^"]+)"', table) == [
        "comp.void/0_1.sgf", "comp.void/0_1_2.sgf", "comp.games/0_1.json"]


def test_an_infinity_keeps_its_sign_and_nan_becomes_null_at_any_depth():
    report = {"elo": math.inf, "rows": [{"cpu": math.nan, "games": 3}, (1.5, -math.inf)],
              "name": "x", "ok": True}
    cleaned = finite(report)
    assert cleaned == {"elo": "+inf", "rows": [{"cpu": None, "games": 3}, [1.5, "-inf"]],
                       "name": "x", "ok": True}
    assert float(cleaned["elo"]) == math.inf and float(cleaned["rows"][1][1]) == -math.inf
    json.dumps(cleaned, allow_nan=False)


def test_the_report_a_run_leaves_gives_the_rate_show_gives(write_ctl):
    """Two games at -j 2 (the tutorial's second run): each is its worker's first, which the
    run's own rate leaves out, so FILE.report and FILE.html said '-- games per hour' where
    `show` on the same state gave the whole event's rate."""
    ctl = write_ctl(playoff_ctl(games=2, p=fake_engine_command(), q=fake_engine_command("--name", "q")))
    run = invoke("run", ctl, "-q", "-j", "2", channel_factory=fake_engine_channel)
    assert run.exit_code == 0, run.output
    shown = invoke("show", ctl, channel_factory=fake_engine_channel).output
    line = re.search(r"^progress: .*$", shown, flags=re.M).group(0)
    assert re.search(r", \d+ games per hour, 2/2 games", line), line
    assert line in open(ctl[:-4] + ".report").read().splitlines()
    rate = re.search(r"(\d+) games per hour", line).group(1)
    assert f"games per hour</th><td class=\"l\">{rate}</td>" in open(ctl[:-4] + ".html").read()


def test_show_json_gives_an_infinite_elo_with_its_sign(write_ctl):
    """q resigns every game: p's Elo is +inf, its interval [finite, +inf]. show --json gave null
    for both infinities, losing which side was unbounded."""
    ctl = write_ctl(playoff_ctl(games=2, p=fake_engine_command(),
                                q=fake_engine_command("--name", "q", "--resign-on", "1")))
    assert invoke("run", ctl, "-q", channel_factory=fake_engine_channel).exit_code == 0
    shown = invoke("show", ctl, "--json", channel_factory=fake_engine_channel)
    stats = json.loads(shown.output)["matchups"][0]["stats"]
    assert (stats["wins_1"], stats["wins_2"]) == (2, 0)
    assert stats["elo_1_minus_2"] == "+inf"
    low, high = stats["elo_1_minus_2_95"]
    assert isinstance(low, float) and high == "+inf"
    assert float(stats["elo_1_minus_2"]) == math.inf
