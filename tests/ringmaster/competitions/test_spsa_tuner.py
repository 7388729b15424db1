"""Tests for the spsa_tuner: settings, pairs and their perturbations, late results, state, reports, a run."""

import io
import json
import math
import os
import random
import re
from pathlib import Path

import pytest

from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, run_simulation
from ringmaster.competitions.spsa_tuner import SpsaTuner
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.settings import Player
from ringmaster.tuning.parameters import ContinuousParameter as Parameter
from ringmaster.tuning.scales import EXPLICIT, LINEAR, LOG
from ringmaster.tuning.spsa import default_r_end
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command


def config(**changes):
    result = {
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
        "candidate_colour": "b", "opponent": "opp", "number_of_games": 200,
        "parameters": [Parameter("x", scale=LINEAR(0, 1), format="x: %.3f")],
        "make_candidate": make_simulated_candidate,
    }
    result.update(changes)
    return result


def make_tuner(seed=1, **changes):
    tuner = SpsaTuner("spsa")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config(**changes))
    tuner.set_clean_status()
    return tuner


def peak(p):
    """A smooth landscape with its best point at 0.3: win rate 0.6 there."""
    return 0.6 - 0.5 * (p[0] - 0.3) ** 2


def won_by(job, code):
    colour = "b" if job.player_b.code == code else "w"
    return make_result(job, colour)


# Settings

@pytest.mark.parametrize("changes, message", [
    ({"number_of_games": None}, "'number_of_games': required by spsa_tuner"),
    ({"number_of_games": 1}, "'number_of_games': must be at least 2"),
    ({"stop_when_confident": 0.9}, "'stop_when_confident': not supported by spsa_tuner"),
    ({"alpha": 1.5}, "'alpha': must be more than 0.0 and at most 1.0"),
    ({"a_ratio": -1}, "'a_ratio': must be from 0 to 100"),
    ({"a_ratio": 1e308}, "'a_ratio': must be from 0 to 100"),
    ({"parameters": [Parameter("x", scale=LINEAR(-1e308, 1e308))]},
     "parameter x: 'scale': invalid parameters for LINEAR: the bounds are too far apart"),
    ({"parameters": [Parameter("x", scale=LOG(1e-300, 1e300))]},
     "parameter x: 'scale': invalid parameters for LOG: the bounds are too far apart"),
    ({"head_to_head": "yes"}, "'head_to_head': invalid True/False value"),
    ({"average_last": 1.5}, "'average_last': must be from 0.0 to 1.0"),
    ({"parameters": [Parameter("x", scale=LINEAR(0, 10), start=11)]},
     "parameter x: 'start': 11: outside the scale's range"),
    ({"parameters": [Parameter("x", scale=lambda f: f, start=0.5)]},
     "parameter x: 'start': needs a LINEAR, LOG or EXPLICIT scale"),
    ({"parameters": [Parameter("x", scale=LINEAR(0, 10), c_end=6)]},
     "parameter x: 'c_end': must be more than 0 and at most half the scale's range"),
    ({"parameters": [Parameter("x", scale=LINEAR(0, 10), r_end=-1)]}, "'r_end': must be positive"),
])
def test_bad_settings_are_refused_in_one_line(changes, message):
    with pytest.raises(ControlFileError) as excinfo:
        make_tuner(**changes)
    assert message in str(excinfo.value)
    assert "\n" not in str(excinfo.value)


def test_a_ce_tuner_argument_is_refused_when_the_parameter_is_built():
    with pytest.raises(ControlFileError, match="Parameter: unknown argument 'initial_mean'"):
        Parameter("x", scale=LINEAR(0, 10), initial_mean=3)


def test_defaults_start_at_the_centre_with_steps_from_the_range():
    tuner = make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 40)), Parameter("y", scale=LOG(1, 100))])
    assert tuner.theta == [0.5, 0.5]
    assert tuner.schedule.c_end == pytest.approx((0.05 * math.sqrt(2),) * 2)
    assert tuner.schedule.r_end == (default_r_end(100),) * 2
    assert tuner.schedule.big_a == 10 and tuner.schedule.alpha == 0.602 and tuner.schedule.gamma == 0.101


