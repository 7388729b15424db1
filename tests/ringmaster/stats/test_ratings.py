"""Joint Bradley-Terry ratings against hand calculations."""

from __future__ import annotations

import math

import pytest

from ringmaster.stats.ratings import fit_ratings


def games(a, b, wins, losses):
    return [(a, b, 1.0)] * wins + [(a, b, 0.0)] * losses


def test_two_players_get_the_elo_of_the_score_and_its_standard_error():
    table = fit_ratings(games("a", "b", 30, 10), anchor="b", prior=0)
    by = {r.player: r for r in table.ratings}
    # By hand: score 0.75 -> 400 log10(3) = 190.85; the standard error of the logit of a
    # proportion is 1/sqrt(n p (1-p)) = 1/sqrt(40 * 0.75 * 0.25), times 400/ln 10.
    assert by["a"].elo == pytest.approx(400 * math.log10(3))
    se = 1 / math.sqrt(40 * 0.75 * 0.25) * 400 / math.log(10)
    assert by["a"].error == pytest.approx(1.959964 * se, rel=1e-5)
    assert by["b"].elo == 0 and by["b"].error == 0


def test_three_consistent_players_are_fitted_exactly():
    # A beats B 3:1, B beats C 3:1, A beats C 9:1: ratios 3, 3 and 9 fit the model exactly,
    # so the ratings are 0, 400 log10 3 and 800 log10 3 above C.
    results = games("A", "B", 3, 1) + games("B", "C", 3, 1) + games("A", "C", 9, 1)
    table = fit_ratings(results, anchor="C", anchor_rating=1000, prior=0)
    step = 400 * math.log10(3)
    assert [r.player for r in table.ratings] == ["A", "B", "C"]
    assert [r.elo for r in table.ratings] == pytest.approx([1000 + 2 * step, 1000 + step, 1000])
    assert table.reference == "anchor C"


def test_without_an_anchor_ratings_are_relative_to_the_mean():
    results = games("A", "B", 3, 1) + games("B", "C", 3, 1) + games("A", "C", 9, 1)
    table = fit_ratings(results, prior=0)
    assert sum(r.elo for r in table.ratings) == pytest.approx(0, abs=1e-9)
    assert table.superiority("A", "C") > 0.5 > table.superiority("C", "A")


def test_prior_keeps_a_perfect_score_finite_and_shrinks_it():
    results = games("A", "B", 5, 0) + games("B", "C", 3, 2)
    table = fit_ratings(results, prior=2)
    assert all(math.isfinite(r.elo) for r in table.ratings)
    assert table.ratings[0].player == "A"


def test_disconnected_players_get_no_ratings():
    assert fit_ratings(games("A", "B", 2, 1) + games("C", "D", 1, 1)) is None
    assert fit_ratings([]) is None
    with pytest.raises(ValueError, match="anchor Z"):
        fit_ratings(games("A", "B", 2, 1), anchor="Z")
