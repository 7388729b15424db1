"""Our engines under the ringmaster: handicap games (fixed and free) and games at a time control."""

from __future__ import annotations

import json
import sys

import pytest
from sgfmill import sgf

from tests.fakes.cli import invoke

CTL = """
competition_type = 'playoff'
players = {{
    'a': Player([{python!r}, '-m', 'players', 'random', '--seed', '1']),
    'b': Player([{python!r}, '-m', 'players', 'random', '--seed', '2']),
}}
board_size = 9
komi = 0.5
scorer = 'internal'
{extra}
matchups = [Matchup('a', 'b', alternating=True, number_of_games=2)]
"""


def run(write_ctl, extra: str) -> tuple[str, dict]:
    ctl = write_ctl(CTL.format(python=sys.executable, extra=extra))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    return ctl, json.loads(invoke("show", ctl, "--json").output)


@pytest.mark.integration
@pytest.mark.parametrize("style", ["fixed", "free"])
def test_our_engines_play_handicap_games(write_ctl, style):
    ctl, report = run(write_ctl, f"handicap = 3\nhandicap_style = '{style}'")
    games = report["games"]
    assert len(games) == 2 and report["void_games"] == 0
    assert not any(g["forfeit"] for g in games)
    with open(ctl[:-4] + f".games/{games[0]['game_id']}.sgf", "rb") as f:
        root = sgf.Sgf_game.from_bytes(f.read()).get_root()
    assert root.get("HA") == 3 and len(root.get("AB")) == 3


@pytest.mark.integration
def test_our_engines_are_told_the_clock_and_keep_it(write_ctl):
    ctl, report = run(write_ctl, "time_control = 'byoyomi 1 5 3'\ntime_margin = 0.5")
    assert report["void_games"] == 0
    assert all(not g["time_loss"] for g in report["games"]), report["games"]
    log = open(ctl[:-4] + ".log").read()
    assert "lists none of the time commands" not in log and "failure response" not in log


MCTS_CTL = """
competition_type = 'playoff'
players = {{
    'managed': Player([{python!r}, '-m', 'players', 'mcts', '--engine', 'fast',
                       '--playouts', '100000000', '--time-manage', '--time-extend', '2',
                       '--time-early', '--resign', '0', '--seed', '1']),
    'plain': Player([{python!r}, '-m', 'players', 'mcts', '--engine', 'fast',
                     '--playouts', '100000000', '--resign', '0', '--seed', '2']),
}}
board_size = 7
komi = 8.5
scorer = 'internal'
time_control = 'absolute 3'
matchups = [Matchup('managed', 'plain', alternating=True, number_of_games=2)]
"""


@pytest.mark.integration
def test_time_managed_engine_spends_its_absolute_time_and_never_loses_on_it(write_ctl):
    ctl = write_ctl(MCTS_CTL.format(python=sys.executable))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    report = json.loads(invoke("show", ctl, "--json").output)
    assert report["void_games"] == 0 and len(report["games"]) == 2
    assert all(not g["time_loss"] for g in report["games"]), report["games"]
