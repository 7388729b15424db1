"""Tests for the ce_tuner: configuration, generation update, game ids, state and reports."""

import io
import json
import random
import re

import pytest

from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.ce_tuner import CeTuner
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, run_simulation
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.settings import Player
from ringmaster.tuning.cross_entropy import (
    elite_count,
    format_distribution,
    rank_candidates,
    update_distribution,
)
from ringmaster.tuning.parameters import CeParameter as Parameter


def clip_axisb(f):
    return max(0.0, min(100.0, f))


def default_config(**changes):
    config = {
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("test")},
        "candidate_colour": "w", "opponent": "opp",
        "parameters": [
            Parameter("axisa", initial_mean=0.5, initial_variance=1.0, format="a %.3f"),
            Parameter("axisb", initial_mean=50.0, initial_variance=1000.0,
                      transform=clip_axisb, format="b %.1f"),
        ],
        "batch_size": 3, "samples_per_generation": 4, "number_of_generations": 3,
        "elite_proportion": 0.1, "step_size": 0.11,
        "make_candidate": lambda *args: Player("cand " + " ".join(map(str, args))),
    }
    config.update(changes)
    return config


def make_tuner(config=None, seed=1):
    tuner = CeTuner("cemtest")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config or default_config())
    tuner.set_clean_status()
    return tuner


# The pure pieces

def test_elite_count_rounds_half_up_with_at_least_one():
    assert elite_count(0.1, 4) == 1
    assert elite_count(0.34, 3) == 1
    assert elite_count(0.5, 5) == 3
    assert elite_count(0.01, 5) == 1


def test_ranking_breaks_ties_by_higher_candidate_number():
    assert rank_candidates([1, 2, 1, 0.5]) == [1, 2, 0, 3]
    # By win rate over the games with a result: one with none comes last.
    assert rank_candidates([1, 1.5, 0, 0], [1, 2, 0, 1]) == [0, 1, 3, 2]


def test_generation_update():
    distribution = [(0.0, 4.0), (10.0, 1.0)]
    elites = [[1.0, 10.0], [3.0, 14.0]]
    new = update_distribution(distribution, elites, 0.5)
    # elite means 2 and 12, population variances 1 and 4
    assert new == [pytest.approx((1.0, 2.5)), pytest.approx((11.0, 2.5))]
    assert update_distribution([(5.0, 1.0)], [[7.0]], 0.25) == [pytest.approx((5.5, 0.75))]


def test_distribution_format():
    assert format_distribution([(1.0, 1.0), (50.0, 400.0)]) == " 1.00~1.00 50.00~400.00"


# Configuration

@pytest.mark.parametrize("changes, message", [
    ({"elite_proportion": 1.0}, "'elite_proportion': out of range"),
    ({"step_size": 0.0}, "'step_size': out of range"),
    ({"batch_size": 0}, "'batch_size': must be positive"),
    ({"number_of_generations": None}, "'number_of_generations' not specified"),
    ({"parameters": [Parameter("a", initial_mean=0.0, initial_variance=-1.0)]},
     "parameter a: 'initial_variance': must be nonnegative"),
    ({"parameters": [Parameter("a", initial_mean=0.0, initial_variance=1.0, transform=str.split)]},
     "parameter a: error from transform (applied to 0.0)"),
    ({"parameters": [Parameter("a", initial_mean=0.0, initial_variance=1.0, format="%d %d")]},
     "parameter a: 'format': invalid format string"),
])
def test_bad_settings_are_refused(changes, message):
    with pytest.raises(ControlFileError) as info:
        make_tuner(default_config(**changes))
    assert str(info.value).startswith(message)


def test_mc_tuner_arguments_are_refused():
    with pytest.raises(ControlFileError, match="^Parameter: unknown argument 'split'$"):
        Parameter("a", initial_mean=0.0, initial_variance=1.0, split=3)


def test_integer_komi_is_allowed():
    assert make_tuner(default_config(komi=6)).game_settings["komi"] == 6.0


# Playing