def test_start_and_c_end_are_in_engine_units():
    tuner = make_tuner(parameters=[
        Parameter("x", scale=LINEAR(0, 40), start=10, c_end=2, r_end=0.01),
        Parameter("y", scale=LOG(1, 100), start=10, c_end=1),
        Parameter("z", scale=EXPLICIT([1, 2, 4, 8]), start=4, c_end=1)])
    assert tuner.theta == pytest.approx([0.25, 0.5, 0.625])
    assert tuner.schedule.c_end == pytest.approx((0.05, math.log(1.1) / math.log(100), 0.25))
    assert tuner.schedule.r_end[0] == 0.01


def test_an_mc_tuner_parameter_with_split_is_accepted():
    tuner = make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), split=8)])
    assert tuner.theta == [0.5]


# Pairs

def test_head_to_head_pairs_swap_colours_and_share_a_perturbation():
    tuner = make_tuner()
    a, b = tuner.get_game(), tuner.get_game()
    assert (a.game_id, b.game_id) == ("0a", "0b")
    assert (a.player_b.code, a.player_w.code) == ("#0+", "#0-")
    assert (b.player_b.code, b.player_w.code) == ("#0-", "#0+")
    assert a.player_b.command == b.player_w.command
    plus, minus = float(a.player_b.command[1]), float(a.player_w.command[1])
    c = tuner.schedule.c_k(1)[0]
    assert abs(plus - minus) == pytest.approx(2 * c)
    assert (plus + minus) / 2 == pytest.approx(0.5)
    assert tuner.get_game().game_id == "1a"


def test_a_result_moves_theta_by_the_pairs_own_gains():
    tuner = make_tuner()
    job = tuner.get_game()
    record = tuner.pairs[0]
    tuner.process_game_result(won_by(job, "#0+"))
    step = record["r"][0] * record["c"][0] * record["flip"][0]
    assert tuner.theta == pytest.approx([0.5 + step])


def statistics(tuner):
    return (list(tuner.theta), tuner.plus_score, list(tuner.theta_sum), tuner.averaged,
            tuner.recommended_parameters())


@pytest.mark.parametrize("head_to_head", [True, False])
def test_a_game_with_no_result_moves_nothing_and_is_not_replayed(head_to_head):
    # Against the opponent it scored as a loss (head to head, 0, but its theta entered the answer's
    # average again); the reports say games with no result are left out of every figure.
    tuner = make_tuner(head_to_head=head_to_head, average_last=1.0, number_of_games=6)
    won = tuner.get_game()
    tuner.process_game_result(won_by(won, won.player_b.code))
    before = statistics(tuner)
    job = tuner.get_game()
    line = tuner.process_game_result(make_result(job, None))
    assert line.startswith("pair 0 game b: had no result; theta stays x: ")
    assert statistics(tuner) == before
    assert (tuner.results, tuner.no_result_games, tuner.games_played()) == (2, 1, 2)
    assert tuner.get_game().game_id != job.game_id   # played: not replayed
    text = io.StringIO()
    tuner.write_screen_report(text)
    assert ", 1 with no result, left out)\n" in text.getvalue()
    assert "after each of the last 1 games with a result" in text.getvalue()
    assert tuner.get_json_report()["no_result_games"] == 1
    restored = make_tuner(head_to_head=head_to_head, average_last=1.0, number_of_games=6)
    restored.set_status(json.loads(json.dumps(tuner.get_status())))
    assert restored.no_result_games == 1 and statistics(restored) == before


def test_a_jigo_against_the_opponent_counts_half_a_win():
    # It scored as a loss: theta moved away from the candidate that drew.
    tuner = make_tuner(head_to_head=False)
    job = tuner.get_game()
    assert tuner.process_game_result(make_result(job, None, "0")).startswith("pair 0 game a: + scored +0;")
    assert tuner.theta == [0.5] and tuner.plus_score == 0 and tuner.results == 1
    assert "no_result_games" not in tuner.get_status()   # as an older state


