"""What the mc_tuner adds to Gomill: confidence stop, confirmation games, parallel-safe choice."""

import io
import json
import random

from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.mc_tuner import McTuner
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, run_simulation
from ringmaster.settings import Player
from ringmaster.tuning.parameters import McParameter as Parameter
from ringmaster.tuning.scales import LINEAR


def config(**changes):
    result = {
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
        "candidate_colour": "b", "opponent": "opp",
        "exploration_coefficient": 0.45, "initial_visits": 2, "initial_wins": 1,
        "parameters": [Parameter("x", scale=LINEAR(0, 1), split=4, format="x: %.3f")],
        "make_candidate": make_simulated_candidate,
    }
    result.update(changes)
    return result


def make_tuner(seed=1, **changes):
    tuner = McTuner("extras")
    tuner.initialise_from_control_file(config(**changes))
    tuner.set_clean_status()
    tuner.rng = random.Random(seed)
    return tuner


def step(x):
    """Candidate x: 0.875 is far better than the rest."""
    return 0.9 if x[0] > 0.75 else 0.3


# stop_when_confident

def test_stop_when_confident_ends_the_event_early():
    tuner = make_tuner(number_of_games=2000, stop_when_confident=0.95)
    played = run_simulation(tuner, step, 2000, random.Random(3))
    assert played < 2000
    assert tuner.is_complete() and tuner.get_game() is NO_GAME
    assert tuner.tree.best_path() == (3,)
    assert tuner.best_probability() >= 0.95
    out = io.StringIO()
    tuner.write_short_report(out)
    assert "stopped early" in out.getvalue()
    assert any(line.startswith("stopping: best candidate") for line in tuner.pending_history)


def test_a_redraw_with_no_new_result_integrates_no_probability_again(monkeypatch):
    from ringmaster.competitions import mc_tuner
    tuner = make_tuner(number_of_games=400)   # no stop_when_confident: no result asks the probability
    run_simulation(tuner, step, 200, random.Random(3))
    calls = []
    real = mc_tuner.probability_best
    monkeypatch.setattr(mc_tuner, "probability_best", lambda *args: (calls.append(args), real(*args))[1])
    screens = []
    for _ in range(2):
        out = io.StringIO()
        tuner.write_screen_report(out)
        screens.append(out.getvalue())
    assert screens[0] == screens[1] and "probability it is better than every other candidate" in screens[0]
    assert len(calls) == len(tuner.tree.best_path())   # each level once, on the first redraw only
    run_simulation(tuner, step, 1, random.Random(4))
    calls.clear()
    probability = tuner.best_probability()
    assert len(calls) == len(tuner.tree.best_path())   # a new result: integrated again
    node, expected = tuner.tree.root, 1.0
    for index in tuner.tree.best_path():
        expected *= real([(child.won, child.games) for child in node.children], index)
        node = node.children[index]
    assert probability == expected


def test_without_stop_when_confident_all_games_are_played():
    tuner = make_tuner(number_of_games=300)
    assert run_simulation(tuner, step, 1000, random.Random(3)) == 300
    assert tuner.is_complete()


def test_confidence_is_recomputed_after_reload():
    tuner = make_tuner(number_of_games=2000, stop_when_confident=0.95)
    run_simulation(tuner, step, 2000, random.Random(3))
    restored = make_tuner(number_of_games=2000, stop_when_confident=0.95)
    restored.set_status(json.loads(json.dumps(tuner.get_status())))
    assert restored.is_complete()
    looser = make_tuner(number_of_games=2000, stop_when_confident=0.9999999)
    looser.set_status(json.loads(json.dumps(tuner.get_status())))
    assert not looser.is_complete()


# confirm_games

def test_confirmation_games_follow_the_tuning_games():
    tuner = make_tuner(number_of_games=40, confirm_games=5)
    jobs = [tuner.get_game() for _ in range(40)]
    assert tuner.get_game() is NO_GAME      # waits for the tuning games in flight
    for job in jobs:
        tuner.process_game_result(make_result(job, "b" if job.game_data[1] == [3] else "w"))
    best = tuner.tree.best_path()
    assert best == (3,)
    assert not tuner.is_complete()
    confirm = [tuner.get_game() for _ in range(5)]
    assert [j.game_id for j in confirm] == ["c0", "c1", "c2", "c3", "c4"]
    assert {j.player_b.code for j in confirm} == {"best"}
    assert list(confirm[0].player_b.command) == make_simulated_candidate(0.875).settings["command"]
    assert tuner.get_game() is NO_GAME
    for i, job in enumerate(confirm):
        line = tuner.process_game_result(make_result(job, "b" if i < 2 else "w"))
        assert line.startswith("confirmation x: 0.875 [cell 3]")
    assert tuner.is_complete()
    assert tuner.tree.root.games == 40      # confirmation games don't touch the tree
    out = io.StringIO()
    tuner.write_short_report(out)
    text = out.getvalue()
    assert "confirmation games (5/5) for x: 0.875 [cell 3]:" in text
    assert "2/5 0.400 [" in text
    confirmation = tuner.get_json_report()["confirmation"]
    assert confirmation["won"] == 2
    # In the engine's units, as best.parameter_values is.
    assert confirmation["parameter_values"] == [0.875]


