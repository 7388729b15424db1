"""Tests for the bayes_tuner: settings, initial design, model-chosen points, state, reports, a whole run."""

import io
import json
import os
import random
import re
from pathlib import Path

import numpy as np
import pytest

from ringmaster.competitions import bayes_matches as matches
from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.bayes_model import observed_matches
from ringmaster.competitions.bayes_trust_region import local_model
from ringmaster.competitions.bayes_tuner import BayesTuner, default_games_per_point, latin_hypercube
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, run_simulation
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.settings import Player
from ringmaster.state.state_file import dumps_state
from ringmaster.tuning.parameters import ContinuousParameter as Parameter
from ringmaster.tuning.scales import LINEAR, LOG
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command


def config(**changes):
    result = {
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
        "candidate_colour": "b", "opponent": "opp", "number_of_games": 600,
        "parameters": [Parameter("x", scale=LINEAR(0, 1), format="x: %.3f")],
        "make_candidate": make_simulated_candidate,
    }
    result.update(changes)
    return result


def make_tuner(seed=1, **changes):
    tuner = BayesTuner("bayes")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config(**changes))
    tuner.set_clean_status()
    return tuner


def saved(tuner):
    """The tuner's state as the state file has it (its finished matches are an array the journal extends)."""
    return json.loads(dumps_state(tuner.get_status()))


def peak(p):
    """Best at x = 0.7 (win rate 0.65), falling to 0.25 or so at x = 0."""
    return 0.65 - 0.8 * (p[0] - 0.7) ** 2


# Settings

@pytest.mark.parametrize("changes, message", [
    ({"number_of_games": 20, "games_per_point": 4},
     "'number_of_games': 20 is fewer than the initial design's matches (10 x 4)"),
    ({"number_of_games": 20, "games_per_point": 2, "start_matches": 5},
     "'number_of_games': 20 is fewer than the initial design's matches (11 x 2)"),
    ({"start_matches": 0}, "'start_matches': must be positive"),
    ({"ucb_kappa": -1.0}, "'ucb_kappa': must not be negative"),
    ({"acquisition": "ei"}, "'acquisition': must be one of 'knowledge_gradient', 'ucb'"),
    ({"games_per_point": 0}, "'games_per_point': must be positive"),
    ({"refit_every": "often"}, "'refit_every': invalid integer"),
    ({"trend": "cubic"}, "'trend': must be one of 'constant', 'quadratic'"),
    ({"trust_region": "yes"}, "'trust_region': invalid True/False value"),
    ({"answer_smoothing": 0.5}, "'answer_smoothing': must be at least 1 (1: the fitted model's own maximum)"),
    ({"answer_smoothing": "wide"}, "'answer_smoothing': invalid float"),
    ({"answer_caution": -1}, "'answer_caution': must not be negative"),
    ({"trust_region": True, "acquisition": "ucb"},
     "'trust_region': True needs acquisition = 'knowledge_gradient' (not 'ucb')"),
    ({"stop_when_confident": 0.95}, "'stop_when_confident': not supported by bayes_tuner"),
    ({"komi": 7}, "'komi': must be fractional"),
    ({"parameters": []}, "'parameters': empty list"),
    ({"initial_points": 10**9, "number_of_games": None},
     "'initial_points': 1000000000 (with 3 more matches at the start) is more than the 10000"),
])
def test_bad_settings_are_refused_in_one_line(changes, message):
    with pytest.raises(ControlFileError) as excinfo:
        make_tuner(**changes)
    assert message in str(excinfo.value)
    assert "\n" not in str(excinfo.value)


def test_the_trend_setting_offers_exactly_the_models_trends():
    from ringmaster.competitions import bayes_settings
    from ringmaster.tuning import gaussian_process
    assert bayes_settings.TRENDS == gaussian_process.TRENDS


def test_match_size_gives_about_150_points_and_is_even():
    assert default_games_per_point(1000) == 8       # 6.7 rounds to 7, made even
    assert default_games_per_point(600) == 4
    assert default_games_per_point(300) == 4        # fewer points: matches of at least 4 games
    assert default_games_per_point(100) == 4
    assert default_games_per_point(20000) == 134
    assert default_games_per_point(5000) % 2 == 0
    assert default_games_per_point(None) == 20


def test_latin_hypercube_has_one_point_in_each_slice_of_each_dimension():
    points = latin_hypercube(7, 3, random.Random(1))
    for dim in range(3):
        assert sorted(int(p[dim] * 7) for p in points) == list(range(7))


def test_defaults():
    tuner = make_tuner(parameters=[Parameter("a", scale=LINEAR(0, 1)), Parameter("b", scale=LOG(1, 10))])
    assert tuner.games_per_point == 4 and tuner.initial_points == 10
    assert tuner.start_matches == 4 and tuner.design_matches == 13
    assert make_tuner(acquisition="ucb").start_matches == 1
    assert tuner.recommended_parameters() == [0.5, 0.5]
    assert tuner.candidate_colour == "b"
    assert make_tuner(candidate_colour=None).candidate_colour == "random"


# Games and the model

def test_a_point_plays_its_match_then_the_next_point_comes():
    tuner = make_tuner(games_per_point=4, start_matches=1)
    jobs = [tuner.get_game() for _ in range(5)]
    assert [j.game_id for j in jobs] == ["0r0", "0r1", "0r2", "0r3", "1r0"]
    assert {j.player_b.code for j in jobs[:4]} == {"p0"} and jobs[4].player_b.code == "p1"
    assert jobs[0].player_b.command == jobs[3].player_b.command != jobs[4].player_b.command


def test_the_model_finds_the_peak():
    tuner = make_tuner()
    assert run_simulation(tuner, peak, 600, random.Random(2)) == 600
    point, mean, sd = tuner.recommendation()
    assert abs(point[0] - 0.7) < 0.12
    assert sd > 0
    # where each match measures: its point, or a head-to-head pair's middle
    measured = [(p["x"][0] + p["y"][0]) / 2 if "y" in p else p["x"][0] for p in tuner.points[7:]]
    assert sum(abs(x - 0.7) < 0.2 for x in measured) > len(measured) * 3 / 4


@pytest.mark.parametrize("smoothing", [1.0, 2.0, 3.0])
def test_the_answer_is_the_maximum_of_the_fit_with_its_lengthscales_scaled(smoothing):
    import numpy as np

    from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters

    tuner = make_tuner(answer_smoothing=smoothing, answer_caution=0)
    run_simulation(tuner, peak, 300, random.Random(4))
    fitted = tuner.model()
    scaled = Hyperparameters(tuple(smoothing * ls for ls in fitted.hyper.lengthscales),
                             fitted.hyper.signal_sd)
    model = GaussianProcess(fitted.x, fitted.wins, fitted.games, scaled, trend=fitted.trend,
                            other=fitted.other)
    grid = np.linspace(0.0, 1.0, 2001)[:, None]
    best = grid[int(np.argmax(model.predict_mean(grid)))][0]
    point, mean, sd = tuner.recommendation()
    assert abs(point[0] - best) < 0.002
    # the win rate reported there is the fitted model's, not the smoothed one's
    fitted_mean, fitted_sd = fitted.predict(np.array([point]))
    assert (mean, sd) == pytest.approx((fitted_mean[0], fitted_sd[0]))


