"""Refereed games: programmed in-process engines (ko, scoring, forfeits, forced passes), and GRhino."""

from __future__ import annotations

import json
import os

import pytest
from sgfmill import sgf

from ringmaster.game.clock import parse_time_control
from ringmaster.game.referee import FORCED_PASS_COMMENT, Referee
from ringmaster.game.result import result_from_score
from ringmaster.game.scoring import EnginePlayer, parse_score
from ringmaster.game.timekeeper import GameClock
from ringmaster.gtp.channel import GtpChannelClosed, GtpProtocolError, GtpTimeout, GtpTransportError
from ringmaster.gtp.controller import GtpController
from ringmaster.gtp.engine import GtpError
from ringmaster.rules.go import GoRules
from ringmaster.rules.othello import OthelloRules
from tests.fakes.channels import EngineChannel, gtp_failure, programmed_engine, raiser
from tests.fakes.cli import invoke


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
    ("", "attempted ill-formed move (an empty response)"),
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


def test_opponent_rejecting_a_move_no_ruleset_forbids_forfeits_the_opponent():
    # An engine can't win by calling its opponent's plain moves illegal: C3 on an empty board.
    referee, _ = make_referee(["C3"], [], w_extra={"play": gtp_failure("illegal move")})
    record = referee.play()
    assert record.sgf_result == "B+F"
    assert record.detail == "forfeit by wp: wp claims move C3 is illegal, which no ruleset forbids"


def refusing(vertex: str):
    """A play command that refuses vertex as illegal, and takes every other move."""
    def play(args: list[str]) -> None:
        if args[1].upper() == vertex:
            raise GtpError("illegal move")
    return play


def test_opponent_rejecting_a_self_capture_as_illegal_forfeits_the_mover():
    # Our rules allow A1 into White's corner (it captures nothing); most rulesets forbid it.
    referee, rules = make_referee(["C3", "D4", "A1"], ["A2", "B1"], w_extra={"play": refusing("A1")})
    record = referee.play()
    assert (record.sgf_result, record.detail) == ("W+F", "forfeit by bp: wp claims move A1 is illegal")
    assert rules.board.get(0, 0) is None   # played on our board, and taken off


def test_the_go_rules_say_which_moves_other_rulesets_may_forbid():
    rules = GoRules(5)
    rules.set_handicap([(0, 1), (1, 0)])   # Black at B1 and A2
    plays = [("w", (2, 2), False),         # a placement on an empty point
             ("w", None, False),           # a pass
             ("w", (0, 0), True),          # White's self-capture in Black's corner: the position repeats
             ("b", (4, 4), False),
             ("w", (0, 2), False), ("w", (1, 1), False),
             ("w", (0, 0), False)]         # the same point, now a capture of B1: legal everywhere
    for colour, move, disputable in plays:
        assert rules.check_move(colour, move) is None
        rules.play(colour, move)
        assert rules.rulesets_differ_on_last_move() is disputable, (colour, move)
    assert rules.board.get(0, 1) is None and rules.board.get(0, 0) == "w"


def test_opponent_failing_play_otherwise_forfeits_the_opponent():
    referee, _ = make_referee(["C3"], [], w_extra={"play": gtp_failure("something broke")})
    record = referee.play()
    assert record.sgf_result == "B+F"
    assert record.detail == ("forfeit by wp: failure response from 'play b C3' "
                             "to player wp: something broke")


class WriteRecorder(EngineChannel):
    """An EngineChannel that records what each write carried, as a subprocess channel sends it."""

    def __init__(self, engine) -> None:
        super().__init__(engine)
        self.writes: list[list[str]] = []

    def send_commands(self, commands) -> None:
        self.writes.append([" ".join((c,) + tuple(a)) for c, a in commands])
        for command, arguments in commands:
            self.send_command(command, arguments)


def recorded_referee(b_moves, w_moves, *, move_limit=1000, w_extra=None,
                     w_channel=WriteRecorder, rules=lambda channels: GoRules(5)):
    """A Go referee whose channels record their writes; rules(channels) makes its rules."""
    channels = {"b": WriteRecorder(programmed_engine(b_moves)),
                "w": w_channel(programmed_engine(w_moves, extra=w_extra))}
    players = {c: EnginePlayer(c + "p", GtpController(channels[c], f"player {c}p"))
               for c in ("b", "w")}
    referee = Referee(rules(channels), players, komi=0.5, move_limit=move_limit,
                      use_internal_scorer=True)
    return referee, channels


