"""Games at a time control: fake engines that overrun by known amounts, list no time command,
never answer, or fail time commands; what each engine is told, and when; reuse under a clock."""

from __future__ import annotations

import pytest
from sgfmill import sgf

from ringmaster.game import engine_pool
from ringmaster.game.clock import parse_time_control
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.play import play_game_job
from ringmaster.game.timekeeper import GameClock
from tests.fakes.channels import EngineChannel, fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command

TIMED = ("--time-commands", "kgs-time_settings,time_left")


def make_job(tmp_path, b_options=(), w_options=(), control="per_move 1", *, w_control=None,
             margin=0.25, reuse=False, game_id="g1", **changes) -> GameJob:
    settings = dict(
        game_id=game_id, board_size=5, komi=0.5, use_internal_scorer=True,
        player_b=PlayerSpec("pb", tuple(fake_engine_command(*b_options)), timeout=2, reuse=reuse),
        player_w=PlayerSpec("pw", tuple(fake_engine_command("--name", "white", *w_options)),
                            timeout=2, reuse=reuse),
        sgf_dirname=str(tmp_path / "games"), void_sgf_dirname=str(tmp_path / "void"),
        time_control_b=parse_time_control(control),
        time_control_w=parse_time_control(w_control or control), time_margin=margin)
    settings.update(changes)
    return GameJob(**settings)


class WriteRecordingChannel(EngineChannel):
    """An in-process fake engine's channel that records each write's commands together."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.writes: list[list[str]] = []

    def send_commands(self, commands) -> None:
        self.writes.append([" ".join((c,) + tuple(a)) for c, a in commands])
        for command, arguments in commands:
            self.send_command(command, arguments)


class RecordingFactory:
    """fake_engine_channel, with each player's channel kept (WriteRecordingChannel)."""

    def __init__(self) -> None:
        self.channels: dict[str, list[WriteRecordingChannel]] = {}

    def __call__(self, spec, env, stderr):
        base = fake_engine_channel(spec, env, stderr)
        channel = WriteRecordingChannel(base.engine, base._first_error)
        self.channels.setdefault(spec.code, []).append(channel)
        return channel


def play(job, factory=fake_engine_channel):
    return play_game_job(job, factory)


# Losses on time

def test_a_move_over_time_by_more_than_the_margin_loses_on_time(tmp_path, virtual_time):
    response = play(make_job(tmp_path, w_options=("--think-on", "3", "1.3")))
    result = response.game_result
    assert (result.winning_colour, result.sgf_result) == ("b", "B+T")
    assert result.is_time_loss and not result.is_forfeit
    assert result.detail == "lost on time by pw: took 1.30s with 1.00s left (margin 0.25s)"
    assert response.moves == 5   # black's 3 moves and white's first 2: the late move isn't played
    assert response.warnings == []


def test_a_move_over_time_within_the_margin_stands(tmp_path, virtual_time):
    response = play(make_job(tmp_path, w_options=("--think-on", "3", "1.2")))
    assert not response.game_result.is_time_loss
    assert response.game_result.sgf_result[1:] not in ("+T", "+F")
    assert response.clock_use["pw"].longest == pytest.approx(1.2)


def test_the_margin_is_the_jobs(tmp_path, virtual_time):
    response = play(make_job(tmp_path, w_options=("--think-on", "3", "1.2"), margin=0.1))
    assert response.game_result.sgf_result == "B+T"
    response = play(make_job(tmp_path, w_options=("--think-on", "3", "1.4"), margin=0.5))
    assert not response.game_result.is_time_loss


def test_main_time_runs_down_over_the_moves(tmp_path, virtual_time):
    # 0.3s a move against 3s: the 11th move is over by 0.3 (lost), the 10th was exactly on time.
    response = play(make_job(tmp_path, b_options=("--think", "0.3"), control="absolute 3"))
    assert response.game_result.sgf_result == "W+T"
    assert response.game_result.detail.startswith("lost on time by pb: took 0.30s with 0.00s left")
    assert response.moves == 20
    use = response.clock_use["pb"]
    assert use.moves == 11 and use.total == pytest.approx(3.3) and use.left == 0


