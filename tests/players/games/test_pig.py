"""Pig: rolls, holds, the turn limit, the hold-at policy and rollouts, and GTP move words."""

import random

import pytest

from players.games import make_game
from players.games.pig import (
    HOLD,
    HOLD20,
    RACE50,
    ROLL,
    Pig,
    PigState,
    die_action,
    hold_at_policy,
    hold_at_rollout,
    random_pig_rollout,
    threshold_rollout,
)


def test_pig50_is_registered_with_its_target():
    game = make_game("pig50")
    assert isinstance(game, Pig) and game.target == 50 and game.max_turns == 200


def test_a_turn_starts_with_a_roll_and_a_one_loses_the_turn_total():
    game = Pig(50)
    state = game.initial_state()
    assert game.legal_actions(state) == [ROLL]
    state = game.apply(state, ROLL)
    assert game.is_chance(state) and [p for _, p in game.chance_outcomes(state)] == [pytest.approx(1 / 6)] * 6
    state = game.apply(state, die_action(5))
    assert state.turn_total == 5 and game.legal_actions(state) == [HOLD, ROLL]
    state = game.apply(game.apply(state, ROLL), die_action(1))
    assert state == PigState((0, 0), 0, 1, 1, False)


def test_holding_banks_the_turn_total_and_reaching_the_target_wins():
    game = Pig(10)
    state = PigState((8, 3), 4, 0, 6, False)
    after = game.apply(state, HOLD)
    assert after.scores == (12, 3) and after.to_play == 1 and game.is_terminal(after)
    assert game.terminal_value(after) == -1.0 and game.winner(after) == 0


def test_the_turn_limit_ends_the_game_without_a_winner():
    game = Pig(50, max_turns=2)
    state = PigState((10, 0), 0, 1, 1, False)
    state = game.apply(game.apply(state, ROLL), die_action(1))
    assert game.is_terminal(state) and game.terminal_value(state) == 0.0 and game.winner(state) is None


def test_hold_at_holds_at_the_threshold_or_when_holding_wins():
    game = Pig(50)
    assert hold_at_policy(game, PigState((0, 0), 19, 0, 0), 20) == ROLL
    assert hold_at_policy(game, PigState((0, 0), 20, 0, 0), 20) == HOLD
    assert hold_at_policy(game, PigState((45, 0), 5, 0, 0), 20) == HOLD


def test_hold20_against_itself_gives_the_first_player_the_known_edge():
    # Value iteration: Hold20 vs Hold20 at goal 50, P(first wins) = 0.5556.
    game, rng = Pig(50), random.Random(7)
    results = [hold_at_rollout(game, game.initial_state(), rng) for _ in range(20000)]
    assert (sum(results) / len(results) + 1) / 2 == pytest.approx(0.5556, abs=0.012)


def test_rollouts_from_a_won_looking_position_mostly_win_for_the_mover():
    game, rng = Pig(50), random.Random(3)
    state = PigState((48, 0), 0, 0, 10, False)
    for rollout in (hold_at_rollout, random_pig_rollout):
        assert sum(rollout(game, state, rng) for _ in range(500)) / 500 > 0.5


def test_move_words_parse_and_format():
    game = Pig()
    assert game.parse_move(["roll", "4"]) == [ROLL, die_action(4)]
    assert game.parse_move(["HOLD"]) == [HOLD]
    assert game.format_action(ROLL) == "roll" and game.format_action(HOLD) == "hold"
    for words in (["roll"], ["roll", "7"], ["pass"], ["hold", "2"]):
        with pytest.raises(ValueError):
            game.parse_move(words)


def test_keep_pace_and_end_race_rolls_on_when_either_side_is_near_the_end():
    assert RACE50.rolls(10, 40, 25, 50) and not HOLD20.rolls(10, 40, 25, 50)
    assert not RACE50.rolls(45, 10, 5, 50)
    assert RACE50.rolls(10, 30, 22, 50) and not RACE50.rolls(30, 10, 16, 50)


def test_threshold_rollouts_with_hold20_on_both_sides_match_the_hold_at_rollout():
    game = Pig(50)
    results = [threshold_rollout(game, game.initial_state(), random.Random(k), (HOLD20, HOLD20))
               for k in range(300)]
    assert results == [hold_at_rollout(game, game.initial_state(), random.Random(k)) for k in range(300)]