def test_a_late_result_updates_with_the_iteration_it_was_played_at():
    tuner = make_tuner()
    first = tuner.get_game()
    jobs = [tuner.get_game() for _ in range(5)]
    pair0 = dict(tuner.pairs[0])
    for job in jobs:
        tuner.process_game_result(won_by(job, job.player_w.code))
    before = tuner.theta[0]
    tuner.process_game_result(won_by(first, "#0-"))
    assert tuner.theta[0] == pytest.approx(before - pair0["r"][0] * pair0["c"][0] * pair0["flip"][0])
    assert pair0["r"] != tuner.schedule.r_k(4)


def test_a_result_is_counted_once():
    tuner = make_tuner()
    job = tuner.get_game()
    tuner.process_game_result(won_by(job, "#0+"))
    theta = list(tuner.theta)
    assert tuner.process_game_result(won_by(job, "#0+")) is None
    assert tuner.theta == theta and tuner.results == 1


def test_against_the_opponent_each_candidate_plays_once_with_the_same_colour():
    tuner = make_tuner(head_to_head=False, candidate_colour="random")
    a, b = tuner.get_game(), tuner.get_game()
    colour_a = "b" if a.player_b.code == "#0+" else "w"
    colour_b = "b" if b.player_b.code == "#0-" else "w"
    assert colour_a == colour_b
    assert "opp" in (a.player_b.code, a.player_w.code) and "opp" in (b.player_b.code, b.player_w.code)
    record = tuner.pairs[0]
    tuner.process_game_result(make_result(b, colour_b))      # the - candidate won: theta moves away
    assert tuner.theta[0] == pytest.approx(0.5 - record["r"][0] * record["c"][0] * record["flip"][0])


def test_integer_parameters_are_rounded_at_random_around_the_perturbed_point():
    tuner = make_tuner(number_of_games=2000,
                       parameters=[Parameter("n", scale=LINEAR(0, 10, integer=True))])
    values = []
    for _ in range(400):
        job = tuner.get_game()
        record = tuner.pairs[int(job.game_id[:-1])]
        if job.game_id.endswith("a"):
            values.append((int(job.player_b.command[1]), record["plus_u"][0] * 10))
    assert {v for v, _ in values} >= {5, 6} or {v for v, _ in values} >= {4, 5}
    assert all(isinstance(v, int) for v, _ in values)
    mean_value = sum(v for v, _ in values) / len(values)
    mean_point = sum(p for _, p in values) / len(values)
    assert mean_value == pytest.approx(mean_point, abs=0.15)


def test_spsa_climbs_to_the_top_of_a_smooth_landscape():
    tuner = make_tuner(number_of_games=4000)
    assert run_simulation(tuner, peak, 4000, random.Random(2)) == 4000
    assert tuner.tuning_over()
    assert abs(tuner.theta[0] - 0.3) < 0.1


def test_the_answer_is_the_mean_of_theta_after_each_result_of_the_last_half():
    tuner = make_tuner(number_of_games=400)
    thetas = []
    run_simulation(tuner, peak, 400, random.Random(5), on_result=lambda done: thetas.append(tuner.theta[0]))
    assert len(thetas) == 400 and tuner.averaged == 200
    assert tuner.recommended_parameters() == pytest.approx([sum(thetas[200:]) / 200])
    assert tuner.recommended_parameters()[0] != pytest.approx(tuner.theta[0])


@pytest.mark.parametrize("average_last, averaged", [(0.25, 100), (1.0, 400)])
def test_average_last_sets_the_stretch_averaged(average_last, averaged):
    tuner = make_tuner(number_of_games=400, average_last=average_last)
    thetas = []
    run_simulation(tuner, peak, 400, random.Random(5), on_result=lambda done: thetas.append(tuner.theta[0]))
    assert tuner.averaged == averaged
    assert tuner.recommended_parameters() == pytest.approx([sum(thetas[-averaged:]) / averaged])


def test_with_average_last_0_the_answer_is_the_current_theta_throughout():
    tuner = make_tuner(number_of_games=100, average_last=0)
    answers = []
    run_simulation(tuner, peak, 100, random.Random(5),
                   on_result=lambda done: answers.append(tuner.recommended_parameters() == tuner.theta))
    assert all(answers) and tuner.averaged == 0