def test_each_move_reaches_its_opponent_with_the_opponents_genmove_in_one_write():
    referee, channels = recorded_referee(["C3", "D4", "pass"], ["B2", "pass"])
    record = referee.play()
    assert record.passed_out and len(record.moves) == 5
    explain = ["known_command gomill-explain_last_move"]   # asked once, after a first move
    # Then each is asked for its dead stones.
    dead = [["known_command final_status_list"], ["final_status_list dead"]]
    assert channels["b"].writes == [["genmove b"], explain, ["play w B2", "genmove b"],
                                    ["play w pass", "genmove b"], *dead]
    # The move that ends the game goes alone: nobody is asked for another.
    assert channels["w"].writes == [["play b C3", "genmove w"], explain,
                                    ["play b D4", "genmove w"], ["play b pass"], *dead]
    assert all(not c._responses for c in channels.values())   # every response was read


@pytest.mark.parametrize("message, detail", [
    ("illegal move", "forfeit by wp: wp claims move C3 is illegal, which no ruleset forbids"),
    ("something broke", "forfeit by wp: failure response from 'play b C3' to player wp: "
                        "something broke"),
])
def test_a_move_refused_beside_a_genmove_forfeits_and_leaves_nothing_unread(message, detail):
    referee, channels = recorded_referee(["C3"], ["D4"], w_extra={"play": gtp_failure(message)})
    record = referee.play()
    assert record.is_forfeit and record.detail == detail
    assert channels["w"].writes == [["play b C3", "genmove w"]]
    assert not channels["w"]._responses   # the genmove's answer was read, not left for 'quit'


class WatchedGoRules(GoRules):
    """GoRules that note, as each move is played on the board, what the mover's opponent
    has been sent so far."""

    def __init__(self, size, channels) -> None:
        super().__init__(size)
        self.channels = channels
        self.seen: list[tuple[str, object, list[str]]] = []

    def play(self, colour, move) -> None:
        other = "w" if colour == "b" else "b"
        self.seen.append((colour, move, list(self.channels[other].log)))
        super().play(colour, move)


def watched_referee(b_moves, w_moves, *, move_limit=1000, w_channel=WriteRecorder):
    referee, _ = recorded_referee(b_moves, w_moves, move_limit=move_limit, w_channel=w_channel,
                                  rules=lambda channels: WatchedGoRules(5, channels))
    return referee, referee.rules


def test_a_stone_reaches_the_opponent_before_the_board_is_updated_a_pass_after():
    referee, rules = watched_referee(["C3", "pass", "pass"], ["D4", "B2", "pass"])
    record = referee.play()
    assert record.passed_out and len(record.moves) == 6
    # Each stone's play and the opponent's genmove were already sent when the
    # board took the stone (the opponent thinks meanwhile); a pass may end the
    # game, so the board takes it first, and it is sent afterwards.
    b_c3, w_d4, b_pass, w_b2, b_pass2, w_pass = rules.seen
    assert b_c3[2][-2:] == ["play b C3", "genmove w"]
    assert w_d4[2][-2:] == ["play w D4", "genmove b"]
    assert "play b pass" not in b_pass[2]
    assert w_b2[2][-2:] == ["play w B2", "genmove b"]
    assert b_pass2[2].count("play b pass") == 1   # the first pass, sent with W's genmove
    assert "play w pass" not in w_pass[2]
    assert rules.board.get(2, 2) == "b" and rules.board.get(3, 3) == "w"


def test_the_move_that_reaches_the_limit_is_played_before_anything_is_sent():
    referee, rules = watched_referee(["A1", "A3", "A5"], ["C1", "C3"], move_limit=5)
    record = referee.play()
    assert (record.sgf_result, len(record.moves)) == ("Void", 5)
    assert "play b A5" not in rules.seen[-1][2]   # nobody will be asked for a sixth move
    assert rules.seen[-2][2][-2:] == ["play w C3", "genmove b"]


class BrokenOnE5(WriteRecorder):
    def send_commands(self, commands) -> None:
        if ("play", ("b", "E5")) in commands:
            raise GtpTransportError("broken pipe")
        super().send_commands(commands)


def test_a_pair_that_cant_be_sent_early_still_records_the_move_then_forfeits():
    referee, rules = watched_referee(["C3", "E5"], ["D4"], w_channel=BrokenOnE5)
    record = referee.play()
    # The write to White with E5 broke before the board took E5: E5 is still on
    # the board and in the record, and White forfeits as if the pair had been
    # sent after it.
    assert [m[1] for m in record.moves] == [(2, 2), (3, 3), (4, 4)]
    assert rules.board.get(4, 4) == "b"
    assert record.sgf_result == "B+F"
    assert record.detail == "forfeit by wp: error sending 'play b E5' to player wp: broken pipe"


