"""Settings helpers: what tells players' commands apart in a report."""

from __future__ import annotations

from ringmaster.settings import distinguishing_options


def test_players_of_one_program_are_told_apart_by_the_options_they_differ_in():
    options = distinguishing_options({
        "gnugo-l1": ["/usr/games/gnugo", "--mode", "gtp", "--level", "1", "--chinese-rules"],
        "gnugo-l10": ["/usr/games/gnugo", "--mode", "gtp", "--level", "10", "--chinese-rules"],
        "mcts-1000": ["/usr/bin/python3", "-m", "players", "mcts", "--playouts", "1000"],
        "random": ["/usr/bin/python3", "-m", "players", "random"],
        "rhino": ["/usr/games/gtp-rhino", "--level=3"],
    })
    assert options == {"gnugo-l1": "--level 1", "gnugo-l10": "--level 10",
                       "mcts-1000": "mcts --playouts 1000", "random": "random", "rhino": ""}


def test_identical_commands_have_nothing_to_tell_them_apart():
    assert distinguishing_options({"a": ["x", "--v", "1"], "b": ["x", "--v", "1"]}) == {"a": "", "b": ""}
