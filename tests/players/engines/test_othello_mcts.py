"""Tests for the Othello rollouts and the rollout UCT engine built on the players.mcts core."""

from __future__ import annotations

import random

import pytest

from players.engines import othello_mcts, random_othello
from players.engines.othello_mcts import RolloutOthello
from players.engines.random_othello import make_engine
from players.games.othello import Othello
from ringmaster.rules.othello import OthelloRules


def test_rollout_values_match_the_final_position():
    game = Othello(4)
    state = game.initial_state()
    results = {game.random_rollout(state, random.Random(seed)) for seed in range(60)}
    assert results <= {-1.0, 0.0, 1.0} and {-1.0, 1.0} <= results
    # One move from the end: black (to move) must place at D1 and wins 15-1.
    full = (1 << 16) - 1
    white = 1 << 2           # C1
    black = full & ~white & ~(1 << 3)
    end = game.make_state(black, white, 0)
    assert game.random_rollout(end, random.Random(0)) == 1.0
    assert game.random_rollout(game.make_state(black, white, 1), random.Random(0)) == -1.0


def test_search_engine_plays_a_legal_game():
    player = RolloutOthello(1, seconds=None, playouts=30, c=0.7)
    engine = make_engine(player, "mcts-othello")
    assert engine.run_command("boardsize", ["6"])[0] is False
    rules = OthelloRules(6)
    colour = "b"
    while not rules.is_over():
        is_failure, vertex, _ = engine.run_command("genmove", [colour])
        assert not is_failure
        move = rules.parse_move(vertex)
        assert rules.check_move(colour, move) is None
        rules.play(colour, move)
        colour = "w" if colour == "b" else "b"


def minimax(game, state) -> float:
    """Exact value for the mover (small endgames only)."""
    if game.is_terminal(state):
        return game.terminal_value(state)
    return max(-minimax(game, game.apply(state, a)) for a in game.legal_actions(state))


def endgames_with_one_winning_move(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and (game.full & ~(state.own | state.opp)).bit_count() > 5:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
        if game.is_terminal(state):
            continue
        values = {a: -minimax(game, game.apply(state, a)) for a in game.legal_actions(state)}
        winners = [a for a, v in values.items() if v > 0]
        if len(winners) == 1 and len(values) >= 2:
            found.append((state, winners[0]))
    return found


def test_rollout_search_finds_the_only_winning_move():
    game = Othello(4)
    player = RolloutOthello(2, seconds=None, playouts=400, c=0.7)
    positions = endgames_with_one_winning_move(game, 5, seed=3)
    hits = 0
    for state, winner in positions:
        hits += player(game, state, cleanup=False, seconds=None) == winner
    assert hits >= 4


@pytest.mark.parametrize("argv, message", [
    (["--playouts", "0"], "--playouts must be at least 1, not 0"),
    (["--seconds", "-1"], "--seconds must be a positive number of seconds, not -1"),
])
def test_a_budget_that_searches_nothing_is_refused(capsys, argv, message):
    assert othello_mcts.main(argv) == 2
    assert capsys.readouterr().err.splitlines() == [f"othello-mcts: {message}"]


@pytest.mark.parametrize("main", [othello_mcts.main, random_othello.main])
def test_help_suggests_a_board_othello_plays(capsys, main):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "boardsize 8, genmove b" in text and "boardsize 9" not in text