def test_a_lucky_narrow_cluster_draws_the_fitted_maximum_and_not_the_answer():
    # A broad hill peaking at 0.5 (50% there, 32% at 0.8), played evenly in 20-game matches, and
    # two matches beside 0.8 that won 70%: the fit's own maximum goes to them, the answer stays
    # near the hill's top.
    points = [{"x": [x], "wins": float(round(20 * (0.5 - 2.0 * (x - 0.5) ** 2))), "games": 20}
              for x in np.linspace(0.0, 1.0, 21) if abs(x - 0.8) > 0.04]
    points += [{"x": [x], "wins": 14.0, "games": 20} for x in (0.79, 0.81)]
    answers = []
    for smoothing in (2.0, 1.0):
        tuner = make_tuner(start_matches=1, initial_points=2, number_of_games=None,
                           games_per_point=20, answer_smoothing=smoothing, answer_caution=0)
        tuner.points = [dict(p) for p in points]
        answers.append(tuner.recommendation()[0][0])
    smoothed, fitted = answers
    assert abs(smoothed - 0.5) < 0.1
    assert abs(fitted - 0.5) > 0.15


@pytest.mark.parametrize("caution", [0.0, 1.0, 2.0, 3.0])
def test_the_answer_maximises_the_mean_less_caution_sds(caution):
    from ringmaster.tuning.gaussian_process import GaussianProcess

    tuner = make_tuner(answer_caution=caution)
    run_simulation(tuner, peak, 300, random.Random(4))
    fitted = tuner.model()
    # the same posterior rebuilt from the matches, and its bound maximised on a fine grid
    model = GaussianProcess(fitted.x, fitted.wins, fitted.games, fitted.hyper, trend=fitted.trend,
                            other=fitted.other)
    grid = np.linspace(0.0, 1.0, 2001)[:, None]
    mean, sd = model.predict(grid)
    best = grid[int(np.argmax(mean - caution * sd))][0]
    point, answer_mean, answer_sd = tuner.recommendation()
    assert abs(point[0] - best) < 0.002
    assert (answer_mean, answer_sd) == pytest.approx(tuple(v[0] for v in model.predict(np.array([point]))))


def test_a_lone_lucky_match_draws_the_mean_and_not_the_cautious_answer():
    # A hill peaking at 0.3 (55% there), played in 20-game matches up to 0.6, and one 4-game match at
    # 0.95 that won all 4: the mean's maximum goes out to it, 2 sds of caution keep the answer on
    # the hill the games measured.
    points = [{"x": [x], "wins": float(round(20 * (0.55 - 1.5 * (x - 0.3) ** 2))), "games": 20}
              for x in np.linspace(0.0, 0.6, 13)]
    points.append({"x": [0.95], "wins": 4.0, "games": 4})
    answers = []
    for caution in (0.0, 2.0):
        tuner = make_tuner(start_matches=1, initial_points=2, number_of_games=None,
                           games_per_point=20, answer_caution=caution)
        tuner.points = [dict(p) for p in points]
        answers.append(tuner.recommendation()[0][0])
    bold, cautious = answers
    assert bold > 0.8
    assert abs(cautious - 0.3) < 0.1


@pytest.mark.parametrize("trend", ["quadratic", "constant"])
def test_the_trend_is_the_settings_from_the_first_fit(trend):
    # The trend's coefficients have a prior, so a quadratic is safe on a few points.
    tuner = make_tuner(trend=trend)
    run_simulation(tuner, peak, 8, random.Random(2))
    assert len(tuner._observed()) == 2
    assert tuner.model(search=True).trend == tuner.fitted_trend == trend


def test_the_design_plays_the_start_start_matches_times_then_fills_a_latin_hypercube():
    tuner = make_tuner(games_per_point=2,
                       parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.2)])
    assert tuner.start_matches == 4
    run_simulation(tuner, peak, 20, random.Random(2))
    xs = [p["x"][0] for p in tuner.points]
    assert xs[:4] == [0.2] * 4
    assert sorted(int(x * 6) for x in xs[4:10]) == list(range(6))
    once = make_tuner(games_per_point=2, start_matches=1,
                      parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.2)])
    run_simulation(once, peak, 14, random.Random(2))
    assert [p["x"][0] for p in once.points][1:7] == xs[4:10]


@pytest.mark.parametrize("acquisition", ["knowledge_gradient", "ucb"])
def test_both_acquisitions_find_the_peak(acquisition):
    tuner = make_tuner(acquisition=acquisition)
    assert run_simulation(tuner, peak, 600, random.Random(2)) == 600
    point, _, _ = tuner.recommendation()
    assert abs(point[0] - 0.7) < 0.12


def test_points_being_played_push_the_next_point_elsewhere():
    tuner = make_tuner(games_per_point=2)
    run_simulation(tuner, peak, 40, random.Random(2))
    first = tuner.get_game()
    second_point = [tuner.get_game() for _ in range(2)][1]
    assert first.player_b.command != second_point.player_b.command


def test_parallel_games_finishing_out_of_order_lose_nothing():
    tuner = make_tuner(number_of_games=200)
    assert run_simulation(tuner, peak, 200, random.Random(3), parallel=8) == 200
    assert tuner.results() == 200 and tuner.tuning_over()


@pytest.mark.parametrize("changes", [
    {}, {"parameters": [Parameter("x", scale=LINEAR(0, 1)), Parameter("y", scale=LINEAR(0, 1))]},
    {"trust_region": True}])
def test_reports_asked_for_between_results_change_no_game(changes):
    # The screen redraws on the clock and each redraw asks for the answer: a refit kept then
    # would move the search's schedule of refits, and with it the games that follow.
    quiet, watched = make_tuner(**changes), make_tuner(**changes)
    run_simulation(quiet, peak, 200, random.Random(6))
    screen = io.StringIO()
    run_simulation(watched, peak, 200, random.Random(6),
                   on_result=lambda done: done % 7 or watched.write_screen_report(screen))
    assert "Recommended" in screen.getvalue()
    assert watched.points == quiet.points
    assert saved(watched) == saved(quiet)
    assert watched.get_json_report() == quiet.get_json_report()