def test_confirmation_state_round_trip_and_void_retry():
    tuner = make_tuner(number_of_games=4, confirm_games=3)
    for _ in range(4):
        tuner.process_game_result(make_result(tuner.get_game(), "b"))
    first = tuner.get_game()
    tuner.process_game_result(make_result(first, "b"))
    void = tuner.get_game()
    # A void confirmation game is issued again by the tuner, once.
    assert tuner.process_game_error(void, 0) == (False, False)
    in_flight = tuner.get_game()
    assert in_flight.game_id == void.game_id == "c1"
    assert tuner.process_game_error(in_flight, 1) == (True, False)
    restored = make_tuner(number_of_games=4, confirm_games=3)
    restored.set_status(json.loads(json.dumps(tuner.get_status())))
    assert restored.get_game().game_id == in_flight.game_id
    assert restored.confirm_played == 1 and restored.confirm_label == tuner.confirm_label


# Parallel-safe selection

def test_games_in_flight_spread_over_candidates():
    def leader_first(tuner):
        tuner.tree.root.children[2].games = 6
        tuner.tree.root.children[2].won = 4
        tuner.tree.root.games, tuner.tree.root.won = 6, 4
        return [tuple(tuner.get_game().game_data[1]) for _ in range(8)]

    gomill = leader_first(make_tuner(exploration_coefficient=0.2, count_games_in_flight=False))
    assert set(gomill) == {(2,)}
    for rule in (True, "mean", "loss"):
        counted = leader_first(make_tuner(exploration_coefficient=0.2,
                                          count_games_in_flight=rule))
        assert counted[0] == (2,)
        assert len(set(counted)) > 1


def test_parallel_run_finds_the_answer():
    tuner = make_tuner(number_of_games=600)
    assert run_simulation(tuner, step, 600, random.Random(4), parallel=8) == 600
    assert tuner.tree.best_path() == (3,)
    assert all(node.in_flight == 0 for node in tuner.tree.walk_nodes(tuner.tree.root))


def test_a_list_of_choices_has_no_end_of_range_to_warn_of():
    # 'policy lies at the lowest end of its range ... widen the range of policy', for
    # EXPLICIT(['light', 'heavy']): there is nothing below 'light'. A list of numbers keeps it.
    from ringmaster.tuning.scales import EXPLICIT, is_categorical
    assert is_categorical(EXPLICIT(["light", "heavy"])) and is_categorical(EXPLICIT([1, "x"]))
    assert not is_categorical(EXPLICIT([1, 2.5, 4])) and not is_categorical(LINEAR(0, 1))
    for values, warned in [(["light", "heavy"], False), ([8, 16], True)]:
        tuner = make_tuner(parameters=[Parameter("c", scale=LINEAR(0, 1), split=2),
                                       Parameter("policy", scale=EXPLICIT(values), split=2)])
        warnings = [w for cell in range(4) for w in tuner.edge_warnings((cell,))]
        assert any("warning: c lies at" in w for w in warnings)
        assert any("warning: policy lies at" in w for w in warnings) == warned


def test_confirmation_games_without_a_leader_say_whose_they_are_and_why():
    # The sweep's tune_mcts_c_7x7 shrunk to 4 tuning games: each lost, so no candidate leads, and
    # the confirmation games went to the most-played one, which the reports left unexplained.
    tuner = make_tuner(number_of_games=4, confirm_games=2, parameters=[
        Parameter("x", scale=LINEAR(0, 1), split=8, format="x: %.3f")])
    jobs = [tuner.get_game() for _ in range(4)]
    for job in jobs:
        tuner.process_game_result(make_result(job, "w"))
    # Four of the eight candidates lost a game each: each looks worse than an untried one.
    assert tuner.tree.best_path() == ()
    confirm = [tuner.get_game() for _ in range(2)]
    label = tuner.confirm_label
    assert label.startswith("x: ") and "[cell " in label
    for job in confirm:
        tuner.process_game_result(make_result(job, "b"))
    assert tuner.is_complete()
    out = io.StringIO()
    tuner.write_short_report(out)
    text = out.getvalue()
    why = "the most-played candidate, as no candidate leads"
    assert f"Leader: none yet (the most-played candidate doesn't look better than an untried one)\n" \
           f"  the confirmation games are for {label}, {why}\n" in text
    assert f"confirmation games (2/2) for {label} ({why}):" in text
    verdict = tuner.verdict()
    assert verdict.headline() == "No clear winner yet"
    assert verdict.evidence == (
        f"the most-played candidate doesn't yet look better than an untried one; the confirmation games "
        f"are for {label}, {why}: it scored 2 of 2 against the opponent, which doesn't compare it with "
        f"the other candidates")
    assert f"  evidence: {verdict.evidence} (" in text
    report = tuner.get_json_report()
    assert report["confirmation"]["candidate_note"] == why
    assert report["verdict"]["evidence"] == verdict.evidence


def test_confirmation_games_for_the_leader_need_no_note():
    tuner = make_tuner(number_of_games=40, confirm_games=2)
    jobs = [tuner.get_game() for _ in range(40)]
    for job in jobs:
        tuner.process_game_result(make_result(job, "b" if job.game_data[1] == [3] else "w"))
    for job in [tuner.get_game() for _ in range(2)]:
        tuner.process_game_result(make_result(job, "b"))
    assert tuner.tree.best_path() == (3,) and tuner.confirmation_note() == ""
    assert tuner.get_json_report()["confirmation"]["candidate_note"] is None
    assert "confirmation games" not in tuner.verdict().evidence
