"""Playing games with untrusted engines: crashes, hangs, garbage, illegal moves; records; GNU Go.

Each misbehaviour is played twice: by the fake engine in-process (the unit
tier) and as a subprocess (integration), where the channel errors are real.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from pathlib import Path

import pytest
from sgfmill import sgf

from ringmaster.errors import JobFailed
from ringmaster.files import TEMP_SUFFIX
from ringmaster.game.engines import subprocess_channel
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.pig_referee import PigGame
from ringmaster.game.play import RefereedGame, play_game_job
from ringmaster.game.referee import GameRecord, Referee
from ringmaster.gtp.channel import GtpChannelClosed
from ringmaster.gtp.controller import BadGtpResponse
from ringmaster.run.display import DELIMITER, Presenter
from ringmaster.run.ringmaster import Ringmaster
from tests.fakes.channels import fake_engine_channel, recording_factory
from tests.fakes.cli import invoke
from tests.fakes.fake_commands import fake_engine_command

IN_PROCESS = pytest.param(fake_engine_channel, id="in-process")
SUBPROCESS = pytest.param(subprocess_channel, id="subprocess", marks=pytest.mark.integration)

CTL = """
competition_type = 'playoff'
players = {{'good': Player({good!r}), 'bad': Player({bad!r}, timeout=2)}}
board_size = 5
komi = 0.5
scorer = 'internal'
{extra}
matchups = [Matchup('good', 'bad', number_of_games={games})]
"""


def run_with_bad(write_ctl, *bad_options, games=1, extra="", run_options=("-q",),
                 factory=subprocess_channel):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(*bad_options),
                               games=games, extra=extra))
    result = invoke("run", ctl, *run_options, channel_factory=factory)
    state = json.load(open(ctl[:-4] + ".status"))
    return ctl, result, state["competition"]["results"]["0"]


def test_every_kind_of_finished_game_has_all_a_refereed_game_declares():
    declared = set(RefereedGame.__annotations__)
    assert {"is_adjudicated", "warnings"} <= declared   # what a game's result and warnings read
    for game in (GameRecord(), PigGame()):
        assert [name for name in sorted(declared) if not hasattr(game, name)] == [], type(game)
    assert (PigGame().is_adjudicated, PigGame().warnings) == (False, [])


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
@pytest.mark.parametrize("factory", [IN_PROCESS, SUBPROCESS])
def test_misbehaviour_mid_game_is_a_forfeit_recorded_everywhere(write_ctl, options, detail,
                                                                factory):
    ctl, result, results = run_with_bad(write_ctl, *options, factory=factory)
    assert result.exit_code == 0
    (game,) = results
    assert game["is_forfeit"] and game["sgf_result"] == "B+F"
    assert game["detail"].startswith(detail)
    assert detail[:40] in open(ctl[:-4] + ".hist").read()
    assert detail[:40] in open(ctl[:-4] + ".games/0_0.sgf").read()
    assert detail[:40] in open(ctl[:-4] + ".log").read()


CLAIM_QUESTION = "known_command gomill-genmove_ex"


@pytest.mark.parametrize("option, detail", [
    ("--crash-on-command", f"error reading response to '{CLAIM_QUESTION}' from player bad: "
                           "engine has closed the response channel"),
    ("--hang-on-command", f"timeout (2s) waiting for response to '{CLAIM_QUESTION}' from "
                          "player bad"),
    ("--garbage-on-command", f"error reading response to '{CLAIM_QUESTION}' from player bad: "
                             "no success/failure indication from engine"),
])
@pytest.mark.parametrize("factory, run_options", [
    pytest.param(fake_engine_channel, ("-q",), id="in-process"),
    pytest.param(subprocess_channel, ("-q", "-j", "2"), id="subprocess-j2",
                 marks=pytest.mark.integration),
])
def test_an_engine_allowed_to_claim_failing_the_claim_question_forfeits(
        write_ctl, option, detail, factory, run_options):
    # It was raised out of the referee: 'internal error', exit 4, at every run and resume.
    ctl, result, results = run_with_bad(
        write_ctl, option, CLAIM_QUESTION, games=2, run_options=run_options, factory=factory,
        extra="players['bad'] = Player(players['bad'].settings['command'], timeout=2, "
              "allow_claim=True)")
    assert result.exit_code == 0, result.output
    assert len(results) == 2
    for game in results:
        assert game["is_forfeit"] and game["sgf_result"] == "B+F"
        assert game["detail"].startswith(f"forfeit by bad: {detail}")


@pytest.mark.parametrize("version, hint", [("1 2", True), ("=2", True), ("1", False)])
def test_a_protocol_version_that_is_no_number_suggests_gtp_ids(write_ctl, version, hint):
    ctl = write_ctl(CTL.format(good=fake_engine_command(),
                               bad=fake_engine_command("--protocol-version", version),
                               games=1, extra=""))
    result = invoke("check", ctl, channel_factory=fake_engine_channel)
    assert result.exit_code == 5
    message = f"player bad failed startup check: player bad reports GTP protocol version {version}"
    assert f"{message} (if the engine can't take GTP command ids" in result.output if hint \
        else f"{message}\n" in result.output


@pytest.mark.integration
def test_an_engine_dying_on_command_ids_fails_its_check_suggesting_gtp_ids_and_plays_without(
        write_ctl):
    def ctl(gtp_ids: str) -> str:
        return write_ctl(CTL.format(
            good=fake_engine_command(), bad=fake_engine_command("--exit-on-id"), games=2,
            extra=f"players['bad'] = Player(players['bad'].settings['command'], {gtp_ids})"))
    result = invoke("check", ctl(""))
    assert result.exit_code == 5
    assert ("player bad failed startup check: error reading response to first command "
            "(protocol_version) from player bad: engine has closed the response channel (its "
            "stderr, which `ringmaster check` shows, says why: most often a bad option or path; "
            "or, if the engine can't take GTP command ids, as in '1 protocol_version', set "
            "gtp_ids=False in its Player)\n") in result.output
    path = ctl("gtp_ids=False")
    result = invoke("run", path, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    results = json.load(open(path[:-4] + ".status"))["competition"]["results"]["0"]
    assert len(results) == 2 and not any(game["is_forfeit"] for game in results)


@pytest.mark.integration
def test_two_responses_to_one_genmove_forfeit_saying_so_not_as_an_empty_move(write_ctl):
    # Read as the answer to the next command, the second response used to shift every
    # answer by one, until a genmove read a play's empty one: 'attempted ill-formed move '.
    ctl, result, results = run_with_bad(write_ctl, "--extra-after", "genmove w")
    assert result.exit_code == 0
    (game,) = results
    assert game["is_forfeit"] and game["sgf_result"] == "B+F"
    assert game["detail"].startswith("forfeit by bad: error sending 'play b ")
    assert game["detail"].endswith(
        "player bad sent output no command asked for after its response to 'genmove w' "
        "(more responses than commands): '= unasked'")


@pytest.mark.integration
def test_a_second_answer_come_after_the_next_command_forfeits_saying_so(write_ctl):
    # The second answer to bad's 2nd genmove is written after 'play b ...' and 'genmove w'
    # reach it. Read in order, it was taken for play's answer and play's empty one for the
    # genmove's: 'attempted ill-formed move (an empty response)'. Each answer's id is now
    # matched to its command's.
    ctl, result, results = run_with_bad(write_ctl, "--answer-twice-on", "2")
    assert result.exit_code == 0
    (game,) = results
    assert game["is_forfeit"] and game["sgf_result"] == "B+F"
    assert re.fullmatch(r"forfeit by bad: error reading response to 'play b [A-E][1-5]' from "
                        r"player bad: engine sent a second answer to 'genmove w': "
                        r"'=\d+ [A-E][1-5]'", game["detail"]), game["detail"]
    assert game["detail"] in open(ctl[:-4] + ".games/0_0.sgf").read()
    sgf_game = sgf.Sgf_game.from_bytes(open(ctl[:-4] + ".games/0_0.sgf", "rb").read())
    assert len(sgf_game.get_main_sequence()) - 1 == 5   # bad's 2nd move, then b's: the end


@pytest.mark.parametrize("factory", [IN_PROCESS, SUBPROCESS])
def test_failing_startup_command_makes_the_game_void(write_ctl, factory):
    ctl = write_ctl(CTL.format(
        good=fake_engine_command(), bad=fake_engine_command(), games=1,
        extra="skip_player_checks = True\n"
              "players['bad'] = Player(players['bad'].settings['command'], "
              "startup_gtp_commands=['frobnicate 3'])"))
    result = invoke("run", ctl, "-q", channel_factory=factory)
    assert result.exit_code == 6
    log = open(ctl[:-4] + ".log").read()
    reason = ("aborting game due to error: failure response from 'frobnicate 3' "
              "to player bad: unknown command")
    assert f"game 0_0 -- {reason}" in log
    assert not os.path.exists(ctl[:-4] + ".games")
    (void,) = os.listdir(ctl[:-4] + ".void")
    assert void == "0_0.sgf"
    root = sgf.Sgf_game.from_bytes(open(ctl[:-4] + ".void/0_0.sgf", "rb").read()).get_root()
    assert root.get("RE") == "Void" and f"Void game: {reason}" in root.get("C")
    assert (root.get("PB"), root.get("PW")) == ("good", "bad")


@pytest.mark.integration
def test_stderr_flood_goes_to_the_log_labelled_and_bounded(write_ctl):
    ctl, result, results = run_with_bad(write_ctl, "--stderr-flood", "300000", games=2)
    assert result.exit_code == 0 and len(results) == 2
    log_size = os.path.getsize(ctl[:-4] + ".log")
    assert log_size < 2 * 2_100_000 + 100_000   # at most ~2 MB per engine per game
    with open(ctl[:-4] + ".log") as f:
        labelled = [line for line in f if line[20:].startswith("[0_0 bad] xxx")]   # after the time
    assert labelled and "starting game 0_1" in open(ctl[:-4] + ".log").read()


@pytest.mark.integration
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
    invoke("run", ctl, "-q", channel_factory=fake_engine_channel)
    assert "slot=" not in open(ctl[:-4] + ".log").read()


def test_gtp_log_is_written_with_log_gtp(write_ctl):
    ctl, result, _ = run_with_bad(write_ctl, run_options=("-q", "--log-gtp"),
                                  factory=fake_engine_channel)
    transcript = open(ctl[:-4] + ".gtplogs/0_0.log").read()
    assert ">> b: boardsize 5" in transcript and "<< w: =" in transcript
    assert ">> w: quit" in transcript


def test_off_a_terminal_each_game_is_one_line_and_the_report_comes_once_at_the_end(write_ctl):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(), games=2,
                               extra=""))
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    out, err = io.StringIO(), io.StringIO()
    ringmaster.open_log()
    try:
        ringmaster.run(presenter=Presenter(out=out, err=err))
    finally:
        ringmaster.close_log()
    before, report = out.getvalue().split(DELIMITER + "\n")   # one report, after the games
    assert [line.split(":")[0] for line in before.splitlines()] == ["game 0_0", "game 0_1"]
    assert "good v bad (2/2 games)" in report and "(1/2 games)" not in out.getvalue()
    assert "= Results =" not in report    # each result has had its own line


@pytest.mark.integration
def test_real_gnugo_playoff_through_the_cli(write_ctl, gnugo):
    ctl = write_ctl(f"""