def test_before_the_averaged_stretch_the_answer_is_the_current_theta():
    tuner = make_tuner(number_of_games=400)
    run_simulation(tuner, peak, 200, random.Random(5))
    assert tuner.averaged == 0 and tuner.recommended_parameters() == tuner.theta
    tuner.process_game_result(won_by(tuner.get_game(), "#100+"))
    assert tuner.averaged == 1 and tuner.recommended_parameters() == tuner.theta


def test_parallel_games_finishing_out_of_order_lose_nothing():
    tuner = make_tuner(number_of_games=400)
    assert run_simulation(tuner, peak, 400, random.Random(3), parallel=8) == 400
    assert tuner.results == 400 and tuner.pairs == {} and tuner.tuning_over()


# State

def test_state_round_trip_replays_games_in_flight_with_their_perturbation():
    tuner = make_tuner()
    jobs = [tuner.get_game() for _ in range(3)]
    tuner.process_game_result(won_by(jobs[0], "#0+"))
    status = json.loads(json.dumps(tuner.get_status()))
    reloaded = make_tuner(seed=99)
    reloaded.set_status(status)
    assert reloaded.theta == tuner.theta
    replayed = [reloaded.get_game(), reloaded.get_game()]
    assert [j.game_id for j in replayed] == ["0b", "1a"]
    assert replayed[0].player_b.command == jobs[1].player_b.command
    assert replayed[1].player_b.command == jobs[2].player_b.command
    assert reloaded.get_game().game_id == "1b"


def test_a_run_started_before_the_default_c_end_changed_resumes_with_its_own():
    parameters = [Parameter("x", scale=LINEAR(0, 40)), Parameter("y", scale=LINEAR(0, 40), c_end=4)]
    tuner = make_tuner(parameters=parameters)
    status = json.loads(json.dumps(tuner.get_status()))
    assert status["c_end"] == pytest.approx([0.05 * math.sqrt(2), 0.1])
    del status["c_end"]
    reloaded = make_tuner(parameters=parameters)
    reloaded.set_status(status)
    assert reloaded.schedule.c_end == pytest.approx((0.05, 0.1))


def test_a_run_resumed_in_its_averaged_stretch_gives_the_same_answer():
    def play_on(tuner, results):
        for _ in range(results):
            job = tuner.get_game()
            tuner.process_game_result(won_by(job, job.player_b.code))

    straight = make_tuner(seed=7)
    play_on(straight, 150)
    resumed = make_tuner(seed=99)
    resumed.set_status(json.loads(json.dumps(straight.get_status())))
    resumed.rng.setstate(straight.rng.getstate())
    assert resumed.recommended_parameters() == straight.recommended_parameters()
    play_on(straight, 50)
    play_on(resumed, 50)
    assert straight.averaged == resumed.averaged == 100
    assert resumed.recommended_parameters() == pytest.approx(straight.recommended_parameters())


def test_a_run_started_before_the_answer_was_an_average_keeps_its_final_theta():
    tuner = make_tuner()
    status = json.loads(json.dumps(tuner.get_status()))
    del status["theta_sum"], status["averaged"]
    reloaded = make_tuner()
    reloaded.set_status(status)
    run_simulation(reloaded, peak, 200, random.Random(6))
    assert reloaded.averaged == 0 and reloaded.recommended_parameters() == reloaded.theta
    assert "started before SPSA's answer was an average" in reloaded.get_json_report()["recommended"]["how"]
    assert reloaded.get_status()["theta_sum"] is None


def test_changed_number_of_games_is_refused_on_reload():
    status = make_tuner().get_status()
    with pytest.raises(CompetitionError, match=r"^'number_of_games' makes 150 pairs in the control file but "
                       r"made 100 for the games so far \(the gains are planned for the run's length\); "
                       r"put it back, or start afresh with `ringmaster reset`$"):
        make_tuner(number_of_games=300).set_status(status)


def test_a_changed_parameter_list_is_refused_naming_the_parameters():
    status = make_tuner().get_status()
    with pytest.raises(CompetitionError, match=r"^the parameters are y in the control file but were x "
                       r"for the games so far; put them back, or start afresh with `ringmaster reset`$"):
        make_tuner(parameters=[Parameter("y", scale=LINEAR(0, 1))]).set_status(status)


