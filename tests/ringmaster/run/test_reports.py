"""A run's reports from its state: games listed by id, and standard JSON for show --json and FILE.html."""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

from ringmaster.control_file import load_control_file
from ringmaster.reporting.html import render_html
from ringmaster.run.game_index import GameEntry
from ringmaster.run.paths import CompetitionPaths
from ringmaster.run.reports import RunReports, finite
from ringmaster.stats.timing import RunClock

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
    report = RunReports(run).json()
    assert [g["game_id"] for g in report["games"]] == ["0_1", "0_2", "0_9", "0_10", "0_11"]
    page = render_html(report)
    table = page[page.index("<h2>Games</h2>"):]
    assert re.findall(r'<a href="comp.games/(0_\d+).sgf"', table) == ["0_1", "0_2", "0_9", "0_10", "0_11"]


def test_a_float_that_is_not_finite_becomes_null_at_any_depth():
    report = {"elo": math.inf, "rows": [{"cpu": math.nan, "games": 3}, (1.5, -math.inf)],
              "name": "x", "ok": True}
    cleaned = finite(report)
    assert cleaned == {"elo": None, "rows": [{"cpu": None, "games": 3}, [1.5, None]],
                       "name": "x", "ok": True}
    json.dumps(cleaned, allow_nan=False)