def test_a_redraw_with_no_new_result_computes_no_model_slice_again(monkeypatch):
    from ringmaster.competitions import bayes_tuner
    tuner = make_tuner()
    run_simulation(tuner, peak, 60, random.Random(6))
    calls = []
    real = bayes_tuner.slices
    monkeypatch.setattr(bayes_tuner, "slices", lambda *args: (calls.append(1), real(*args))[1])
    screens = []
    for _ in range(3):
        out = io.StringIO()
        tuner.write_screen_report(out)
        screens.append(out.getvalue())
    assert screens[0] == screens[1] == screens[2] and "The model along each parameter" in screens[0]
    assert len(calls) == 1                       # the first redraw only
    assert tuner.slices() == real(tuner.model(), tuner.recommendation()[0], tuner.parameter_specs,
                                  tuner.convert)
    run_simulation(tuner, peak, 1, random.Random(7))
    tuner.write_screen_report(io.StringIO())
    assert len(calls) == 2                       # and once again after a new result


def test_a_result_is_counted_once():
    tuner = make_tuner()
    job = tuner.get_game()
    tuner.process_game_result(make_result(job, "b"))
    assert tuner.process_game_result(make_result(job, "b")) is None
    assert tuner.points[0]["games"] == 1 and tuner.points[0]["wins"] == 1


# State

def test_state_round_trip_gives_the_same_model_and_replays_games_in_flight():
    tuner = make_tuner()
    run_simulation(tuner, peak, 150, random.Random(4))
    in_flight = [tuner.get_game() for _ in range(3)]
    status = saved(tuner)
    reloaded = make_tuner(seed=5)
    reloaded.set_status(status)
    assert reloaded.recommendation() == tuner.recommendation()
    assert [reloaded.get_game().player_b.command for _ in range(3)] == \
        [j.player_b.command for j in in_flight]


def diagonal_ridge(p):
    """Best along x + y = 1, steeply off it (the kernel turns onto such a ridge)."""
    return 0.6 - 3.0 * (p[0] + p[1] - 1.0) ** 2 - 0.2 * (p[0] - 0.3) ** 2


def two_parameters():
    return [Parameter("x", scale=LINEAR(0, 1)), Parameter("y", scale=LINEAR(0, 1))]


def test_a_turned_kernel_is_kept_in_the_state_and_a_state_without_one_keeps_the_axes():
    tuner = make_tuner(parameters=two_parameters())
    run_simulation(tuner, diagonal_ridge, 300, random.Random(4))
    tuner.model()
    assert tuner.rotation is not None
    status = saved(tuner)
    reloaded = make_tuner(seed=5, parameters=two_parameters())
    reloaded.set_status(status)
    assert reloaded.model().hyper.rotation == tuner.model().hyper.rotation
    turn = [list(row) for row in tuner.model().hyper.rotation]
    assert reloaded.get_json_report()["kernel_rotation"] == turn
    assert reloaded.recommendation() == tuner.recommendation()
    for bad in ([[1.0, 0.0]], [[1.0, 0.0], [0.0, "x"]], 7):
        with pytest.raises(CompetitionError, match="inconsistent"):
            make_tuner(parameters=two_parameters()).set_status({**status, "rotation": bad})
    del status["rotation"]                    # written before the kernel could turn
    old = make_tuner(seed=5, parameters=two_parameters())
    old.set_status(status)
    assert old.rotation is None and old.model().hyper.rotation is None


def test_a_run_started_before_trends_resumes_with_its_constant_model():
    tuner = make_tuner(trend="constant")
    run_simulation(tuner, peak, 150, random.Random(4))
    status = saved(tuner)
    del status["fitted_trend"]
    reloaded = make_tuner(seed=5)
    reloaded.set_status(status)
    assert reloaded.trend == "constant" and reloaded.model().trend == "constant"
    assert reloaded.recommendation() == tuner.recommendation()


def test_a_run_started_with_older_defaults_resumes_with_its_match_size_and_design():
    tuner = make_tuner(number_of_games=300, start_matches=1)
    tuner.games_per_point = 2                 # the default below 600 games before it was 4
    run_simulation(tuner, peak, 12, random.Random(4))
    status = saved(tuner)
    del status["start_matches"]               # written before start_matches existed
    reloaded = make_tuner(seed=5, number_of_games=300)
    assert reloaded.games_per_point == 4 and reloaded.start_matches == 4
    reloaded.set_status(status)
    assert reloaded.games_per_point == 2 and reloaded.start_matches == 1
    run_simulation(reloaded, peak, 8, random.Random(6))
    assert len(reloaded.points) == 10         # 2-game matches still
    design = [p["x"] for p in reloaded.points[:7]]   # the start once, then the hypercube of 6
    assert design[0] == [0.5] and [0.5] not in design[1:]
    assert sorted(int(x[0] * 6) for x in design[1:]) == list(range(6))


def test_changed_games_per_point_is_refused_on_reload():
    status = make_tuner().get_status()
    with pytest.raises(CompetitionError, match=r"^'games_per_point' is 12 in the control file but was "
                       r"\d+ for the games so far; put it back, or start afresh with `ringmaster reset`$"):
        make_tuner(games_per_point=12).set_status(status)


def test_a_changed_parameter_list_is_refused_naming_the_parameters():
    status = make_tuner().get_status()
    with pytest.raises(CompetitionError, match=r"^the parameters are y in the control file but were x "
                       r"for the games so far; put them back, or start afresh with `ringmaster reset`$"):
        make_tuner(parameters=[Parameter("y", scale=LINEAR(0, 1))]).set_status(status)


@pytest.mark.parametrize("after, message", [
    (LINEAR(0, 2),
     "'scale' is 0 to 2, 1 at the middle in the control file but was 0 to 1, 0.5 at the middle"),
    (LOG(0.01, 1), "'scale' is 0.01 to 1, 0.1 at the middle in the control file but was 0 to 1, 0.5 at the "
                   "middle"),
])
def test_a_changed_scale_is_refused_naming_the_parameter_and_its_values(after, message):
    # the model's points are kept from 0 to 1: another scale would mix games at other engine values
    status = saved(make_tuner())
    remedy = " for the games so far; put it back, or start afresh with `ringmaster reset`"
    with pytest.raises(CompetitionError, match="^" + re.escape("parameter x: " + message + remedy) + "$"):
        make_tuner(parameters=[Parameter("x", scale=after)]).set_status(status)
    del status["scales"], status["start"]   # a state written before they were kept
    make_tuner(parameters=[Parameter("x", scale=after)]).set_status(status)