@pytest.mark.parametrize("before, after, message", [
    (LINEAR(0, 1), LINEAR(0, 2),
     "parameter x: 'scale' is 0 to 2, 1 at the middle in the control file but was 0 to 1, 0.5 at the middle"),
    (LINEAR(1, 100), LOG(1, 100),
     "parameter x: 'scale' is 1 to 100, 10 at the middle in the control file but was 1 to 100, 50.5 at "
     "the middle"),
    (EXPLICIT([1, 2, 3]), EXPLICIT([1, 2, 2, 3]),
     "parameter x: 'scale' is [1, 2, 2, 3] in the control file but was [1, 2, 3]"),
    (LINEAR(0, 1), LINEAR(0, 1, integer=True),
     "parameter x: 'scale' is 0 to 1, 1 at the middle in the control file but was 0 to 1, 0.5 at the middle"),
    (LINEAR(0, 1), LINEAR(0, 1 + 1e-9),
     "parameter x: 'scale' is 0.0 to 1.000000001, 0.5000000005 at the middle in the control file but "
     "was 0.0 to 1.0, 0.5 at the middle"),
])
def test_a_changed_scale_is_refused_naming_the_parameter_and_its_values(before, after, message):
    # theta and the pairs are kept from 0 to 1: another scale would play them at other engine values
    tuner = make_tuner(parameters=[Parameter("x", scale=before, format="x: %s")])
    status = json.loads(json.dumps(tuner.get_status()))
    remedy = " for the games so far; put it back, or start afresh with `ringmaster reset`"
    with pytest.raises(CompetitionError, match="^" + re.escape(message + remedy) + "$"):
        make_tuner(parameters=[Parameter("x", scale=after, format="x: %s")]).set_status(status)
    del status["scales"], status["start"]   # a state written before they were kept
    make_tuner(parameters=[Parameter("x", scale=after, format="x: %s")]).set_status(status)


def test_a_scale_written_otherwise_with_the_same_values_resumes():
    status = json.loads(json.dumps(make_tuner().get_status()))
    make_tuner(parameters=[Parameter("x", scale=LINEAR(0.0, 1.0), format="x: %.3f")]).set_status(status)


def test_a_changed_start_is_refused():
    # the confirmation games play the start: the verdict compares the answer with where the search began
    status = json.loads(json.dumps(make_tuner().get_status()))
    with pytest.raises(CompetitionError, match=r"^parameter x: 'start' is 0.3 in the control file but was "
                       r"0.5 for the games so far; put it back, or start afresh with `ringmaster reset`$"):
        make_tuner(parameters=[Parameter("x", scale=LINEAR(0, 1), start=0.3)]).set_status(status)


# Confirmation and reports

def test_confirmation_games_play_the_answer():
    tuner = make_tuner(number_of_games=20, confirm_games=3)
    run_simulation(tuner, peak, 20, random.Random(1))
    games = [tuner.get_game() for _ in range(3)]
    assert [g.game_id for g in games] == ["c0", "c1", "c2"]
    assert tuner.get_game() is NO_GAME
    answer = tuner.recommended_parameters()[0]
    assert answer != pytest.approx(tuner.theta[0])
    assert float(games[0].player_b.command[1]) == pytest.approx(answer)
    for g in games:
        tuner.process_game_result(make_result(g, "b"))
    assert tuner.is_complete()


def test_confirmation_games_are_played_by_default_answer_against_start():
    assert make_tuner(number_of_games=200).confirm_games == 20      # at least 20
    assert make_tuner(number_of_games=1000).confirm_games == 100    # a tenth
    assert make_tuner(number_of_games=200, confirm_games=0).confirm_games == 0


def _confirm(tuner, answer_wins):
    """Play the confirmation games, the answer winning the first answer_wins of them."""
    games = []
    while (job := tuner.get_game()) is not NO_GAME:
        games.append(job)
    for n, job in enumerate(games):
        answer_colour = "b" if job.player_b.code == "best" else "w"
        loser = "w" if answer_colour == "b" else "b"
        tuner.process_game_result(make_result(job, answer_colour if n < answer_wins else loser))
    return games


