"""The tuners' pages give the confirmation games' record as the text report does, whatever their results."""

from __future__ import annotations

import math
import random
import re

import pytest

from ringmaster.competitions.bayes_tuner import BayesTuner
from ringmaster.competitions.ce_tuner import CeTuner
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, play_simulated
from ringmaster.competitions.spsa_tuner import SpsaTuner
from ringmaster.reporting.html import render_html
from ringmaster.settings import Player
from ringmaster.tuning.parameters import CeParameter, McParameter
from ringmaster.tuning.scales import LOG
from tests.ringmaster.reporting.test_continuous_tuners import tuner as continuous_tuner
from tests.ringmaster.reporting.test_html import check_page, entry, full_report, mc_tuner


def ce_tuner():
    tuner = CeTuner("ce")
    tuner.rng = random.Random(5)
    tuner.initialise_from_control_file({
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
        "candidate_colour": "w", "opponent": "opp", "confirm_games": 4,
        "parameters": [CeParameter("a", initial_mean=0.5, initial_variance=1.0, format="a %.3f")],
        "batch_size": 2, "samples_per_generation": 4, "number_of_generations": 2,
        "elite_proportion": 0.25, "step_size": 0.5, "make_candidate": make_simulated_candidate})
    tuner.set_clean_status()
    return tuner


def short_mc_tuner():
    tuner = mc_tuner(1, [McParameter("c", scale=LOG(0.05, 5.0), split=4, format="c: %.3f")])
    tuner.number_of_games, tuner.confirm_games = 20, 4
    return tuner


TUNERS = {
    "mc_tuner": short_mc_tuner,
    "ce_tuner": ce_tuner,
    "spsa_tuner": lambda: continuous_tuner(SpsaTuner, number_of_games=20),
    "bayes_tuner": lambda: continuous_tuner(BayesTuner, number_of_games=8, games_per_point=1,
                                                     initial_points=4, start_matches=1),
}


def confirmation_result(job, outcome):
    """A confirmation game's result for the answer ('best'): 'won', 'lost', 'jigo' or 'none'."""
    best = "b" if job.player_b.code == "best" else "w"
    other = "w" if best == "b" else "b"
    return {"won": make_result(job, best), "lost": make_result(job, other),
            "jigo": make_result(job, None, "0"), "none": make_result(job, None)}[outcome]


def page_after(tuner, outcomes):
    """The page once tuning is over and the confirmation games have had these outcomes."""
    rng = random.Random(4)
    entries = []
    while hasattr(job := tuner.get_game(), "game_id"):
        if tuner.is_confirmation(job.game_data):
            if not outcomes:
                break
            response = confirmation_result(job, outcomes.pop(0))
        else:
            response = play_simulated(job, lambda p: 1 / (1 + math.exp(-p[0] / 10)), rng)
        tuner.process_game_result(response)
        entries.append(entry(response, rng))
    page = render_html(full_report(tuner, entries))
    check_page(page)
    return re.search(r"<p>Confirmation \(.*?</p>", page).group(0)


@pytest.mark.parametrize("kind", sorted(TUNERS))
def test_a_page_whose_confirmation_games_have_no_result_yet_says_so(kind):
    # FILE.html failed (jinja2's UndefinedError, exit status 4, also at the end of a run) while
    # every confirmation game played had no result: there was no win rate to show.
    line = page_after(TUNERS[kind](), ["none", "none"])
    assert "2 of 4 games played, none with a result" in line
    assert "%" not in line


@pytest.mark.parametrize("kind", sorted(TUNERS))
def test_a_pages_confirmation_record_is_of_the_games_with_a_result(kind):
    # The page said '1/4 won (50.0%...)': 1 of the 4 played, at the rate of 1.5 of the 3 with
    # a result. It says what the text report says.
    tuner = TUNERS[kind]()
    line = page_after(tuner, ["won", "lost", "jigo", "none"])
    assert ("1.5/3 scored (50.0%, 95% 12.5% to 87.5%; 1 jigo, each counting half; 1 more with no "
            "result, left out), 4 of 4 games played") in line
    text = tuner.get_json_report()["confirmation"]
    assert (text["score"], text["scored"], text["played"]) == (1.5, 3, 4)


def test_a_pages_confirmation_record_without_jigos_counts_wins():
    line = page_after(TUNERS["mc_tuner"](), ["won", "won", "none", "lost"])
    assert "2/3 won (66.7%, 95% 20.8% to 93.9%; 1 more with no result, left out), 4 of 4 games played" \
        in line


@pytest.mark.parametrize("kind", ["mc_tuner", "spsa_tuner", "bayes_tuner"])
def test_a_page_says_how_many_tuning_games_had_no_result(kind):
    # The text report and show --json said so; the page said "120/120 tuning games played" only.
    tuner = TUNERS[kind]()
    rng = random.Random(4)
    entries = []
    number = 0
    while hasattr(job := tuner.get_game(), "game_id") and not tuner.is_confirmation(job.game_data):
        number += 1
        response = (make_result(job, None) if number % 4 == 0 else
                    play_simulated(job, lambda p: 1 / (1 + math.exp(-p[0] / 10)), rng))
        tuner.process_game_result(response)
        entries.append(entry(response, rng))
    report = full_report(tuner, entries)
    assert report["no_result_games"] > 0
    page = render_html(report)
    check_page(page)
    assert re.search(rf"\b{report['no_result_games']} (tuning games )?with no result", page)