def test_game_ids_and_candidates():
    tuner = make_tuner()
    job = tuner.get_game()
    assert job.game_id == "g0#0r0"
    assert job.game_data == [0, "g0#0", 0]
    assert job.player_w.code == "g0#0" and job.player_b.code == "opp"
    a, b = tuner.sample_parameters[0]
    assert job.player_w.command == ("cand", str(a), str(clip_axisb(b)))
    assert job.sgf_note == "Candidate parameters: " + tuner.format_optimiser_parameters([a, b])
    assert [tuner.get_game().game_id for _ in range(4)] == ["g0#1r0", "g0#2r0", "g0#3r0",
                                                            "g0#0r1"]


def test_a_games_line_names_the_sample_its_parameters_and_what_it_did():
    # It read 'g0#0 mcts-c1 beat g0#0 W+R': the sample's code where a player's name goes.
    tuner = make_tuner()
    jobs = [tuner.get_game() for _ in range(3)]
    shown = [tuner.format_optimiser_parameters(tuner.sample_parameters[n]) for n in range(3)]
    assert tuner.process_game_result(make_result(jobs[0], "w")) == f"{shown[0]} [sample g0#0] won W+R"
    assert tuner.process_game_result(make_result(jobs[1], "b")) == f"{shown[1]} [sample g0#1] lost B+R"
    assert tuner.process_game_result(make_result(jobs[2], None, "0")) == f"{shown[2]} [sample g0#2] drew 0"


def test_a_generation_updates_the_distribution_towards_the_elite():
    tuner = make_tuner(default_config(samples_per_generation=3, batch_size=2,
                                      elite_proportion=0.34, step_size=0.5))
    old = list(tuner.distribution)
    samples = [list(s) for s in tuner.sample_parameters]
    jobs = [tuner.get_game() for _ in range(6)]
    assert tuner.get_game() is NO_GAME
    for job in jobs:
        number = job.game_data[0]
        # candidate 1 wins both games, candidate 2 one, candidate 0 none (and a jigo)
        if number == 1 or (number == 2 and job.game_data[2] == 0):
            tuner.process_game_result(make_result(job, "w"))
        elif number == 0 and job.game_data[2] == 1:
            tuner.process_game_result(make_result(job, None, "0"))
        else:
            tuner.process_game_result(make_result(job, "b"))
    assert tuner.generation == 1
    assert tuner.distribution == [pytest.approx(x) for x in
                                  update_distribution(old, [samples[1]], 0.5)]
    history = "\n".join(tuner.pending_history)
    assert "Generation 0" in history
    assert "g0#1* " in history and "g0#2  " in history
    assert [line.split()[-1] for line in history.splitlines()[-3:]] == ["2/2", "1/2", "0.5/2"]
    assert tuner.get_game().game_id == "g1#0r0"


def test_a_game_with_no_result_is_in_no_samples_record_and_a_jigo_counts_half():
    # A game with no result counted half a win (as a jigo did); the reports say such games are
    # left out of every figure. Sample 0 wins and has no result: 1 of 1; sample 1 wins and draws:
    # 1.5 of 2. Each had 1.5 and sample 1 (the higher number) won the tie.
    tuner = make_tuner(default_config(samples_per_generation=2, batch_size=2, elite_proportion=0.5,
                                      step_size=0.5))
    old = list(tuner.distribution)
    samples = [list(s) for s in tuner.sample_parameters]
    jobs = sorted((tuner.get_game() for _ in range(4)), key=lambda job: job.game_data[::2])
    assert tuner.get_game() is NO_GAME
    for job in (jobs[0], jobs[2]):
        tuner.process_game_result(make_result(job, "w"))
    assert tuner.process_game_result(make_result(jobs[3], None, "0")).endswith("[sample g0#1] drew 0")
    assert (tuner.wins, tuner.scored) == ([1.0, 1.5], [1, 2])
    line = tuner.process_game_result(make_result(jobs[1], None))
    assert line.endswith("[sample g0#0] got no result ?")
    assert tuner.generation == 1   # the game with no result was played: not replayed
    assert tuner.distribution == [pytest.approx(x) for x in update_distribution(old, [samples[0]], 0.5)]
    history = "\n".join(tuner.pending_history).splitlines()
    assert [line.split()[0] for line in history[-2:]] == ["g0#0*", "g0#1"]
    assert [line.split()[-1] for line in history[-2:]] == ["1/1", "1.5/2"]
    assert tuner.games_played() == 4


