"""The state file (foreign or corrupt ones refused), its encoding, the history's reconciliation, the lock."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ringmaster.errors import LockError, RingmasterError, StateFileError
from ringmaster.state.lock import CompetitionLock
from ringmaster.state.state_file import read_state, reconcile_history, write_state


def test_round_trip_and_no_temporaries_left(tmp_path):
    path = str(tmp_path / "c.status")
    write_state(path, {"competition": {"x": [1, 2]}, "void_game_count": 3})
    document = read_state(path)
    assert document["competition"] == {"x": [1, 2]} and document["void_game_count"] == 3
    assert document["format"] == "ringmaster-state" and document["version"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.status"]


@pytest.mark.parametrize("content, message", [
    (b"{broken", "state file c.status is corrupt"),
    (b"\x80\x02}q\x00.", "state file c.status is a Gomill pickle"),
    (json.dumps({"format": "other"}).encode(), "is not a ringmaster state file"),
    (json.dumps({"format": "ringmaster-state", "version": 99}).encode(),
     "has incompatible version 99 (expected 1)"),
    (b"\xff\xfe", "state file c.status is corrupt"),
])
def test_bad_state_files_are_refused_with_one_line(tmp_path, content, message):
    path = tmp_path / "c.status"
    path.write_bytes(content)
    with pytest.raises(StateFileError) as info:
        read_state(str(path))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_state_for_another_competition_type_is_refused(write_ctl):
    from ringmaster.run.ringmaster import Ringmaster
    ctl = write_ctl("""
competition_type = 'allplayall'
players = {'a': Player('x'), 'b': Player('y')}
board_size = 9
komi = 7.5
competitors = ['a', 'b']
""")
    write_state(ctl[:-4] + ".status", {"competition_type": "playoff", "competition_version": 1})
    with pytest.raises(StateFileError, match="is for a playoff competition, but the control "
                                             "file says allplayall"):
        Ringmaster(ctl).load_state()


def test_a_gomill_state_file_is_refused_in_one_line_that_says_what_to_do(write_ctl):
    """It said only that ringmaster can't read it."""
    from tests.fakes.cli import invoke
    ctl = write_ctl("""
competition_type = 'playoff'
players = {'a': Player('x'), 'b': Player('y')}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b')]
""")
    status = Path(ctl[:-4] + ".status")
    status.write_bytes(b"\x80\x02}q\x00.")
    for command in ("show", "run", "debugstatus"):
        result = invoke(command, ctl)
        assert result.exit_code != 0
        message = result.stderr.strip()
        assert "\n" not in message, message
        assert "state file comp.status is a Gomill pickle, which ringmaster can't read: finish the " \
            "competition with Gomill's ringmaster, or start it afresh here with `ringmaster reset " \
            f"{ctl}`" in message, message
    assert invoke("reset", ctl).exit_code == 0 and not status.exists()


def _try_lock(path, queue):
    lock = CompetitionLock(path)
    try:
        lock.acquire()
        queue.put("acquired")
    except RingmasterError as exc:
        queue.put(str(exc))


@pytest.mark.integration
def test_lock_excludes_other_processes_and_is_released(tmp_path):
    path = str(tmp_path / "c.log")
    lock = CompetitionLock(path)
    lock.acquire()
    queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_try_lock, args=(path, queue))
    process.start()
    process.join(20)
    assert queue.get(timeout=5) == "competition is already running"
    lock.release()
    process = multiprocessing.Process(target=_try_lock, args=(path, queue))
    process.start()
    process.join(20)
    assert queue.get(timeout=5) == "acquired"


@pytest.mark.integration
@pytest.mark.parametrize("tidy_up", ["remove", "rename", "rename the directory"])
def test_lock_survives_its_file_going_and_dies_with_its_process(tmp_path, tidy_up):
    directory = tmp_path / "comp"
    directory.mkdir()
    path = str(directory / "c.log")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from ringmaster.state.lock import CompetitionLock\n"
         f"lock = CompetitionLock({path!r})\nlock.acquire()\n"
         "print('held', flush=True)\ntime.sleep(60)\n"],
        stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b"held\n"
        if tidy_up == "remove":
            os.remove(path)
        elif tidy_up == "rename":
            os.rename(path, path + ".1")
        else:
            directory = directory.rename(tmp_path / "moved")
            path = str(directory / "c.log")
        lock = CompetitionLock(path)
        assert lock.is_held_elsewhere()
        with pytest.raises(LockError, match="^competition is already running$"):
            lock.acquire()
    finally:
        holder.kill()   # kill -9: the system drops the lock
        holder.wait()
    assert not lock.is_held_elsewhere()
    lock.acquire()
    lock.release()


