"""Whole games refereed between programmed in-process engines: captures, ko, scoring, forfeits."""

from __future__ import annotations

import pytest

from ringmaster.game_results import result_from_score
from ringmaster.gtp.controller import GtpChannelClosed, GtpController, GtpTimeout
from ringmaster.gtp.engine import GtpError
from ringmaster.referee import EnginePlayer, Referee, parse_score
from ringmaster.rules.go import GoRules
from tests.fakes.channels import EngineChannel, gtp_failure, programmed_engine, raiser


def make_referee(b_moves, w_moves, *, size=5, komi=0.5, move_limit=1000, internal=True,
                 b_extra=None, w_extra=None, allow_claim=False, handicap=0,
                 compensation="full", reliable=(True, True)):
    players = {}
    for colour, moves, extra, rel in (("b", b_moves, b_extra, reliable[0]),
                                      ("w", w_moves, w_extra, reliable[1])):
        engine = programmed_engine(moves, name=colour + "-engine", extra=extra)
        controller = GtpController(EngineChannel(engine), f"player {colour}p")
        players[colour] = EnginePlayer(colour + "p", controller, allow_claim, rel)
    rules = GoRules(size)
    referee = Referee(rules, players, komi=komi, move_limit=move_limit,
                      use_internal_scorer=internal, handicap_stones=handicap,
                      handicap_compensation=compensation)
    return referee, rules


def test_capture_and_area_score():
    referee, rules = make_referee(["A2", "B1", "pass"], ["A1", "pass", "pass"])
    record = referee.play()
    assert rules.board.get(0, 0) is None            # A1 was captured
    assert rules.board.get(1, 0) == "b" and rules.board.get(0, 1) == "b"
    assert record.passed_out
    assert (record.winning_colour, record.sgf_result) == ("b", "B+24.5")
    assert [m[1] for m in record.moves][:3] == [(1, 0), (0, 0), (0, 1)]


KO_B = ["B3", "A2", "B1", "E5", "C2"]
KO_W = ["C3", "B2", "C1", "D2", "B2"]


def test_immediate_ko_recapture_is_a_forfeit():
    referee, rules = make_referee(KO_B, KO_W)
    record = referee.play()
    assert record.is_forfeit and record.winning_colour == "b"
    assert record.sgf_result == "B+F"
    assert record.detail == "forfeit by wp: attempted move to ko-forbidden point B2"


def test_ko_can_be_retaken_after_a_move_elsewhere():
    referee, rules = make_referee(KO_B + ["E4", "pass"], KO_W[:-1] + ["E1", "B2", "pass"])
    record = referee.play()
    assert not record.is_forfeit
    assert rules.board.get(1, 1) == "w"   # B2 retaken
    assert rules.board.get(1, 2) is None  # C2 captured


@pytest.mark.parametrize("bad, reason", [
    ("A1", "attempted move to occupied point A1"),
    ("Z99", "attempted ill-formed move Z99"),
    ("F3", "attempted ill-formed move F3"),
])
def test_bad_moves_forfeit(bad, reason):
    referee, _ = make_referee(["A1", "C3"], [bad])
    record = referee.play()
    assert record.is_forfeit and record.sgf_result == "B+F"
    assert record.detail == f"forfeit by wp: {reason}"


def test_genmove_failure_forfeits_with_the_engine_message():
    referee, _ = make_referee(["C3", gtp_failure("cannot think")], ["D4"])
    record = referee.play()
    assert record.sgf_result == "W+F"
    assert record.detail == ("forfeit by bp: failure response from 'genmove b' "
                             "to player bp: cannot think")


def test_timeout_mid_game_forfeits():
    referee, _ = make_referee(["C3"], [raiser(GtpTimeout("no answer"))])
    record = referee.play()
    assert record.sgf_result == "B+F"
    assert "timeout" in record.detail and "genmove w" in record.detail


def test_crash_mid_game_forfeits():
    referee, _ = make_referee(["C3", raiser(GtpChannelClosed("engine has closed the "
                                                             "response channel"))], ["D4"])
    record = referee.play()
    assert record.sgf_result == "W+F"
    assert record.detail.endswith("engine has closed the response channel")


def test_opponent_rejecting_move_as_illegal_forfeits_the_mover():
    referee, _ = make_referee(["C3"], [], w_extra={"play": gtp_failure("illegal move")})
    record = referee.play()
    assert record.sgf_result == "W+F"
    assert record.detail == "forfeit by bp: wp claims move C3 is illegal"


def test_opponent_failing_play_otherwise_forfeits_the_opponent():
    referee, _ = make_referee(["C3"], [], w_extra={"play": gtp_failure("something broke")})
    record = referee.play()
    assert record.sgf_result == "B+F"
    assert record.detail == ("forfeit by wp: failure response from 'play b C3' "
                             "to player wp: something broke")


