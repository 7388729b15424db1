"""Untrusted engines in real runs: crashes, hangs, garbage, illegal moves, stderr floods; and GNU Go."""

from __future__ import annotations

import io
import json
import os

import pytest
from click.testing import CliRunner
from fake_commands import GNUGO, fake_engine_command

from ringmaster.cli import cli
from ringmaster.display import DELIMITER, Presenter
from ringmaster.ringmaster import Ringmaster

CTL = """
competition_type = 'playoff'
players = {{'good': Player({good!r}), 'bad': Player({bad!r}, timeout=2)}}
board_size = 5
komi = 0.5
scorer = 'internal'
{extra}
matchups = [Matchup('good', 'bad', number_of_games={games})]
"""


def run_with_bad(write_ctl, *bad_options, games=1, extra="", run_options=("-q",)):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(*bad_options),
                               games=games, extra=extra))
    result = CliRunner().invoke(cli, ["run", ctl, *run_options], catch_exceptions=False)
    state = json.load(open(ctl[:-4] + ".status"))
    return ctl, result, state["competition"]["results"]["0"]


@pytest.mark.parametrize("options, detail", [
    (["--crash-on", "2"], "forfeit by bad: error reading response to 'genmove w' from "
                          "player bad: engine has closed the response channel"),
    (["--hang-on", "2"], "forfeit by bad: timeout (2s) waiting for response to 'genmove w' "
                         "from player bad"),
    (["--garbage-on", "1"], "forfeit by bad: error reading response to 'genmove w' from player "
                            "bad: no success/failure indication from engine: first line is "
                            "`this is not GTP`"),
    (["--illegal-on", "2"], "forfeit by bad: attempted move to occupied point"),
    (["--ill-formed-on", "1"], "forfeit by bad: attempted ill-formed move Z99"),
    (["--fail-genmove-on", "1"], "forfeit by bad: failure response from 'genmove w' to player "
                                 "bad: cannot think"),
    (["--hang-on-command", "play"], "forfeit by bad: timeout (2s) waiting for response to "
                                    "'play b"),
])
def test_misbehaviour_mid_game_is_a_forfeit_recorded_everywhere(write_ctl, options, detail):
    ctl, result, results = run_with_bad(write_ctl, *options)
    assert result.exit_code == 0
    (game,) = results
    assert game["is_forfeit"] and game["sgf_result"] == "B+F"
    assert game["detail"].startswith(detail)
    assert detail[:40] in open(ctl[:-4] + ".hist").read()
    assert detail[:40] in open(ctl[:-4] + ".games/0_0.sgf").read()
    assert detail[:40] in open(ctl[:-4] + ".log").read()


def test_failing_startup_command_makes_the_game_void(write_ctl):
    ctl = write_ctl(CTL.format(
        good=fake_engine_command(), bad=fake_engine_command(), games=1,
        extra="skip_player_checks = True\n"
              "players['bad'] = Player(players['bad'].settings['command'], "
              "startup_gtp_commands=['frobnicate 3'])"))
    result = CliRunner().invoke(cli, ["run", ctl, "-q"], catch_exceptions=False)
    assert result.exit_code == 6
    log = open(ctl[:-4] + ".log").read()
    assert ("game 0_0 -- aborting game due to error: failure response from 'frobnicate 3' "
            "to player bad: unknown command") in log


def test_stderr_flood_goes_to_the_log_labelled_and_bounded(write_ctl):
    ctl, result, results = run_with_bad(write_ctl, "--stderr-flood", "300000", games=2)
    assert result.exit_code == 0 and len(results) == 2
    log_size = os.path.getsize(ctl[:-4] + ".log")
    assert log_size < 2 * 2_100_000 + 100_000   # at most ~2 MB per engine per game
    with open(ctl[:-4] + ".log") as f:
        labelled = [line for line in f if line.startswith("[0_0 bad] xxx")]
    assert labelled and "starting game 0_1" in open(ctl[:-4] + ".log").read()


def test_engines_are_told_game_id_and_slot(write_ctl):
    ctl, result, _ = run_with_bad(write_ctl, "--env-to-stderr", games=2,
                                  run_options=("-q", "-j", "2"))
    log = open(ctl[:-4] + ".log").read()
    assert "[0_0 bad] game=0_0 slot=" in log and "[0_1 bad] game=0_1 slot=" in log
    slots = {line.rsplit("=", 1)[1] for line in log.splitlines() if "slot=" in line}
    assert slots <= {"0", "1"}


def test_discard_stderr_keeps_the_log_clean(write_ctl):
    ctl = write_ctl(CTL.format(
        good=fake_engine_command(), bad=fake_engine_command("--env-to-stderr"), games=1,
        extra="players['bad'] = Player(players['bad'].settings['command'], "
              "discard_stderr=True)"))
    CliRunner().invoke(cli, ["run", ctl, "-q"], catch_exceptions=False)
    assert "slot=" not in open(ctl[:-4] + ".log").read()


def test_gtp_log_is_written_with_log_gtp(write_ctl):
    ctl, result, _ = run_with_bad(write_ctl, run_options=("-q", "--log-gtp"))
    transcript = open(ctl[:-4] + ".gtplogs/0_0.log").read()
    assert ">> b: boardsize 5" in transcript and "<< w: =" in transcript
    assert ">> w: quit" in transcript


def test_live_display_append_only_when_not_a_terminal(write_ctl):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(), games=2,
                               extra=""))
    ringmaster = Ringmaster(ctl)
    ringmaster.load_state()
    out, err = io.StringIO(), io.StringIO()
    ringmaster.open_log()
    try:
        ringmaster.run(presenter=Presenter(out=out, err=err))
    finally:
        ringmaster.close_log()
    screens = out.getvalue().split(DELIMITER + "\n")[1:]
    assert len(screens) == 2
    assert "good v bad (1/2 games)" in screens[0] and "good v bad (2/2 games)" in screens[1]
    assert "= Results =\ngame 0_0: " in screens[1] and "game 0_1: " in screens[1]


def test_real_gnugo_playoff_through_the_cli(write_ctl):
    assert os.path.exists(GNUGO), "GNU Go is needed: apt-get install gnugo"
    ctl = write_ctl(f"""
competition_type = 'playoff'
players = {{
    'gnugo': Player('{GNUGO} --mode gtp --level 0'),
    'random': Player([PYTHON, '-m', 'players', 'random']),
}}
board_size = 9
komi = 7.5
matchups = [Matchup('gnugo', 'random', alternating=True, number_of_games=2)]
""")
    result = CliRunner().invoke(cli, ["run", ctl, "-q", "-j", "2"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(CliRunner().invoke(cli, ["show", ctl, "--json"]).output)
    stats = report["matchups"][0]["stats"]
    assert stats["games"] == 2
    assert stats["wins_2"] == 0          # a random player never beats GNU Go
    for result in report["matchups"][0]["results"]:
        # The random player counts its dead stones, so it may dispute GNU Go's score.
        colour = result["winning_colour"]
        if colour is None:
            assert result["detail"] == "players disagreed"
        else:
            assert result["player_" + colour] == "gnugo"
    assert report["engine_descriptions"]["gnugo"] == "GNU Go:3.8"
    assert stats["average_cpu_1"] is not None
