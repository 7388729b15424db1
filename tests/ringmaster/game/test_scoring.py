"""Scoring: dead stones the players agree on come off; disputes go to the referee engine or get no result."""

from __future__ import annotations

import pytest

from ringmaster.game.referee import Referee
from ringmaster.game.referee_engine import RefereeEngine
from ringmaster.game.result import GameResult, unknown_reasons
from ringmaster.game.scoring import EnginePlayer, ScoreBounds, parse_dead_stones, parse_score
from ringmaster.gtp.channel import GtpChannelClosed
from ringmaster.gtp.controller import GtpController
from ringmaster.rules.go import GoRules
from tests.fakes.channels import EngineChannel, gtp_failure, programmed_engine, raiser

# 5x5: Black walls off columns A-C, White D-E; then White leaves a dead stone at A3.
# Counted alive, A3 spoils Black's area: W+6.5. Taken off: B+4.5.
BLACK = ["C1", "C2", "C3", "C4", "C5", "pass", "pass"]
WHITE = ["D1", "D2", "D3", "D4", "D5", "A3", "pass"]


def engine_player(colour, moves, *, dead="", extra=None, reliable=True):
    engine = programmed_engine(moves, name=colour, dead=dead, extra=extra)
    channel = EngineChannel(engine)
    return EnginePlayer(colour + "p", GtpController(channel, f"player {colour}p"),
                        is_reliable_scorer=reliable), channel


def referee_engine(*, dead="A3", score=None, fail_on=None):
    """A referee engine in-process: its channel's log shows what it was told."""
    extra = {} if score is None else {"final_score": lambda args: score}
    if fail_on is not None:
        extra[fail_on] = raiser(GtpChannelClosed("engine has closed the response channel"))
    channel = EngineChannel(programmed_engine([], name="referee", dead=dead, extra=extra))
    launched = []

    def launch():
        launched.append(1)
        return GtpController(channel, "player referee")
    engine = RefereeEngine(launch, [("boardsize", "5"), ("clear_board",), ("komi", "0.5")])
    return engine, channel, launched


def play(b_dead="", w_dead="", *, internal=True, referee=None, b_extra=None, w_extra=None,
         reliable=(True, True)):
    (b, _), (w, _) = (engine_player("b", BLACK, dead=b_dead, extra=b_extra, reliable=reliable[0]),
                      engine_player("w", WHITE, dead=w_dead, extra=w_extra, reliable=reliable[1]))
    return Referee(GoRules(5), {"b": b, "w": w}, komi=0.5, move_limit=100,
                   use_internal_scorer=internal, referee_engine=referee).play()


def test_dead_stones_both_players_list_come_off():
    record = play("A3", "A3")
    assert (record.winning_colour, record.sgf_result) == ("b", "B+4.5")
    assert record.detail is None
    assert "dead stones taken off (both players): A3" in record.notes


def test_with_no_dead_stone_listed_every_stone_counts():
    record = play("", "")
    assert record.sgf_result == "W+6.5" and record.notes == []


def test_a_dispute_over_dead_stones_leaves_no_result_and_says_why():
    record = play("A3", "")
    assert record.winning_colour is None and record.sgf_result == "?"
    assert record.detail == "dead stones disputed: bp said A3, wp said none"
    assert "dead stones by bp: A3" in record.notes and "dead stones by wp: none" in record.notes
    result = GameResult("0_1", "bp", "wp", None, "?", record.detail)
    (line,) = unknown_reasons([result])
    assert line.startswith("dead stones disputed: 1 game (e.g. 0_1: bp said A3, wp said none)")
    assert "referee = Player(" in line


@pytest.mark.parametrize("b_dead, reliable, reason", [
    (None, (True, True), "dead stones unknown: bp: it has no final_status_list command"),
    ("A3 B2", (True, True), "dead stones unknown: bp: its final_status_list dead is wrong: "
                            "B2 has no stone"),
    ("A3 Z9", (True, True), "dead stones unknown: bp: its final_status_list dead is wrong"),
    ("A3", (False, True), "dead stones unknown: bp: is_reliable_scorer is False"),
])
def test_a_player_that_cant_list_its_dead_stones_leaves_no_result(b_dead, reliable, reason):
    record = play(b_dead, "A3", reliable=reliable)
    assert record.sgf_result == "?" and record.detail.startswith(reason)


def test_a_failure_response_to_final_status_list_is_no_list():
    record = play("A3", "A3", w_extra={"final_status_list": gtp_failure("oops")})
    assert record.sgf_result == "?" and record.detail.startswith("dead stones unknown: wp: ")


def test_the_referee_engine_settles_a_dispute_having_followed_the_game():
    engine, channel, launched = referee_engine(dead="A3")
    record = play("A3", "", referee=engine)
    assert record.sgf_result == "B+4.5" and record.detail is None
    assert "dead stones taken off (the referee engine): A3" in record.notes
    assert len(launched) == 1
    plays = [line for line in channel.log if line.startswith("play")]
    assert channel.log[:3] == ["boardsize 5", "clear_board", "komi 0.5"]
    assert plays == [f"play {c} {m}" for pair in zip(BLACK, WHITE) for c, m in zip("bw", pair)]
    assert channel.log[-1] == "final_status_list dead"


