"""Playoff settings beyond Gomill: an SPRT that stops a matchup, joint ratings, rating_anchor."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from ringmaster.control_file import load_control_file
from ringmaster.errors import ControlFileError
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command

CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r}), 'r': Player({r!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
{top}
matchups = [{matchups}]
"""


def write(write_ctl, matchups, top="", q=("--resign-on", "1")):
    return write_ctl(CTL.format(p=fake_engine_command("--name", "p"),
                                q=fake_engine_command("--name", "q", *q),
                                r=fake_engine_command("--name", "r"),
                                top=top, matchups=matchups))


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def test_sprt_stops_a_matchup_once_h1_is_accepted(write_ctl):
    # q resigns every game, so p wins each. Wald's LLR after n straight wins is
    # n ln(s1/0.5), s1 = 1/(1 + 10^(-150/400)): 9 wins pass ln(0.95/0.05) = 2.944, 8 don't.
    ctl = write(write_ctl, "Matchup('p', 'q', number_of_games=200)",
                top="sprt = {'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05}")
    step = math.log(1 / (1 + 10 ** (-150 / 400)) / 0.5)
    expected = math.ceil(math.log(0.95 / 0.05) / step)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    state = json.loads(Path(base + ".status").read_text())
    assert len(state["competition"]["results"]["0"]) == expected == 9
    report = Path(base + ".report").read_text()
    # Accepting H1 rejects elo <= elo0 at alpha: it shows elo > 0, not elo >= elo1.
    assert ("SPRT (p as Black - q as White): LLR" in report and ": H1 accepted: elo > 0 (elo <= 0 "
            "rejected at alpha 0.05; not a finding that elo >= 150)\n") in report
    assert "elo >= 150)" not in report.replace("finding that elo >= 150)", "") and "biased" in report
    assert f"stopped after 9 games counted by the test, at LLR {9 * step:.2f}" in report
    data = json.loads(invoke("show", ctl, "--json").output)
    sprt = data["matchups"][0]["sprt"]
    assert sprt["decision"] == "H1" and sprt["decided_at_games"] == 9 and sprt["model"] == "game"
    assert sprt["state"] == "H1" and sprt["conclusion"] == "elo > 0"
    assert sprt["state_text"].startswith("H1 accepted: elo > 0 (elo <= 0 rejected at alpha 0.05")
    assert isinstance(sprt["llr"], float) and len(sprt["path"]) == 9
    # A second run has nothing left to play.
    assert invoke("run", ctl, "-q").exit_code == 0
    assert len(json.loads(Path(base + ".status").read_text())
               ["competition"]["results"]["0"]) == 9
    assert Path(base + ".html").exists()


def test_alternating_matchup_uses_pentanomial_pairs_and_per_matchup_setting(write_ctl):
    ctl = write(write_ctl, "Matchup('p', 'q', alternating=True, number_of_games=200, "
                           "sprt={'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05}), "
                           "Matchup('p', 'r', number_of_games=2)")
    assert invoke("run", ctl, "-q").exit_code == 0
    data = json.loads(invoke("show", ctl, "--json").output)
    sprt = data["matchups"][0]["sprt"]
    assert sprt["model"] == "pentanomial" and sprt["decision"] == "H1"
    assert sprt["games_counted"] % 2 == 0 and sprt["counts"][4] == sprt["samples"]
    assert data["matchups"][0]["stats"]["games"] < 200
    assert data["matchups"][1]["sprt"] is None