def test_the_move_before_the_limit_is_told_alone_then_the_game_is_void():
    referee, channels = recorded_referee(["A1", "A3", "A5"], ["C1", "C3"], move_limit=5)
    record = referee.play()
    assert (record.sgf_result, len(record.moves)) == ("Void", 5)
    assert channels["w"].writes[-1] == ["play b A5"]


def test_a_broken_channel_on_the_told_move_forfeits_the_engine_it_was_sent_to():
    referee, channels = recorded_referee(
        ["C3"], ["D4"], w_extra={"play": raiser(GtpChannelClosed("engine has closed"))})
    record = referee.play()
    assert record.sgf_result == "B+F"
    assert record.detail.startswith("forfeit by wp: error reading response to 'play b C3'")


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


def failing_claim_question(exc):
    """A known_command handler that raises exc when asked about gomill-genmove_ex."""
    def known_command(args):
        if args == ["gomill-genmove_ex"]:
            raise exc
        return "false"
    return known_command


@pytest.mark.parametrize("exc", [
    GtpChannelClosed("engine has closed the response channel"),
    GtpTimeout("timed out waiting for a response"),
    GtpProtocolError("no success/failure indication from engine: first line is `garbage`"),
])
def test_an_engine_failing_the_claim_question_forfeits(exc):
    # White is first asked after black's move (it was raised out of play(): an internal error).
    referee, _ = make_referee(["C3"], ["D4"], w_extra={"known_command": failing_claim_question(exc)},
                              allow_claim=True)
    record = referee.play()
    assert (record.sgf_result, record.is_forfeit) == ("B+F", True)
    assert record.detail.startswith("forfeit by wp: ")
    assert "'known_command gomill-genmove_ex'" in record.detail


def test_a_timed_engine_hanging_on_the_claim_question_forfeits_not_on_time():
    control = parse_time_control("absolute 10")
    referee, _ = make_referee(["C3"], ["D4"], allow_claim=True, w_extra={
        "known_command": failing_claim_question(GtpTimeout("timed out waiting for a response"))})
    referee.clock = GameClock({"b": control, "w": control}, {"b": "bp", "w": "wp"}, 0.25)
    record = referee.play()
    assert (record.sgf_result, record.is_forfeit) == ("B+F", True)
    assert "'known_command gomill-genmove_ex'" in record.detail


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


@pytest.mark.parametrize("b_says, w_says, komi, result, detail", [
    ("B+3.5", None, 0.5, "B+3.5", None),
    (None, "W+2", 0, "W+2", None),
    ("B+3.5", "b+3.5", 0.5, "B+3.5", None),
    ("B+3.5", "B+7.5", 0.5, "B+", "unknown margin"),
    ("B+3.5", "W+2.5", 0.5, "?", "players disagreed: bp said B+3.5, wp said W+2.5"),
    ("0", "0", 0, "0", None),
    (None, None, 0.5, "?", "no score reported"),
])
def test_players_scorer(b_says, w_says, komi, result, detail):
    referee, _ = make_referee(["pass"], ["pass"], internal=False, komi=komi,
                              b_extra=scorer(b_says) if b_says else None,
                              w_extra=scorer(w_says) if w_says else None)
    record = referee.play()
    assert (record.sgf_result, record.detail) == (result, detail)


def test_unreliable_scorer_is_not_asked():
    referee, _ = make_referee(["pass"], ["pass"], internal=False, b_extra=scorer("B+9.5"),
                              w_extra=scorer("W+1.5"), reliable=(True, False))
    assert referee.play().sgf_result == "B+9.5"


def test_parse_score():
    assert parse_score("B+3.5") == ("b", 3.5)
    assert parse_score("w+") == ("w", None)
    assert parse_score("0") == (None, 0.0)
    assert parse_score("B+R") is None
    assert parse_score("nonsense") is None


def othello_game(opening=()):
    """A whole 4x4 Othello game: the opening's vertices, then each side's first legal placement.

    Returns (the rules at the end, {colour: the vertices it placed}, the
    colours whose pass was forced, in order).
    """
    rules = OthelloRules(4)
    moves: dict[str, list[str]] = {"b": [], "w": []}
    forced = []
    colour = "b"
    opening = list(opening)
    while not rules.is_over():
        placements = rules.legal_placements(colour)
        if not placements:
            forced.append(colour)
            rules.play(colour, None)
        else:
            move = rules.parse_move(opening.pop(0)) if opening else placements[0]
            moves[colour].append(rules.format_move(move))
            rules.play(colour, move)
        colour = "w" if colour == "b" else "b"
    return rules, moves, forced


