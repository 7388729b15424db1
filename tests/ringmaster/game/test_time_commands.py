"""The GTP time commands: negotiation per list_commands, and their words for each form."""

from __future__ import annotations

import pytest

from ringmaster.game.clock import after_move, parse_time_control, start
from ringmaster.game.time_commands import (
    KATA,
    KGS,
    STANDARD,
    TimeCommands,
    choose_time_commands,
    lists_command,
    negotiate,
    settings_command,
    time_left_command,
)
from ringmaster.gtp.controller import GtpController
from ringmaster.gtp.engine import GtpEngine
from tests.fakes.channels import EngineChannel, ScriptedChannel, gtp_failure


def engine_listing(*commands: str, list_commands: bool = True) -> tuple[GtpController, EngineChannel]:
    engine = GtpEngine("timed", "1")
    engine.add_commands({command: (lambda args: None) for command in commands})
    if not list_commands:
        engine.add_command("list_commands", gtp_failure("unknown command"))
    channel = EngineChannel(engine)
    return GtpController(channel, "player t"), channel


@pytest.mark.parametrize("listed, expected", [
    ((KATA, KGS, STANDARD, "time_left"), TimeCommands(KATA, True)),
    ((KGS, STANDARD, "time_left"), TimeCommands(KGS, True)),
    ((STANDARD, "time_left"), TimeCommands(STANDARD, True)),
    ((STANDARD,), TimeCommands(STANDARD, False)),
    (("time_left",), TimeCommands(None, False)),
    ((), TimeCommands(None, False)),
])
def test_the_first_settings_command_listed_is_used(listed, expected):
    controller, _ = engine_listing(*listed)
    assert negotiate(controller) == expected


def test_list_commands_is_asked_once_per_engine():
    controller, channel = engine_listing(KGS, "time_left")
    negotiate(controller)
    negotiate(controller)
    assert lists_command(controller, "fixed_handicap") is False
    assert channel.log == ["list_commands"]


def test_an_alias_counts_under_the_command_it_stands_for():
    controller, _ = engine_listing("my-time_settings")
    controller.aliases = {STANDARD: "my-time_settings"}
    assert negotiate(controller) == TimeCommands(STANDARD, False)


def test_without_list_commands_each_command_is_asked_about():
    controller, channel = engine_listing(STANDARD, "time_left", list_commands=False)
    assert negotiate(controller) == TimeCommands(STANDARD, True)
    assert channel.log[0] == "list_commands"
    assert "known_command kata-time_settings" in channel.log


def test_choose_needs_no_engine():
    assert choose_time_commands({KGS}.__contains__) == TimeCommands(KGS, False)


def test_negotiation_reads_list_commands_words():
    channel = ScriptedChannel([("list_commands", (False, "genmove\nkgs-time_settings\ntime_left"))])
    controller = GtpController(channel, "player s")
    assert negotiate(controller) == TimeCommands(KGS, True)
    channel.assert_done()


# The settings commands

@pytest.mark.parametrize("text, kata, kgs, standard", [
    ("absolute 60", "absolute 60", "absolute 60", "60 0 0"),
    ("absolute 59.9", "absolute 59.9", "absolute 59", "59 0 0"),
    ("absolute 0.5", "absolute 0.5", "absolute 1", "1 0 0"),
    ("canadian 600 300 25", "canadian 600 300 25", "canadian 600 300 25", "600 300 25"),
    ("byoyomi 60 30 5", "byoyomi 60 30 5", "byoyomi 60 30 5", "180 30 1"),
    ("fischer 60 2", "fischer 60 2", "canadian 58 2 1", "58 2 1"),
    ("fischer 60 0", "fischer 60 0", "absolute 60", "60 0 0"),
    ("fischer 1 2", "fischer 1 2", "canadian 0 2 1", "0 2 1"),
    ("per_move 2.5", "canadian 0 2.5 1", "canadian 0 2 1", "0 2 1"),
    ("canadian 0.0004 1 1", "canadian 0 1 1", "canadian 1 1 1", "1 1 1"),
])
def test_settings_commands_for_each_form(text, kata, kgs, standard):
    control = parse_time_control(text)
    assert " ".join(settings_command(KATA, control)) == f"{KATA} {kata}"
    assert " ".join(settings_command(KGS, control)) == f"{KGS} {kgs}"
    assert " ".join(settings_command(STANDARD, control)) == f"{STANDARD} {standard}"


def test_standard_commands_take_integers():
    for text in ("absolute 60.7", "canadian 10.5 3.3 2", "byoyomi 1.5 2.5 3", "fischer 9.9 1.1",
                 "per_move 0.3"):
        control = parse_time_control(text)
        for command in (KGS, STANDARD):
            for word in settings_command(command, control)[1:]:
                assert word in ("absolute", "canadian", "byoyomi") or word.isdigit()


# time_left

def left(command: str, text: str, times: list[float], margin: float = 0.0) -> str:
    control = parse_time_control(text)
    state = start(control)
    for elapsed in times:
        state = after_move(control, state, elapsed, margin)
    return " ".join(time_left_command(command, control, state, "b")[1:])


@pytest.mark.parametrize("command, text, times, expected", [
    (STANDARD, "absolute 60", [10.6], "b 49 0"),
    (KATA, "absolute 60", [10.6], "b 49.4 0"),
    (STANDARD, "canadian 10 20 3", [4], "b 6 0"),
    (STANDARD, "canadian 10 20 3", [12], "b 18 2"),
    (KGS, "byoyomi 10 5 3", [4], "b 6 0"),
    (KGS, "byoyomi 10 5 3", [16], "b 5 2"),
    (KATA, "byoyomi 10 5 3", [16], "b 5 2"),
    # time_settings is told byo-yomi as main time with all periods but the last...
    (STANDARD, "byoyomi 10 5 3", [4], "b 16 0"),
    (STANDARD, "byoyomi 10 5 3", [11], "b 10 0"),
    (STANDARD, "byoyomi 10 5 3", [16], "b 5 0"),
    # ...then the last period, for one stone a period
    (STANDARD, "byoyomi 10 5 3", [21], "b 5 1"),
    (STANDARD, "byoyomi 10 5 3", [21, 4], "b 5 1"),
    # Fischer as main time less an increment, then periods of one increment
    (KATA, "fischer 10 2", [3], "b 9 0"),
    (STANDARD, "fischer 10 2", [3], "b 7 0"),
    (KGS, "fischer 10 2", [3, 8], "b 1 0"),
    (KGS, "fischer 10 2", [3, 9], "b 2 1"),
    (STANDARD, "per_move 3", [1], "b 3 1"),
    (KATA, "per_move 2.5", [], "b 2.5 1"),
])
def test_time_left_for_each_command_and_form(command, text, times, expected):
    assert left(command, text, times) == expected


@pytest.mark.parametrize("command, text, times, expected", [
    (STANDARD, "canadian 10 20 3", [10], "b 20 3"),
    (STANDARD, "canadian 10 20 3", [9.5], "b 20 3"),     # 0.5 left: rounds down to 0
    (KGS, "byoyomi 10 5 3", [10], "b 5 3"),
    (KGS, "byoyomi 10 5 3", [9.7], "b 5 3"),
    (KATA, "canadian 10 20 3", [10], "b 20 3"),
    (STANDARD, "byoyomi 0 5 1", [], "b 5 1"),
])
def test_time_left_is_never_zero_zero_at_the_end_of_main_time(command, text, times, expected):
    assert left(command, text, times) == expected


def test_an_absolute_clock_run_out_says_zero():
    assert left(STANDARD, "absolute 10", [10.1], margin=0.25) == "b 0 0"
