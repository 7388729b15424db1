"""Tests for the referee's Othello rules, with boards drawn as ASCII diagrams."""

from __future__ import annotations

import pytest

from ringmaster.rules import get_rules
from ringmaster.rules.othello import OthelloRules


def setup(diagram: str) -> OthelloRules:
    """Rules whose board is the diagram: top line is the highest row; '#' black, 'o' white."""
    lines = [line.split() for line in diagram.strip().splitlines()]
    rules = OthelloRules(len(lines))
    for i, line in enumerate(lines):
        row = len(lines) - 1 - i
        for col, ch in enumerate(line):
            rules.board[row][col] = {"#": "b", "o": "w", ".": None}[ch]
    return rules


def draw(rules: OthelloRules) -> str:
    symbols = {"b": "#", "w": "o", None: "."}
    return "\n".join(" ".join(symbols[p] for p in row) for row in reversed(rules.board_rows()))


def test_start_position_and_registry():
    rules = get_rules("othello", 8)
    assert isinstance(rules, OthelloRules)
    assert rules.sgf_game_number == 2
    assert rules.first_player() == "b"
    assert [rules.board[r][c] for r, c in ((3, 3), (4, 4), (4, 3), (3, 4))] == ["w", "w", "b", "b"]
    assert sorted(rules.format_move(m) for m in rules.legal_placements("b")) == ["C4", "D3", "E6", "F5"]
    assert rules.area_score() == 0


@pytest.mark.parametrize("size", [3, 5, 18, 2])
def test_bad_sizes(size):
    with pytest.raises(ValueError):
        OthelloRules(size)


def test_flips_in_several_directions():
    rules = setup("""
        . . . . . .
        . # . # . .
        . o o o . .
        . # o . o #
        . . o . . .
        . . # . . .
    """)
    move = rules.parse_move("D3")
    assert rules.check_move("b", move) is None
    rules.play("b", move)
    assert draw(rules) == "\n".join([
        ". . . . . .",
        ". # . # . .",
        ". o # # . .",
        ". # # # # #",
        ". . o . . .",
        ". . # . . .",
    ])
    assert rules.area_score() == 10 - 2


def test_no_flip_is_illegal_and_occupied_is_illegal():
    rules = OthelloRules(6)
    reason = rules.check_move("b", rules.parse_move("A1"))
    assert reason is not None and "turns over no disc" in reason
    reason = rules.check_move("b", rules.parse_move("C3"))
    assert reason is not None and "occupied" in reason


def test_pass_only_when_forced_and_game_end():
    rules = setup("""
        o o o o
        o o o o
        o o o #
        o o o .
    """)
    assert rules.check_move("w", None) is not None    # white can play D1
    assert rules.check_move("b", None) is None         # black has no placement
    assert rules.pass_is_forced("b") and not rules.pass_is_forced("w")
    assert not rules.is_over()
    rules.play("w", rules.parse_move("D1"))
    assert rules.is_over()
    assert not rules.pass_is_forced("b") and not rules.pass_is_forced("w")   # over: nothing to force
    assert rules.area_score() == -16


def test_forced_pass_on_a_line_from_the_start():
    rules = OthelloRules(4)
    assert not rules.pass_is_forced("b")
    for colour, vertex in (("b", "B1"), ("w", "C1"), ("b", "D3"), ("w", "A1")):
        rules.play(colour, rules.parse_move(vertex))
    assert rules.pass_is_forced("b") and not rules.pass_is_forced("w")


def test_game_over_with_empty_points():
    rules = setup("""
        # # . .
        # # . .
        . . . .
        . . . .
    """)
    assert rules.is_over()
    assert rules.area_score() == 4


def test_move_parsing():
    rules = OthelloRules(6)
    assert rules.parse_move("pass") is None
    assert rules.format_move(None) == "pass"
    assert rules.parse_move("a1") == (0, 0)
    assert rules.format_move((5, 5)) == "F6"
    with pytest.raises(ValueError):
        rules.parse_move("G1")
