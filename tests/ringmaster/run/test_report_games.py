"""FILE.html lists the games that came in last, counting every game; show --json still gives every game."""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

from ringmaster.control_file import load_control_file
from ringmaster.reporting import html
from ringmaster.reporting.html import render_html
from ringmaster.run.game_index import GameEntry, by_game_id
from ringmaster.run.paths import CompetitionPaths
from ringmaster.run.reports import RunReports, finite
from ringmaster.stats.timing import RunClock

CTL = """competition_type = 'playoff'
players = {'a': Player('ea'), 'b': Player('eb')}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b', number_of_games=12)]
"""

ARRIVED = ["0_3", "0_0", "0_1", "0_2", "0_10", "0_4", "0_8", "0_5", "0_11", "0_6", "0_9", "0_7"]
"""The order the results came in (-j 4): the last five are 0_5, 0_11, 0_6, 0_9, 0_7."""


def entries() -> list[GameEntry]:
    """Twelve games with something for each figure: moves and CPU for the plots, a forfeit, a loss
    on time, a void game (0_0, replayed), a duplicate, and an infinity in a game's data."""
    games = []
    for i, game_id in enumerate(ARRIVED):
        black, white = ("a", "b") if int(game_id[2:]) % 2 == 0 else ("b", "a")
        games.append(GameEntry(game_id, black, white, "B+R", winner=black, moves=40 + i, seconds=2.0,
                               cpu_black=1.0 + i, cpu_white=2.0, finished=f"2026-01-01 10:{i:02}:00",
                               fingerprint=f"f{game_id}"))
    games[2].forfeit, games[2].detail = True, "forfeit by a: attempted move to occupied point E5"
    games[3].time_loss = True
    games[6].fingerprint = games[5].fingerprint = "same"
    games[6].black, games[6].white = games[5].black, games[5].white
    games[7].data = [1.5, math.inf]   # 0_5
    games.insert(1, GameEntry("0_0", "a", "b", "void", finished="2026-01-01 09:59:00",
                              detail="engine a died"))
    return games


def run_of(write_ctl, tmp_path, games: list[GameEntry]) -> SimpleNamespace:
    competition = load_control_file(write_ctl(CTL)).make_competition()
    competition.set_clean_status()
    paths = CompetitionPaths(str(tmp_path), "comp")
    (tmp_path / "comp.games").mkdir()
    for g in games:
        (tmp_path / "comp.games" / f"{g.game_id}.sgf").write_text("(;)")
    return SimpleNamespace(competition=competition, paths=paths, clock=RunClock(), void_game_count=1,
                           game_index=games)


def listed_ids(page: str) -> list[str]:
    return re.findall(r'<a href="comp.games/(0_\d+).sgf"', page[page.index("<h2>Games</h2>"):])


def test_the_page_lists_the_games_that_came_in_last_and_every_figure_counts_them_all(
        write_ctl, tmp_path, monkeypatch):
    monkeypatch.setattr(html, "GAMES_LISTED", 5)
    reports = RunReports(run_of(write_ctl, tmp_path, entries()))
    page = reports.page()
    assert listed_ids(page) == ["0_5", "0_6", "0_7", "0_9", "0_11"]   # the last five in, by id
    note = re.sub(r"<[^>]+>", "", re.search(r"<p class=\"note\">The 5 .*?</p>", page).group(0))
    assert note == ("The 5 games that came in last are listed, in game id order: 8 of the 13 games "
                    "are not (every figure above counts them all). Every game is in ringmaster show "
                    "comp.ctl --csv (or --json); each played game has a line in comp.hist and its "
                    "record in comp.games/.")
    # Everything above the index is the page that lists every game.
    whole = render_html(reports.json(), listed=range(13))
    assert len(listed_ids(whole)) == 12 and "came in last" not in whole
    assert page[:page.index("<h2>Games</h2>")] == whole[:whole.index("<h2>Games</h2>")]
    header = page[:page.index("<h2>Games</h2>")]
    assert "12 played of at most 12, 1 void" in header
    assert "attempted move to occupied point &lt;move&gt;</td><td>1</td><td class=\"l\">0_1" in header
    assert "engine a died" in header
    assert "Duplicate games: 1 games" in page


def test_a_page_with_no_more_games_than_it_lists_lists_them_all_without_a_note(
        write_ctl, tmp_path, monkeypatch):
    monkeypatch.setattr(html, "GAMES_LISTED", 13)
    page = RunReports(run_of(write_ctl, tmp_path, entries())).page()
    assert listed_ids(page) == [f"0_{i}" for i in range(12)] and "came in last" not in page


def test_show_json_gives_every_game_as_it_did_past_the_pages_limit(write_ctl, tmp_path, monkeypatch):
    """What show --json gave before the page listed the last games only: every game in game id
    order, with the game it repeats and its record, every infinity as a string."""
    monkeypatch.setattr(html, "GAMES_LISTED", 5)
    games = entries()
    run = run_of(write_ctl, tmp_path, games)
    report = RunReports(run).json()
    expected = [{**g.to_json(), "duplicate_of": "0_4" if g.game_id == "0_8" else None,
                 "record": f"comp.games/{g.game_id}.sgf" if not g.is_void else None}
                for g in by_game_id(games)]
    assert [g["game_id"] for g in expected][:3] == ["0_0", "0_0", "0_1"] and expected[6]["game_id"] == "0_5"
    expected[6]["data"] = [1.5, "+inf"]
    assert report["games"] == expected
    assert report["duplicates"]["count"] == 1
    json.dumps(report, allow_nan=False)
    assert [entry.data for entry in games if entry.game_id == "0_5"] == [[1.5, math.inf]]   # unchanged


def test_finite_copies_only_what_it_changes():
    """finite() walked and copied the whole report (every game) to change nothing, most times."""
    clean = {"games": [{"cpu": 1.5, "moves": 3}], "elo": [1.0, -2.0], "name": "x"}
    assert finite(clean) is clean
    assert finite(clean["games"]) is clean["games"]
    dirty = {"games": [{"cpu": 1.5}, {"cpu": -math.inf}], "elo": 2.0}
    cleaned = finite(dirty)
    assert cleaned == {"games": [{"cpu": 1.5}, {"cpu": "-inf"}], "elo": 2.0}
    assert dirty["games"][1]["cpu"] == -math.inf and cleaned["games"][0] is dirty["games"][0]
    assert finite((1.0, 2.0)) == [1.0, 2.0]