def test_the_verdict_waits_for_every_confirmation_game():
    tuner = make_tuner(number_of_games=100)
    run_simulation(tuner, peak, 100, random.Random(4))
    jobs = []
    while (job := tuner.get_game()) is not NO_GAME:
        jobs.append(job)
    assert len(jobs) == 20 and tuner.tuning_over()
    for job in jobs[:4]:   # the answer wins its first 4: LOS 0.977, but 16 games are to come
        tuner.process_game_result(make_result(job, "b" if job.player_b.code == "best" else "w"))
    verdict = tuner.verdict()
    assert verdict.settled and verdict.headline() == f"Clearly leading so far: {verdict.answer}"
    assert verdict.evidence.endswith("in 4 of 4 confirmation games: LOS 0.977 (4 of 20 played)")
    for job in jobs[4:]:
        tuner.process_game_result(make_result(job, "b" if job.player_b.code == "best" else "w"))
    assert tuner.verdict().headline() == f"Use {verdict.answer}"


def test_a_confirmation_jigo_counts_half_and_a_game_without_result_not_at_all():
    tuner = make_tuner(number_of_games=100, confirm_games=10)
    run_simulation(tuner, peak, 100, random.Random(4))
    jobs = []
    while (job := tuner.get_game()) is not NO_GAME:
        jobs.append(job)
    for n, job in enumerate(jobs):   # 6 wins, 2 jigos, 2 games with no result
        answer = "b" if job.player_b.code == "best" else "w"
        tuner.process_game_result(make_result(job, answer) if n < 6 else
                                  make_result(job, None, "0" if n < 8 else "?"))
    counts = (tuner.confirm_won, tuner.confirm_jigos, tuner.confirm_unknown, tuner.confirm_played)
    assert counts == (6, 2, 2, 10)
    assert tuner.confirmation_los() == pytest.approx(0.5 * (1 + math.erf(6 / math.sqrt(12))))   # 6-0
    verdict = tuner.verdict()
    assert verdict.evidence.endswith("in 7 of 8 confirmation games with a result (a jigo counts half): "
                                     f"LOS {tuner.confirmation_los():.3f}")
    text = io.StringIO()
    tuner.write_short_report(text)
    assert "record 7/8 0.875 [" in text.getvalue() and "(2 with no result)" in text.getvalue()
    restored = make_tuner(number_of_games=100, confirm_games=10)
    restored.set_status(json.loads(json.dumps(tuner.get_status())))
    assert (restored.confirm_jigos, restored.confirm_unknown) == (2, 2)


def test_spsa_recommends_its_answer_only_once_it_beat_the_start_in_confirmation_games():
    tuner = make_tuner(number_of_games=400)
    run_simulation(tuner, peak, 400, random.Random(4))
    verdict = tuner.verdict()
    assert not verdict.settled and verdict.headline() == "No clear winner yet"
    assert verdict.evidence == "not yet: 40 confirmation games against the start (x: 0.500) once tuning ends"
    assert verdict.uncertainty.startswith("over the averaged games theta stayed within x 0.")
    games = _confirm(tuner, answer_wins=28)   # 28 of 40: LOS 0.994
    assert [(g.player_b.code, g.player_w.code) for g in games[:2]] == [("best", "start"), ("start", "best")]
    assert float(games[1].player_b.command[1]) == 0.5   # the start
    verdict = tuner.verdict()
    assert verdict.settled and verdict.headline() == f"Use {verdict.answer}"
    assert verdict.evidence == ("the answer beat the start (x: 0.500) in 28 of 40 confirmation games: "
                                "LOS 0.994")
    assert verdict.bar == ("a recommendation needs LOS 0.975 over the start, and the 95% interval of "
                           "its score above even")
    text = io.StringIO()
    tuner.write_short_report(text)
    assert f"Verdict: Use {verdict.answer}\n" in text.getvalue()
    # 26 of 40 is LOS 0.971, with an Elo interval against the start reaching below 0: at a bar of
    # 0.95 'Use' stood beside '+108 [-3, +219]'
    close = make_tuner(number_of_games=400)
    run_simulation(close, peak, 400, random.Random(4))
    _confirm(close, answer_wins=26)
    text = io.StringIO()
    close.write_short_report(text)
    assert not close.verdict().settled and "LOS 0.971" in close.verdict().evidence
    assert "Elo vs start +108 [-3, +219]" in text.getvalue()
    again = make_tuner(number_of_games=400)
    run_simulation(again, peak, 400, random.Random(4))
    _confirm(again, answer_wins=22)   # 22 of 40: LOS 0.74
    assert not again.verdict().settled and "LOS 0.736" in again.verdict().evidence
    assert "leading: " + again.verdict().answer in again.verdict().lines()[1]


