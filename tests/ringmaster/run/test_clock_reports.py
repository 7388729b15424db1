"""Losses on time and time used, everywhere a run reports: history, report, HTML, show --json, --csv."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from ringmaster.game.result import GameResult
from ringmaster.game.timekeeper import ClockUse
from ringmaster.run.game_index import GameEntry, entry_for_result, games_csv
from ringmaster.stats.time_use import time_use, time_use_report
from tests.fakes.channels import fake_engine_channel
from tests.fakes.cli import invoke
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command

PER_MOVE = "time_control = 'per_move 1'"


def run_timed(write_ctl, q_options=("--think-on", "2", "3")):
    ctl = write_ctl(playoff_ctl(games=4, top=PER_MOVE, p=fake_engine_command("--think", "0.25"),
                               q=fake_engine_command("--name", "q", *q_options)))
    result = invoke("run", ctl, "-q", channel_factory=fake_engine_channel)
    assert result.exit_code == 0, result.output
    return ctl


def matchup_table(report: str) -> list[list[str]]:
    """The matchup table's header and player rows, cell by cell."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("player  wins"))
    return [re.split(r"\s{2,}", line.strip()) for line in lines[start:start + 3]]


def show(ctl, *options):
    result = invoke("show", ctl, *options, channel_factory=fake_engine_channel)
    assert result.exit_code == 0, result.output
    return result.output


def test_losses_on_time_are_counted_apart_from_forfeits_everywhere(write_ctl, virtual_time):
    ctl = run_timed(write_ctl)
    base = ctl[:-4]
    history = open(base + ".hist").read()
    assert history.count("lost on time by q: took 3.00s with 1.00s left (margin 0.25s)") == 4
    report = open(base + ".report").read()
    header, p_row, q_row = matchup_table(report)
    assert "forfeits" not in header
    column = header.index("lost on time")
    assert (p_row[column], q_row[column]) == ("0", "4")
    data = json.loads(show(ctl, "--json"))
    stats = data["matchups"][0]["stats"]
    assert (stats["time_losses_1"], stats["time_losses_2"]) == (0, 4)
    assert (stats["forfeits_1"], stats["forfeits_2"]) == (0, 0)
    assert all(g["time_loss"] and not g["forfeit"] for g in data["games"])
    uses = {u["player"]: u for u in data["time_use"]}
    assert uses["q"]["time_losses"] == 4 and uses["p"]["time_losses"] == 0
    assert uses["q"]["moves"] == 8 and uses["q"]["longest_move"] == 3
    assert uses["p"]["mean_move"] == 0.25
    rows = list(csv.DictReader(io.StringIO(show(ctl, "--csv"))))
    assert [row["time_loss"] for row in rows] == ["1"] * 4
    assert rows[0]["clock_longest_black"] == "0.250" and rows[0]["clock_longest_white"] == "3.000"
    html = open(base + ".html").read()
    assert "<h2>Clock</h2>" in html and "games lost on time (no forfeits)" in html
    assert "clocks kept by the ringmaster" in html and "per_move 1 (margin 0.25s)" in html


def test_the_report_has_a_clock_table_when_games_are_timed(write_ctl, virtual_time):
    ctl = run_timed(write_ctl, q_options=())
    report = open(ctl[:-4] + ".report").read()
    assert "Clock (seconds" in report
    assert "lost on time" not in matchup_table(report)[0]   # no loss: no column


def test_an_untimed_run_reports_no_clock(write_ctl):
    ctl = write_ctl(playoff_ctl(games=4, p=fake_engine_command(), q=fake_engine_command("--name", "q")))
    assert invoke("run", ctl, "-q", channel_factory=fake_engine_channel).exit_code == 0
    assert "Clock" not in open(ctl[:-4] + ".report").read()
    assert json.loads(show(ctl, "--json"))["time_use"] == []
    assert "none sent by the ringmaster" in open(ctl[:-4] + ".html").read()


def test_the_game_index_keeps_each_sides_clock():
    result = GameResult("0_1", "p", "q", "b", "B+T", detail="lost on time by q: ...")
    entry = entry_for_result(result, 30, 12.0, "now", clock_use={
        "p": ClockUse(15, 7.5, 1.25, 52.5), "q": ClockUse(15, 9.0, 3.0, 0.0)})
    assert entry.time_loss and not entry.forfeit
    assert entry.clock_black == [15, 7.5, 1.25, 52.5] and entry.clock_white == [15, 9.0, 3.0, 0.0]
    assert GameEntry.from_json(json.loads(json.dumps(entry.to_json()))) == entry
    row = next(csv.DictReader(io.StringIO(games_csv([entry]))))
    assert (row["clock_moves_black"], row["clock_used_black"], row["clock_left_black"]) == \
        ("15", "7.500", "52.500")
    untimed = entry_for_result(GameResult("0_2", "p", "q", "w", "W+R"), 30, 1.0, "now")
    assert untimed.clock_black is None and not untimed.time_loss
    assert next(csv.DictReader(io.StringIO(games_csv([untimed]))))["clock_used_white"] == ""


def test_an_old_game_entry_loads_without_clocks():
    old = {"game_id": "0_1", "black": "p", "white": "q", "result": "B+3"}
    entry = GameEntry.from_json(old)
    assert entry.clock_black is None and entry.time_loss is False


def test_a_malformed_clock_is_refused():
    for bad in ([1, 2, 3], "x", [1, 2, 3, "4"], [1, 2, 3, True]):
        try:
            GameEntry.from_json({"game_id": "0_1", "black": "p", "white": "q", "result": "B+3",
                                 "clock_black": bad})
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")


def test_time_use_per_player_over_games():
    uses = time_use([("p", [10, 5.0, 1.0, 20.0], False), ("q", [10, 8.0, 2.0, 0.0], True),
                     ("p", [20, 5.0, 0.5, 40.0], False), ("q", None, False), ("r", None, True)])
    by_player = {u.player: u for u in uses}
    assert (by_player["p"].mean_move, by_player["p"].longest, by_player["p"].mean_left) == \
        (10 / 30, 1.0, 30.0)
    assert by_player["q"].games == 1 and by_player["q"].time_losses == 1
    assert by_player["r"].games == 0 and by_player["r"].mean_move is None
    table = time_use_report(uses)
    assert table.splitlines()[1].split()[-1] == "time"   # the header ends 'lost on time'
    assert time_use_report([]) == ""
    # A loss on time with no clock kept (a playoff without a time control): no clock table;
    # the loss is in the matchup table and the faults.
    assert time_use_report(time_use([("q", None, True), ("p", None, False)])) == ""


@pytest.mark.integration
def test_games_at_a_time_control_in_worker_processes(write_ctl):
    # -j 2 with engines kept between games: real processes, real time (the losses hold
    # however long this process is paused).
    ctl = write_ctl(playoff_ctl(games=4, top=PER_MOVE,
                                p=fake_engine_command("--time-commands", "kgs-time_settings,time_left"),
                                q=fake_engine_command("--name", "q", "--think", "2"))
                    .replace("scorer = 'internal'", "scorer = 'internal'\nreuse_engines = True"))
    result = invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(invoke("show", ctl, "--csv").output)))
    assert [row["time_loss"] for row in rows] == ["1"] * 4     # q: 2 s against 1 s a move
    assert all(row["clock_moves_black"] and row["clock_moves_white"] for row in rows)