def test_an_engine_that_lists_no_time_command_is_timed_all_the_same(tmp_path, virtual_time):
    factory = RecordingFactory()
    response = play(make_job(tmp_path, w_options=("--think-on", "2", "2")), factory)
    assert response.game_result.sgf_result == "B+T"
    log = factory.channels["pw"][0].log
    assert not any(line.startswith(("time_settings", "kgs-", "kata-", "time_left")) for line in log)


def test_an_engine_that_never_answers_is_killed_and_loses_on_time(tmp_path, virtual_time):
    response = play(make_job(tmp_path, w_options=("--hang-on", "2")))
    result = response.game_result
    assert result.sgf_result == "B+T" and not result.is_forfeit
    assert result.detail == ("lost on time by pw: no answer within 1.00s left, margin 0.25s "
                             "and grace 2s (the engine was killed)")
    use = response.clock_use["pw"]
    assert (use.moves, use.longest, use.left) == (2, pytest.approx(3.25), 0)


def test_an_untimed_side_that_never_answers_forfeits_as_before(tmp_path, virtual_time):
    response = play(make_job(tmp_path, w_options=("--hang-on", "2"), w_control="none"))
    assert response.game_result.sgf_result == "B+F"


def test_an_untimed_side_may_take_its_time(tmp_path, virtual_time):
    job = make_job(tmp_path, w_options=("--think", "5"), w_control="none")
    response = play(job)
    assert not response.game_result.is_time_loss
    assert set(response.clock_use) == {"pb"}


def test_failure_responses_to_time_commands_are_logged_once_not_forfeits(tmp_path, virtual_time):
    options = ("--time-commands", "time_settings,time_left", "--fail-command", "time_settings",
               "--fail-command", "time_left")
    response = play(make_job(tmp_path, w_options=options))
    assert not response.game_result.is_forfeit and not response.game_result.is_time_loss
    assert response.moves > 10
    assert len(response.warnings) == 2
    assert response.warnings[0].startswith("game g1: failure response from 'time_settings 0 1 1' "
                                           "to player pw: time_settings refused")
    assert response.warnings[1].startswith("game g1: failure response from 'time_left w 1 1'")
    assert all("said once per engine" in w for w in response.warnings)


# What the engines are told

def test_settings_follow_the_set_up_and_time_left_goes_with_each_genmove(tmp_path, virtual_time):
    factory = RecordingFactory()
    play(make_job(tmp_path, b_options=TIMED + ("--think", "0.5"), control="byoyomi 2 1 2"),
         factory)
    channel = factory.channels["pb"][0]
    set_up = next(write for write in channel.writes if "clear_board" in write)
    assert set_up == ["boardsize 5", "clear_board", "komi 0.5", "kgs-time_settings byoyomi 2 1 2"]
    genmoves = [write for write in channel.writes if write[-1] == "genmove b"]
    assert genmoves[0] == ["time_left b 2 0", "genmove b"]
    assert genmoves[1][0] == "play w B1" and genmoves[1][1:] == ["time_left b 1 0", "genmove b"]
    assert genmoves[2][1:] == ["time_left b 1 0", "genmove b"]   # 1.0 left, floored
    assert genmoves[3][1:] == ["time_left b 1 2", "genmove b"]   # main time spent: a period
    assert all(write[-2] == "time_left b 1 2" for write in genmoves[4:])


