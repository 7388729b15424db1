"""files.py: atomic, durable writes; temporaries a killed write leaves; one-line text; a full disk."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from ringmaster.errors import StorageError
from ringmaster.files import one_line, remove_stale_temporaries, write_atomically


def test_interrupted_atomic_write_leaves_old_file_and_removable_temporary(tmp_path):
    path = tmp_path / "g.sgf"
    write_atomically(str(path), b"old")
    (tmp_path / ".g.sgf.abc.ringmaster-tmp").write_bytes(b"half")   # what a kill mid-write leaves
    assert path.read_bytes() == b"old"
    remove_stale_temporaries(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sgf"]


def test_no_record_name_can_look_like_a_temporary(tmp_path):
    # A matchup id '.tmp-x' once made '.tmp-x_0.sgf', which the clean-up took for debris.
    for name in (".tmp-x_0.sgf", "x.tmp-y.sgf", ".comp.status.tmp-1"):
        (tmp_path / name).write_bytes(b"a record")
    write_atomically(str(tmp_path / "g.sgf"), b"new")
    remove_stale_temporaries(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".tmp-x_0.sgf", "x.tmp-y.sgf", ".comp.status.tmp-1", "g.sgf"])


def test_files_are_written_with_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomically(str(tmp_path / "a.report"), b"x")
        os.umask(0o077)
        write_atomically(str(tmp_path / "b.report"), b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.report").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "b.report").st_mode) == 0o600


@pytest.mark.parametrize("text, expected", [
    ("plain text", "plain text"),
    ("C3\n0_9 forged", "C3\\n0_9 forged"),
    ("a\rb\x1b[2Jc\x00", "a\\rb\\x1b[2Jc\\x00"),
    ("tab\tstays", "tab\tstays"),
    ("c1 \x9b2J and \x85 too, not \xe9", "c1 \\x9b2J and \\x85 too, not \xe9"),
])
def test_one_line_escapes_control_characters(text, expected):
    assert one_line(text) == expected


def test_a_full_disk_leaves_the_old_file_and_names_the_new_one(tmp_path, monkeypatch):
    import errno

    import ringmaster.files as files
    path = tmp_path / "comp.status"
    write_atomically(str(path), b"old")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(StorageError, match=f"can't write {path}: No space left on device"):
        write_atomically(str(path), b"new")
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["comp.status"]


def _can_mount_tmpfs(directory) -> bool:
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(directory)],
                          capture_output=True).returncode == 0


@pytest.mark.integration
def test_a_really_full_disk(tmp_path):
    directory = tmp_path / "small"
    directory.mkdir()
    if not _can_mount_tmpfs(directory):
        pytest.skip("can't mount a tmpfs here (needs root); the fsync test above covers it")
    try:
        write_atomically(str(directory / "comp.status"), b"old")
        with pytest.raises(StorageError, match="No space left on device"):
            write_atomically(str(directory / "comp.status"), b"x" * 200_000)
        assert (directory / "comp.status").read_bytes() == b"old"
        assert sorted(p.name for p in directory.iterdir()) == ["comp.status"]
    finally:
        subprocess.run(["umount", str(directory)], check=True)


@pytest.mark.parametrize("durable, fsyncs", [(True, 2), (False, 0)])
def test_write_atomically_syncs_only_durable_files(tmp_path, monkeypatch, durable, fsyncs):
    calls = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd) or real_fsync(fd))
    path = tmp_path / "report"
    write_atomically(str(path), b"whole", durable=durable)
    assert path.read_bytes() == b"whole" and len(calls) == fsyncs


def test_make_durable_syncs_a_file_and_says_in_one_line_when_it_cannot(tmp_path):
    from ringmaster.files import make_durable
    path = tmp_path / "g.sgf"
    write_atomically(str(path), b"(;)", durable=False)
    make_durable(str(path))
    assert path.read_bytes() == b"(;)"
    path.unlink()   # removed by hand before the coordinator got to it
    with pytest.raises(StorageError) as info:
        make_durable(str(path))
    assert str(info.value) == f"can't sync {path}: No such file or directory"