def test_the_referee_engine_isnt_started_when_the_players_agree():
    engine, channel, launched = referee_engine()
    assert play("A3", "A3", referee=engine).sgf_result == "B+4.5"
    assert launched == [] and channel.log == []


def test_a_referee_engine_without_a_dead_list_gives_its_final_score():
    engine, _, _ = referee_engine(dead=None, score="B+4.5")
    record = play("A3", "", referee=engine)
    assert record.sgf_result == "B+4.5"
    assert any("its final_score: B+4.5" in note for note in record.notes)


def test_a_referee_engine_that_fails_leaves_no_result():
    engine, _, _ = referee_engine(fail_on="final_status_list")
    record = play("A3", "", referee=engine)
    assert record.sgf_result == "?"
    assert record.detail.startswith("the referee engine failed: ")
    assert engine.failure is not None


def test_the_players_disagreeing_on_final_score_go_to_the_referee_engine():
    engine, _, _ = referee_engine(score="W+6.5")
    record = play(internal=False, referee=engine,
                  b_extra={"final_score": lambda args: "B+4.5"},
                  w_extra={"final_score": lambda args: "W+6.5"})
    assert record.sgf_result == "W+6.5" and record.detail is None
    assert "final_score from the referee engine: W+6.5" in record.notes
    record = play(internal=False, b_extra={"final_score": lambda args: "B+4.5"},
                  w_extra={"final_score": lambda args: "W+6.5"})
    assert record.sgf_result == "?" and record.detail.startswith("players disagreed")


def test_dead_stone_lists_are_checked_on_our_board():
    rules = GoRules(5)
    rules.play("b", (0, 0))
    rules.play("w", (4, 4))
    assert parse_dead_stones("A1\nE5  A1", rules) == {(0, 0), (4, 4)}
    assert parse_dead_stones("", rules) == set()
    for bad, message in (("B1", "B1 has no stone"), ("pass", "'pass' is not a stone"),
                         ("F6", None)):
        with pytest.raises(ValueError, match=message):
            parse_dead_stones(bad, rules)


@pytest.mark.parametrize("dead", ["Z99 banana", "A1 A1 A1", "B2"])
def test_a_referee_engine_whose_dead_list_is_wrong_leaves_no_result(dead):
    # Its final_score is asked only when it has no final_status_list, not when its list is
    # nonsense: the score of an engine that can't read the board is no better than its list.
    engine, channel, _ = referee_engine(dead=dead, score="0")
    record = play("A3", "", referee=engine)
    assert (record.winning_colour, record.sgf_result) == (None, "?")
    assert record.detail.startswith("the referee engine failed: its final_status_list dead is wrong")
    assert "final_score" not in channel.log


@pytest.mark.parametrize("score, reason", [
    ("0", "0 is no whole number of points less komi 0.5"),
    ("B+4", "B+4 is no whole number of points less komi 0.5"),
    ("W+9999.5", "W+9999.5 is more than the board allows (36.5)"),
])
def test_a_referee_engine_without_a_dead_list_gives_no_impossible_score(score, reason):
    engine, _, _ = referee_engine(dead=None, score=score)
    record = play("A3", "", referee=engine)
    assert record.sgf_result == "?"
    assert record.detail == f"the referee engine failed: its final_score is impossible: {reason}"


def test_a_players_impossible_final_score_counts_as_none():
    record = play(internal=False, b_extra={"final_score": lambda args: "B+4"},
                  w_extra={"final_score": lambda args: "W+6.5"})
    assert (record.sgf_result, record.detail) == ("W+6.5", None)
    assert record.late_errors == [
        "player bp gave an impossible final_score: B+4 is no whole number of points less komi 0.5"]
    engine, _, _ = referee_engine(score="B+4.5")
    record = play(internal=False, referee=engine, b_extra={"final_score": lambda args: "0"},
                  w_extra={"final_score": lambda args: "W+200.5"})
    assert (record.sgf_result, record.detail) == ("B+4.5", None)   # neither claim counts
    assert "final_score from the referee engine: B+4.5" in record.notes


def test_a_score_must_be_whole_points_less_komi_and_no_more_than_the_board_holds():
    bounds = ScoreBounds(board_points=81, komi=7.5, stones_placed=60)
    assert bounds.impossible(*parse_score("W+7.5")) is None
    assert bounds.impossible(*parse_score("B+0.5")) is None
    assert bounds.impossible(*parse_score("W+")) is None        # a winner without a margin
    assert bounds.impossible(*parse_score("W+148.5")) is None   # 81 + 60 prisoners + 7.5
    assert bounds.impossible(*parse_score("W+149.5")) == "W+149.5 is more than the board allows (148.5)"
    assert bounds.impossible(*parse_score("W+3")) == "W+3 is no whole number of points less komi 7.5"
    assert bounds.impossible(*parse_score("0")) == "0 is no whole number of points less komi 7.5"
    even = ScoreBounds(board_points=81, komi=6, stones_placed=0)
    assert even.impossible(*parse_score("0")) is None and even.impossible(*parse_score("B+3")) is None
    assert even.impossible(*parse_score("B+3.5")) is not None
    assert parse_score("W+0") is None and parse_score("B+0.0") is None   # a winner of a jigo
