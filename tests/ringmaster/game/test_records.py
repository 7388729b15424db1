"""Game records: the SGF of played and void games, SGF game number, handicap, file places."""

from __future__ import annotations

import os

from sgfmill import sgf

from ringmaster.game.clock import parse_time_control
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.records import EngineNames, PlayedGame, game_sgf, write_game_record
from ringmaster.game.result import GameResult


def make_job(tmp_path=None, **changes) -> GameJob:
    settings = dict(
        game_id="7", board_size=9, komi=7.5,
        player_b=PlayerSpec("alpha", ("a",)), player_w=PlayerSpec("beta", ("b",)),
        sgf_event="event", sgf_game_name="event 7", sgf_note="a note")
    if tmp_path is not None:
        settings.update(sgf_dirname=str(tmp_path / "games"),
                        void_sgf_dirname=str(tmp_path / "void"))
    settings.update(changes)
    return GameJob(**settings)


def played(**changes) -> PlayedGame:
    result = GameResult(game_id="7", player_b="alpha", player_w="beta", winning_colour="w",
                        sgf_result="W+R", cpu_times={"alpha": 1.5, "beta": None})
    settings = dict(moves=[("b", (2, 2), None), ("w", (6, 6), "thinking")], result=result,
                    notes=["final message from b: <<<\ngg\n>>>"], late_errors=["quit failed"],
                    engines={"b": EngineNames("A:1", "A version 1"), "w": EngineNames()})
    settings.update(changes)
    return PlayedGame(**settings)


def parse(data: bytes) -> sgf.Sgf_game:
    return sgf.Sgf_game.from_bytes(data)


def test_played_game_has_root_properties_moves_and_comments():
    game = parse(game_sgf(make_job(), played()))
    root = game.get_root()
    assert root.get("RE") == "W+R" and root.get("KM") == 7.5 and game.get_size() == 9
    assert (root.get("EV"), root.get("GN")) == ("event", "event 7")
    assert (root.get("PB"), root.get("PW")) == ("A:1 (alpha)", "beta")
    comment = root.get("C")
    assert "Game id 7" in comment and "Result beta beat alpha W+R" in comment
    assert "a note" in comment and "alpha cpu time: 1.50s" in comment
    assert "Black alpha A version 1" in comment and "White beta" in comment
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert moves == [("b", (2, 2)), ("w", (6, 6))]
    last = game.get_last_node().get("C")
    assert last.startswith("thinking\n\nbeta beat alpha W+R\nfinal message from b")
    assert last.endswith("late error: quit failed")


def test_player_names_from_codes_when_asked():
    job = make_job(player_b=PlayerSpec("alpha", ("a",), sgf_player_name_from_gtp=False))
    assert parse(game_sgf(job, played())).get_root().get("PB") == "alpha"


def test_othello_records_its_own_game_number():
    othello = game_sgf(make_job(game="othello", board_size=8), played())
    assert b"GM[2]" in othello and b"GM[1]" not in othello
    assert b"GM[1]" in game_sgf(make_job(), played())


def test_handicap_stones_are_setup_stones():
    root = parse(game_sgf(make_job(), played(handicap_points=[(2, 6), (6, 2)]))).get_root()
    assert root.get("HA") == 2
    assert root.get_setup_stones() == ({(2, 6), (6, 2)}, set(), set())


def test_void_game_record():
    game = parse(game_sgf(make_job(), PlayedGame(void_reason="aborting game due to error: x")))
    root = game.get_root()
    assert root.get("RE") == "Void" and (root.get("PB"), root.get("PW")) == ("alpha", "beta")
    assert "Void game: aborting game due to error: x" in root.get("C")
    assert "Result" not in root.get("C")
    assert len(game.get_main_sequence()) == 1


def test_records_go_to_games_and_void_directories(tmp_path):
    job = make_job(tmp_path)
    assert write_game_record(job, played()) == str(tmp_path / "games" / "7.sgf")
    void = PlayedGame(void_reason="r")
    assert write_game_record(job, void) == str(tmp_path / "void" / "7.sgf")
    assert write_game_record(job, void) == str(tmp_path / "void" / "7_2.sgf")
    assert sorted(os.listdir(tmp_path / "void")) == ["7.sgf", "7_2.sgf"]
    assert write_game_record(make_job(), played()) is None
    assert write_game_record(make_job(), void) is None