def test_a_changed_start_is_refused_where_the_confirmation_games_play_it():
    status = saved(make_tuner())
    with pytest.raises(CompetitionError, match="^parameter x: 'start' is 0.3 in the control file but "
                                               "was 0.5 for the games so far"):
        make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.3)]).set_status(status)
    # With no confirmation games, or a run whose confirmation games play the opponent: every
    # point keeps its own place, and the start only placed the design's first matches.
    make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.3)],
               confirm_games=0).set_status(status)
    # Confirmation games played against the start are kept: with confirm_games raised again they
    # would be reported as against the new one.
    played = json.loads(json.dumps(status))
    played["confirmation"]["played"] = 2
    with pytest.raises(CompetitionError, match="^parameter x: 'start' is 0.3 in the control file"):
        make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.3)],
                   confirm_games=0).set_status(played)
    status["confirmation"]["against"] = "opponent"
    tuner = make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.3)])
    tuner.set_status(status)
    assert tuner.start == [0.3]


# Reports

def test_reports_give_the_recommendation_with_an_interval_and_the_model_along_each_parameter():
    tuner = make_tuner(number_of_games=200, confirm_games=2)
    run_simulation(tuner, peak, 200, random.Random(6))
    out = io.StringIO()
    tuner.write_short_report(out)
    text = out.getvalue()
    assert text.startswith("Bayesian tuning event: bayes\n")
    assert "Recommended (the model's highest mean less 2 sd): x: " in text
    assert ("(the model's estimate where it is highest, from the games that chose the point, flatters it: "
            "by 1 to 3 win-rate points on the bench; the confirmation games below are a fair test)") in text
    # less than without pairs, where no match is played at the incumbent for its own sake
    assert any("y" in p for p in tuner.points)
    out = io.StringIO()
    make_tuner(answer_smoothing=2).write_short_report(out)
    assert "No recommendation before the first result." in out.getvalue()
    unconfirmed = make_tuner(number_of_games=200, confirm_games=0)
    run_simulation(unconfirmed, peak, 20, random.Random(6))
    out = io.StringIO()
    unconfirmed.write_screen_report(out)
    assert all("y" not in p for p in unconfirmed.points)    # the design only: no pairs yet
    assert "flatters it: by 2 to 5 win-rate points on the bench; set confirm_games for an unbiased figure)" \
        in out.getvalue()
    assert "The model along each parameter" in text
    assert "confirmation: 2 fresh games for the best candidate against the start once tuning ends" in text
    data = tuner.get_json_report()
    low, high = data["recommended"]["model_win_rate_95"]
    assert low < data["recommended"]["model_win_rate"] < high
    assert data["recommended"]["answer_caution"] == 2.0
    (curve,) = data["slices"]
    assert curve["code"] == "x" and len(curve["win_rate"]) == 21
    assert all(lo <= m <= hi for lo, m, hi in zip(curve["low"], curve["win_rate"], curve["high"]))
    (optimum,) = data["recommended"]["optimum_95"]
    assert optimum["low"] <= optimum["low_50"] <= optimum["median"] <= optimum["high_50"] <= optimum["high"]
    assert "Where the optimum lies, by the model" in text
    assert (f"{optimum['shown_low']}  to  {optimum['shown_high']}  (median {optimum['shown_median']}; "
            f"half {optimum['shown_low_50']}  to  {optimum['shown_high_50']})") in text


def test_the_optimums_interval_holds_the_peak_and_narrows_with_games():
    tuner = make_tuner(number_of_games=1200, seed=3)
    run_simulation(tuner, peak, 60, random.Random(8))
    (early,) = tuner.optimum_location()
    run_simulation(tuner, peak, 1140, random.Random(9))
    (late,) = tuner.optimum_location()
    low, low_50, median, high_50, high = late
    assert low <= 0.7 <= high
    assert high - low < 0.5 * (early[-1] - early[0])
    point, _, _ = tuner.recommendation()
    assert low <= point[0] <= high
    # the central half: inside the 95% interval, about the median, and narrower
    assert low <= low_50 <= median <= high_50 <= high
    assert high_50 - low_50 < high - low


# A whole run, in process

BAYES_CTL = """
competition_type = 'bayes_tuner'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
number_of_games = 8
games_per_point = 2
initial_points = 3
start_matches = 1
confirm_games = 1

def make_candidate(n):
    return Player({candidate!r} + ['--name', 'n%d' % n])

parameters = [Parameter('n', scale=LINEAR(0, 10, integer=True), format='n: %d')]
"""


def test_whole_run_resumes_and_reports(write_ctl):
    ctl = write_ctl(BAYES_CTL.format(opponent=fake_engine_command("--name", "opp"),
                                     candidate=fake_engine_command()))
    invoke = lambda *args: cli.invoke(*args, channel_factory=fake_engine_channel)  # noqa: E731
    assert invoke("run", ctl, "-q", "-g", "3").exit_code == 0
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["0r0.sgf", "0r1.sgf", "1r0.sgf", "1r1.sgf", "2r0.sgf",
                                                   "2r1.sgf", "3r0.sgf", "3r1.sgf", "c0.sgf"]
    report = Path(base + ".report").read_text()
    assert "8/8 games played, 4 points" in report and "confirmation games (1/1)" in report


def test_the_real_events_control_file_builds_without_warnings():
    from ringmaster.control_file import load_control_file
    root = Path(__file__).resolve().parents[3]
    control_file = load_control_file(str(root / "reports/tune_mcts_bayes_7x7/tune_mcts_bayes_7x7.ctl"))
    assert control_file.warnings == []
    tuner = control_file.make_competition()
    tuner.set_clean_status()
    assert tuner.sample_engine_parameters() == pytest.approx((0.2, 948.68), rel=1e-4)


@pytest.mark.parametrize("kind", ["spsa_tuner", "bayes_tuner"])
def test_an_mc_tuner_control_file_switches_by_its_competition_type(kind, write_ctl):
    from ringmaster.control_file import load_control_file
    root = Path(__file__).resolve().parents[3]
    text = (root / "control_files/tune_mcts_c_7x7.ctl").read_text()
    text = text.replace("competition_type = 'mc_tuner'", f"competition_type = '{kind}'")
    text = text.replace("stop_when_confident = 0.95", "")
    control_file = load_control_file(write_ctl(text))
    assert control_file.warnings == []
    tuner = control_file.make_competition()
    tuner.set_clean_status()
    assert tuner.sample_engine_parameters() == pytest.approx((0.5,))   # LOG(0.05, 5.0)'s centre
    assert tuner.number_of_games == 400 and tuner.confirm_games == 40


