"""The SPRT: Wald's bounds, the logistic GSPRT against independent calculations, and its replay."""

from __future__ import annotations

import math

import pytest

from ringmaster.stats.sprt import (
    PENTANOMIAL_SCORES,
    TRINOMIAL_SCORES,
    SprtSpec,
    interpret_sprt,
    llr_logistic,
    mle_distribution,
    run_sprt,
)


def logistic(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def test_wald_bounds_are_the_published_2_94():
    # fishtest shows LLR bounds (-2.94, 2.94) for alpha = beta = 0.05: ln(0.05/0.95) = -2.944.
    spec = SprtSpec(0, 5, 0.05, 0.05)
    assert spec.lower == pytest.approx(-2.944, abs=1e-3)
    assert spec.upper == pytest.approx(2.944, abs=1e-3)
    assert SprtSpec(0, 5, 0.1, 0.2).upper == pytest.approx(math.log(0.8 / 0.1))


def test_wins_and_losses_give_walds_binomial_llr():
    # Hand calculation: Wald's SPRT for a Bernoulli score: W ln(s1/s0) + L ln((1-s1)/(1-s0)).
    for wins, losses, elo0, elo1 in [(15, 10, 0, 20), (40, 55, -10, 30), (3, 1, 0, 150)]:
        s0, s1 = logistic(elo0), logistic(elo1)
        wald = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
        # The empty draw bin holds 1e-3 of a count (as in fishtest), hence the tolerance.
        assert llr_logistic([losses, 0, wins], TRINOMIAL_SCORES, elo0, elo1) == \
            pytest.approx(wald, abs=2e-3)


def brute_force_max_likelihood(frequencies, scores, mean, steps=20001):
    # Independent check for three outcomes: the constraints sum p = 1 and sum p a = mean
    # leave one free parameter; scan it and keep the highest sum f ln p.
    (a0, a1, a2), best, best_p = scores, -math.inf, None
    for k in range(1, steps):
        p1 = k / steps
        # p0 + p2 = 1 - p1, p1 a1 + p2 a2 + p0 a0 = mean
        p2 = (mean - a0 * (1 - p1) - a1 * p1) / (a2 - a0)
        p0 = 1 - p1 - p2
        if p0 <= 0 or p2 <= 0:
            continue
        value = sum(f * math.log(p) for f, p in zip(frequencies, (p0, p1, p2)))
        if value > best:
            best, best_p = value, (p0, p1, p2)
    return best_p


def test_maximum_likelihood_distribution_matches_a_brute_force_search():
    frequencies = [0.3, 0.2, 0.5]
    for mean in (0.45, 0.6, 0.7):
        exact = mle_distribution(frequencies, TRINOMIAL_SCORES, mean)
        assert sum(exact) == pytest.approx(1.0)
        assert sum(p * a for p, a in zip(exact, TRINOMIAL_SCORES)) == pytest.approx(mean)
        assert exact == pytest.approx(brute_force_max_likelihood(frequencies, TRINOMIAL_SCORES,
                                                                 mean), abs=2e-4)


def test_pentanomial_llr_is_the_likelihood_ratio_of_the_constrained_fits():
    # Pairs in Go without jigo: [LL, 0, WL, 0, WW]. The empty bins get 1e-3 of a count.
    counts = [5, 0, 20, 0, 9]
    regular = [c or 1e-3 for c in counts]
    f = [c / sum(regular) for c in regular]
    p0 = mle_distribution(f, PENTANOMIAL_SCORES, logistic(0))
    p1 = mle_distribution(f, PENTANOMIAL_SCORES, logistic(20))
    expected = sum(counts) * sum(x * math.log(b / a) for x, a, b in zip(f, p0, p1))
    assert llr_logistic(counts, PENTANOMIAL_SCORES, 0, 20) == pytest.approx(expected)
    # More won pairs than lost ones: evidence for H1.
    assert expected > 0
    assert llr_logistic([9, 0, 20, 0, 5], PENTANOMIAL_SCORES, 0, 20) < 0


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([12, 140, 600, 160, 15], 0, 5), ([3, 40, 100, 50, 2], -1, 3), ([30, 300, 1200, 340, 40], 0, 2),
])
def test_pentanomial_llr_agrees_with_the_normal_approximation(counts, elo0, elo1):
    # An independent formula (M. van den Bergh's approximation of the GSPRT, which
    # fishtest's notes derive): LLR ~ N (s1 - s0) (2 m - s0 - s1) / (2 v), with m and v
    # the mean and variance of a pair's score. Close to the exact value when s0 ~ s1.
    n = sum(counts)
    m = sum(c * a for c, a in zip(counts, PENTANOMIAL_SCORES)) / n
    v = sum(c * (a - m) ** 2 for c, a in zip(counts, PENTANOMIAL_SCORES)) / n
    s0, s1 = logistic(elo0), logistic(elo1)
    approximation = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)
    assert llr_logistic(counts, PENTANOMIAL_SCORES, elo0, elo1) == pytest.approx(approximation,
                                                                              rel=1e-2)


