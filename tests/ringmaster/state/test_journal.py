"""The state's snapshot and journal: saves append, reads replay, and a killed save leaves the one before."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from ringmaster.competitions.scheduling import GroupScheduler
from ringmaster.errors import Interrupt, RunInterrupted, StateFileDamaged, StateFileError, StorageError
from ringmaster.run.lifecycle import run_competition
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.state import journal as state_journal
from ringmaster.state.encoding import EncodedList, EncodedOnce
from ringmaster.state.journal import StateStore
from ringmaster.state.state_file import dumps_state, read_state
from tests.fakes.channels import fake_engine_channel
from tests.ringmaster.run.test_lifecycle import playoff


class Record(EncodedOnce):
    def __init__(self, n: int) -> None:
        self.n = n

    def to_json(self) -> dict:
        return {"n": self.n}


class Run:
    """A state like the ringmaster's: two growing lists (one nested) and small values."""

    def __init__(self) -> None:
        self.games: list[Record] = []
        self.results: list[Record] = []
        self._games_json, self._results_json = EncodedList(), EncodedList()
        self.count = 0

    def add(self) -> None:
        self.count += 1
        self.games.append(Record(self.count))
        self.results.append(Record(-self.count))

    def state(self) -> dict:
        return {"count": self.count, "games": self._games_json.encode(self.games),
                "competition": {"results": {"0": self._results_json.encode(self.results)},
                                "scheduler": [self.count, "x"]}}

    def expected(self) -> dict:
        """The state as a reader should see it: as if written whole."""
        return {"format": "ringmaster-state", "version": 1,
                **json.loads(dumps_state(self.state()))}


@pytest.fixture
def store(tmp_path):
    return StateStore(str(tmp_path / "c.status"), str(tmp_path / "c.journal"))


def saved_runs(store: StateStore, games: int) -> Run:
    run = Run()
    for _ in range(games):
        run.add()
        store.save(run.state())
    return run


def test_saves_after_the_first_append_to_the_journal(store, tmp_path):
    run = Run()
    run.add()
    store.save(run.state())
    snapshot = (tmp_path / "c.status").read_bytes()
    for _ in range(5):
        run.add()
        store.save(run.state())
        assert store.read() == run.expected()
    assert (tmp_path / "c.status").read_bytes() == snapshot   # never rewritten
    lines = (tmp_path / "c.journal").read_bytes().splitlines()
    assert len(lines) == 1 + 5
    # Each line carries only the records its save added.
    assert json.loads(lines[-1])["append"] == [[["games"], [{"n": 6}]],
                                               [["competition", "results", "0"], [{"n": -6}]]]


def test_close_folds_the_journal_into_the_snapshot_and_removes_it(store, tmp_path):
    run = saved_runs(store, 4)
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.status"]
    assert read_state(str(tmp_path / "c.status")) == run.expected()   # no journal needed
    # The next run starts with a snapshot of its own, and reads what the last left.
    again = StateStore(str(tmp_path / "c.status"), str(tmp_path / "c.journal"))
    assert again.read() == run.expected()


def test_close_folds_a_journal_a_killed_run_left_though_this_run_saved_nothing(store, tmp_path):
    # A run killed after its last game; the next finds the competition complete.
    run = saved_runs(store, 4)
    later = StateStore(str(tmp_path / "c.status"), str(tmp_path / "c.journal"))
    assert later.read() == run.expected()
    later.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.status"]
    assert read_state(str(tmp_path / "c.status")) == run.expected()


def test_close_without_a_save_writes_nothing(store, tmp_path):
    saved_runs(store, 1)
    store.close()
    before = sorted(p.name for p in tmp_path.iterdir()), (tmp_path / "c.status").read_bytes()
    later = StateStore(str(tmp_path / "c.status"), str(tmp_path / "c.journal"))
    later.close()
    assert (sorted(p.name for p in tmp_path.iterdir()),
            (tmp_path / "c.status").read_bytes()) == before


def test_a_line_cut_short_is_the_save_that_never_completed(store, tmp_path):
    run = saved_runs(store, 3)
    before = run.expected()
    run.add()
    store.save(run.state())
    journal = tmp_path / "c.journal"
    data = journal.read_bytes()
    last = data[:-1].rfind(b"\n") + 1
    for cut in (last + 1, len(data) - 1):   # a killed write; the newline lost
        journal.write_bytes(data[:cut])
        assert store.read() == before
    journal.write_bytes(data[:last] + b"\0" * 40)   # a power cut's zeros
    assert store.read() == before
    # The line's last block reached the disk, an earlier one didn't.
    journal.write_bytes(data[:last] + b"\0" * 40 + data[last + 40:])
    assert store.read() == before