def test_a_samples_record_leaves_out_its_games_with_no_result_in_the_reports_and_the_state():
    tuner = make_tuner(default_config(samples_per_generation=2, batch_size=3))
    jobs = {job.game_data[0]: job for job in (tuner.get_game() for _ in range(2))}
    tuner.process_game_result(make_result(jobs[0], "w"))
    tuner.process_game_result(make_result(jobs[1], None))
    assert (tuner.wins, tuner.scored) == ([1.0, 0.0], [1, 0])
    text = io.StringIO()
    tuner.write_screen_report(text)
    rows = [line.split()[-6:] for line in text.getvalue().splitlines() if line.startswith("g0#")]
    assert [row[1:] for row in rows] == [["1", "1.000", "[0.207,", "1.000]", "0"],
                                         ["0", "0", "--", "--", "1"]]
    assert "(wins and games are of the games with a result, a jigo counting half; those with no " \
        "result are left out)" in text.getvalue()
    samples = tuner.get_json_report()["samples"]
    assert [(s["wins"], s["games"], s["no_result"]) for s in samples] == [(1.0, 1, 0), (0.0, 0, 1)]
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(default_config(samples_per_generation=2, batch_size=3))
    restored.set_status(status)
    assert (restored.wins, restored.scored) == ([1.0, 0.0], [1, 0])
    # A state from before: its games with no result counted half, in wins; each game played stays
    # in its sample's record.
    del status["scored"]
    status["wins"] = [1.0, 0.5]
    older = make_tuner(default_config(samples_per_generation=2, batch_size=3))
    older.set_status(status)
    assert (older.wins, older.scored) == ([1.0, 0.5], [1, 1])


def test_event_ends_after_the_last_generation():
    tuner = make_tuner(default_config(candidate_colour="random",
                                      make_candidate=make_simulated_candidate))
    played = run_simulation(tuner, lambda x: 0.5, 1000, random.Random(2))
    # 36 tuning games, then the default 20 confirmation games of the mean against the start.
    assert tuner.confirm_games == 20 and played == 3 * 4 * 3 + 20
    assert tuner.is_complete() and tuner.generation == 3
    out = io.StringIO()
    tuner.write_short_report(out)
    text = out.getvalue()
    assert text.startswith("CEM tuning event: cemtest\nboard size: 9\nkomi: 7.5\n"
                           "generation 3 of 3 (tuning over)\n\nVerdict: ")
    assert "final distribution (its mean is the recommended candidate):" in text
    assert "g2#0 " in text
    # Column headers, and no Python list syntax.
    assert any(line.split() == ["sample", "parameters", "wins", "games", "win", "rate", "95%",
                                "interval"] for line in text.splitlines())
    assert any(line.split() == ["parameter", "mean", "variance"] for line in text.splitlines())
    assert "[0" not in text.split("samples of generation")[1].split("\n")[2][:20]
    data = tuner.get_json_report()
    assert [h["generation"] for h in data["history"]] == [0, 1, 2, 3]
    assert data["history"][-1]["means"] == [m for m, _ in tuner.distribution]
    assert data["stop_reason"] == "stopped: all generations played"
    assert tuner.games_played() == tuner.games_wanted() == 56


def test_confirmation_games_for_the_final_mean():
    config = default_config(make_candidate=make_simulated_candidate, confirm_games=4,
                            number_of_generations=1)
    tuner = make_tuner(config)
    run_simulation(tuner, lambda x: 0.5, 12, random.Random(2))
    jobs = [tuner.get_game() for _ in range(4)]
    assert [j.game_id for j in jobs] == ["c0", "c1", "c2", "c3"]
    # The final mean ('best') plays the start (the initial means), colours alternating.
    means = [m for m, _ in tuner.distribution]
    answer = tuple(repr(v) for v in (means[0], clip_axisb(means[1])))
    start = tuple(repr(v) for v in (0.5, clip_axisb(50.0)))
    assert [(j.player_b.code, j.player_w.code) for j in jobs[:2]] == [("best", "start"), ("start", "best")]
    assert jobs[0].player_b.command[1:] == jobs[1].player_w.command[1:] == answer
    assert jobs[0].player_w.command[1:] == start
    for job in jobs:
        tuner.process_game_result(make_result(job, "w"))
    assert tuner.is_complete() and (tuner.confirm_won, tuner.confirm_played) == (2, 4)