def test_the_verdict_needs_the_answer_to_beat_the_start_in_confirmation_games():
    # On a flat landscape the model's 95% interval at its answer was narrow enough for the old
    # bar (0.2 wide), and every run said 'Use': confirmation games against the start decide now.
    flat = make_tuner(number_of_games=400)
    assert flat.confirm_games == 40 and flat.confirm_against == "start"
    assert run_simulation(flat, lambda p: 0.5, 500, random.Random(6)) == 440 and flat.is_complete()
    low, high = flat.get_json_report()["recommended"]["model_win_rate_95"]
    assert high - low <= 0.2
    verdict = flat.verdict()
    assert verdict.headline() == "No clear winner yet"
    assert verdict.bar == ("a recommendation needs LOS 0.975 over the start, and the 95% interval of "
                           "its score above even")
    assert verdict.evidence.startswith("the answer beat the start (x: 0.500) in ")
    assert verdict.uncertainty.startswith("the model's win rate there against the opponent is ")
    steep = make_tuner(number_of_games=400)
    run_simulation(steep, lambda p: 0.9 - 1.6 * (p[0] - 0.8) ** 2, 420, random.Random(6))
    assert steep.verdict().headline() == f"Clearly leading so far: {steep.verdict().answer}"
    run_simulation(steep, lambda p: 0.9 - 1.6 * (p[0] - 0.8) ** 2, 20, random.Random(7))
    assert steep.is_complete() and steep.verdict().headline() == f"Use {steep.verdict().answer}"
    edge = make_tuner(number_of_games=200)
    run_simulation(edge, lambda p: 0.9 - 0.8 * p[0], 200, random.Random(6))
    assert edge.recommended_parameters()[0] < 0.05
    assert edge.verdict().warnings == [
        "warning: x lies at the lowest end of its range: the best value may be below it; widen the "
        "range of x and tune again"]


def test_a_run_that_confirmed_against_the_opponent_goes_on_so_without_a_default():
    tuner = make_tuner(number_of_games=200)
    status = saved(tuner)
    status["confirmation"]["against"] = "opponent"   # a run started before it played the start
    reloaded = make_tuner(number_of_games=200)
    reloaded.set_status(status)
    assert reloaded.confirm_games == 0 and reloaded.confirm_against == "opponent"
    given = make_tuner(number_of_games=200, confirm_games=10)
    given.set_status(status)
    assert given.confirm_games == 10 and given.confirm_against == "opponent"


# The trust region (trust_region = True)

def test_with_a_trust_region_it_finds_the_peak_and_chooses_inside_the_box():
    from ringmaster.tuning.trust_region import box
    tuner = make_tuner(trust_region=True)
    assert run_simulation(tuner, peak, 600, random.Random(2)) == 600
    point, mean, sd = tuner.recommendation()
    assert 0.65 - peak(point) < 0.02 and sd > 0   # within 0.16 of the peak (seeds 3-5: 0.02-0.09)
    low, high = box(tuner.region.centre, tuner.region.side)
    assert low[0] <= point[0] <= high[0]
    for _ in range(5):
        chosen = tuner._next_point()
        low, high = box(tuner.region.centre, tuner.region.side)
        assert low[0] <= chosen[0] <= high[0]


def test_without_the_setting_there_is_no_box():
    tuner = make_tuner()
    run_simulation(tuner, peak, 200, random.Random(2))
    assert tuner.region is None and tuner.get_status()["trust_region"] is None


def test_a_trust_regions_state_round_trips_with_its_box_and_games_in_flight():
    tuner = make_tuner(trust_region=True, parameters=two_parameters())
    run_simulation(tuner, diagonal_ridge, 300, random.Random(4))
    in_flight = [tuner.get_game() for _ in range(3)]
    status = saved(tuner)
    assert status["trust_region"]["local_hyper"] is not None
    reloaded = make_tuner(seed=5, trust_region=True, parameters=two_parameters())
    reloaded.set_status(status)
    assert reloaded.region == tuner.region
    assert reloaded.recommendation() == tuner.recommendation()
    assert [reloaded.get_game().player_b.command for _ in range(3)] == \
        [j.player_b.command for j in in_flight]
    assert reloaded.region == tuner.region


def test_the_answer_follows_the_box_when_it_shrinks_between_results():
    from ringmaster.tuning.trust_region import FAILURES
    tuner = make_tuner(trust_region=True, parameters=two_parameters())
    run_simulation(tuner, diagonal_ridge, 300, random.Random(4))
    before = tuner.recommendation(), tuner.optimum_location()
    tuner.region.failures, tuner.region.last_value = FAILURES - 1, 1e9   # the next step halves it
    side = tuner.region.side
    tuner.get_game()
    assert tuner.region.side == side / 2
    reloaded = make_tuner(seed=5, trust_region=True, parameters=two_parameters())
    reloaded.set_status(saved(tuner))
    after = tuner.recommendation(), tuner.optimum_location()
    assert after == (reloaded.recommendation(), reloaded.optimum_location())
    assert after[0] != before[0]


def test_the_trust_region_can_be_switched_between_runs():
    tuner = make_tuner(trust_region=True)
    run_simulation(tuner, peak, 150, random.Random(4))
    status = saved(tuner)
    off = make_tuner(seed=5)
    off.set_status(status)
    assert off.region is None and off.get_status()["trust_region"] is None
    plain = make_tuner(seed=5)
    run_simulation(plain, peak, 150, random.Random(4))
    on = make_tuner(seed=5, trust_region=True)
    on.set_status(saved(plain))
    assert on.region is None
    run_simulation(on, peak, 20, random.Random(6))
    assert on.region is not None


@pytest.mark.parametrize("bad", [{"side": 7.0}, {"centre": [0.5, 0.5]}, {"successes": "x"}, 3])
def test_a_bad_trust_region_in_the_state_is_refused(bad):
    tuner = make_tuner(trust_region=True)
    run_simulation(tuner, peak, 150, random.Random(4))
    status = saved(tuner)
    status["trust_region"] = {**status["trust_region"], **bad} if isinstance(bad, dict) else bad
    with pytest.raises(CompetitionError, match="inconsistent"):
        make_tuner(trust_region=True).set_status(status)


def test_a_trust_region_in_parallel_loses_nothing():
    tuner = make_tuner(number_of_games=200, trust_region=True)
    assert run_simulation(tuner, peak, 200, random.Random(3), parallel=8) == 200
    assert tuner.results() == 200 and tuner.tuning_over()


def test_in_a_trust_region_points_being_played_push_the_next_point_elsewhere():
    import copy
    tuner = make_tuner(games_per_point=2, trust_region=True)
    run_simulation(tuner, peak, 60, random.Random(2))
    assert tuner.region is not None
    alone, beside = copy.deepcopy(tuner), copy.deepcopy(tuner)
    chosen = alone._next_point()
    beside.points.append({"x": chosen, "wins": 0.0, "games": 0})
    beside.rng = copy.deepcopy(tuner.rng)
    again = copy.deepcopy(tuner)
    assert again._next_point() == chosen          # the same state and draws choose the same point
    assert abs(beside._next_point()[0] - chosen[0]) > 0.01


# Head to head (head_to_head = True)

