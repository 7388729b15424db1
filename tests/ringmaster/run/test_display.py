"""The live display: warnings it shows only while drawing are repeated when it stops."""

from __future__ import annotations

import errno
import io
import os
import types

import pytest

from ringmaster.errors import OutputClosed
from ringmaster.run.display import Presenter


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_warnings_shown_only_on_a_redrawn_display_are_repeated_below_it():
    err = io.StringIO()
    presenter = Presenter(out=Terminal(), err=err)
    presenter.warning("comp.ctl line 3: 'move_limt' is not a setting; did you mean 'move_limit'?")
    assert err.getvalue() == ""     # the display shows it, and its next redraw would wipe it
    presenter.close()
    assert err.getvalue() == ("warning: comp.ctl line 3: 'move_limt' is not a setting; "
                              "did you mean 'move_limit'?\n")
    presenter.close()
    assert err.getvalue().count("warning:") == 1


def test_without_a_terminal_warnings_are_written_at_once_and_not_repeated():
    err = io.StringIO()
    presenter = Presenter(out=io.StringIO(), err=err)
    presenter.warning("w")
    presenter.close()
    assert err.getvalue() == "w\n"


def test_off_a_terminal_a_result_is_one_line_and_nothing_is_redrawn():
    out = io.StringIO()
    presenter = Presenter(out=out, err=io.StringIO())
    presenter.game_finished(types.SimpleNamespace(game_id="0_3"), "a beat b B+R")
    presenter.refresh()
    assert out.getvalue() == "game 0_3: a beat b B+R\n"


class ClosedPipe(io.StringIO):
    """Standard output whose reader has ended (`| head`), or standard error on a hung-up terminal."""

    def __init__(self, errno_: int) -> None:
        super().__init__()
        self.errno_ = errno_

    def write(self, text: str) -> int:
        raise OSError(self.errno_, os.strerror(self.errno_))


def test_a_closed_output_is_kept_until_asked_and_a_dead_stderr_is_ignored():
    # Raising at the write stopped the delivery of the other games finished at the same time;
    # an error on stderr (a terminal hung up) stopped the run's clean-up.
    presenter = Presenter(out=ClosedPipe(errno.EPIPE), err=ClosedPipe(errno.EIO))
    response = types.SimpleNamespace(game_id="0_1")
    presenter.game_finished(response, "b beat w")
    presenter.game_finished(response, "w beat b")   # not tried again
    presenter.warning("a warning")
    presenter.close()
    with pytest.raises(OutputClosed, match=r"^standard output was closed \(Broken pipe\)$"):
        presenter.raise_if_closed()


def test_streams_closed_from_the_start_are_quiet(monkeypatch):
    # Started with `>&- 2>&-`, Python makes sys.stdout and sys.stderr None: the first warning
    # (AttributeError on None.write) was an internal error, and so was say()'s first line.
    from ringmaster.run.display import QuietPresenter, say
    monkeypatch.setattr("sys.stdout", None)
    monkeypatch.setattr("sys.stderr", None)
    say("running startup checks on all players")
    for presenter in (Presenter(), QuietPresenter()):
        assert not presenter.is_tty
        presenter.game_finished(types.SimpleNamespace(game_id="0_1"), "b beat w")
        presenter.warning("a worker process died")
        presenter.close()
        presenter.raise_if_closed()   # nobody will read it: the run goes on to its end
        presenter.raise_if_closed(final=True)


def test_a_non_blocking_output_that_is_full_is_waited_for_not_closed():
    # Some CI runners leave stdout non-blocking: a full pipe's EAGAIN was taken for a closed
    # output, and stopped the run.
    import threading
    import time

    from ringmaster.run.display import write_out
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    stream = open(write_end, "w", encoding="utf-8")
    received = []

    def reader() -> None:
        time.sleep(0.3)   # the pipe fills meanwhile
        with open(read_end, "rb") as f:
            received.append(f.read())
    thread = threading.Thread(target=reader)
    thread.start()
    text = "".join(f"game {i}: b beat w\n" for i in range(40000))   # far more than a pipe holds
    try:
        write_out(stream, text)
        write_out(stream, "last line\n")
    finally:
        stream.close()
        thread.join(10)
    assert received == [(text + "last line\n").encode()]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_standard_output_is_a_storage_error_not_a_closed_output():
    # ENOSPC (stdout sent to a file on a full disk) said "standard output cannot be written"
    # and exited 3, as if the reader had gone.
    from ringmaster.errors import StorageError
    from ringmaster.run.display import write_out
    with open("/dev/full", "w", encoding="utf-8") as full:
        with pytest.raises(StorageError,
                           match=r"^can't write standard output: No space left on device$"):
            write_out(full, "game 0_1: b beat w\n")
    with open("/dev/full", "w", encoding="utf-8") as full:   # the last was silenced
        presenter = Presenter(out=full, err=io.StringIO())
        presenter.game_finished(types.SimpleNamespace(game_id="0_1"), "b beat w")
        with pytest.raises(StorageError, match="No space left on device"):
            presenter.raise_if_closed()
        with pytest.raises(StorageError):   # a full disk loses the final report: still an error
            presenter.raise_if_closed(final=True)


def test_a_closed_pipe_found_by_the_final_report_is_not_an_error():
    presenter = Presenter(out=ClosedPipe(errno.EPIPE), err=io.StringIO())
    presenter.game_finished(types.SimpleNamespace(game_id="0_1"), "b beat w")
    presenter.raise_if_closed(final=True)   # the reader chose to stop; nothing is lost
    with pytest.raises(OutputClosed):
        presenter.raise_if_closed()
