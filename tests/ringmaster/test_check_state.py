"""`ringmaster check` with a saved state: it refuses what `run` would refuse, reads but never writes."""

from __future__ import annotations

import os

from ringmaster.cli import EXIT_USER_ERROR
from ringmaster.run.ringmaster import Ringmaster
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command
from tests.ringmaster.test_cli import invoke, mc_tuner_ctl, playoff

SCALE_REFUSAL = (
    "ringmaster: error loading competition state from comp.status: parameter p: 'scale' (its first and "
    "last candidates) is 0.5 to 1.5 in the control file but was 0.25 to 0.75 for the games so far; put it "
    "back, or start afresh with `ringmaster reset`\n")


def files(directory: str) -> dict[str, tuple[bytes, int]]:
    """Each file in directory (not below it): its bytes and its mtime in ns."""
    found = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                found[name] = (f.read(), os.stat(path).st_mtime_ns)
    return found


def played_tuner(write_ctl) -> str:
    """The control file of an mc_tuner (mc_tuner_ctl) that has played 3 games."""
    ctl = write_ctl(mc_tuner_ctl(fake_engine_command()))
    assert invoke("run", ctl, "-q", "-g", "3").exit_code == 0
    return ctl


def change_scale(ctl: str) -> None:
    text = open(ctl).read()
    assert "scale=LINEAR(0, 1)" in text
    with open(ctl, "w") as f:
        f.write(text.replace("scale=LINEAR(0, 1)", "scale=LINEAR(0, 2)"))


def test_check_refuses_a_scale_changed_under_a_played_tuner_as_run_does(write_ctl):
    ctl = played_tuner(write_ctl)
    change_scale(ctl)
    before = files(os.path.dirname(ctl))
    checked = invoke("check", ctl)
    assert (checked.exit_code, checked.output) == (EXIT_USER_ERROR, SCALE_REFUSAL)
    assert files(os.path.dirname(ctl)) == before   # refused before any engine started, nothing written
    ran = invoke("run", ctl, "-q")
    assert (ran.exit_code, ran.stderr) == (checked.exit_code, checked.output)


def test_check_passes_an_unchanged_played_tuner_and_writes_nothing(write_ctl):
    ctl = played_tuner(write_ctl)
    before = files(os.path.dirname(ctl))
    checked = invoke("check", ctl)
    assert checked.exit_code == 0, checked.output
    assert "checking player opp" in checked.output
    assert files(os.path.dirname(ctl)) == before


def test_check_reads_the_state_of_a_run_going_on_without_its_lock_or_writing_it(write_ctl):
    ctl = played_tuner(write_ctl)
    # A run in progress: it holds the lock, and its saves since the snapshot are in the journal.
    running = Ringmaster(ctl, channel_factory=fake_engine_channel)
    lock = running.acquire_lock()
    try:
        running.load_state()
        running.save_state()
        running.save_state()
        assert os.path.exists(ctl[:-4] + ".journal")
        assert "already running" in invoke("run", ctl, "-q").output
        before = files(os.path.dirname(ctl))
        checked = invoke("check", ctl)
        assert checked.exit_code == 0, checked.output
        change_scale(ctl)
        checked = invoke("check", ctl)
        assert (checked.exit_code, checked.output) == (EXIT_USER_ERROR, SCALE_REFUSAL)
        after = files(os.path.dirname(ctl))
        del before["comp.ctl"], after["comp.ctl"]
        assert after == before
    finally:
        lock.release()


def test_check_without_a_state_starts_the_players_as_before(write_ctl):
    ctl = write_ctl(mc_tuner_ctl(fake_engine_command()))
    checked = invoke("check", ctl)
    assert checked.exit_code == 0, checked.output
    assert os.listdir(os.path.dirname(ctl)) == ["comp.ctl"]


def test_check_refuses_a_state_missing_beside_an_earlier_runs_games_as_run_does(write_ctl):
    ctl = played_tuner(write_ctl)
    os.remove(ctl[:-4] + ".status")
    checked = invoke("check", ctl)
    ran = invoke("run", ctl, "-q")
    assert checked.exit_code == ran.exit_code == EXIT_USER_ERROR
    assert checked.output == ran.stderr
    assert "state file comp.status is missing but comp.hist and comp.games/ hold an earlier run's" \
           in checked.output


TREE_CTL = """
competition_type = 'mc_tuner'
players = {{'opp': Player({engine!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'   # the fake engines' own scores give no result: no game would grow the tree
opponent = 'opp'
candidate_colour = 'b'
max_depth = 2
parameters = [Parameter('n', scale=EXPLICIT({values!r}), split=2),
              Parameter('p', scale=LINEAR(0, 1), split=2)]
def make_candidate(n, p):
    return Player({engine!r})
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
"""


def test_check_and_run_name_a_list_whose_change_leaves_the_tree_fitting_no_shape(write_ctl):
    # Three values: n is split at the first level only; four with the same ends: at the second too.
    engine = fake_engine_command()
    ctl = write_ctl(TREE_CTL.format(engine=engine, values=["a", "b", "d"]))
    assert invoke("run", ctl, "-q", "-g", "8").exit_code == 0
    write_ctl(TREE_CTL.format(engine=engine, values=["x", "a", "y", "d"]))
    refusal = ("ringmaster: error loading competition state from comp.status: parameter n: 'scale' splits "
               "the tree of candidates below the first level otherwise than it did for the games so far "
               "(the state's tree fits no shape the control file gives); put it back, or start afresh "
               "with `ringmaster reset`\n")
    checked = invoke("check", ctl)
    assert (checked.exit_code, checked.output) == (EXIT_USER_ERROR, refusal)
    ran = invoke("run", ctl, "-q")
    assert (ran.exit_code, ran.stderr) == (EXIT_USER_ERROR, refusal)


def test_check_refuses_a_playoff_whose_played_matchup_changed_players_as_run_does(write_ctl):
    ctl = playoff(write_ctl, games=2, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    text = open(ctl).read()
    with open(ctl, "w") as f:
        f.write(text.replace("Matchup('p1', 'p2'", "Matchup('p1', 'p1'"))
    before = files(os.path.dirname(ctl))
    checked = invoke("check", ctl)
    assert (checked.exit_code, checked.output) == (
        EXIT_USER_ERROR, "ringmaster: error loading competition state from comp.status: existing results for "
        "matchup 0 are inconsistent with control file: result players are p1,p2; control file players are "
        "p1,p1#2\n")
    assert files(os.path.dirname(ctl)) == before
    ran = invoke("run", ctl, "-q")
    assert (ran.exit_code, ran.stderr) == (checked.exit_code, checked.output)