def test_void_game_rules():
    tuner = make_tuner()
    job = tuner.get_game()
    # No success yet in this run: halt (the game stays to be replayed next run).
    assert tuner.process_game_error(job, 0) == (True, False)
    tuner = make_tuner()
    tuner.process_game_result(make_result(tuner.get_game(), "w"))
    job = tuner.get_game()
    # The tuner replays a void game itself, once, with the same id.
    assert tuner.process_game_error(job, 0) == (False, False)
    again = tuner.get_game()
    assert again.game_id == job.game_id == "g0#1r0"
    assert tuner.process_game_error(again, 1) == (True, False)


# State

def test_state_round_trip_replays_games_in_flight():
    tuner = make_tuner()
    jobs = [tuner.get_game() for _ in range(6)]
    for job in jobs[:4]:
        tuner.process_game_result(make_result(job, "w"))
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(seed=99)
    restored.set_status(status)
    assert restored.get_status() == tuner.get_status()
    assert [restored.get_game().game_id for _ in range(2)] == [jobs[4].game_id, jobs[5].game_id]


def test_raised_batch_size_applies_on_reload():
    tuner = make_tuner()
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(default_config(batch_size=5))
    restored.set_status(status)
    ids = [restored.get_game().game_id for _ in range(20)]
    assert "g0#0r4" in ids and restored.get_game() is NO_GAME


def test_changed_samples_per_generation_is_refused():
    status = json.loads(json.dumps(make_tuner().get_status()))
    other = make_tuner(default_config(samples_per_generation=5))
    with pytest.raises(CompetitionError, match=r"^'samples_per_generation' is 5 in the control file but "
                       r"was 4 for the games so far; put it back, or start afresh with `ringmaster reset`$"):
        other.set_status(status)


def test_a_changed_parameter_list_is_refused_naming_the_parameters():
    status = json.loads(json.dumps(make_tuner().get_status()))
    one = default_config(parameters=[Parameter("axisa", initial_mean=0.5, initial_variance=1.0)])
    with pytest.raises(CompetitionError, match=r"^the parameters are axisa in the control file but were "
                       r"axisa, axisb for the games so far; put them back, or start afresh"):
        make_tuner(one).set_status(status)
    del status["codes"]   # a state written before the codes were kept
    with pytest.raises(CompetitionError, match=r"^the control file has 1 parameters \(axisa\) but the "
                       r"games so far had 2; put them back"):
        make_tuner(one).set_status(status)


@pytest.mark.parametrize("axisa, message", [
    (Parameter("axisa", initial_mean=0.5, initial_variance=1.0, transform=lambda x: 10 ** x),
     "parameter axisa: 'transform' at the initial mean (0.5) is 3.162 in the control file but was 0.5"),
    (Parameter("axisa", initial_mean=0.7, initial_variance=1.0),
     "parameter axisa: 'initial_mean' is 0.7 in the control file but was 0.5"),
])
def test_a_changed_transform_or_initial_mean_is_refused(axisa, message):
    # the distribution is kept in the transform's units, and confirmation games play the initial mean
    status = json.loads(json.dumps(make_tuner().get_status()))
    config = default_config(parameters=[axisa, default_config()["parameters"][1]])
    remedy = " for the games so far; put it back, or start afresh with `ringmaster reset`"
    with pytest.raises(CompetitionError, match="^" + re.escape(message + remedy) + "$"):
        make_tuner(config).set_status(status)
    del status["start"], status["transforms"]   # a state written before they were kept
    make_tuner(config).set_status(status)


def moved_start(mean=0.7):
    """default_config with axisa's initial mean moved (its transform, the identity, unchanged)."""
    return [Parameter("axisa", initial_mean=mean, initial_variance=1.0), default_config()["parameters"][1]]