def test_close_folds_the_state_as_last_saved_not_as_it_is_in_memory(store, tmp_path):
    # An interrupt in the middle of recording a result leaves memory ahead of the disk.
    run = saved_runs(store, 3)
    saved = run.expected()
    run.add()
    run.games[0].n = 100
    store.close()
    assert read_state(str(tmp_path / "c.status")) == saved
    assert not (tmp_path / "c.journal").exists()


def test_a_reader_meeting_a_journal_folded_in_meanwhile_reads_the_snapshot_again(
        store, tmp_path, monkeypatch):
    run = saved_runs(store, 5)
    real = state_journal._journal_lines

    def folded_while_reading(journal, ident):
        monkeypatch.setattr(state_journal, "_journal_lines", real)
        store.close()   # the run ends between the reader's two reads
        return real(journal, ident)

    monkeypatch.setattr(state_journal, "_journal_lines", folded_while_reading)
    reader = StateStore(str(tmp_path / "c.status"), str(tmp_path / "c.journal"))
    assert reader.read() == run.expected()


def test_a_corrupt_line_before_a_good_one_is_refused_in_one_line(store, tmp_path):
    saved_runs(store, 4)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")
    lines[2] = b'{"set": {}, "append": [[["nowhere"], [1]]]}'
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(StateFileError) as info:
        store.read()
    assert str(info.value) == "journal file c.journal is corrupt at line 3: KeyError"
    lines[2] = b"{not json"
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(StateFileError, match="c.journal is corrupt at line 3: JSONDecodeError"):
        store.read()


def test_a_line_present_twice_is_applied_once(store, tmp_path):
    run = saved_runs(store, 4)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")   # the header, 3 lines, then b""
    for repeated in ([lines[0]] + lines[1:3] + lines[2:],      # a line twice in a row
                     lines[:4] + [lines[2], lines[4]],         # an earlier line again at the end
                     lines[:2] + lines[1:]):                   # the first line twice
        journal.write_bytes(b"\n".join(repeated))
        assert store.read() == run.expected()


def test_a_line_missing_before_a_good_one_is_refused_in_one_line(store, tmp_path):
    saved_runs(store, 5)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join(lines[:2] + lines[3:]))
    with pytest.raises(StateFileError, match="^journal file c.journal is corrupt at line 3: ValueError$"):
        store.read()


def test_a_journal_without_line_numbers_is_still_read(store, tmp_path):
    # As a ringmaster before the numbers wrote it.
    run = saved_runs(store, 4)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")
    plain = [lines[0]] + [json.dumps({k: v for k, v in json.loads(line).items() if k != "n"}).encode()
                          for line in lines[1:-1]] + [b""]
    journal.write_bytes(b"\n".join(plain))
    assert store.read() == run.expected()


def test_a_journal_of_another_snapshot_is_ignored(store, tmp_path):
    # A run killed after writing a snapshot, before beginning its journal.
    run = saved_runs(store, 3)
    old_journal = (tmp_path / "c.journal").read_bytes()
    run.add()
    store._snapshot(run.state(), {}, journal=True)
    (tmp_path / "c.journal").write_bytes(old_journal)
    assert store.read() == run.expected()


def test_a_journal_from_a_newer_ringmaster_is_refused(store, tmp_path):
    saved_runs(store, 2)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    lines[0] = json.dumps({**header, "version": 2}).encode()
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(StateFileError, match="journal file c.journal has incompatible version 2"):
        store.read()


def test_an_array_changed_otherwise_than_by_growing_takes_a_snapshot(store, tmp_path):
    run = saved_runs(store, 3)
    status = tmp_path / "c.status"
    first = status.read_bytes()
    run.games[0].n = 100          # a record changed: the array is encoded again
    store.save(run.state())
    assert status.read_bytes() != first and store.read() == run.expected()
    assert len((tmp_path / "c.journal").read_bytes().splitlines()) == 1
    run.add()
    store.save(run.state())
    assert len((tmp_path / "c.journal").read_bytes().splitlines()) == 2
    assert store.read() == run.expected()


def test_the_journal_is_folded_in_once_it_outgrows_the_snapshot(store, tmp_path, monkeypatch):
    monkeypatch.setattr(state_journal, "MIN_FOLD_BYTES", 0)
    run = Run()
    sizes = []
    for _ in range(40):
        run.add()
        store.save(run.state())
        sizes.append(((tmp_path / "c.status").stat().st_size,
                      (tmp_path / "c.journal").stat().st_size))
        assert store.read() == run.expected()
    snapshots = [s for s, _ in sizes]
    assert len(set(snapshots)) > 3   # folded in several times
    assert all(journal <= 2 * snapshot for snapshot, journal in sizes)


