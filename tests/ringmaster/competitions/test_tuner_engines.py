"""What every tuner reports of its engines: the GTP names of its opponent and of its candidates."""

from __future__ import annotations

import io
import json
import re

import pytest

from ringmaster.competitions.simulate import make_result
from ringmaster.errors import CompetitionError
from ringmaster.reporting.html import render_html
from ringmaster.state.state_file import dumps_state
from tests.ringmaster.competitions.test_tuner_resume import TUNERS
from tests.ringmaster.reporting.test_html import check_page, full_report


def play(tuner, games: int, name_of) -> None:
    """Play games, each engine saying it is name_of(its player code)."""
    for _ in range(games):
        job = tuner.get_game()
        response = make_result(job, "b")
        response.engine_names = {p.code: name_of(p.code) for p in (job.player_b, job.player_w)}
        response.engine_descriptions = dict(response.engine_names)
        tuner.process_game_result(response)


def named(code: str) -> str:
    return "opp-engine:1.0" if code == "opp" else "cand-engine:2.0"


def short_report(tuner) -> str:
    out = io.StringIO()
    tuner.write_short_report(out)
    return out.getvalue()


def engines_cell(page: str, code: str) -> str:
    """The 'GTP name and version' cell of a player's row in the page's Engines table."""
    (cell,) = re.findall(rf'<tr><td class="l">{re.escape(code)}</td><td class="l">([^<]*)</td>', page)
    return cell


@pytest.mark.parametrize("kind", TUNERS)
def test_the_reports_give_the_candidates_gtp_name_and_the_state_keeps_it(kind):
    # Only the opponent's name was kept: every tuner's page left the candidate's 'GTP name and
    # version' empty, and spsa_tuner's head-to-head games (no opponent in them) named no engine at all.
    make_tuner, _ = TUNERS[kind]
    tuner = make_tuner()
    play(tuner, 2, named)
    assert "candidates: cand-engine:2.0\n" in short_report(tuner)
    report = tuner.get_json_report()
    assert report["candidate_engines"] == ["cand-engine:2.0"]
    assert report["engine_names"]["candidate (e.g.)"] == "cand-engine:2.0"
    page = render_html(full_report(tuner, []))
    check_page(page)
    assert engines_cell(page, "candidate (e.g.)") == "cand-engine:2.0"
    # The state keeps it: a resumed run reports it before its first game.
    status = json.loads(dumps_state(tuner.get_status()))
    resumed = make_tuner()
    resumed.set_status(status)
    assert "candidates: cand-engine:2.0\n" in short_report(resumed)
    # A state from before it was kept loads, naming no candidate engine until a game tells it.
    del status["candidate_engines"]
    older = make_tuner()
    older.set_status(status)
    assert "candidates:" not in short_report(older)
    assert older.get_json_report()["candidate_engines"] == []
    assert "candidate_engines" not in older.get_status()


def test_spsa_head_to_head_games_name_the_candidates_though_no_opponent_plays():
    make_tuner, _ = TUNERS["spsa_tuner"]
    tuner = make_tuner()
    assert tuner.head_to_head
    play(tuner, 2, named)
    text = short_report(tuner)
    assert "opponent: opp\ncandidates: cand-engine:2.0\n" in text
    assert "opp-engine" not in text
    page = render_html(full_report(tuner, []))
    assert (engines_cell(page, "opp"), engines_cell(page, "candidate (e.g.)")) == ("", "cand-engine:2.0")


def test_candidates_running_different_programs_are_noted():
    make_tuner, _ = TUNERS["mc_tuner"]
    tuner = make_tuner()
    play(tuner, 6, lambda code: "opp-engine:1.0" if code == "opp" else f"engine-{code}")
    assert tuner.candidate_engines == ["engine-#0", "engine-#1", "engine-#2", "engine-#3"]
    assert ("candidates: engine-#0; engine-#1; engine-#2; and others (the candidates' engines differ)"
            in short_report(tuner))
    # Candidates of one program whose descriptions give their settings are one engine: by name.
    tuner = make_tuner()
    for _ in range(3):
        job = tuner.get_game()
        response = make_result(job, "b")
        codes = [p.code for p in (job.player_b, job.player_w)]
        response.engine_names = {code: "o:1" if code == "opp" else "cand:2" for code in codes}
        response.engine_descriptions = {code: f"cand 2, c={code}" for code in codes}
        tuner.process_game_result(response)
    assert tuner.candidate_engines == ["cand:2"]
    assert "candidates: cand:2\n" in short_report(tuner)


def test_a_damaged_candidate_engines_in_the_state_is_one_line_error():
    make_tuner, _ = TUNERS["ce_tuner"]
    status = json.loads(dumps_state(make_tuner().get_status()))
    status["candidate_engines"] = "cand-engine"
    with pytest.raises(CompetitionError, match=r"^status file is inconsistent with control file: its "
                       r"'candidate_engines' is 'cand-engine', not a list of names; start afresh with "
                       r"`ringmaster reset`$"):
        make_tuner().set_status(status)
