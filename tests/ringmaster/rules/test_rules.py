"""The rules registry and each game's facts: board sizes, SGF number, scoring, handicap."""

from __future__ import annotations

import pytest

from ringmaster.rules import GAMES, get_rules, get_rules_class
from ringmaster.rules.go import GoRules
from ringmaster.rules.othello import OthelloRules


def test_registry_names_every_game():
    assert GAMES == ("go", "othello", "pig")
    assert get_rules_class("go") is GoRules and get_rules_class("othello") is OthelloRules
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        get_rules_class("chess")


def test_each_game_states_its_facts():
    assert (GoRules.sgf_game_number, OthelloRules.sgf_game_number) == (1, 2)
    assert GoRules.players_may_score and not OthelloRules.players_may_score
    assert GoRules.supports_handicap and not OthelloRules.supports_handicap


@pytest.mark.parametrize("cls, size, error", [
    (GoRules, 1, "too small"), (GoRules, 2, None), (GoRules, 25, None), (GoRules, 26, "too large"),
    (OthelloRules, 4, None), (OthelloRules, 16, None), (OthelloRules, 9, "out of range"),
    (OthelloRules, 2, "out of range"), (OthelloRules, 18, "out of range"),
])
def test_board_sizes(cls, size, error):
    reason = cls.board_size_error(size)
    if error is None:
        assert reason is None
        assert cls(size).board_size == size
    else:
        assert error in reason
        with pytest.raises(ValueError, match=f"board size {size} "):
            cls(size)


def test_handicap_limits():
    assert GoRules.handicap_error(9, 9, "fixed") is None
    assert GoRules.handicap_error(9, 10, "fixed") == "fixed handicap out of range for board size 9"
    assert GoRules.handicap_error(7, 2, "fixed") == "fixed handicap out of range for board size 7"
    assert GoRules.handicap_error(5, 24, "free") is None
    assert GoRules.handicap_error(5, 25, "free") == "free handicap out of range for board size 5"
    assert OthelloRules.handicap_error(8, 2, "fixed") == "handicap not supported for othello"
    assert sorted(get_rules("go", 9).fixed_handicap_points(2)) == [(2, 2), (6, 6)]
    with pytest.raises(ValueError, match="handicap not supported for othello"):
        get_rules("othello", 8).fixed_handicap_points(2)


def test_a_go_pass_is_never_forced():
    rules = GoRules(2)
    for vertex in ("A1", "B2"):
        rules.play("b", rules.parse_move(vertex))
    assert not rules.pass_is_forced("w") and not rules.pass_is_forced("b")


def test_fixed_handicap_is_the_gtp_specifications_layout():
    # GTP 2 section 4.1.1, on 19x19 (as GNU Go places them).
    spec = {2: "D4 Q16", 3: "D4 Q16 D16", 4: "D4 Q16 D16 Q4", 5: "D4 Q16 D16 Q4 K10",
            6: "D4 Q16 D16 Q4 D10 Q10", 7: "D4 Q16 D16 Q4 D10 Q10 K10",
            8: "D4 Q16 D16 Q4 D10 Q10 K4 K16", 9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"}
    rules = get_rules("go", 19)
    for stones, vertices in spec.items():
        expected = sorted(rules.parse_move(v) for v in vertices.split())
        assert sorted(rules.fixed_handicap_points(stones)) == expected, stones


def test_dead_stones_come_off_before_the_area_count():
    rules = GoRules(5)
    for row in range(5):
        rules.play("b", (row, 2))      # a black wall down column C
        rules.play("w", (row, 3))      # a white one down column D
    rules.play("w", (2, 0))            # A3: a white stone left in Black's area
    assert GoRules.has_dead_stones and not OthelloRules.has_dead_stones
    assert rules.area_score() == 5 - 11            # A3 alive: Black's A and B columns count for nobody
    assert rules.area_score_without({(2, 0)}) == 15 - 10
    assert rules.board.get(2, 0) == "w"            # our board keeps the stone
    othello = OthelloRules(4)
    assert othello.area_score_without({(1, 1)}) == othello.area_score() == 0