def test_each_engine_is_told_by_the_command_it_lists(tmp_path, virtual_time):
    factory = RecordingFactory()
    play(make_job(tmp_path, b_options=("--time-commands", "kata-time_settings,time_settings"),
                  w_options=("--time-commands", "time_settings,time_left"),
                  control="fischer 30 1.5"), factory)
    b_log, w_log = factory.channels["pb"][0].log, factory.channels["pw"][0].log
    assert "kata-time_settings fischer 30 1.5" in b_log
    assert not any(line.startswith("time_left") for line in b_log)   # it doesn't list time_left
    assert "time_settings 28 1 1" in w_log
    assert "time_left w 28 0" in w_log


def test_time_odds_give_each_side_its_own_clock(tmp_path, virtual_time):
    factory = RecordingFactory()
    response = play(make_job(tmp_path, b_options=TIMED, w_options=TIMED, control="absolute 30",
                             w_control="absolute 10"), factory)
    assert "kgs-time_settings absolute 30" in factory.channels["pb"][0].log
    assert "kgs-time_settings absolute 10" in factory.channels["pw"][0].log
    assert response.clock_use["pw"].left == pytest.approx(10)   # the fake thinks in no time
    root = sgf.Sgf_game.from_bytes(open(tmp_path / "games" / "g1.sgf", "rb").read()).get_root()
    assert not root.has_property("TM")
    assert "Black time control: absolute 30 (margin 0.25s)" in root.get("C")
    assert "White time control: absolute 10 (margin 0.25s)" in root.get("C")


# Reuse and replays

def test_a_kept_engine_starts_each_game_with_a_full_clock_and_is_warned_about_once(
        tmp_path, virtual_time):
    factory = RecordingFactory()
    options = TIMED + ("--fail-command", "time_left", "--think", "0.2")
    try:
        first = play(make_job(tmp_path, b_options=options, control="absolute 100", reuse=True),
                     factory)
        second = play(make_job(tmp_path, b_options=options, control="absolute 100", reuse=True,
                               game_id="g2"), factory)
    finally:
        engine_pool.current_pool().close_all()
    assert len(factory.channels["pb"]) == 1    # one engine, kept
    log = factory.channels["pb"][0].log
    settings = [i for i, line in enumerate(log) if line.startswith("kgs-time_settings")]
    assert len(settings) == 2
    assert log[settings[1] + 1:].index("time_left b 100 0") < 3   # full again in the second game
    assert log.count("list_commands") == 1
    assert [w for w in first.warnings if "time_left" in w] and \
        not [w for w in second.warnings if "time_left" in w]


def test_each_game_has_its_own_clock():
    control = parse_time_control("absolute 10")
    first = GameClock({"b": control, "w": None}, {"b": "p", "w": "q"}, 0.25)
    first.charge("b", 4)
    second = GameClock({"b": control, "w": None}, {"b": "p", "w": "q"}, 0.25)
    assert second.use["b"].left == 10 and first.use["b"].left == pytest.approx(6)
    assert not second.is_timed("w") and second.charge("w", 100) is None


# Real engine processes and real time (the losses hold however long this process is paused)

@pytest.mark.integration
def test_a_sleeping_engine_costs_seconds_not_the_run(tmp_path, no_leftover_processes):
    marker = ("--name", no_leftover_processes)
    job = make_job(tmp_path, b_options=marker, w_options=marker + ("--hang-on", "2"),
                   control="per_move 0.5")
    response = play_game_job(job)
    result = response.game_result
    assert result.sgf_result == "B+T" and "(the engine was killed)" in result.detail


@pytest.mark.integration
def test_a_late_answer_loses_on_time_and_the_engine_lives_on(tmp_path, no_leftover_processes):
    marker = ("--name", no_leftover_processes)
    try:
        response = play_game_job(make_job(tmp_path, b_options=marker,
                                          w_options=marker + ("--think-on", "2", "1.2"),
                                          control="per_move 0.5", reuse=True))
        result = response.game_result
        assert result.sgf_result == "B+T" and "took" in result.detail
        assert len(engine_pool.current_pool()) == 2   # answered, so it may be kept
    finally:
        engine_pool.current_pool().close_all()
