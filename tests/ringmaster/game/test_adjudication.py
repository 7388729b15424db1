"""Adjudication on the referee engine's score, the move limit scored by it, and the referee engine itself."""

from __future__ import annotations

import pytest

from ringmaster.game.adjudication import Adjudication, Adjudicator, interpret_adjudication
from ringmaster.game.referee import Referee
from ringmaster.game.referee_engine import RefereeEngine
from ringmaster.game.scoring import EnginePlayer
from ringmaster.gtp.channel import GtpChannelClosed
from ringmaster.gtp.controller import GtpController
from ringmaster.rules.go import GoRules
from tests.fakes.channels import EngineChannel, gtp_failure, programmed_engine, raiser


class Estimates:
    """A referee engine that gives scripted scores, one a question."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.asked = 0

    def final_score(self):
        self.asked += 1
        return self.answers.pop(0)


def test_the_setting_is_checked_and_has_defaults():
    assert interpret_adjudication({"margin": 30}) == Adjudication(30.0, 40, 10, 3)
    assert interpret_adjudication({"margin": 2.5, "after_move": 0, "every": 1, "checks": 1}) == \
        Adjudication(2.5, 0, 1, 1)
    for value, message in (
            (30, "must be a dict"), ({}, "missing key 'margin'"),
            ({"margin": 0}, "'margin': must be a positive number"),
            ({"margin": float("nan")}, "'margin'"), ({"margin": True}, "'margin'"),
            ({"margin": 5, "every": 0}, "'every': must be at least 1"),
            ({"margin": 5, "after_move": -1}, "'after_move': must be at least 0"),
            ({"margin": 5, "checks": 1.5}, "'checks': not an integer"),
            ({"margin": 5, "moves": 3}, "unknown key 'moves'")):
        with pytest.raises(ValueError, match=message):
            interpret_adjudication(value)


def test_checks_fall_every_few_moves_from_after_move():
    adjudicator = Adjudicator(Adjudication(10, after_move=20, every=5), Estimates([]))
    assert [n for n in range(40) if adjudicator.is_due(n)] == [20, 25, 30, 35]


def test_the_margin_must_hold_for_one_side_at_checks_in_a_row():
    answers = [("b", 12.0, "B+12"), ("b", 15.0, "B+15"), ("b", 3.0, "B+3"),   # broken by B+3
               ("b", 20.0, "B+20"), ("w", 30.0, "W+30"),                      # by the other side
               ("w", 11.0, "W+11"), ("w", 10.0, "W+10")]
    adjudicator = Adjudicator(Adjudication(10, checks=3), Estimates(answers))
    decided = [adjudicator.check(n) for n in range(7)]
    assert decided[:6] == [None] * 6
    scored = decided[6]
    assert (scored.winning_colour, scored.sgf_result) == ("w", "W+10")
    assert scored.detail == ("adjudicated: the referee engine's score W+10 after move 6, at least 10 "
                             "at 3 checks in a row")


def test_a_jigo_or_a_failure_stops_the_streak_and_a_failure_stops_the_checks():
    adjudicator = Adjudicator(Adjudication(1, after_move=0, every=1, checks=2),
                              Estimates([("b", 5.0, "B+5"), (None, 0.0, "0"), ("b", 5.0, "B+5"),
                                         "it crashed"]))
    assert [adjudicator.check(n) for n in range(4)] == [None] * 4
    assert adjudicator.failure == "it crashed" and not adjudicator.is_due(5)


def moves_engine(moves, extra=None):
    channel = EngineChannel(programmed_engine(moves, extra=extra))
    return channel


def referee_engine(score_text):
    """An in-process referee engine answering final_score from score_text(number of plays seen)."""
    plays = []
    channel = EngineChannel(programmed_engine([], extra={
        "play": lambda args: plays.append(args),
        "final_score": lambda args: score_text(len(plays))}))
    return RefereeEngine(lambda: GtpController(channel, "player referee"), []), channel


def referee_game(adjudication, referee, move_limit=100):
    b = moves_engine(["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3"])
    w = moves_engine(["E1", "E2", "E3", "E4", "E5", "D1", "D2", "D3"])
    players = {"b": EnginePlayer("bp", GtpController(b, "player bp")),
               "w": EnginePlayer("wp", GtpController(w, "player wp"))}
    adjudicator = None if adjudication is None else Adjudicator(adjudication, referee)
    record = Referee(GoRules(5), players, komi=0.5, move_limit=move_limit, use_internal_scorer=True,
                     referee_engine=referee, adjudicator=adjudicator).play()
    return record, b, w


def test_a_game_is_adjudicated_once_the_margin_holds_and_the_last_move_isnt_sent():
    referee, channel = referee_engine(lambda plays: "B+20" if plays >= 6 else "B+2")
    record, b, w = referee_game(Adjudication(10, after_move=4, every=2, checks=2), referee)
    assert record.is_adjudicated and record.sgf_result == "B+20"
    assert record.detail.startswith("adjudicated: the referee engine's score B+20 after move 8")
    assert len(record.moves) == 8
    assert channel.log.count("final_score") == 3              # after moves 4, 6 and 8
    assert "play b A4" in w.log and "play w E4" not in b.log  # the last move, never sent
    assert [line for line in w.log if line.startswith("genmove")] == ["genmove w"] * 4


def test_at_the_move_limit_the_referee_engine_scores_the_game():
    referee, _ = referee_engine(lambda plays: "W+3.5")
    record, _, _ = referee_game(None, referee, move_limit=6)
    assert record.is_adjudicated and record.sgf_result == "W+3.5"
    assert record.detail == ("adjudicated at the move limit (6 moves): the referee engine's "
                             "score W+3.5")
    record, _, _ = referee_game(None, None, move_limit=6)
    assert (record.sgf_result, record.detail, record.is_adjudicated) == (
        "Void", "hit move limit", False)


def test_an_estimate_larger_than_the_board_allows_is_no_score():
    # 5x5, 6 stones placed, komi 0.5: at most 31.5. An estimate need not be whole points
    # less komi (the game isn't over), so W+3 is taken.
    referee, _ = referee_engine(lambda plays: "W+9999")
    record, _, _ = referee_game(None, referee, move_limit=6)
    assert record.sgf_result == "Void" and not record.is_adjudicated
    assert record.warnings == ["the referee engine couldn't score the game at the move limit: its "
                               "final_score is impossible: W+9999 is more than the board allows (31.5)"]
    referee, _ = referee_engine(lambda plays: "W+3")
    assert referee_game(None, referee, move_limit=6)[0].sgf_result == "W+3"
    referee, channel = referee_engine(lambda plays: "B+500")
    record, _, _ = referee_game(Adjudication(10, after_move=4, every=2, checks=2), referee)
    assert not record.is_adjudicated and channel.log.count("final_score") == 1   # then no more checks


def test_a_referee_engine_that_cant_score_at_the_move_limit_leaves_the_game_void():
    referee, _ = referee_engine(lambda plays: "nonsense")
    record, _, _ = referee_game(None, referee, move_limit=6)
    assert record.sgf_result == "Void" and not record.is_adjudicated
    assert record.warnings == ["the referee engine couldn't score the game at the move limit: "
                               "its final_score is unparsable: 'nonsense'"]


def test_the_referee_engine_is_started_once_and_told_each_move_once():
    launched = []
    channel = EngineChannel(programmed_engine([], extra={"final_score": lambda args: "B+1"}))

    def launch():
        launched.append(1)
        return GtpController(channel, "player referee")
    engine = RefereeEngine(launch, [("boardsize", "9"), ("clear_board",)])
    engine.tell("b", "C3")
    assert launched == [] and channel.log == []
    assert engine.final_score() == ("b", 1.0, "B+1")
    engine.tell("w", "D4")
    engine.tell("b", "pass")
    assert engine.final_score() == ("b", 1.0, "B+1")
    assert launched == [1]
    assert channel.log == ["boardsize 9", "clear_board", "play b C3", "known_command final_score",
                           "final_score", "play w D4", "play b pass", "final_score"]
    assert engine.close() is None and channel.closed


def test_a_referee_engine_that_fails_is_asked_nothing_more():
    channel = EngineChannel(programmed_engine([], extra={
        "play": gtp_failure("illegal move"), "final_score": lambda args: "B+1"}))
    launched = []

    def launch():
        launched.append(1)
        return GtpController(channel, "player referee")
    engine = RefereeEngine(launch, [])
    engine.tell("b", "C3")
    first = engine.final_score()
    assert first == "failure response from 'play b C3' to player referee: illegal move"
    assert engine.failure == first and channel.closed
    assert engine.final_score() == first and engine.dead_stones(GoRules(9)) == first
    assert launched == [1]


def test_a_referee_engine_that_cant_start_fails_the_question():
    def launch():
        raise GtpChannelClosed("error starting subprocess for player referee: no such file")
    engine = RefereeEngine(launch, [])
    assert engine.final_score().startswith("error starting subprocess")
    assert engine.close() is None


def test_a_crash_mid_question_is_a_failure():
    channel = EngineChannel(programmed_engine([], extra={
        "final_score": raiser(GtpChannelClosed("engine has closed the response channel"))}))
    engine = RefereeEngine(lambda: GtpController(channel, "player referee"), [])
    assert "closed the response channel" in engine.final_score()
    assert engine.failure is not None