def test_players_are_named_by_engine_and_code_so_configurations_are_told_apart():
    job = make_job(player_b=PlayerSpec("mcts-c02", ("a",), sgf_player_name_from_gtp=True),
                   player_w=PlayerSpec("mcts-c07", ("b",), sgf_player_name_from_gtp=True))
    same = {c: EngineNames("ringmaster-mcts:1.0", "ringmaster-mcts 1.0") for c in ("b", "w")}
    root = parse(game_sgf(job, played(engines=same))).get_root()
    assert root.get("PB") == "ringmaster-mcts:1.0 (mcts-c02)"
    assert root.get("PW") == "ringmaster-mcts:1.0 (mcts-c07)"
    # Also when the other player differs: mcts-c02 against GNU Go in one game and
    # mcts-c07 against GNU Go in another must not both be 'ringmaster-mcts:1.0'.
    different = {"b": EngineNames("A:1"), "w": EngineNames("B:2")}
    root = parse(game_sgf(job, played(engines=different))).get_root()
    assert (root.get("PB"), root.get("PW")) == ("A:1 (mcts-c02)", "B:2 (mcts-c07)")


def test_clocks_are_recorded_as_sabaki_and_gogui_read_them():
    control = parse_time_control("canadian 60 30 5")
    job = make_job(time_control_b=control, time_control_w=control, time_margin=0.5)
    game = played(moves=[("b", (2, 2), None), ("w", (6, 6), None), ("b", (3, 3), None)],
                  clock_marks={0: (58.76543, None), 1: (12.5, 4), 2: (0.0004, None)})
    root = parse(game_sgf(job, game)).get_root()
    assert (root.get("TM"), root.get("OT")) == (60, "5/30 Canadian")
    assert "Time control: canadian 60 30 5 (margin 0.5s)" in root.get("C")
    nodes = parse(game_sgf(job, game)).get_main_sequence()[1:]
    assert nodes[0].get("BL") == 58.765 and not nodes[0].has_property("OB")
    assert nodes[1].get("WL") == 12.5 and nodes[1].get("OW") == 4
    assert nodes[2].get("BL") == 0


def test_an_untimed_game_has_no_clock_properties():
    root = parse(game_sgf(make_job(), played())).get_root()
    for name in ("TM", "OT"):
        assert not root.has_property(name)
    assert "time control" not in root.get("C").lower()
    assert not any(node.has_property(p) for node in parse(game_sgf(make_job(), played()))
                   .get_main_sequence() for p in ("BL", "WL"))


def test_byoyomi_records_the_periods_left(tmp_path, virtual_time):
    from ringmaster.game.play import play_game_job
    from tests.fakes.channels import fake_engine_channel
    from tests.fakes.fake_commands import fake_engine_command
    control = parse_time_control("byoyomi 1 2 3")
    job = make_job(tmp_path, board_size=5, komi=0.5, use_internal_scorer=True,
                   player_b=PlayerSpec("alpha", tuple(fake_engine_command("--think", "0.6",
                                                                          "--think-on", "3", "2.5"))),
                   player_w=PlayerSpec("beta", tuple(fake_engine_command())),
                   time_control_b=control, time_control_w=None)
    play_game_job(job, fake_engine_channel)
    game = parse(open(tmp_path / "games" / "7.sgf", "rb").read())
    assert not game.get_root().has_property("TM")    # the sides' controls differ
    black = [node for node in game.get_main_sequence()[1:] if node.get_move()[0] == "b"]
    assert black[0].get("BL") == 0.4 and not black[0].has_property("OB")
    assert (black[1].get("BL"), black[1].get("OB")) == (2, 3)    # main spent: a whole period
    assert (black[2].get("BL"), black[2].get("OB")) == (2, 2)    # 2.5s: one period lost
    assert (black[3].get("BL"), black[3].get("OB")) == (2, 2)
    assert not any(node.has_property("WL") for node in game.get_main_sequence())
