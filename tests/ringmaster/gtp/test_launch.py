"""Starting engines: which file the kernel would run, and when setpriv sets the parent-death signal."""

from __future__ import annotations

import os
import sys

import pytest

from ringmaster.gtp import launch
from ringmaster.gtp.channel import GtpTransportError, SubprocessChannel


def make_file(path, text: bytes, mode: int = 0o755) -> str:
    path.write_bytes(text)
    path.chmod(mode)
    return str(path)


def test_an_elf_binary_and_a_script_with_its_interpreter_are_resolved(tmp_path):
    assert launch.resolve_executable(sys.executable, None, None) == os.path.abspath(sys.executable)
    script = make_file(tmp_path / "engine", b"#!/bin/sh\necho\n")
    assert launch.resolve_executable(script, None, None) == script


@pytest.mark.parametrize("text, mode", [
    (b"echo no interpreter line\n", 0o755),   # the kernel refuses it; execvp would use /bin/sh
    (b"#!/bin/sh\n", 0o644),                  # not executable
])
def test_a_file_the_kernel_would_not_run_itself_is_not_resolved(tmp_path, text, mode):
    assert launch.resolve_executable(make_file(tmp_path / "engine", text, mode), None, None) is None


def test_a_bare_name_is_looked_up_on_the_engines_path_a_relative_one_in_its_directory(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "engine").mkdir()   # not a file: skipped, as execve would fail on it
    engine = make_file(second / "engine", b"#!/bin/sh\n")
    env = {"PATH": f"{first}:{second}"}
    assert launch.resolve_executable("engine", None, env) == engine
    assert launch.resolve_executable("engine", None, {"PATH": str(first)}) is None
    assert launch.resolve_executable("./engine", str(second), None) == engine
    assert launch.resolve_executable("second/engine", str(tmp_path), None) == engine


def test_the_first_executable_on_path_decides_even_without_an_interpreter_line(tmp_path):
    # execve runs the first executable file it finds; if that one can't be run by
    # the kernel, setpriv isn't used (Popen then reports it), not a later one.
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    make_file(first / "engine", b"no interpreter\n")
    make_file(second / "engine", b"#!/bin/sh\n")
    assert launch.resolve_executable("engine", None, {"PATH": f"{first}:{second}"}) is None


def test_the_plan_uses_setpriv_for_a_resolvable_program_else_a_preexec_fn(tmp_path, monkeypatch):
    monkeypatch.setattr(launch, "_setpriv", "/usr/bin/setpriv")
    script = make_file(tmp_path / "engine", b"#!/bin/sh\n")
    assert launch.launch_plan(["engine", "--mode", "gtp"], None, {"PATH": str(tmp_path)}) == (
        ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--", script, "--mode", "gtp"], None)
    unrunnable = make_file(tmp_path / "plain", b"plain\n")
    assert launch.launch_plan([unrunnable], None, None) == (
        [unrunnable], launch.set_parent_death_signal)
    monkeypatch.setattr(launch, "_setpriv", None)
    assert launch.launch_plan([script], None, None) == ([script], launch.set_parent_death_signal)


@pytest.mark.integration
def test_this_machine_has_a_setpriv_that_sets_the_signal():
    # Debian's util-linux (essential) has had --pdeathsig since 2.33; the speed of
    # starting engines depends on it, so its absence here is a failure, not a skip.
    assert launch.setpriv_path() is not None


@pytest.mark.integration
@pytest.mark.parametrize("setpriv", [True, False])
def test_a_file_without_an_interpreter_line_is_never_run_by_a_shell(tmp_path, monkeypatch, setpriv):
    if not setpriv:
        monkeypatch.setattr(launch, "_setpriv", None)
    marker = tmp_path / "ran"
    engine = make_file(tmp_path / "engine", f"touch {marker}\n".encode())
    with pytest.raises(GtpTransportError, match="Exec format error"):
        SubprocessChannel([engine])
    assert not marker.exists()