competition_type = 'playoff'
players = {{
    'gnugo': Player('{gnugo} --mode gtp --level 0'),
    'random': Player([PYTHON, '-m', 'players', 'random']),
}}
board_size = 9
komi = 7.5
matchups = [Matchup('gnugo', 'random', alternating=True, number_of_games=2)]
""")
    result = invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    report = json.loads(invoke("show", ctl, "--json").output)
    stats = report["matchups"][0]["stats"]
    assert stats["games"] == 2
    assert stats["wins_2"] == 0          # a random player never beats GNU Go
    for result in report["matchups"][0]["results"]:
        # The random player counts its dead stones, so it may dispute GNU Go's score.
        colour = result["winning_colour"]
        if colour is None:
            assert result["detail"].startswith("players disagreed: ")
        else:
            assert result["player_" + colour] == "gnugo"
    assert report["engine_descriptions"]["gnugo"] == "GNU Go:3.8"
    assert stats["average_cpu_1"] is not None


def make_job(tmp_path, b_options=(), w_options=(), **changes) -> GameJob:
    settings = dict(
        game_id="g1", board_size=5, komi=0.5, use_internal_scorer=True,
        player_b=PlayerSpec("pb", tuple(fake_engine_command(*b_options)), timeout=2),
        player_w=PlayerSpec("pw", tuple(fake_engine_command("--name", "white", *w_options)),
                            timeout=2),
        sgf_dirname=str(tmp_path / "games"), void_sgf_dirname=str(tmp_path / "void"),
        sgf_event="ev", sgf_game_name="ev g1")
    settings.update(changes)
    return GameJob(**settings)


def read_root(path):
    with open(path, "rb") as f:
        return sgf.Sgf_game.from_bytes(f.read()).get_root()


def test_play_game_job_plays_scores_and_records(tmp_path):
    job = make_job(tmp_path, b_options=("--cpu-time", "0.5"))
    response = play_game_job(job, fake_engine_channel)
    result = response.game_result
    assert (result.player_b, result.player_w) == ("pb", "pw")
    assert result.winning_colour in ("b", "w") and not result.is_forfeit
    assert response.engine_names == {"pb": "fake:1.0", "pw": "white:1.0"}
    assert response.moves > 2 and response.warnings == []
    assert result.cpu_times["pb"] == 0.5
    root = read_root(tmp_path / "games" / "g1.sgf")
    assert root.get("RE") == result.sgf_result
    assert (root.get("PB"), root.get("PW"), root.get("GN")) == ("fake:1.0 (pb)", "white:1.0 (pw)", "ev g1")
    assert "pb cpu time: 0.50s" in root.get("C")
    assert not (tmp_path / "void").exists()


@pytest.mark.parametrize("answer", ["nan", "inf", " -inf", " -1", "1e308", "1e10", "oops"])
def test_a_cpu_time_that_is_not_a_time_is_a_late_error_and_no_figure(tmp_path, answer):
    response = play_game_job(make_job(tmp_path, b_options=("--cpu-time", answer)), fake_engine_channel)
    # The engine's claim is refused; what the channel measured at close stands, if anything.
    cpu = response.game_result.cpu_times["pb"]
    assert cpu is None or (math.isfinite(cpu) and 0 <= cpu < 1e6)
    assert not response.game_result.is_forfeit
    assert [w for w in response.warnings if "error getting cpu time from player pb" in w]
    # What reaches the state and show --json is standard JSON.
    json.dumps(response.game_result.to_json(), allow_nan=False)


def test_an_engines_name_reaches_the_reports_without_its_control_characters(tmp_path):
    job = make_job(tmp_path, b_options=("--name", "evil\x9b2J\x1b[31m"))
    response = play_game_job(job, fake_engine_channel)
    assert response.engine_names["pb"] == "evil\\x9b2J\\x1b[31m:1.0"
    assert not any(0x80 <= ord(c) <= 0x9f or ord(c) < 0x20 for c in response.engine_names["pb"])


def test_both_engines_are_launched_before_either_is_greeted(tmp_path):
    # The second engine starts up while the first answers its first commands.
    events: list = []
    play_game_job(make_job(tmp_path), recording_factory(events))
    assert events[:3] == [("launch", "pb"), ("launch", "pw"), ("pb", "protocol_version")]


def test_both_engines_are_sent_quit_before_either_is_closed(tmp_path):
    # They exit at the same time rather than one after the other.
    events: list = []
    play_game_job(make_job(tmp_path), recording_factory(events))
    quits = [i for i, event in enumerate(events) if event[1:] == ("quit",)]
    closes = [i for i, event in enumerate(events) if event[0] == "close"]
    assert [events[i][0] for i in quits] == ["pb", "pw"] and len(closes) == 2
    assert max(quits) < min(closes)


def test_an_engine_that_fails_to_launch_takes_the_launched_one_down(tmp_path):
    events: list = []
    with pytest.raises(JobFailed, match="error starting subprocess for player pw"):
        play_game_job(make_job(tmp_path), recording_factory(events, fail_launch="pw"))
    assert events == [("launch", "pb"), ("kill", "pb"), ("close", "pb")]


def test_an_engine_that_fails_its_greeting_takes_the_other_down(tmp_path):
    events: list = []
    with pytest.raises(JobFailed, match="first command"):
        play_game_job(make_job(tmp_path, b_options=("--exit-at-start",)),
                      recording_factory(events))
    assert ("launch", "pw") in events and ("kill", "pw") in events
    assert not any(event[0] == "pw" for event in events)   # pw was never sent a command


def test_forfeit_is_a_result_with_a_warning(tmp_path):
    response = play_game_job(make_job(tmp_path, w_options=("--resign-on", "2")),
                             fake_engine_channel)
    assert response.game_result.sgf_result == "B+R"
    response = play_game_job(make_job(tmp_path, w_options=("--illegal-on", "2")),
                             fake_engine_channel)
    assert response.game_result.is_forfeit and response.game_result.sgf_result == "B+F"
    assert response.warnings == [f"game g1: {response.game_result.detail}"]


def test_void_game_is_recorded_in_the_void_directory_once_per_attempt(tmp_path):
    job = make_job(tmp_path, w_options=("--exit-at-start",))
    for _ in range(2):
        with pytest.raises(JobFailed, match="aborting game due to error: error reading "
                                            "response to first command"):
            play_game_job(job, fake_engine_channel)
    assert sorted(os.listdir(tmp_path / "void")) == ["g1.sgf", "g1_2.sgf"]
    root = read_root(tmp_path / "void" / "g1.sgf")
    assert root.get("RE") == "Void"
    assert (root.get("PB"), root.get("PW")) == ("pb", "pw")
    assert not (tmp_path / "games").exists()


@pytest.mark.parametrize("exc", [
    GtpChannelClosed("error reading response to 'known_command x' from player pw: engine has "
                     "closed the response channel"),
    BadGtpResponse("failure response from 'x' to player pw: no", "x", (), "no"),
])
def test_an_engine_failure_the_referee_let_through_is_a_void_game_not_a_bug(
        tmp_path, monkeypatch, exc):
    # Any engine failure reaching the job is the engine's fault: a void game with its record.
    def play(self, *args):
        raise exc
    monkeypatch.setattr(Referee, "play", play)
    with pytest.raises(JobFailed, match=f"^aborting game due to error: {re.escape(str(exc))}$"):
        play_game_job(make_job(tmp_path), fake_engine_channel)
    root = read_root(tmp_path / "void" / "g1.sgf")
    assert root.get("RE") == "Void" and str(exc) in root.get("C")


def test_void_game_without_records_writes_nothing(tmp_path):
    job = make_job(tmp_path, w_options=("--exit-at-start",), sgf_dirname=None,
                   void_sgf_dirname=None)
    with pytest.raises(JobFailed):
        play_game_job(job, fake_engine_channel)
    assert os.listdir(tmp_path) == []


def test_refused_fixed_handicap_voids_the_game(tmp_path):
    # The fake engine answers fixed_handicap with no stones.
    job = make_job(tmp_path, board_size=9, handicap=2)
    with pytest.raises(JobFailed, match="bad response from fixed_handicap command to player pb"):
        play_game_job(job, fake_engine_channel)
    assert os.listdir(tmp_path / "void") == ["g1.sgf"]


@pytest.mark.parametrize("coordinator_syncs", [False, True])
def test_a_game_record_is_synced_by_its_worker_or_left_to_the_coordinator(
        tmp_path, fsync_targets, coordinator_syncs):
    job = GameJob("g1", PlayerSpec("p", tuple(fake_engine_command())),
                  PlayerSpec("q", tuple(fake_engine_command("--name", "q"))),
                  board_size=5, komi=0.5, use_internal_scorer=True,
                  sgf_dirname=str(tmp_path / "games"),
                  coordinator_syncs_record=coordinator_syncs)
    synced = fsync_targets
    result = play_game_job(job, fake_engine_channel)
    record = str(tmp_path / "games" / "g1.sgf")
    assert sgf.Sgf_game.from_bytes(open(record, "rb").read()).get_root().get("RE")
    assert result.record == record and result.record_attempt is None
    assert result.record_synced is not coordinator_syncs
    if coordinator_syncs:
        assert synced == []
    else:
        assert synced[-1] == str(tmp_path / "games")   # the directory, after the file


def test_a_record_to_commit_is_written_under_its_attempts_own_name(tmp_path):
    # Each attempt at a game writes its own file; only the coordinator renames one into place.
    job = make_job(tmp_path, commit_record=True)
    first, second = play_game_job(job, fake_engine_channel), play_game_job(job, fake_engine_channel)
    games = tmp_path / "games"
    assert first.record == second.record == str(games / "g1.sgf")
    assert first.record_attempt != second.record_attempt
    assert sorted(os.listdir(games)) == sorted(os.path.basename(r.record_attempt)
                                               for r in (first, second))
    assert all(name.startswith(".g1.sgf.") and name.endswith(TEMP_SUFFIX) for name in os.listdir(games))


def test_the_coordinator_syncs_each_attempt_before_the_save_that_counts_its_game(
        write_ctl, fsync_targets):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(),
                               games=3, extra=""))
    synced = fsync_targets
    assert invoke("run", ctl, "-q", channel_factory=fake_engine_channel).exit_code == 0
    directory, games = os.path.dirname(os.path.realpath(ctl)), os.path.realpath(ctl[:-4] + ".games")

    def is_state(path):   # the journal, or the temporary file a new FILE.status is written to
        return os.path.dirname(path) == directory and (
            path.endswith(".journal") or os.path.basename(path).startswith(".comp.status."))

    for n in range(3):
        # The record is synced under its attempt's name: the game isn't counted yet.
        record = next(i for i, p in enumerate(synced) if os.path.dirname(p) == games
                      and os.path.basename(p).startswith(f".0_{n}.sgf.")
                      and p.endswith(".attempt" + TEMP_SUFFIX))
        assert synced[record + 1] == games        # its name made durable too
        # Saves before it: one for each game before; the next one counts this game.
        assert len([p for p in synced[:record] if is_state(p)]) == n
        save = next(i for i in range(record + 2, len(synced)) if is_state(synced[i]))
        assert [p for p in synced[record + 2:save] if os.path.dirname(p) == games] == []
        # Then it is renamed to its own name, and that made durable.
        assert games in synced[save + 1:]
    assert sorted(os.listdir(games)) == ["0_0.sgf", "0_1.sgf", "0_2.sgf"]


def test_a_second_result_for_a_counted_game_is_ignored_and_its_record_never_stands(write_ctl):
    # As when Dask plays a delivered task again, or an orphaned attempt finishes late.
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command("--name", "b2"),
                               games=2, extra=""))
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    job = ringmaster.get_job()
    first = play_game_job(job, fake_engine_channel)
    late = play_game_job(job, fake_engine_channel)
    ringmaster.process_response(first)
    record = Path(first.record).read_bytes()
    assert not os.path.exists(first.record_attempt)
    ringmaster.process_response(late)
    assert Path(first.record).read_bytes() == record
    assert os.path.exists(late.record_attempt)   # left for the next run's clean-up
    assert [g.game_id for g in ringmaster.game_index] == [job.game_id]
    assert ringmaster.competition.games_played() == 1


def test_only_a_cluster_leaves_each_record_to_its_worker_to_sync(write_ctl):
    ctl = write_ctl(CTL.format(good=fake_engine_command(), bad=fake_engine_command(),
                               games=2, extra=""))
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    assert ringmaster.get_job().coordinator_syncs_record is True
    # A Dask worker writes on its own machine: this process's fsync wouldn't reach it.
    ringmaster.cluster = object()
    assert ringmaster.get_job().coordinator_syncs_record is False
