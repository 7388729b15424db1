"""Joint Bradley-Terry ratings against hand calculations; which matchups play the even games they pool."""

from __future__ import annotations

import math

import pytest

from ringmaster.stats.even_games import even_komis, leave_out_line, uneven_matchups
from ringmaster.stats.ratings import RATING_METHOD, fit_ratings, virtual_draws


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


def test_prior_shrinks_ratings_towards_each_other():
    results = games("A", "B", 5, 1) + games("B", "C", 3, 2) + games("C", "A", 1, 2)
    plain = {r.player: r.elo for r in fit_ratings(results, prior=0).ratings}
    shrunk = {r.player: r.elo for r in fit_ratings(results, prior=2).ratings}
    assert 0 < shrunk["A"] - shrunk["C"] < plain["A"] - plain["C"]


def test_the_prior_is_bayeselos_two_virtual_draws_per_player_in_a_round_robin():
    import numpy as np
    # Five players, every pairing 12 games: each player spreads prior/2 over its opponents and
    # takes its share of theirs, so it is in `prior` virtual draws (not 2 * prior).
    games = np.full((5, 5), 12.0) - np.diag(np.full(5, 12.0))
    virtual = virtual_draws(games, 2.0)
    assert virtual.sum(axis=1) == pytest.approx([2.0] * 5)
    assert virtual.sum() / 2 == pytest.approx(5.0)   # n * prior / 2 virtual games in all
    # Unequal games: BayesElo's AddPrior gives pairing (i, j), from player i, prior * 0.25 *
    # g_ij / g_i draws with each player White (two cells), and the same from player j.
    games = np.array([[0, 10, 2], [10, 0, 4], [2, 4, 0]], dtype=float)
    played = games.sum(axis=1)
    addprior = np.array([[2 * 2.0 * 0.25 * (games[i, j] / played[i] + games[j, i] / played[j])
                          if i != j else 0.0 for j in range(3)] for i in range(3)])
    assert virtual_draws(games, 2.0) == pytest.approx(addprior)
    assert not virtual_draws(games, 0.0).any()
    assert "prior of 2 virtual draws (each player spreads 1 over its opponents" in RATING_METHOD
    assert "2 per player in a round robin" in RATING_METHOD


def test_a_star_rates_only_the_players_linked_both_ways():
    # The README's first playoff: mcts-200 and random each played only mcts-1000, and random
    # lost every game. With a prior, random was rated above mcts-200 (LOS 61%), on no evidence.
    results = games("mcts-1000", "random", 4, 0) + games("mcts-1000", "mcts-200", 6, 2)
    table = fit_ratings(results)
    assert [r.player for r in table.ratings] == ["mcts-1000", "mcts-200"]
    assert [(u.player, u.beat, u.lost_to) for u in table.unrated] == [("random", [], ["mcts-1000"])]
    assert table.unrated[0].note() == "lost every game against mcts-1000 (4 games)"
    one = fit_ratings(games("a", "b", 2, 1) + games("a", "c", 1, 0))
    assert one.unrated[0].note() == "lost every game against a (1 game)"
    assert table.superiority("random", "mcts-200") is None
    assert table.superiority("mcts-1000", "mcts-200") > 0.5
    # mcts-1000's rating rests on the 8 games it both won and lost, not on random's.
    assert table.ratings[0].games == 8
    json = table.to_json()
    assert set(json["superiority"]) == {"mcts-1000", "mcts-200"}
    assert json["unrated"][0]["note"] == "lost every game against mcts-1000 (4 games)"


def test_a_perfect_winner_is_not_rated_and_says_whom_it_beat():
    results = games("A", "B", 5, 0) + games("A", "C", 2, 0) + games("B", "C", 3, 2)
    table = fit_ratings(results)
    assert [r.player for r in table.ratings] == ["B", "C"]
    assert table.unrated[0].note() == "won every game against B, C (7 games)"


def test_groups_are_rated_apart_and_ordered_where_games_order_them():
    # {C, D} and {A, B} are each linked both ways; C beat A in every game between them.
    results = (games("A", "B", 2, 1) + games("C", "D", 1, 1) + games("C", "A", 3, 0))
    table = fit_ratings(results, players=["A", "B", "C", "D"])
    assert [sorted(g.order) for g in table.groups] == [["C", "D"], ["A", "B"]]
    assert table.superiority("C", "B") is None and table.unrated == []
    assert {r.player: r.group for r in table.ratings} == {"C": 0, "D": 0, "A": 1, "B": 1}
    # With no game between the groups, the players' order is kept.
    table = fit_ratings(games("A", "B", 2, 1) + games("C", "D", 1, 1))
    assert [g.order for g in table.groups] == [["A", "B"], ["C", "D"]]


def test_no_linked_pair_leaves_no_group_and_every_player_unrated():
    table = fit_ratings(games("A", "B", 3, 0) + games("B", "C", 2, 0))
    assert table.groups == [] and [u.player for u in table.unrated] == ["A", "B", "C"]


def test_too_few_players_and_an_anchor_without_games():
    assert fit_ratings([]) is None
    with pytest.raises(ValueError, match="anchor Z"):
        fit_ratings(games("A", "B", 2, 1), anchor="Z")


def test_even_games_are_told_apart_by_handicap_stones_and_komi_on_each_board():
    settings = {"a": {"board_size": 9, "komi": 7.0}, "b": {"board_size": 9, "komi": 7.0},
                "c": {"board_size": 9, "komi": 0.5}, "d": {"board_size": 19, "komi": 7.5},
                "e": {"board_size": 19, "komi": 0.5, "handicap": 4}}
    assert even_komis(settings) == {("go", 9): 7.0, ("go", 19): 7.5}
    assert uneven_matchups(settings) == {"c": "komi 0.5, where the even games play at 7",
                                         "e": "4 handicap stones, komi 0.5"}
    assert leave_out_line({}, True) is None
    assert leave_out_line({}, True, {}) is None


def test_the_leave_out_line_names_uneven_and_fixed_colour_matchups():
    uneven = {"hcap": "4 handicap stones, komi 0.5"}
    fixed = {"ab": "a", "hcap": "a"}   # a handicap matchup is named for its stones only
    assert leave_out_line(uneven, True, fixed) == (
        "ratings leave out the matchups whose games are not even: hcap (4 handicap stones, komi 0.5); "
        "and the matchups whose colours don't alternate (Black's advantage is not separated from "
        "the players' difference): ab (a Black in every game)")
    assert leave_out_line({}, False, {"ab": "a", "bc": "c"}) == (
        "no player is rated: joint ratings pool only even games (no handicap stones, one komi) with colours "
        "alternating, and no matchup's games are: ab (a Black in every game), bc (c Black in every game)")
    # On a tie the first matchup listed sets the even komi.
    assert uneven_matchups({"x": {"board_size": 9, "komi": 6.5}, "y": {"board_size": 9, "komi": 5.5}}) \
        == {"y": "komi 5.5, where the even games play at 6.5"}