def test_an_answer_at_the_end_of_a_range_is_warned():
    tuner = make_tuner(number_of_games=400)
    run_simulation(tuner, lambda p: 0.99 - 0.98 * p[0], 400, random.Random(4))
    assert tuner.recommended_parameters()[0] < 0.05
    assert tuner.verdict().warnings == [
        "warning: x lies at the lowest end of its range: the best value may be below it; widen the "
        "range of x and tune again"]
    assert tuner.get_json_report()["verdict"]["warnings"] == tuner.verdict().warnings


def test_a_run_from_before_confirmation_against_the_start_keeps_its_own():
    tuner = make_tuner(number_of_games=20)
    status = tuner.get_status()
    del status["confirmation"]["against"]
    resumed = make_tuner(number_of_games=20)
    resumed.set_status(status)
    assert resumed.confirm_games == 0 and resumed.confirm_against == "opponent"
    told = make_tuner(number_of_games=20, confirm_games=6)
    told.set_status(status)
    assert told.confirm_games == 6 and told.confirm_against == "opponent"


def test_reports_show_the_trajectory():
    tuner = make_tuner(number_of_games=400)
    run_simulation(tuner, peak, 400, random.Random(4))
    out = io.StringIO()
    tuner.write_short_report(out)
    text = out.getvalue()
    assert text.startswith("SPSA tuning event: spsa\n")
    assert "400/400 games played" in text and "Trajectory (games: parameters)" in text
    assert f"Parameters now: x: {tuner.theta[0]:.3f}" in text
    assert f"Answer: x: {tuner.recommended_parameters()[0]:.3f}" in text
    assert "the mean of its points after each of the last 200 games (average_last 0.5)" in text
    assert "confirm_games measures it against the start)" in text   # as it plays them
    data = tuner.get_json_report()
    assert data["trajectory"][0] == {"games": 0, "optimiser_parameters": [0.5], "engine_parameters": [0.5]}
    assert data["trajectory"][-1]["games"] == 400 and len(data["trajectory"]) == 101
    assert data["recommended"]["optimiser_parameters"] == tuner.recommended_parameters()
    assert data["current"]["optimiser_parameters"] == tuner.theta


# A whole run, in process

SPSA_CTL = """
competition_type = 'spsa_tuner'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
number_of_games = 6
confirm_games = 2

def make_candidate(n):
    return Player({candidate!r} + ['--name', 'n%d' % n])

parameters = [Parameter('n', scale=LINEAR(0, 10, integer=True), format='n: %d')]
"""


def test_whole_run_resumes_and_reports(write_ctl):
    ctl = write_ctl(SPSA_CTL.format(opponent=fake_engine_command("--name", "opp"),
                                    candidate=fake_engine_command()))
    invoke = lambda *args: cli.invoke(*args, channel_factory=fake_engine_channel)  # noqa: E731
    assert invoke("run", ctl, "-q", "-g", "3").exit_code == 0
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["0a.sgf", "0b.sgf", "1a.sgf", "1b.sgf", "2a.sgf",
                                                   "2b.sgf", "c0.sgf", "c1.sgf"]
    report = Path(base + ".report").read_text()
    assert "6/6 games played" in report and "confirmation games (2/2)" in report
    assert "SPSA iteration 1: + n: " in Path(base + ".games/0a.sgf").read_text()