def test_history_reconciliation(tmp_path):
    path = tmp_path / "h.hist"
    path.write_text("a\nb\nc-partial")
    assert reconcile_history(str(path), 4, "b\n") is None     # a line past the state: cut
    assert path.read_text() == "a\nb\n"
    path.write_text("a\n")
    assert reconcile_history(str(path), 4, "b\n") is None     # the last append lost: redone
    assert path.read_text() == "a\nb\n"
    path.write_text("")
    assert "shorter than the state expects" in reconcile_history(str(path), 4, "b\n")
    path.write_text("a\nb\nc-part")   # cut mid-line, well short: the line is ended
    assert "shorter than the state expects" in reconcile_history(str(path), 40, "d\n")
    assert path.read_text() == "a\nb\nc-part\n"
















def test_encoded_records_are_written_exactly_as_json_would_write_them():
    from ringmaster.game.result import GameResult
    from ringmaster.run.game_index import GameEntry
    from ringmaster.state.state_file import dumps_state
    result = GameResult("0_1", "b b", "w\u00e9", "b", "B+3.5", cpu_times={"b b": 0.25, "w\u00e9": None})
    entry = GameEntry("0_1", "b b", "w\u00e9", "B+3.5", winner="b b", moves=9, note='say "hi"\n')
    plain = {"format": "x", "games": [entry.to_json(), entry.to_json()],
             "competition": {"results": {"m": [result.to_json()]}, "z": [1.5, None]}}
    encoded = {"format": "x", "games": [entry.encoded(), entry.encoded()],
               "competition": {"results": {"m": [result.encoded()]}, "z": [1.5, None]}}
    assert dumps_state(encoded) == json.dumps(plain, sort_keys=True, separators=(",", ":"))
    assert json.loads(dumps_state(encoded)) == plain


def test_a_record_changed_after_encoding_is_encoded_again():
    from ringmaster.run.game_index import GameEntry
    entry = GameEntry("0_1", "a", "b", "B+R")
    first = entry.encoded()
    assert entry.encoded() is first   # encoded once
    entry.note = "changed"
    assert json.loads(entry.encoded().text)["note"] == "changed"


def test_engine_text_that_looks_like_a_marker_is_written_as_text():
    from ringmaster.run.game_index import GameEntry
    from ringmaster.state.state_file import dumps_state
    # Whatever an engine names itself, it is data: only this call's marker is replaced.
    sly = GameEntry("0_1", "\u00000123456789abcdef", "b", "B+R")
    document = {"games": [sly.encoded()], "names": ["\u00000123456789abcdef", "\u0000"]}
    assert json.loads(dumps_state(document)) == {
        "games": [sly.to_json()], "names": ["\u00000123456789abcdef", "\u0000"]}


def test_an_encoded_list_follows_its_list_as_it_grows_and_starts_again_when_it_changes():
    from ringmaster.run.game_index import GameEntry
    from ringmaster.state.encoding import EncodedList
    from ringmaster.state.state_file import dumps_state

    def plain(records):
        return json.dumps([r.to_json() for r in records], sort_keys=True, separators=(",", ":"))
    entries = [GameEntry(f"0_{i}", "a", "b", "B+R") for i in range(3)]
    encoded = EncodedList()
    assert dumps_state(encoded.encode(entries)) == plain(entries)
    entries.append(GameEntry("0_3", "a", "b", "W+R"))            # appended: added
    assert dumps_state(encoded.encode(entries)) == plain(entries)
    entries[1].note = "changed after it was saved"                 # changed: encoded again
    assert dumps_state(encoded.encode(entries)) == plain(entries)
    assert "changed after" in dumps_state(encoded.encode(entries))
    shorter = entries[:2]                                          # another list
    assert dumps_state(encoded.encode(shorter)) == plain(shorter)
    del entries[2:]                                                # the same list, cut
    entries.append(GameEntry("0_9", "a", "b", "B+R"))
    assert dumps_state(encoded.encode(entries)) == plain(entries)
    entries[2] = GameEntry("0_8", "a", "b", "B+R")                 # its last record replaced
    assert dumps_state(encoded.encode(entries)) == plain(entries)
    assert dumps_state(EncodedList().encode([])) == "[]"


