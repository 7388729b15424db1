"""An mc_tuner event an older ringmaster started, run on by this one through the command line."""

from __future__ import annotations

import json
import os

from ringmaster.cli import EXIT_USER_ERROR
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command

TWINS_CTL = """
competition_type = 'mc_tuner'
players = {{'opp': Player({engine!r})}}
board_size = 5
komi = 0.5
opponent = 'opp'
candidate_colour = 'b'
number_of_games = {games}
parameters = [Parameter('a', scale=LINEAR(1, 3, integer=True), split=5)]
def make_candidate(a):
    return Player({engine!r})
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
"""

# The state d9a8e36's ringmaster wrote after `run` of TWINS_CTL (6 games), whose split of a gives the
# candidates 1, 2, 2, 2, 3 (twins, which it allowed): the competition's part as written, the
# ringmaster's own fields cut to an empty history and game index.
OLD_STATE = {
    "competition": {
        "candidate_colour": "b", "check_values": [["1"], ["3"]], "codes": ["a"],
        "confirmation": {"against": "opponent", "jigos": 0, "label": "", "parameters": None, "played": 0,
                         "scheduler": {"next_new": 0, "unfixed": []}, "unknown": 0, "won": 0},
        "opponent": "opp", "opponent_description": "fake:1.0", "scheduler": {"next_new": 6, "unfixed": []},
        "splits": [5],
        "tree": [2, 1, 6, 0, [[2, 1, 2, 0, None], [2, 1, 1, 0, None], [2, 1, 1, 0, None], [2, 1, 1, 0, None],
                              [2, 1, 1, 0, None]]]},
    "competition_type": "mc_tuner", "competition_version": 1, "format": "ringmaster-state",
    "game_settings": {"": {"board_size": 5, "game": "go", "handicap": None, "komi": 0.5, "openings": "none",
                           "referee": "none", "time_control": "none"}},
    "history_size": 0, "history_tail": "", "games": [],
    "timing": {"elapsed": 0.145, "started": "2026-11-29 12:09:34"}, "version": 1, "void_game_count": 0}

REFUSAL = ("ringmaster: error in control file comp.ctl line 8: parameter a: 'split' is 5, but its integer "
           "scale has only 3 different values at the centres of its 5 divisions, so that some candidates "
           "would be twins; use split=3\n")


def invoke(*args: str) -> cli.CliResult:
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def test_an_older_event_with_first_level_integer_twins_shows_reports_and_resumes(write_ctl):
    ctl = write_ctl(TWINS_CTL.format(engine=fake_engine_command(), games=10))
    base = ctl[:-4]
    # A new event with that split is refused, by `check` and by a fresh run.
    for command in ("check", "run"):
        result = invoke(command, ctl)
        assert (result.exit_code, result.output.splitlines()[-1] + "\n") == (EXIT_USER_ERROR, REFUSAL)
    assert not os.path.exists(base + ".status")
    with open(base + ".status", "w") as f:
        json.dump(OLD_STATE, f)
    # `check` reads the state, as `run` does: the event under way keeps its split.
    checked = invoke("check", ctl)
    assert checked.exit_code == 0, checked.output
    shown = invoke("show", ctl)
    assert shown.exit_code == 0, shown.output
    assert "\n6/10 tuning games played\n" in shown.output
    assert ("warning: parameter a: the first level splits its integer scale into 5, though it has only 3 "
            "different values at their centres") in shown.output
    assert invoke("report", ctl).exit_code == 0
    assert "may be twins" in open(base + ".report").read()
    resumed = invoke("run", ctl, "-q")
    assert resumed.exit_code == 0, resumed.output
    status = json.loads(invoke("debugstatus", ctl).stdout)["competition"]
    # The fake engines' games have no result: the 4 new ones are in no record; the old state's 6
    # (each counted a loss when it was written) stay as they were.
    assert status["splits"] == [5] and status["tree"][2] == 6 and status["no_result_games"] == 4
    old_tree = OLD_STATE["competition"]["tree"]
    assert all(child[2] >= old[2] for child, old in zip(status["tree"][4], old_tree[4]))