def test_head_to_head_needs_the_knowledge_gradient_and_no_trust_region():
    for changes in ({"acquisition": "ucb"}, {"trust_region": True}):
        with pytest.raises(ControlFileError) as excinfo:
            make_tuner(head_to_head=True, **changes)
        assert str(excinfo.value) == ("'head_to_head': True needs acquisition = 'knowledge_gradient' "
                                      "and trust_region = False")
    with pytest.raises(ControlFileError, match="'head_to_head': invalid True/False value"):
        make_tuner(head_to_head="often")


def test_head_to_head_is_on_by_default_where_the_knowledge_gradient_chooses_without_a_box():
    assert make_tuner().head_to_head is True
    assert make_tuner(acquisition="ucb").head_to_head is False
    assert make_tuner(trust_region=True).head_to_head is False
    assert make_tuner(head_to_head=False).head_to_head is False


def test_a_run_started_before_pairs_were_the_default_resumes_without_them():
    tuner = make_tuner(head_to_head=False, games_per_point=4)
    run_simulation(tuner, peak, 4 * tuner.design_matches + 8, random.Random(2))
    status = saved(tuner)
    assert status["head_to_head"] is False
    del status["head_to_head"]           # as a state file written before the setting was saved
    resumed = make_tuner(games_per_point=4)
    resumed.set_status(status)
    run_simulation(resumed, peak, 40, random.Random(3))
    assert resumed.head_to_head is False and all("y" not in p for p in resumed.points)
    asked = make_tuner(games_per_point=4, head_to_head=True)
    asked.set_status(status)
    run_simulation(asked, peak, 40, random.Random(3))
    assert any("y" in p for p in asked.points)    # the control file's True still counts


def test_after_the_design_two_candidates_play_each_other_either_side_of_the_incumbent():
    # the incumbent is the mean's own maximum: the answer, with no caution
    tuner = make_tuner(head_to_head=True, games_per_point=4, answer_caution=0)
    run_simulation(tuner, peak, 4 * tuner.design_matches, random.Random(2))
    assert all("y" not in p for p in tuner.points)     # the design is against the opponent
    incumbent = tuner.recommended_parameters()
    jobs = [tuner.get_game() for _ in range(4)]
    assert [j.game_id for j in jobs] == [f"{tuner.design_matches}r{r}" for r in range(4)]
    index = tuner.design_matches
    assert [(j.player_b.code, j.player_w.code) for j in jobs[:2]] == \
        [(f"p{index}+", f"p{index}-"), (f"p{index}-", f"p{index}+")]   # colours swap each round
    match = tuner.points[index]
    assert 0.0 < min(match["x"][0], match["y"][0]) and max(match["x"][0], match["y"][0]) < 1.0
    assert abs((match["x"][0] + match["y"][0]) / 2 - incumbent[0]) < 0.01   # its centre: the best mean
    assert 0.02 - 1e-9 <= abs(match["x"][0] - match["y"][0]) / 2 <= 0.25 + 1e-9
    assert list(jobs[0].player_b.command) == ["simulated-candidate", repr(match["x"][0])]   # + plays x


def test_every_fourth_match_after_the_design_plays_the_opponent_at_the_incumbent():
    tuner = make_tuner(head_to_head=True, games_per_point=4, answer_caution=0)
    run_simulation(tuner, peak, 4 * (tuner.design_matches + matches.LEVEL_EVERY - 1), random.Random(2))
    incumbent = tuner.recommended_parameters()
    jobs = [tuner.get_game() for _ in range(4)]
    index = tuner.design_matches + matches.LEVEL_EVERY - 1
    assert [j.game_id for j in jobs] == [f"{index}r{r}" for r in range(4)]
    assert {(j.player_b.code, j.player_w.code) for j in jobs} == {(f"p{index}", "opp")}
    assert "y" not in tuner.points[index] and abs(tuner.points[index]["x"][0] - incumbent[0]) < 0.01
    run_simulation(tuner, peak, 600 - tuner.results() - 4, random.Random(3))
    after = tuner.points[tuner.design_matches:]
    assert all("y" not in p for p in after[matches.LEVEL_EVERY - 1::matches.LEVEL_EVERY])
    assert sum("y" in p for p in after) > len(after) // 2     # the others are mostly pairs here


def corner_peak(p):
    """Best at (0.95, 0.95) (win rate 0.6), far from most of the square."""
    return 0.6 - 0.8 * ((p[0] - 0.95) ** 2 + (p[1] - 0.95) ** 2)


@pytest.mark.parametrize("dims, near", [(2, True), (1, False)])
def test_with_head_to_head_a_lone_match_is_chosen_near_the_incumbent_from_two_parameters(
        monkeypatch, dims, near):
    # Chosen anywhere, lone matches went mostly to far corners where the design had seen them lose;
    # in 1-D keeping them near gained nothing and widened the optimum's interval.
    from ringmaster.tuning import gaussian_process
    spans = []
    real = gaussian_process.knowledge_gradient

    def recording(gp, choices, answers, games):
        spans.append(float(np.max(np.abs(choices - answers[-1]))))   # answers end with the incumbent
        return real(gp, choices, answers, games)

    monkeypatch.setattr(gaussian_process, "knowledge_gradient", recording)
    parameters = [Parameter(name, scale=LINEAR(0, 1)) for name in "xy"[:dims]]
    tuner = make_tuner(number_of_games=300, parameters=parameters)
    run_simulation(tuner, corner_peak if dims == 2 else lambda p: corner_peak([p[0], 0.95]), 300,
                   random.Random(2))
    assert len(spans) > 20 and (max(spans) < 5 * matches.KG_SPREAD) == near
    assert all(abs(v - 0.95) < 0.15 for v in tuner.recommended_parameters())


def test_a_pair_is_moved_inward_whole_where_a_point_would_leave_the_range():
    plus, minus = matches.pairs_either_side([0.95, 0.5], [[0.1, 0.05], [0.02, -0.2], [-0.25, 0.25]])
    assert plus == pytest.approx(np.array([[1.0, 0.55], [0.97, 0.3], [0.5, 0.75]]))
    assert minus == pytest.approx(np.array([[0.8, 0.45], [0.93, 0.7], [1.0, 0.25]]))
    plus, minus = matches.pairs_either_side([0.0, 1.0], [[-0.25, 0.25]])
    assert plus == pytest.approx(np.array([[0.0, 1.0]])) and minus == pytest.approx(np.array([[0.5, 0.5]]))


