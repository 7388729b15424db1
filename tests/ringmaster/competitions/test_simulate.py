"""Tests for simulated games (ringmaster/competitions/simulate.py): head-to-head games between candidates."""

import random

import pytest

from ringmaster.competitions.simulate import head_to_head_probability, play_simulated
from ringmaster.game.job import GameJob, PlayerSpec


def landscape(p):
    return p[0]


def test_equal_candidates_are_even():
    assert head_to_head_probability(landscape, [0.3], [0.3]) == pytest.approx(0.5)


def test_head_to_head_is_the_logistic_of_the_strength_difference():
    # Win rates 0.75 and 0.5 against the opponent: strengths ln 3 and 0, so 3:1 odds.
    assert head_to_head_probability(landscape, [0.75], [0.5]) == pytest.approx(0.75)
    assert head_to_head_probability(landscape, [0.5], [0.75]) == pytest.approx(0.25)


def test_a_game_between_two_simulated_candidates_is_decided_by_their_strengths():
    black = PlayerSpec(code="a", command=("simulated-candidate", "0.9"))
    white = PlayerSpec(code="b", command=("simulated-candidate", "0.1"))
    job = GameJob(game_id="0", player_b=black, player_w=white, board_size=9, komi=7.5)
    rng = random.Random(1)
    wins = sum(play_simulated(job, landscape, rng).game_result.winning_colour == "b" for _ in range(400))
    # P(black) = 81/82: nearly every game.
    assert wins >= 390