def test_a_failed_append_leaves_no_part_of_a_line_and_close_writes_nothing(store, tmp_path,
                                                                           monkeypatch):
    run = saved_runs(store, 3)
    before = run.expected()
    journal = tmp_path / "c.journal"
    size = journal.stat().st_size
    real_write = os.write

    def half_then_full(fd, data):
        real_write(fd, data[:len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(state_journal.os, "write", half_then_full)
    run.add()
    with pytest.raises(StorageError) as info:
        store.save(run.state())
    assert str(info.value) == f"can't write {journal}: No space left on device"
    monkeypatch.setattr(state_journal.os, "write", real_write)
    assert journal.stat().st_size == size and store.read() == before
    status = (tmp_path / "c.status").read_bytes()
    store.close()
    assert (tmp_path / "c.status").read_bytes() == status and store.read() == before


def test_a_run_that_ends_without_closing_resumes_from_its_journal(write_ctl, monkeypatch):
    """As after kill -9: the journal holds the games the snapshot lacks; each counts once."""
    ctl = playoff(write_ctl, games=6)
    base = ctl[:-4]
    with monkeypatch.context() as patch:
        patch.setattr(Ringmaster, "close_state", lambda self: None)
        run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), max_games=4,
                        quiet=True)
    snapshot = json.loads(Path(base + ".status").read_text())
    assert len(snapshot["competition"]["results"]["0"]) == 1   # the first save's snapshot
    # The header, a line for each later game, and one at the run's end that drops the note
    # of the last game's record rename (done after the save that counted it).
    journal = Path(base + ".journal").read_text().splitlines()
    assert len(journal) == 1 + 3 + 1
    assert "pending_records" in journal[-2] and "pending_records" not in journal[-1]
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    assert [g.game_id for g in ringmaster.game_index] == ["0_0", "0_1", "0_2", "0_3"]
    run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), quiet=True)
    assert not os.path.exists(base + ".journal")
    results = json.loads(Path(base + ".status").read_text())["competition"]["results"]["0"]
    ids = [r["game_id"] for r in results]
    assert sorted(ids) == [f"0_{i}" for i in range(6)]
    assert sorted(line.split()[0] for line in Path(base + ".hist").read_text().splitlines()) \
        == sorted(ids)


def test_an_interrupt_while_a_result_is_recorded_leaves_that_game_to_be_played_again(
        write_ctl, monkeypatch):
    """Ctrl-C between the scheduler fixing a game and its result being stored: the run's
    end folds what was saved, so the game is played again, not lost."""
    ctl = playoff(write_ctl, games=6)
    real_fix = GroupScheduler.fix
    fixed = []

    def fix_then_interrupt(self, code, number):
        real_fix(self, code, number)
        fixed.append(number)
        if len(fixed) == 3:
            raise Interrupt()

    with monkeypatch.context() as patch:
        patch.setattr(GroupScheduler, "fix", fix_then_interrupt)
        with pytest.raises(RunInterrupted):
            run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), quiet=True)
    assert not os.path.exists(ctl[:-4] + ".journal")
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    assert [r.game_id for r in ringmaster.competition.results["0"]] == ["0_0", "0_1"]
    run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), quiet=True)
    ringmaster = Ringmaster(ctl, channel_factory=fake_engine_channel)
    ringmaster.load_state()
    assert sorted(r.game_id for r in ringmaster.competition.results["0"]) == [
        f"0_{i}" for i in range(6)]
    assert sorted(g.game_id for g in ringmaster.game_index) == [f"0_{i}" for i in range(6)]


@pytest.mark.parametrize("header", [b"xx", b"", b"[1]", b'{"format": "ringmaster-journal"}',
                                    b'{"format": "other", "version": 1, "snapshot": "abc"}'])
def test_a_journal_whose_header_is_damaged_is_refused_in_one_line(store, tmp_path, header):
    # Its header is written atomically: no kill leaves it so, and ignoring the journal
    # would lose every game it counts.
    saved_runs(store, 4)
    journal = tmp_path / "c.journal"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([header] + lines[1:]))
    with pytest.raises(StateFileDamaged) as info:
        store.read()
    assert str(info.value) == "journal file c.journal is corrupt: its first line is not a journal header"


def test_an_empty_journal_is_refused(store, tmp_path):
    saved_runs(store, 2)
    (tmp_path / "c.journal").write_bytes(b"")
    with pytest.raises(StateFileDamaged, match="c.journal is corrupt"):
        store.read()