def test_at_an_incumbent_by_the_edge_the_pairs_along_the_axes_keep_their_lengths(monkeypatch):
    # clipped point by point, the outward half of a pair at an edge was lost
    from ringmaster.tuning import gaussian_process
    half_lengths = []
    real = gaussian_process.knowledge_gradient_head_to_head

    def recording(gp, plus, minus, answers, games):
        assert ((0.0 <= plus) & (plus <= 1.0) & (0.0 <= minus) & (minus <= 1.0)).all()
        half_lengths.append((np.linalg.norm(plus - minus, axis=1) / 2, answers[-1]))
        return real(gp, plus, minus, answers, games)

    monkeypatch.setattr(gaussian_process, "knowledge_gradient_head_to_head", recording)
    tuner = make_tuner(number_of_games=300, parameters=two_parameters())
    run_simulation(tuner, lambda p: corner_peak([1.0, p[1]]), 300, random.Random(2))
    radii = np.geomspace(*matches.PAIR_RADII, matches.AXIS_RADII)
    near_edge = [h for h, incumbent in half_lengths if max(incumbent) > 1.0 - radii[-1]]
    assert len(near_edge) > 10
    for h in near_edge:   # each axis's radii, whole: the last 2 * AXIS_RADII steps are the axes'
        assert h[-2 * matches.AXIS_RADII:] == pytest.approx(np.tile(radii, 2))


def test_a_head_to_head_game_counts_for_the_plus_candidate_and_a_draw_counts_half():
    tuner = make_tuner(head_to_head=True, games_per_point=4)
    run_simulation(tuner, peak, 4 * tuner.design_matches, random.Random(2))
    index = tuner.design_matches
    jobs = [tuner.get_game() for _ in range(4)]
    tuner.process_game_result(make_result(jobs[0], "b"))   # + is black: + won
    tuner.process_game_result(make_result(jobs[1], "b"))   # - is black: + lost
    assert tuner.process_game_result(make_result(jobs[1], "b")) is None   # counted once
    assert tuner.process_game_result(make_result(jobs[2], None, "0")).endswith(" drew 0")   # half
    # No result: left out (it counted half, as a jigo does)
    assert tuner.process_game_result(make_result(jobs[3], None)).endswith(" had no result ?")
    point = tuner.points[index]
    assert (point["wins"], point["games"], point["no_result"]) == (1.5, 3, 1)


def test_a_game_with_no_result_is_in_no_matchs_record_and_a_jigo_counts_half():
    # Against the opponent both counted as losses; the reports say games with no result are
    # left out of every figure.
    tuner = make_tuner(games_per_point=4)
    run_simulation(tuner, peak, 8, random.Random(2))
    jobs = [tuner.get_game() for _ in range(4)]
    index = jobs[0].game_data[1]
    tuner.process_game_result(make_result(jobs[0], "b"))
    tuner.process_game_result(make_result(jobs[1], None, "0"))
    before = (json.loads(json.dumps(tuner.points)), tuner.recommendation())
    tuner.process_game_result(make_result(jobs[2], None))
    assert (tuner.points[index]["wins"], tuner.points[index]["games"]) == (1.5, 2)
    assert tuner.recommendation() == before[1]
    assert [p for p in tuner.points if p != tuner.points[index]] == \
        [p for i, p in enumerate(before[0]) if i != index]
    # Played: counted, and not replayed.
    assert tuner.points[index]["no_result"] == 1 and tuner.games_played() == 11
    assert tuner.get_game().game_id != jobs[2].game_id
    text = io.StringIO()
    tuner.write_screen_report(text)
    assert "11/600 games played, 3 points (4 games each); 1 with no result, left out\n" in text.getvalue()
    report = tuner.get_json_report()
    assert report["no_result_games"] == 1 and report["points"][index]["no_result"] == 1
    restored = make_tuner(games_per_point=4)
    restored.set_status(saved(tuner))
    assert restored.points == tuner.points and restored.recommendation() == tuner.recommendation()
    # A state from before: no count of them (they counted as losses, in wins and games), and every
    # match in "points" (no "open_points").
    status = saved(tuner)
    status["points"] += status.pop("open_points")
    del status["points"][index]["no_result"]
    older = make_tuner(games_per_point=4)
    older.set_status(status)
    assert "no_result" not in older.points[index] and older.results() == 10