def test_a_changed_initial_mean_resumes_where_no_confirmation_game_plays_the_start():
    # Only confirmation games against the start play the initial means: the distribution and the
    # samples are kept in the transform's units, which the state checks at its own initial mean.
    tuner = make_tuner()
    tuner.process_game_result(make_result(tuner.get_game(), "w"))
    status = json.loads(json.dumps(tuner.get_status()))
    opponent = json.loads(json.dumps(status))
    del opponent["confirmation"]["against"]   # a run from before confirmation against the start
    resumed = make_tuner(default_config(parameters=moved_start()))
    resumed.set_status(opponent)
    assert resumed.confirm_against == "opponent" and resumed.distribution == tuner.distribution
    assert resumed.get_status()["start"] == [0.7, 50.0]   # the next state keeps the new start
    make_tuner(default_config(parameters=moved_start(), confirm_games=0)).set_status(status)
    # A changed transform is refused all the same, at the state's initial mean.
    moved = moved_start()
    moved[0] = Parameter("axisa", initial_mean=0.7, initial_variance=1.0, transform=lambda x: 2 * x)
    with pytest.raises(CompetitionError, match=re.escape(
            "parameter axisa: 'transform' at the earlier initial mean (0.5) is 1 in the control file "
            "but was 0.5 for the games so far")):
        make_tuner(default_config(parameters=moved)).set_status(opponent)
    moved[0] = Parameter("axisa", initial_mean=0.7, initial_variance=1.0, transform=lambda x: 1 / (x - 0.5))
    with pytest.raises(CompetitionError, match=re.escape(
            "(0.5) is an error (error from scale for axisa (applied to 0.5): ZeroDivisionError: float "
            "division by zero) in the control file but was 0.5")):
        make_tuner(default_config(parameters=moved)).set_status(opponent)


@pytest.mark.parametrize("confirm_games, played", [(None, 0), (4, 0), (4, 4), (0, 2)])
def test_a_changed_initial_mean_is_refused_where_confirmation_games_play_the_start(confirm_games, played):
    # Games to play against the start would play another one; games played against it would be
    # reported as against the new one.
    tuner = make_tuner()
    status = json.loads(json.dumps(tuner.get_status()))
    assert status["confirmation"]["against"] == "start"
    status["confirmation"]["played"] = played
    config = default_config(parameters=moved_start())
    if confirm_games is not None:
        config["confirm_games"] = confirm_games
    with pytest.raises(CompetitionError, match="^" + re.escape(
            "parameter axisa: 'initial_mean' is 0.7 in the control file but was 0.5 for the games so far")):
        make_tuner(config).set_status(status)


def test_the_mean_is_recommended_only_once_it_beat_the_start_and_a_wandering_mean_is_warned():
    config = default_config(make_candidate=make_simulated_candidate, number_of_generations=1,
                            parameters=[Parameter("a", initial_mean=0.5, initial_variance=0.01,
                                                  format="a %.3f")], confirm_games=10)
    tuner = make_tuner(config)
    run_simulation(tuner, lambda p: 0.5, 12, random.Random(2))
    verdict = tuner.verdict()
    assert verdict.headline() == "No clear winner yet" and verdict.tuning_over
    assert verdict.evidence == "not yet: 10 confirmation games against the start (a 0.500) once tuning ends"
    assert verdict.uncertainty.startswith("the distribution's mean +- 2 sd: a ")
    jobs = [tuner.get_game() for _ in range(10)]
    for job in jobs:   # the answer ('best') wins every game
        tuner.process_game_result(make_result(job, "b" if job.player_b.code == "best" else "w"))
    verdict = tuner.verdict()
    assert verdict.settled and verdict.headline() == f"Use {verdict.answer}"
    assert "LOS 0.999" in verdict.evidence
    # A mean more than 2 initial sd from the initial mean has left what the first generation sampled.
    tuner.distribution = [(0.9, 0.001)]
    assert tuner.verdict().warnings == [
        "warning: the mean of a has moved beyond where the first generation sampled (2 sd of its "
        "initial distribution): the best value may lie further; centre initial_mean there and tune again"]