# After these four moves on 4x4, Black has no placement: its pass is forced.
FORCED_PASS_OPENING = ("B1", "C1", "D3", "A1")


def refusing_pass(moves):
    """A programmed engine that, like GRhino, answers 'play COLOUR pass' with a syntax error."""
    def play(args):
        if args[1].lower() == "pass":
            raise GtpError("syntax error")
    return programmed_engine(moves, extra={"play": play})


def test_forced_pass_is_played_by_the_referee_asked_of_and_told_to_no_engine():
    rules, moves, forced = othello_game(FORCED_PASS_OPENING)
    assert forced and forced[0] == "b"
    channels = {c: EngineChannel(refusing_pass(moves[c])) for c in ("b", "w")}
    players = {c: EnginePlayer(c + "p", GtpController(channels[c], f"player {c}p")) for c in ("b", "w")}
    record = Referee(OthelloRules(4), players, komi=0, move_limit=100, use_internal_scorer=True).play()
    assert not record.is_forfeit and record.passed_out
    assert record.sgf_result == result_from_score(rules.area_score())[1]
    passes = [(colour, comment) for colour, move, comment in record.moves if move is None]
    assert passes == [(c, FORCED_PASS_COMMENT) for c in forced]
    assert record.moves[4] == ("b", None, FORCED_PASS_COMMENT)
    for c in ("b", "w"):
        log = channels[c].log
        assert not any("pass" in line for line in log)
        assert log.count(f"genmove {c}") == len(moves[c])     # never asked on a forced pass
    # White is asked twice running, Black is told two White moves running.
    assert "genmove w" in {a for a, b in zip(channels["w"].log, channels["w"].log[1:]) if a == b}
    told = [line for line in channels["b"].log if line.startswith("play")]
    assert told[1:3] == ["play w A1", f"play w {moves['w'][2]}"]


def test_a_go_pass_is_asked_for_and_told():
    referee, rules = make_referee(["pass"], ["pass"])
    record = referee.play()
    assert record.passed_out and [m[1] for m in record.moves] == [None, None]
    assert [m[2] for m in record.moves] == [None, None]
    assert "genmove b" in referee.players["b"].controller.channel.log
    assert "play b pass" in referee.players["w"].controller.channel.log


def test_othello_is_scored_by_the_referee_even_when_players_may_score():
    rules, moves, _ = othello_game()
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


@pytest.mark.integration
def test_grhino_against_random_othello_through_the_cli_forced_passes_and_no_forfeit(write_ctl, grhino):
    # Seeded random players and GRhino without its opening book: the random players' passes
    # are forced in these games (each was a forfeit by GRhino, which refuses 'play COLOUR
    # pass', before the referee kept forced passes to itself).
    ctl = write_ctl(f"""
competition_type = 'playoff'
game = 'othello'
board_size = 8
komi = 0
players = {{'rhino': Player('{grhino} --level 1 --book 0')}}
for seed in (3, 6, 7):
    players[f'random{{seed}}'] = Player([PYTHON, '-m', 'players', 'random-othello', '--seed', str(seed)])
matchups = [Matchup(f'random{{seed}}', 'rhino', alternating=True, number_of_games=2)
            for seed in (3, 6, 7)]
""")
    result = invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    report = json.loads(invoke("show", ctl, "--json").output)
    results = [r for m in report["matchups"] for r in m["results"]]
    assert len(results) == 6
    assert not any(r["is_forfeit"] for r in results), [r["detail"] for r in results]
    assert report["engine_descriptions"]["rhino"].startswith("GTP GRhino")
    forced_by = []
    games_dir = os.path.splitext(ctl)[0] + ".games"
    for name in os.listdir(games_dir):
        with open(os.path.join(games_dir, name), "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        assert game.get_root().get("GM") == 2
        players = {"b": game.get_player_name("b"), "w": game.get_player_name("w")}
        for node in game.get_main_sequence()[1:]:
            colour, move = node.get_move()
            if move is None:
                assert node.get("C") == FORCED_PASS_COMMENT
                forced_by.append(players[colour])
    assert len(forced_by) >= 3 and all(name.startswith("random") for name in forced_by)
