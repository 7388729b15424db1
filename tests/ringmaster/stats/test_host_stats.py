"""Results per host: the chi-squared test, a host whose results differ flagged, the report section."""

from __future__ import annotations

import pytest

from ringmaster.stats.host_stats import chi2_sf, chi2_statistic, compare_hosts, host_report


@pytest.mark.parametrize("x, dof, p", [(3.841459, 1, 0.05), (5.991465, 2, 0.05),
                                       (7.814728, 3, 0.05), (13.276704, 4, 0.01),
                                       (0.0, 2, 1.0), (2.0, 2, 0.367879)])
def test_chi2_sf_matches_the_tables(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, abs=1e-5)


def test_statistic_of_identical_rows_is_zero_and_empty_columns_are_dropped():
    assert chi2_statistic([[5, 5, 0], [5, 5, 0]]) == (0.0, 1)
    stat, dof = chi2_statistic([[10, 0, 0], [0, 10, 0]])
    assert stat == pytest.approx(20.0) and dof == 1


def games(host, black, white, black_wins, white_wins):
    return [(host, black, white, black)] * black_wins + [(host, black, white, white)] * white_wins


def test_hosts_agreeing_are_not_flagged():
    comparison = compare_hosts(games("a", "p", "q", 10, 10) + games("b", "p", "q", 9, 11)
                               + games("c", "p", "q", 11, 9))
    assert comparison.p_value > 0.5 and comparison.flagged == []
    assert comparison.games == {"a": 20, "b": 20, "c": 20}


def test_a_host_whose_results_differ_is_flagged():
    # Host c's 'p' loses every game: a misconfigured engine there.
    comparison = compare_hosts(games("a", "p", "q", 15, 15) + games("b", "p", "q", 14, 16)
                               + games("c", "p", "q", 0, 30))
    assert comparison.p_value < 0.001
    assert comparison.flagged == ["c"]
    text = host_report(comparison)
    assert "host c: results differ from the other hosts'" in text


def test_pairings_are_compared_separately_so_colours_do_not_count_as_hosts():
    # Black always wins; host a happened to give p black more often than host b did.
    comparison = compare_hosts(games("a", "p", "q", 8, 0) + games("a", "q", "p", 2, 0)
                               + games("b", "p", "q", 2, 0) + games("b", "q", "p", 8, 0))
    assert comparison.flagged == [] and (comparison.p_value is None or comparison.p_value > 0.5)


def test_games_without_a_host_give_no_section():
    assert host_report(compare_hosts([(None, "p", "q", "p")])) == ""