def test_failure_to_accept_the_final_pass_is_only_a_late_error():
    calls = []

    def play(args):
        calls.append(args)
        if args[1] == "pass" and len(calls) > 1:
            raise GtpError("whatever")
    referee, _ = make_referee(["C3", "pass"], ["pass"], w_extra={"play": play})
    record = referee.play()
    assert not record.is_forfeit and record.passed_out
    assert len(record.late_errors) == 1


def test_resignation():
    referee, _ = make_referee(["C3", "resign"], ["D4"])
    record = referee.play()
    assert (record.winning_colour, record.sgf_result, record.detail) == ("w", "W+R", None)


def test_claim_only_when_allowed_and_supported():
    extra = {"gomill-genmove_ex": lambda args: "claim"}
    referee, _ = make_referee([], ["C3"], b_extra=extra, allow_claim=True)
    record = referee.play()
    assert (record.sgf_result, record.detail) == ("B+", "claim")
    referee, _ = make_referee(["claim"], ["C3"], b_extra=extra, allow_claim=False)
    record = referee.play()
    assert record.detail == "forfeit by bp: attempted ill-formed move claim"


def test_move_limit_gives_void_result_but_passing_out_on_the_limit_is_scored():
    referee, _ = make_referee(["A1", "A3", "A5"], ["C1", "C3", "C5"], move_limit=5)
    record = referee.play()
    assert (record.sgf_result, record.detail, len(record.moves)) == ("Void", "hit move limit", 5)
    referee, _ = make_referee(["A1", "pass"], ["pass"], move_limit=3)
    record = referee.play()
    assert record.passed_out and record.sgf_result.startswith("B+")


def test_integer_komi_can_give_jigo():
    # Black A1..E1 row vs White A5..E5 row: black 10 points (rows 1-2), white 10? Use symmetric.
    b = ["A2", "B2", "C2", "D2", "E2", "pass"]
    w = ["A4", "B4", "C4", "D4", "E4", "pass"]
    referee, _ = make_referee(b, w, komi=0)
    record = referee.play()
    assert (record.winning_colour, record.sgf_result) == (None, "0")


@pytest.mark.parametrize("compensation, expected", [("no", "B+25"), ("full", "B+23"),
                                                    ("short", "B+24")])
def test_handicap_compensation(compensation, expected):
    referee, _ = make_referee(["C3", "pass"], ["pass"], komi=0, handicap=2,
                              compensation=compensation)
    assert referee.play().sgf_result == expected


def scorer(text):
    return {"final_score": lambda args: text}


@pytest.mark.parametrize("b_says, w_says, result, detail", [
    ("B+3.5", None, "B+3.5", None),
    (None, "W+2", "W+2", None),
    ("B+3.5", "b+3.5", "B+3.5", None),
    ("B+3.5", "B+7.5", "B+", "unknown margin"),
    ("B+3.5", "W+2.5", "?", "players disagreed"),
    ("0", "0", "0", None),
    (None, None, "?", "no score reported"),
])
def test_players_scorer(b_says, w_says, result, detail):
    referee, _ = make_referee(["pass"], ["pass"], internal=False,
                              b_extra=scorer(b_says) if b_says else None,
                              w_extra=scorer(w_says) if w_says else None)
    record = referee.play()
    assert (record.sgf_result, record.detail) == (result, detail)


def test_unreliable_scorer_is_not_asked():
    referee, _ = make_referee(["pass"], ["pass"], internal=False, b_extra=scorer("B+9"),
                              w_extra=scorer("W+1"), reliable=(True, False))
    assert referee.play().sgf_result == "B+9"


def test_parse_score():
    assert parse_score("B+3.5") == ("b", 3.5)
    assert parse_score("w+") == ("w", None)
    assert parse_score("0") == (None, 0.0)
    assert parse_score("B+R") is None
    assert parse_score("nonsense") is None


def test_othello_is_scored_by_the_referee_even_when_players_may_score():
    from ringmaster.rules.othello import OthelloRules
    # A whole 4x4 game: each side takes its first legal placement, passing only when forced.
    rules = OthelloRules(4)
    moves = {"b": [], "w": []}
    colour = "b"
    while not rules.is_over():
        placements = rules.legal_placements(colour)
        move = placements[0] if placements else None
        moves[colour].append(rules.format_move(move))
        rules.play(colour, move)
        colour = "w" if colour == "b" else "b"
    asked = []
    players = {}
    for c in ("b", "w"):
        engine = programmed_engine(moves[c], extra={"final_score": lambda args: asked.append(1)
                                                    or "B+100"})
        players[c] = EnginePlayer(c + "p", GtpController(EngineChannel(engine), f"player {c}p"))
    referee = Referee(OthelloRules(4), players, komi=0.5, move_limit=100,
                      use_internal_scorer=False)
    record = referee.play()
    assert record.passed_out and asked == []
    assert record.sgf_result == result_from_score(rules.area_score() - 0.5)[1]
