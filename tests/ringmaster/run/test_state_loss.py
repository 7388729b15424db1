"""A state that is missing or damaged is refused in one line saying what to do, never taken for a
fresh start that would count the earlier run's games again and replace their records; and reset
holds the run's lock while it deletes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ringmaster.run.lifecycle import run_competition
from ringmaster.run.ringmaster import Ringmaster
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.ringmaster.run.test_lifecycle import check_consistent, playoff


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def one_error(result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("ringmaster:")]
    assert len(errors) == 1, result.output
    return errors[0]


def outputs(base: str) -> dict[str, bytes]:
    """The history and every record, as they are."""
    files = {".hist": Path(base + ".hist").read_bytes()}
    for name in os.listdir(base + ".games"):
        files[name] = Path(base + ".games", name).read_bytes()
    return files


def play_leaving_a_journal(ctl, monkeypatch, games):
    """Play games of ctl and end as a kill -9 would: the journal left, not folded into the state."""
    with monkeypatch.context() as patch:
        patch.setattr(Ringmaster, "close_state", lambda self: None)
        run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), max_games=games,
                        quiet=True)


@pytest.mark.parametrize("left, named", [
    ((".hist", ".games"), "comp.hist and comp.games/ hold"),
    ((".hist",), "comp.hist holds"),
    ((".games",), "comp.games/ holds"),
])
def test_a_missing_state_file_after_a_run_is_refused(write_ctl, left, named):
    ctl = playoff(write_ctl, games=4)
    base = ctl[:-4]
    assert invoke("run", ctl, "-g", "2").exit_code == 0
    os.remove(base + ".status")
    for suffix in {".hist", ".games"} - set(left):   # what the earlier run left
        if suffix == ".games":
            for name in os.listdir(base + ".games"):
                os.remove(os.path.join(base + ".games", name))
        else:
            os.remove(base + suffix)
    before = outputs(base) if ".hist" in left else None
    error = one_error(invoke("run", ctl, "-g", "2"))
    assert error == (f"ringmaster: state file comp.status is missing but {named} an earlier "
                     f"run's games: restore it from a backup, or start afresh with "
                     f"`ringmaster reset {ctl}`")
    if before is not None:
        assert outputs(base) == before   # nothing cut, nothing replaced
    assert not os.path.exists(base + ".status")
    for command in ("show", "report", "debugstatus"):   # not 'play some games first'
        assert one_error(invoke(command, ctl)) == error


def test_a_missing_state_file_with_a_journal_left_is_refused(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=4)
    base = ctl[:-4]
    play_leaving_a_journal(ctl, monkeypatch, 3)
    os.remove(base + ".status")
    before = outputs(base)
    error = one_error(invoke("run", ctl))
    assert "state file comp.status is missing but comp.hist, comp.games/ and comp.journal hold" \
        in error
    assert outputs(base) == before


def test_a_fresh_competition_still_starts_with_its_folders_empty_or_holding_temporaries(write_ctl):
    # What a first run killed before its first result leaves: no state, an empty history,
    # attempts never counted, a void game's record.
    ctl = playoff(write_ctl, games=2)
    base = ctl[:-4]
    Path(base + ".hist").write_text("")
    os.mkdir(base + ".games")
    Path(base + ".games/.0_0.sgf.abc.attempt.ringmaster-tmp").write_text("never counted")
    os.mkdir(base + ".void")
    Path(base + ".void/0_0.sgf").write_text("(;)")
    result = invoke("run", ctl)
    assert result.exit_code == 0, result.output
    check_consistent(ctl, 2)


def test_after_reset_a_competition_starts_afresh(write_ctl):
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl).exit_code == 0
    os.remove(ctl[:-4] + ".status")
    assert invoke("run", ctl).exit_code == 1
    assert invoke("reset", ctl).exit_code == 0
    assert invoke("run", ctl).exit_code == 0
    check_consistent(ctl, 2)


def test_a_journal_whose_header_is_damaged_is_refused_and_its_games_kept(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=6)
    base = ctl[:-4]
    play_leaving_a_journal(ctl, monkeypatch, 4)
    journal = Path(base + ".journal")
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("xx\n" + "".join(lines[1:]))    # sed -i '1s/.*/xx/' comp.journal
    damaged = journal.read_bytes()
    before = outputs(base)
    for command in ("run", "show"):
        error = one_error(invoke(command, ctl))
        assert error == ("ringmaster: journal file comp.journal is corrupt: its first line is "
                         "not a journal header; restore it from a backup, or start afresh "
                         f"with `ringmaster reset {ctl}`")
    assert journal.read_bytes() == damaged and outputs(base) == before
    journal.write_text("".join(lines))   # restored
    assert invoke("run", ctl).exit_code == 0
    check_consistent(ctl, 6)


def test_a_run_starting_while_reset_deletes_is_refused(write_ctl, monkeypatch):
    # reset holds the run's lock from its first deletion to its last: a run starting
    # meanwhile would have its counted records deleted under it.
    import shutil
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl).exit_code == 0
    real_rmtree = shutil.rmtree
    meanwhile = []

    def rmtree(path, *args, **kwargs):
        if not meanwhile:
            meanwhile.append(invoke("run", ctl))
        return real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", rmtree)
    assert invoke("reset", ctl).exit_code == 0
    assert meanwhile[0].exit_code == 1 and "already running" in meanwhile[0].output
    assert sorted(os.listdir(os.path.dirname(ctl))) == ["comp.ctl"]
    monkeypatch.undo()
    assert invoke("run", ctl).exit_code == 0   # the lock was released
    check_consistent(ctl, 2)


REMEDY = "restore it from a backup, or start afresh with `ringmaster reset {ctl}`"


@pytest.mark.parametrize("command", ["run", "show", "report", "debugstatus"])
def test_a_corrupt_state_file_is_refused_saying_what_to_do(write_ctl, command):
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    status = Path(ctl[:-4] + ".status")
    status.write_text(status.read_text()[:40])   # cut short
    error = one_error(invoke(command, ctl))
    assert error.startswith("ringmaster: state file comp.status is corrupt: ")
    assert error.endswith("; " + REMEDY.format(ctl=ctl))


def test_the_remedy_names_the_control_file_as_given(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    Path(ctl[:-4] + ".status").write_text("{")
    monkeypatch.chdir(os.path.dirname(ctl))
    error = one_error(invoke("run", "comp.ctl"))
    assert error.endswith("; " + REMEDY.format(ctl="comp.ctl"))


def test_a_state_file_lacking_what_its_journal_appends_to_is_named(write_ctl, monkeypatch):
    # With a journal left, the first save appends to the snapshot's arrays: a snapshot
    # without its competition was reported as the journal's fault.
    ctl = playoff(write_ctl, games=6)
    base = ctl[:-4]
    play_leaving_a_journal(ctl, monkeypatch, 4)
    status = Path(base + ".status")
    document = json.loads(status.read_text())
    del document["competition"]
    status.write_text(json.dumps(document))
    for command in ("run", "show"):
        error = one_error(invoke(command, ctl))
        assert error == ("ringmaster: state file comp.status is malformed: no competition "
                         "(which comp.journal appends to); " + REMEDY.format(ctl=ctl))
