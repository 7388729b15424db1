"""An opening played before the first genmove: sent to both engines, on our board, in the record."""

from __future__ import annotations

import pytest
from sgfmill import sgf

from ringmaster.errors import JobFailed
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.opening import Opening, play_opening
from ringmaster.game.play import play_game_job
from ringmaster.gtp.controller import GtpController
from ringmaster.rules.go import GoRules
from ringmaster.rules.othello import OthelloRules
from tests.fakes.channels import EngineChannel, fake_engine_channel, gtp_failure, programmed_engine
from tests.fakes.fake_commands import fake_engine_command


def controllers(extra_w=None):
    extra = {"set_free_handicap": lambda args: None}
    channels = {"b": EngineChannel(programmed_engine([], extra=extra)),
                "w": EngineChannel(programmed_engine([], extra={**extra, **(extra_w or {})}))}
    return {c: GtpController(ch, f"player {c}p") for c, ch in channels.items()}, channels


def test_the_opening_reaches_both_engines_and_our_board():
    ctl, channels = controllers()
    rules = GoRules(5)
    told = []
    opening = Opening("o.sgf", 0, (), (("b", (2, 2)), ("w", (1, 1)), ("b", None)))
    moves = play_opening(ctl, rules, opening, lambda c, v: told.append((c, v)))
    for channel in channels.values():
        assert channel.log == ["play b C3", "play w B2", "play b pass"]
    assert told == [("b", "C3"), ("w", "B2"), ("b", "pass")]
    assert rules.board.get(2, 2) == "b" and rules.board.get(1, 1) == "w"
    assert moves == [("b", (2, 2), None), ("w", (1, 1), None),
                     ("b", None, "end of the opening o.sgf")]
    assert opening.first_player("b") == "w"


def test_set_up_stones_go_as_a_free_handicap():
    ctl, channels = controllers()
    rules = GoRules(5)
    opening = Opening("h.sgf", 0, ((0, 0), (4, 4)), (("w", (2, 2)),))
    play_opening(ctl, rules, opening)
    assert channels["b"].log == ["set_free_handicap A1 E5", "play w C3"]
    assert rules.board.get(4, 4) == "b"
    assert Opening("h.sgf", 0, ((0, 0), (4, 4))).first_player("b") == "w"


def test_an_engine_refusing_a_move_of_the_opening_voids_the_game():
    ctl, _ = controllers(extra_w={"play": gtp_failure("illegal move")})
    opening = Opening("o.sgf", 0, (), (("b", (2, 2)), ("w", (1, 1))))
    with pytest.raises(JobFailed, match=r"player wp refused move 1 \(b C3\) of the opening o.sgf: "
                                        "illegal move"):
        play_opening(ctl, GoRules(5), opening)


def test_a_move_illegal_on_our_board_voids_the_game():
    ctl, _ = controllers()
    opening = Opening("o.sgf", 0, (), (("b", (2, 2)), ("w", (2, 2))))
    with pytest.raises(JobFailed, match="the opening o.sgf, move 2: attempted move to occupied "
                                        "point C3"):
        play_opening(ctl, GoRules(5), opening)


def test_an_othello_pass_the_rules_force_is_played_on_our_board_only():
    rules = OthelloRules(4)
    ctl, channels = controllers()
    line = forced_pass_line(OthelloRules(4))
    opening = Opening("p.sgf", 0, (), tuple(line))
    play_opening(ctl, rules, opening)
    sent = [f"play {c} {OthelloRules(4).format_move(m)}" for c, m in line if m is not None]
    assert channels["b"].log == sent and len(sent) == len(line) - 1


def forced_pass_line(rules):
    """The first line of Othello 4x4 play (placements tried in order) that reaches a forced pass,
    ending with the pass."""
    def search(rules, colour, line):
        if rules.is_over() or len(line) > 12:
            return None
        if rules.pass_is_forced(colour):
            return line + [(colour, None)]
        for point in rules.legal_placements(colour):
            trial = OthelloRules(rules.board_size)
            trial.board = [row[:] for row in rules.board]
            trial.play(colour, point)
            found = search(trial, "w" if colour == "b" else "b", line + [(colour, point)])
            if found is not None:
                return found
        return None
    return search(rules, "b", [])


def make_job(tmp_path, opening, game_id="g1"):
    return GameJob(game_id=game_id, board_size=5, komi=0.5, use_internal_scorer=True,
                   player_b=PlayerSpec("pb", tuple(fake_engine_command()), timeout=2),
                   player_w=PlayerSpec("pw", tuple(fake_engine_command("--name", "white")),
                                       timeout=2),
                   sgf_dirname=str(tmp_path / "games"), void_sgf_dirname=str(tmp_path / "void"),
                   sgf_event="ev", sgf_game_name="ev g1", opening=opening)


def test_a_game_from_an_opening_records_it_and_names_it(tmp_path):
    opening = Opening("suite/o.sgf", 3, (), (("b", (4, 4)), ("w", (0, 0))))
    response = play_game_job(make_job(tmp_path, opening), fake_engine_channel)
    assert response.opening == "suite/o.sgf" and response.fingerprint
    game = sgf.Sgf_game.from_bytes((tmp_path / "games" / "g1.sgf").read_bytes())
    root = game.get_root()
    assert root.get("ON") == "suite/o.sgf"
    assert "Opening: suite/o.sgf (the first 2 moves)" in root.get("C")
    nodes = game.get_main_sequence()
    assert [n.get_move() for n in nodes[1:4]] == [("b", (4, 4)), ("w", (0, 0)), ("b", (0, 1))]
    assert nodes[2].get("C") == "end of the opening suite/o.sgf"
    assert response.moves == len(nodes) - 1


def test_set_up_stones_are_in_the_record_with_no_handicap_compensation(tmp_path):
    opening = Opening("h.sgf", 0, ((0, 0), (4, 4)), ())
    response = play_game_job(make_job(tmp_path, opening), fake_engine_channel)
    root = sgf.Sgf_game.from_bytes((tmp_path / "games" / "g1.sgf").read_bytes()).get_root()
    assert root.get_setup_stones()[0] == {(0, 0), (4, 4)}
    first = sgf.Sgf_game.from_bytes((tmp_path / "games" / "g1.sgf").read_bytes()) \
        .get_main_sequence()[1].get_move()
    assert first[0] == "w"
    assert response.game_result.sgf_result != "?"


def test_the_same_game_from_another_opening_has_another_fingerprint(tmp_path):
    one = play_game_job(make_job(tmp_path, Opening("a", 0, (), (("b", (4, 4)),))),
                        fake_engine_channel)
    again = play_game_job(make_job(tmp_path, Opening("a", 0, (), (("b", (4, 4)),)),
                                   game_id="g2"), fake_engine_channel)
    mirrored = play_game_job(make_job(tmp_path, Opening("b", 0, (), (("b", (0, 0)),)),
                                      game_id="g3"), fake_engine_channel)
    assert one.fingerprint == again.fingerprint != mirrored.fingerprint