def test_head_to_head_finds_the_peak_and_plays_around_it():
    tuner = make_tuner(head_to_head=True)
    assert run_simulation(tuner, peak, 600, random.Random(2)) == 600
    point, mean, sd = tuner.recommendation()
    assert abs(point[0] - 0.7) < 0.08
    pairs = [p for p in tuner.points if "y" in p]
    chosen = (len(tuner.points) - tuner.design_matches) * (matches.LEVEL_EVERY - 1) // matches.LEVEL_EVERY
    assert len(pairs) > 0.8 * chosen      # here pairs are worth more than matches against the opponent
    middles = [(p["x"][0] + p["y"][0]) / 2 for p in pairs[len(pairs) // 2:]]
    assert sum(abs(m - 0.7) < 0.15 for m in middles) > 0.8 * len(middles)


def test_a_head_to_head_run_in_parallel_loses_nothing():
    tuner = make_tuner(head_to_head=True, number_of_games=200)
    assert run_simulation(tuner, peak, 200, random.Random(3), parallel=8) == 200
    assert tuner.results() == 200 and tuner.tuning_over()


def test_a_head_to_head_runs_state_round_trips_with_games_in_flight():
    tuner = make_tuner(head_to_head=True, number_of_games=200, confirm_games=0)
    assert run_simulation(tuner, peak, 120, random.Random(3)) == 120
    in_flight = [tuner.get_game() for _ in range(6)]
    status = saved(tuner)
    assert any("y" in p for p in status["points"])
    reloaded = make_tuner(seed=9, head_to_head=True, number_of_games=200, confirm_games=0)
    reloaded.set_status(status)
    assert reloaded.recommendation() == tuner.recommendation()
    assert [(j.player_b.command, j.player_w.command) for j in
            (reloaded.get_game() for _ in range(6))] == \
        [(j.player_b.command, j.player_w.command) for j in in_flight]
    for job in in_flight:
        tuner.process_game_result(make_result(job, "b"))
    assert run_simulation(tuner, peak, 80, random.Random(4), parallel=8) == 74   # 200 in all
    assert tuner.results() == 200 and tuner.tuning_over()


def test_matches_being_played_head_to_head_push_the_next_pair_elsewhere():
    import copy
    tuner = make_tuner(head_to_head=True, games_per_point=2)
    run_simulation(tuner, peak, 2 * tuner.design_matches + 20, random.Random(2))
    alone, beside, again = copy.deepcopy(tuner), copy.deepcopy(tuner), copy.deepcopy(tuner)
    chosen = alone._next_match()
    assert again._next_match() == chosen        # the same state and draws choose the same pair
    beside.points.append({**chosen, "wins": 0.0, "games": 0})
    beside.rng = copy.deepcopy(tuner.rng)
    assert beside._next_match() != chosen


def test_a_bad_head_to_head_point_in_the_state_is_refused():
    tuner = make_tuner(head_to_head=True, games_per_point=4)
    run_simulation(tuner, peak, 4 * tuner.design_matches + 4, random.Random(2))
    status = saved(tuner)
    status["points"][-1]["y"] = [0.1, 0.2]
    with pytest.raises(CompetitionError, match="status file is inconsistent with control file"):
        make_tuner(head_to_head=True, games_per_point=4).set_status(status)


def test_the_json_report_names_each_head_to_head_matchs_other_point():
    tuner = make_tuner(head_to_head=True, games_per_point=4)
    run_simulation(tuner, peak, 4 * tuner.design_matches + 8, random.Random(2))
    report = tuner.get_json_report()
    assert report["head_to_head"] is True
    last = report["points"][-1]
    assert last["against_optimiser_parameters"] == tuner.points[-1]["y"]
    assert last["against_parameters"] == f"x: {tuner.points[-1]['y'][0]:.3f}"
    assert "against_parameters" not in report["points"][0]
    out = io.StringIO()
    tuner.write_screen_report(out)
    assert ("(head-to-head matches measure differences: the model knows the win rate against the "
            "opponent only from its matches against the opponent (every 4th match after the design "
            "is one, at the incumbent))") in out.getvalue()
    plain = make_tuner(games_per_point=4, head_to_head=False)
    run_simulation(plain, peak, 4 * plain.design_matches + 8, random.Random(2))
    plain_out = io.StringIO()
    plain.write_screen_report(plain_out)
    assert "head-to-head" not in plain_out.getvalue()
    assert plain.get_json_report()["recommended"]["level_note"] is None


def test_a_run_with_head_to_head_matches_resumes_in_a_trust_region_with_their_differences():
    tuner = make_tuner(head_to_head=True, games_per_point=4)
    run_simulation(tuner, peak, 4 * tuner.design_matches + 40, random.Random(2))
    status = saved(tuner)
    assert any("y" in p for p in status["points"])
    boxed = make_tuner(trust_region=True, games_per_point=4)
    boxed.set_status(status)
    run_simulation(boxed, peak, 40, random.Random(3))
    local, low, side = local_model(boxed.region, observed_matches(boxed.points), False, boxed.refit_every)
    assert local.other is not None        # the pairs are differences there too, not wins
    assert abs(boxed.recommendation()[0][0] - 0.7) < 0.15


def test_with_every_design_game_in_flight_it_waits_for_a_result():
    # -j above the design's games: the game after them had no model to choose it, and
    # get_game raised AttributeError ('NoneType' object has no attribute 'predict_mean').
    tuner = make_tuner(number_of_games=400, games_per_point=4)
    design = [tuner.get_game() for _ in range(4 * tuner.design_matches)]
    assert all(job is not NO_GAME for job in design)
    assert tuner.get_game() is NO_GAME and tuner.get_game() is NO_GAME
    tuner.process_game_result(make_result(design[0], "b"))
    job = tuner.get_game()
    assert job is not NO_GAME and job.game_id == f"{tuner.design_matches}r0"


# The cost of a long run

def test_refits_come_every_refit_every_matches_below_200_then_after_a_tenth_more():
    from ringmaster.competitions.bayes_settings import refit_due

    # the bench's runs (187 matches at most) refit as before
    assert [m for m in range(1, 200) if refit_due(m, 180, 10)] == list(range(190, 200))
    assert not refit_due(219, 200, 10) and refit_due(220, 200, 10)
    assert not refit_due(1099, 1000, 10) and refit_due(1100, 1000, 10)
    assert not refit_due(1149, 1000, 150) and refit_due(1150, 1000, 150)   # refit_every the longer
    fitted_at, refits = 0, 0
    for count in range(1, 100_001):
        if refit_due(count, fitted_at, 10):
            fitted_at, refits = count, refits + 1
    assert refits < 20 + 75   # every 10 to 200, then geometric: about 20 + log(500) / log(1.1)


def test_a_long_runs_model_refits_when_the_matches_grew_by_a_tenth(monkeypatch):
    from ringmaster.tuning import gaussian_process

    tuner = make_tuner(number_of_games=None, games_per_point=2)
    fits = []
    real_fit = gaussian_process.fit
    monkeypatch.setattr(gaussian_process, "fit", lambda *a, **k: fits.append(len(a[0])) or real_fit(*a, **k))
    rng = random.Random(2)
    played = [{"x": [rng.random()], "wins": float(rng.randint(0, 2)), "games": 2} for _ in range(220)]
    tuner.hyper, tuner.rotation, tuner.fitted_trend, tuner.fitted_at = [0.3, 1.0], None, tuner.trend, 200
    for count in (210, 219):   # every refit_every (10) matches before
        tuner.points = played[:count]
        tuner.model(search=True)
    assert fits == [] and tuner.fitted_at == 200
    tuner.points = played
    tuner.model(search=True)
    assert fits == [220] and tuner.fitted_at == 220


def test_the_journal_saves_each_finished_match_once_and_reads_back_the_same_tuner(tmp_path):
    from ringmaster.state.journal import StateStore

    store = StateStore(str(tmp_path / "bayes.status"), str(tmp_path / "bayes.journal"))
    tuner = make_tuner(games_per_point=4, confirm_games=0)
    lines = []

    def save(done):
        store.save({"competition": tuner.get_status()})
        lines.append(os.path.getsize(tmp_path / "bayes.journal"))

    assert run_simulation(tuner, peak, 160, random.Random(7), parallel=3, on_result=save) == 160
    assert 20 < len(tuner.points) <= 42 and lines[-1] > lines[0]
    # a save appends what changed: the matches in flight and the match finished, not all 40
    sizes = [b - a for a, b in zip(lines, lines[1:]) if b > a]
    assert max(sizes[-20:]) < 2500 < len(json.dumps(tuner.points))
    in_flight = [tuner.get_game() for _ in range(6)]   # a new match, and the next one's first games
    save(None)
    status = store.read()["competition"]
    assert status["points"] + status["open_points"] == json.loads(json.dumps(tuner.points))
    assert all(p["games"] == 4 for p in status["points"]) and len(status["open_points"]) == 2
    reloaded = make_tuner(games_per_point=4, confirm_games=0, seed=9)
    reloaded.set_status(status)
    assert reloaded.points == tuner.points and reloaded.recommendation() == tuner.recommendation()
    assert [reloaded.get_game().player_b.command for _ in range(6)] == \
        [j.player_b.command for j in in_flight]


def test_a_state_with_every_match_in_points_loads_as_before():
    tuner = make_tuner(games_per_point=4)
    run_simulation(tuner, peak, 70, random.Random(5), parallel=3)
    status = saved(tuner)
    assert status["open_points"]
    status["points"] += status.pop("open_points")   # as bayes_tuner saved it before open_points
    older = make_tuner(games_per_point=4, seed=3)
    older.set_status(status)
    assert older.points == tuner.points and older.recommendation() == tuner.recommendation()
    assert saved(older) == saved(tuner)
