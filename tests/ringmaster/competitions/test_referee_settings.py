"""The referee and adjudication settings: checked, kept in the state, and what the engines need."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ringmaster.control_file import load_control_file
from ringmaster.errors import ControlFileError
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command


def write(write_ctl, top="", games=2, p=(), q=(), name="comp.ctl"):
    return write_ctl(playoff_ctl(p=fake_engine_command("--name", "p", *p),
                                q=fake_engine_command("--name", "q", *q), top=top, games=games),
                     name=name)


def load(path):
    return load_control_file(path).make_competition()


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


REFEREE = f"referee = Player({fake_engine_command('--name', 'ref', '--score', 'B+1')!r})"


@pytest.mark.parametrize("top, message", [
    ("referee = 'gnugo'", r"line 6: 'referee': not a Player \(referee = Player\('...'\)\)"),
    ("referee = Player([])", "line 6: player referee: 'command': empty"),
    ("adjudication = {'margin': 20}", "line 6: 'adjudication' needs a referee engine: referee = "
                                      "Player"),
    (REFEREE + "\nadjudication = {'margin': 20, 'every': 0}",
     "line 7: 'adjudication': 'every': must be at least 1"),
    (REFEREE + "\ngame = 'pig'", "pig has no use for a referee engine; remove 'referee'"),
])
def test_bad_referee_and_adjudication_settings_are_refused(write_ctl, top, message):
    with pytest.raises(ControlFileError, match=message):
        load(write(write_ctl, top))


def test_a_matchup_asking_adjudication_without_a_referee_is_refused(write_ctl):
    path = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command(), top="", games=2)
                     .replace("number_of_games=2", "adjudication={'margin': 9}"))
    with pytest.raises(ControlFileError, match="matchup 0: 'adjudication' needs a referee"):
        load(path)


def test_jobs_carry_the_referee_and_the_adjudication(write_ctl):
    comp = load(write(write_ctl, REFEREE + "\nadjudication = {'margin': 20, 'after_move': 10}"))
    comp.set_clean_status()
    job = comp.get_game()
    assert job.referee.code == "referee" and job.referee.command[-1] == "B+1"
    assert (job.adjudication.margin, job.adjudication.after_move, job.adjudication.every,
            job.adjudication.checks) == (20.0, 10, 10, 3)
    saved = comp.game_settings_by_key()["0"]
    assert saved["referee"] == " ".join(comp.referee.command)
    scoring = json.loads(json.dumps(comp.get_json_report()))["matchups"][0]["scoring"]
    assert "else the referee engine" in scoring and "adjudicated on the referee engine's score " \
        "(margin 20 at 3 checks in a row, every 10 moves from move 10)" in scoring


def test_the_checks_ask_for_the_commands_scoring_needs(write_ctl):
    comp = load(write(write_ctl))
    needs = {check.player.code: check.needs for check in comp.get_player_checks()}
    assert needs["p"] == needs["q"] == (("final_status_list", "scorer = 'internal' without a "
                                         "referee engine (to list dead stones; or name one: "
                                         "referee = Player(...))"),)
    comp = load(write(write_ctl, REFEREE + "\nadjudication = {'margin': 20}"))
    needs = {check.player.code: check.needs for check in comp.get_player_checks()}
    assert needs["p"] == needs["q"] == ()
    assert needs["referee"] == (("final_score", "adjudication"),
                                ("final_status_list", "settling dead stones (scorer = 'internal')"))


def test_an_engine_that_cant_list_dead_stones_fails_its_check_unless_a_referee_settles(write_ctl):
    ctl = write(write_ctl, q=("--no-status-list",))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 5
    assert ("player q failed startup check: it has no 'final_status_list' command, which "
            "scorer = 'internal' without a referee engine") in result.output
    ctl = write(write_ctl, REFEREE, q=("--no-status-list",))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    state = json.loads(Path(ctl[:-4] + ".status").read_text())
    # The referee engine (a fake that lists no dead stone) settled both games.
    results = state["competition"]["results"]["0"]
    assert [r["sgf_result"] != "?" for r in results] == [True, True]
    sgf_text = Path(ctl[:-4] + ".games/0_0.sgf").read_text()
    assert "q can't list dead stones: it has no final_status_list command" in sgf_text
    assert "Referee engine: " in sgf_text


def test_a_changed_referee_is_refused_on_resume(write_ctl):
    ctl = write(write_ctl, REFEREE)
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    text = Path(ctl).read_text()
    Path(ctl).write_text(text.replace("'B+1'", "'B+2'"))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 1
    assert "referee of matchup 0 is " in result.output and "B+2 in the control file but was" \
        in result.output
    Path(ctl).write_text(text.replace(REFEREE, ""))
    assert invoke("run", ctl, "-q").exit_code == 1


def test_disputed_dead_stones_leave_no_result_and_the_reports_say_why(write_ctl):
    ctl = write(write_ctl, p=("--dead-colour", "w"))
    result = invoke("run", ctl)
    assert result.exit_code == 0, result.output
    report = Path(ctl[:-4] + ".report").read_text()
    assert "unknown results: 2 of 2 games" in report
    assert "why: dead stones disputed: 2 games (e.g. 0_0: p said " in report
    assert "name a referee engine to settle the others" in report
    log = Path(ctl[:-4] + ".log").read_text()
    assert "game 0_1: no result: dead stones disputed: q said none, p said " in log
    assert "referee = Player(" in log
    assert ("scoring: area counted by the ringmaster itself, dead stones off as both players "
            "list them (final_status_list), else no result") in report
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["matchups"][0]["unknown_reasons"][0].startswith("dead stones disputed: 2 games")
    page = Path(ctl[:-4] + ".html").read_text()
    assert "Without a result: dead stones disputed" in page
    assert "dead stones off as both players list them" in page


def results(ctl):
    state = json.loads(Path(ctl[:-4] + ".status").read_text())
    return [r["sgf_result"] for r in state["competition"]["results"]["0"]]


def test_agreed_dead_stones_come_off(write_ctl):
    # The fakes' 5x5 games end with White's stones alone on the board: 25 points and komi.
    ctl = write(write_ctl)
    assert invoke("run", ctl, "-q").exit_code == 0
    assert results(ctl) == ["W+25.5"] * 2
    # Both list every white stone dead: the board is empty, and komi decides.
    other = write(write_ctl, p=("--dead-colour", "w"), q=("--dead-colour", "w"), name="dead.ctl")
    assert invoke("run", other, "-q").exit_code == 0
    assert results(other) == ["W+0.5"] * 2
    assert "dead stones taken off (both players):" in Path(other[:-4] + ".games/0_0.sgf").read_text()