def test_replay_decides_at_the_first_crossing():
    spec = SprtSpec(0, 150, 0.05, 0.05)
    step = math.log(logistic(150) / 0.5)
    first = math.ceil(spec.upper / step)   # 9 straight wins, by hand
    state = run_sprt(spec, [(n, 1.0) for n in range(20)], pentanomial=False)
    assert (state.decision, state.decided_at) == ("H1", first) == ("H1", 9)
    assert state.samples == 20 and len(state.path) == 20
    losing = run_sprt(spec, [(n, 0.0) for n in range(20)], pentanomial=False)
    assert losing.decision == "H0"


def test_games_after_the_decision_move_the_llr_but_not_the_decision():
    spec = SprtSpec(0, 150, 0.05, 0.05)
    # 9 straight wins accept H1 (above); 3 losses finished after the stop pull the LLR
    # back inside the bounds, and the report must still show the LLR that decided.
    state = run_sprt(spec, [(n, 1.0) for n in range(9)] + [(n, 0.0) for n in range(9, 12)],
                     pentanomial=False)
    assert state.decision == "H1" and state.decided_at == 9
    assert state.llr < spec.upper <= state.llr_at_decision == state.path[8][1]
    assert state.to_json()["llr_at_decision"] == state.llr_at_decision
    assert run_sprt(spec, [(0, 1.0)], pentanomial=False).llr_at_decision is None


def test_pentanomial_replay_pairs_colour_swapped_games():
    spec = SprtSpec(0, 20)
    # Game 1 arrives before game 0; game 2's partner never arrives; game 4 has no result.
    state = run_sprt(spec, [(1, 1.0), (0, 0.0), (2, 1.0), (4, None), (5, 1.0)], pentanomial=True)
    assert state.counts == [0, 0, 1, 0, 0] and state.samples == 1 and state.games_counted == 2


def test_a_decision_is_worded_as_what_the_test_rejects_not_as_reaching_the_other_bound():
    # Wald's test accepting H1 rejects elo <= elo0 at alpha: a true Elo midway between elo0
    # and elo1 passes half the time, so "elo >= elo1" would claim more than the test shows.
    spec = SprtSpec(0, 100, 0.05, 0.1)
    passed = run_sprt(spec, [(n, 1.0) for n in range(20)], pentanomial=False)
    assert passed.state_text() == ("H1 accepted: elo > 0 (elo <= 0 rejected at alpha 0.05; "
                                   "not a finding that elo >= 100)")
    assert passed.conclusion() == "elo > 0"
    failed = run_sprt(spec, [(n, 0.0) for n in range(20)], pentanomial=False)
    assert failed.state_text() == ("H0 accepted: elo < 100 (elo >= 100 rejected at beta 0.1; "
                                   "not a finding that elo <= 0)")
    # The JSON keeps its state values for whatever reads them, and adds the words.
    data = passed.to_json()
    assert (data["state"], data["decision"], data["conclusion"]) == ("H1", "H1", "elo > 0")
    assert data["state_text"] == passed.state_text()
    running = run_sprt(spec, [(0, 1.0)], pentanomial=False)
    assert running.conclusion() is None and running.to_json()["state_text"] == "running"
    assert running.to_json(all_played=True)["state_text"] == "undecided: number_of_games played"


@pytest.mark.parametrize("value, message", [
    ({"elo0": 0, "elo1": 20, "alpha": 0.05}, "missing key 'beta'"),
    ({"elo0": 20, "elo1": 0, "alpha": 0.05, "beta": 0.05}, "less than"),
    ({"elo0": 0, "elo1": 20, "alpha": 0.7, "beta": 0.05}, "'alpha'"),
    ({"elo0": 0, "elo1": 20, "alpha": 0.05, "beta": 0.05, "x": 1}, "unknown key 'x'"),
    ([0, 20], "must be a dict"),
])
def test_bad_sprt_settings_are_explained(value, message):
    with pytest.raises(ValueError, match=message):
        interpret_sprt(value)
