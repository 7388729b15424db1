"""FILE.html for spsa_tuner and bayes_tuner: the headline and the plots (reporting/continuous_tuners.py)."""

from __future__ import annotations

import random

from markupsafe import escape

from ringmaster.competitions.bayes_tuner import BayesTuner
from ringmaster.competitions.simulate import make_simulated_candidate
from ringmaster.competitions.spsa_tuner import SpsaTuner
from ringmaster.reporting.html import render_html
from ringmaster.settings import Player
from ringmaster.tuning.parameters import ContinuousParameter
from ringmaster.tuning.scales import EXPLICIT, LINEAR
from tests.ringmaster.reporting.test_html import check_page, drive, full_report


def tuner(cls, **settings):
    result = cls("tune")
    result.rng = random.Random(3)
    result.initialise_from_control_file({
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")}, "opponent": "opp",
        "make_candidate": make_simulated_candidate, "confirm_games": 4,
        "parameters": [ContinuousParameter("x", scale=LINEAR(0, 10), format="x: %.2f"),
                       ContinuousParameter("k", scale=EXPLICIT([0.1, 0.2, 0.3]), format="k: %s")],
        **settings})
    result.set_clean_status()
    return result


def hill(p):
    return 0.6 - 0.004 * (p[0] - 3.0) ** 2


def test_spsa_page_plots_each_parameters_trajectory():
    spsa = tuner(SpsaTuner, number_of_games=200)
    report = full_report(spsa, drive(spsa, hill, 200))
    page = render_html(report)
    check_page(page)
    verdict = report["verdict"]
    assert f'<div class="big">{verdict["headline"]}</div>' in page
    assert str(escape(verdict["evidence"])) in page
    assert "Confirmation (fresh games against the start, x: 5.00; k: 0.2)" in page
    assert "x over the run" in page and "k over the run" in page
    assert page.count(">answer</text>") == 2   # the answer drawn across each trajectory
    assert "SPSA's answer is the mean of its points after each of the last 100 games" in page
    assert f"its current point is {report['current']['parameters']}" in page
    assert "the two perturbed candidates play each other" in page
    # Not "Why the event stopped: <b>stopped: ...": the reason starts with its own word.
    assert "The event <b>stopped: number_of_games (200) played</b>." in page


def test_a_running_tuners_page_says_current_and_running_not_use():
    for cls in (SpsaTuner, BayesTuner):
        running = tuner(cls, number_of_games=200)
        page = render_html(full_report(running, drive(running, hill, 60)))
        check_page(page)
        assert '<div class="big">No clear winner yet</div>' in page and "Use " not in page
        assert "The event is <b>still running</b>." in page and "Why the event stopped" not in page


def test_a_log_scale_is_plotted_as_log10_ticked_in_its_own_units_and_a_list_of_names_by_position():
    from ringmaster.reporting.continuous_tuners import _axis
    values, label, ticks = _axis("c", [0.01, 0.1, 1.0], [0.0, 0.5, 1.0])
    assert values == [-2.0, -1.0, 0.0] and label == "c (log scale)"
    assert ticks == [(-2.0, "0.01"), (-1.0, "0.1"), (0.0, "1")]
    assert _axis("n", [1, 5, 10], [0.0, 0.5, 1.0]) == ([1.0, 5.0, 10.0], "n", None)
    assert _axis("m", ["a", "b"], [0.25, 0.75]) == ([0.25, 0.75], "m (position on its scale)", None)


def test_log_ticks_fall_back_to_one_two_five_within_a_decade_or_two():
    from ringmaster.reporting.continuous_tuners import log_ticks
    assert [label for _, label in log_ticks(0.05, 2.0)] == ["0.05", "0.1", "0.2", "0.5", "1", "2"]
    assert [label for _, label in log_ticks(0.001, 10.0)] == ["0.001", "0.01", "0.1", "1", "10"]


def test_bayes_plot_of_a_log_scale_is_in_parameter_units_with_every_point_played():
    import re

    from ringmaster.tuning.scales import LOG
    bayes = tuner(BayesTuner, number_of_games=120, head_to_head=False,
                  parameters=[ContinuousParameter("c", scale=LOG(0.01, 1.0), format="c: %.3f")])
    report = full_report(bayes, drive(bayes, lambda p: 0.6 - 0.1 * (p[0] - 0.1) ** 2, 120))
    page = render_html(report)
    check_page(page)
    plot = page[page.index("c: modelled win rate"):]
    plot = plot[:plot.index("</svg>")]
    assert "c (log scale) (others at the answer)" in plot and "log10" not in plot
    labels = re.findall(r'text-anchor="middle">([^<]*)</text>', plot)
    assert {"0.01", "0.1", "1"} <= set(labels)
    played = [p for p in report["points"] if p["games"]]
    assert len(played) >= 3 and plot.count('class="dot"') == len(played)


def test_head_to_head_matches_have_no_dot_on_the_win_rate_against_the_opponent():
    bayes = tuner(BayesTuner, number_of_games=120, head_to_head=True, games_per_point=4,
                  parameters=[ContinuousParameter("x", scale=LINEAR(0, 10), format="x: %.2f")])
    report = full_report(bayes, drive(bayes, hill, 120))
    page = render_html(report)
    check_page(page)
    played = [p for p in report["points"] if p["games"]]
    against_opponent = [p for p in played if "against_optimiser_parameters" not in p]
    assert 0 < len(against_opponent) < len(played)
    plot = page[page.index("x: modelled win rate, 95% band; dots: points played against the opponent"):]
    plot = plot[:plot.index("</svg>")]
    assert plot.count('class="dot"') == len(against_opponent)
    assert report["recommended"]["level_note"].startswith("head-to-head matches measure differences")
    assert str(escape("Head-to-head matches measure differences: the model knows the win rate against "
                      "the opponent only from its matches against the opponent")) in page


def test_bayes_page_plots_the_model_along_each_parameter_with_its_band():
    bayes = tuner(BayesTuner, number_of_games=200)
    report = full_report(bayes, drive(bayes, hill, 200))
    page = render_html(report)
    check_page(page)
    verdict = report["verdict"]
    assert f'<div class="big">{verdict["headline"]}</div>' in page
    assert str(escape(verdict["evidence"])) in page
    assert "x: modelled win rate, 95% band" in page and "k: modelled win rate, 95% band" in page
    assert "log10 k" not in page and "x (others at the answer)" in page
    x, k = report["recommended"]["optimum_95"]
    assert "Where the optimum lies, by the model" in page
    assert str(escape("The model's estimate where it is highest, from the games that chose the point, "
                      "flatters it: by 1 to 3 win-rate points on the bench.")) in page
    assert (f"{x['shown_low']} to {x['shown_high']} (median {x['shown_median']}, half "
            f"{x['shown_low_50']} to {x['shown_high_50']}); {k['shown_low']} to {k['shown_high']}") in page
    assert "Confirmation (fresh games against the start, x: 5.00; k: 0.2): 4 games once tuning ends" in page
    assert "The model's answer (where its mean win rate less 2 sd is highest)" in page
    # Not "Why the event stopped: <b>stopped: ...": the reason starts with its own word.
    assert "The event <b>stopped: number_of_games (200) played</b>." in page
