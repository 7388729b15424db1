"""A finished game's record and its count: a stop at any moment leaves the game either uncounted
with no record under its name, or counted with its record (renamed into place, if need be, by the
next run's start). Never a record under ID.sgf for a game the state doesn't count, which the
game's replay would overwrite.

The stops are simulated in process (no process is started): Ctrl-C or SIGTERM is a
KeyboardInterrupt raised at the moment; SystemExit another unwinding; kill -9 a copy of the
competition's files taken at the moment, which a new run then resumes from.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ringmaster.run.ringmaster as ringmaster_module
from ringmaster.errors import RunInterrupted, StateFileError
from ringmaster.files import TEMP_SUFFIX
from ringmaster.run.lifecycle import COMPLETE_MESSAGE, run_competition
from ringmaster.run.reports import RunReports
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.state.journal import StateStore
from tests.fakes.channels import fake_engine_channel
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command

GAMES = 4
STOPPED = "0_1"   # the game whose recording is stopped


def write_playoff(directory: Path, games: int = GAMES) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    ctl = directory / "comp.ctl"
    ctl.write_text(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=games))
    return str(ctl)


def ringmaster_for(ctl: str) -> Ringmaster:
    return Ringmaster(ctl, channel_factory=fake_engine_channel)


def saved_state(ctl: str) -> dict:
    base = ctl[:-4]
    return StateStore(base + ".status", base + ".journal").read()


def counted_ids(ctl: str) -> list[str]:
    return [r["game_id"] for r in saved_state(ctl)["competition"]["results"]["0"]]


def check_every_game_once(ctl: str, games: int = GAMES) -> None:
    base = ctl[:-4]
    ids = counted_ids(ctl)
    assert len(ids) == len(set(ids)) == games
    history = Path(base + ".hist").read_text().splitlines()
    assert sorted(line.split()[0] for line in history) == sorted(ids)
    assert sorted(os.listdir(base + ".games")) == sorted(f"{i}.sgf" for i in ids)
    assert "pending_records" not in saved_state(ctl)


# Where process_response can be stopped, in its order, and whether the game is counted then.
MOMENTS = {
    "attempt made durable": ("make_durable", False),
    "state saved, before": ("save_state", False),
    "state saved, after": ("save_state after", True),
    "record renamed, before": ("commit_file", True),
    "record renamed, after": ("commit_file after", True),
    "results in": ("result_in", True),
}


class Stop:
    """Stops the recording of game STOPPED at one moment, in one way."""

    def __init__(self, moment: str, how: str, ctl: str, copy_to: Path) -> None:
        self.moment, self.how, self.ctl, self.copy_to = moment, how, ctl, copy_to
        self.game: str | None = None       # the game whose response is being processed
        self.attempt_bytes: bytes | None = None
        self.stopped = False

    def at(self, moment: str) -> None:
        if self.game != STOPPED or moment != self.moment or self.stopped:
            return
        self.stopped = True
        if self.how == "kill -9":   # what the disk holds now is all the next run gets
            shutil.copytree(os.path.dirname(self.ctl), self.copy_to)
            raise KeyboardInterrupt
        if self.how == "SystemExit":
            raise SystemExit(1)
        raise KeyboardInterrupt

    def install(self, monkeypatch) -> None:
        real_process = Ringmaster.process_response
        real_save = Ringmaster.save_state
        real_durable = ringmaster_module.make_durable
        real_commit = ringmaster_module.commit_file
        real_result_in = RunReports.result_in
        stop = self

        def process_response(self, response):
            stop.game = response.game_id
            if response.game_id == STOPPED:
                stop.attempt_bytes = Path(response.record_attempt).read_bytes()
            try:
                real_process(self, response)
            finally:
                stop.game = None

        def save_state(self):
            stop.at("save_state")
            real_save(self)
            stop.at("save_state after")

        def make_durable(pathname):
            stop.at("make_durable")
            real_durable(pathname)

        def commit_file(attempt, pathname, synced):
            stop.at("commit_file")
            real_commit(attempt, pathname, synced)
            stop.at("commit_file after")

        def result_in(self):
            stop.at("result_in")
            real_result_in(self)

        monkeypatch.setattr(Ringmaster, "process_response", process_response)
        monkeypatch.setattr(Ringmaster, "save_state", save_state)
        monkeypatch.setattr(ringmaster_module, "make_durable", make_durable)
        monkeypatch.setattr(ringmaster_module, "commit_file", commit_file)
        monkeypatch.setattr(RunReports, "result_in", result_in)


@pytest.mark.parametrize("how", ["Ctrl-C", "SystemExit", "kill -9"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_a_stop_while_a_game_is_recorded_never_loses_or_replaces_it(tmp_path, monkeypatch,
                                                                     moment, how):
    ctl = write_playoff(tmp_path / "run")
    hook, counted = MOMENTS[moment]
    stop = Stop(hook, how, ctl, tmp_path / "killed")
    stop.install(monkeypatch)
    expected = SystemExit if how == "SystemExit" else RunInterrupted
    with pytest.raises(expected):
        run_competition(ringmaster_for(ctl), quiet=True)
    assert stop.stopped
    monkeypatch.undo()
    if how == "kill -9":
        ctl = str(tmp_path / "killed" / "comp.ctl")
    base = ctl[:-4]
    record = Path(base + ".games", f"{STOPPED}.sgf")
    assert (STOPPED in counted_ids(ctl)) == counted
    if not counted:   # no record under its name: nothing a replay would overwrite
        assert not record.exists()
    run_competition(ringmaster_for(ctl), quiet=True)
    check_every_game_once(ctl)
    log = Path(base + ".log").read_text()
    if counted:   # never played again, and its record is the one counted
        assert log.count(f"starting game {STOPPED}:") == 1
        assert record.read_bytes() == stop.attempt_bytes
    else:
        assert log.count(f"starting game {STOPPED}:") == 2


def _counted_with_a_pending_rename(tmp_path, monkeypatch, games: int = GAMES) -> str:
    """A competition whose run was killed (-9) between counting game STOPPED and renaming
    its record; returns its control file."""
    ctl = write_playoff(tmp_path / "run", games)
    stop = Stop("commit_file", "kill -9", ctl, tmp_path / "killed")
    stop.install(monkeypatch)
    with pytest.raises(RunInterrupted):
        run_competition(ringmaster_for(ctl), quiet=True)
    monkeypatch.undo()
    return str(tmp_path / "killed" / "comp.ctl")


def test_the_state_notes_a_rename_until_it_is_done(tmp_path, monkeypatch):
    ctl = _counted_with_a_pending_rename(tmp_path, monkeypatch)
    base = ctl[:-4]
    assert os.path.exists(base + ".journal")   # the note came with a journal line
    pending = saved_state(ctl)["pending_records"]
    assert list(pending) == [f"{STOPPED}.sgf"]
    attempt = pending[f"{STOPPED}.sgf"]
    assert attempt.startswith(f".{STOPPED}.sgf.") and attempt.endswith(TEMP_SUFFIX)
    assert os.path.exists(os.path.join(base + ".games", attempt))
    assert not os.path.exists(os.path.join(base + ".games", f"{STOPPED}.sgf"))
    data = Path(base + ".games", attempt).read_bytes()
    run_competition(ringmaster_for(ctl), quiet=True)
    check_every_game_once(ctl)
    assert Path(base + ".games", f"{STOPPED}.sgf").read_bytes() == data
    assert f"record {STOPPED}.sgf, of a game counted by the last run, renamed into place" in \
        Path(base + ".log").read_text()


def test_a_complete_competition_still_completes_a_pending_rename(tmp_path, monkeypatch):
    # The stopped game was the last: the next run finds the competition complete.
    ctl = write_playoff(tmp_path / "run", games=2)
    stop = Stop("commit_file", "kill -9", ctl, tmp_path / "killed")
    stop.install(monkeypatch)
    with pytest.raises(RunInterrupted):
        run_competition(ringmaster_for(ctl), quiet=True)
    monkeypatch.undo()
    ctl = str(tmp_path / "killed" / "comp.ctl")
    said = []
    run_competition(ringmaster_for(ctl), quiet=True, say=said.append)
    assert said == [COMPLETE_MESSAGE]
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["0_0.sgf", "0_1.sgf"]
    assert Path(base + ".games", "0_1.sgf").read_bytes() == stop.attempt_bytes
    # Nothing was saved: the note stays, its attempt gone, and a later start ignores it.
    run_competition(ringmaster_for(ctl), quiet=True, say=said.append)
    assert sorted(os.listdir(base + ".games")) == ["0_0.sgf", "0_1.sgf"]
    assert Path(base + ".games", "0_1.sgf").read_bytes() == stop.attempt_bytes


def test_a_state_without_pending_records_loads_as_before(tmp_path):
    ctl = write_playoff(tmp_path / "run", games=2)
    run_competition(ringmaster_for(ctl), quiet=True, max_games=1)
    document = json.loads(Path(ctl[:-4] + ".status").read_text())
    assert "pending_records" not in document   # written only when there is a rename to do
    run_competition(ringmaster_for(ctl), quiet=True)
    check_every_game_once(ctl, 2)


@pytest.mark.parametrize("value", [[], {"0_0.sgf": 3}, {"../x.sgf": ".a" + TEMP_SUFFIX},
                                   {"0_0.sgf": "0_1.sgf"}])
def test_a_bad_pending_records_is_a_one_line_error(tmp_path, value):
    ctl = write_playoff(tmp_path / "run", games=2)
    run_competition(ringmaster_for(ctl), quiet=True, max_games=1)
    path = Path(ctl[:-4] + ".status")
    document = json.loads(path.read_text())
    document["pending_records"] = value
    path.write_text(json.dumps(document))
    with pytest.raises(StateFileError, match="comp.status is malformed: pending_records"):
        run_competition(ringmaster_for(ctl), quiet=True)


def test_the_journal_carries_the_note_and_drops_it(tmp_path):
    status, journal = str(tmp_path / "c.status"), str(tmp_path / "c.journal")
    store = StateStore(status, journal)
    state = {"competition": {}, "void_game_count": 0}
    store.save(state)   # the run's first save: a snapshot
    store.save({**state, "pending_records": {"0_0.sgf": ".0_0.sgf.x" + TEMP_SUFFIX}})
    assert StateStore(status, journal).read()["pending_records"] == {
        "0_0.sgf": ".0_0.sgf.x" + TEMP_SUFFIX}
    store.save(state)
    assert "pending_records" not in StateStore(status, journal).read()
    store.save({**state, "pending_records": {"0_1.sgf": ".0_1.sgf.y" + TEMP_SUFFIX}})
    store.close()   # folded into the state file
    assert not os.path.exists(journal)
    assert json.loads(Path(status).read_text())["pending_records"] == {
        "0_1.sgf": ".0_1.sgf.y" + TEMP_SUFFIX}


@pytest.mark.integration
def test_sigterm_as_the_first_record_appears_loses_no_game(tmp_path):
    # The reviewer's reproduction: SIGTERM the moment the first record takes its name.
    ctl = write_playoff(tmp_path / "run", games=6)
    base = ctl[:-4]
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(base + ".games/0_0.sgf") and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    first = Path(base + ".games/0_0.sgf").read_bytes()
    assert "0_0" in counted_ids(ctl)
    done = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    check_every_game_once(ctl, 6)
    assert Path(base + ".games/0_0.sgf").read_bytes() == first