def test_an_sprt_whose_matchup_played_all_its_games_undecided_says_so(write_ctl):
    # The sweep's shrunk mcts_vs_random_sprt.ctl: 4 of 4 games played, the LLR between its
    # bounds, and `show` still said "running". p wins all 4 (2 pairs): LLR 2 * 0.84 < 2.94.
    ctl = write(write_ctl, "Matchup('p', 'q', alternating=True, number_of_games=4, "
                           "sprt={'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05}), "
                           "Matchup('p', 'r', number_of_games=4, "
                           "sprt={'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05})")
    assert invoke("run", ctl, "-q", "--matchup", "0").exit_code == 0
    assert invoke("run", ctl, "-q", "--matchup", "1", "--max-games", "1").exit_code == 0
    data = json.loads(invoke("show", ctl, "--json").output)
    done, open_ = data["matchups"][0], data["matchups"][1]
    assert done["stats"]["games"] == 4 and done["sprt"]["decision"] is None
    assert done["sprt"]["state"] == "undecided"
    assert open_["stats"]["games"] == 1 and open_["sprt"]["state"] == "running"
    shown = invoke("show", ctl).output
    assert "(pentanomial): undecided: number_of_games played" in shown
    assert "(game): running" in shown
    page = Path(ctl[:-4] + ".html").read_text()
    assert '<span class="running">undecided: number_of_games played</span>' in page
    assert '<span class="running">running</span>' in page


def test_bad_sprt_setting_names_the_matchup(write_ctl):
    ctl = write(write_ctl, "Matchup('p', 'q', sprt={'elo0': 5, 'elo1': 0, 'alpha': 0.05, "
                           "'beta': 0.05})")
    with pytest.raises(ControlFileError, match="matchup 0: 'sprt': 'elo0' must be less"):
        load_control_file(ctl).make_competition()


def test_several_matchups_sharing_players_get_joint_ratings(write_ctl):
    # Colours alternate, and these engines' games go to the same colour: each player of a
    # matchup wins some, so the three are linked both ways.
    ctl = write(write_ctl, "Matchup('p', 'q', alternating=True, number_of_games=4), "
                           "Matchup('q', 'r', alternating=True, number_of_games=4)",
                top="rating_anchor = 'q'", q=())
    assert invoke("run", ctl, "-q").exit_code == 0
    data = json.loads(invoke("show", ctl, "--json").output)
    ratings = {r["player"]: r for r in data["ratings"]["ratings"]}
    assert set(ratings) == {"p", "q", "r"} and ratings["q"]["elo"] == 0
    assert data["ratings"]["relative_to"] == "anchor q"
    report = Path(ctl[:-4] + ".report").read_text()
    assert "Ratings (Bradley-Terry" in report and "rank  player" in report


def test_unknown_rating_anchor_is_refused(write_ctl):
    ctl = write(write_ctl, "Matchup('p', 'q')", top="rating_anchor = 'zz'")
    with pytest.raises(ControlFileError, match="'rating_anchor': unknown player 'zz'"):
        load_control_file(ctl).make_competition()


def test_matchups_that_share_no_player_get_no_joint_ratings(write_ctl):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command(),
                               r=fake_engine_command(), top="players['s'] = players['r']",
                               matchups="Matchup('p', 'q', alternating=True, number_of_games=1), "
                                        "Matchup('r', 's', alternating=True, number_of_games=1)"))
    assert invoke("run", ctl, "-q").exit_code == 0
    report = Path(ctl[:-4] + ".report").read_text()
    ratings = json.loads(invoke("show", ctl, "--json").output)["ratings"]
    # Each group rated apart (or, one game won by each, every player unrated): none across.
    assert all(set(row) <= group for row, group in (
        (set(ratings["superiority"][p]) | {p}, {"p", "q"} if p in "pq" else {"r", "s"})
        for p in ratings["superiority"]))
    assert "Ratings (Bradley-Terry" in report


@pytest.mark.integration
def test_sprt_stops_a_real_run_of_the_command_line(write_ctl):
    # The same event as test_sprt_stops_a_matchup_once_h1_is_accepted, with real processes.
    ctl = write(write_ctl, "Matchup('p', 'q', number_of_games=200)",
                top="sprt = {'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05}")
    completed = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q"],
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    state = json.loads(Path(ctl[:-4] + ".status").read_text())
    assert len(state["competition"]["results"]["0"]) == 9
    assert "H1 accepted" in Path(ctl[:-4] + ".html").read_text()
