"""The live display: warnings it shows only while drawing are repeated when it stops; notices at once."""

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


def test_a_notice_is_written_at_once():
    err = io.StringIO()
    presenter = Presenter(out=Terminal(), err=err)
    presenter.notice("interrupted: stopping")
    assert err.getvalue() == "interrupted: stopping\n"


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
    presenter.notice("interrupted: stopping the games in progress")
    presenter.close()
    with pytest.raises(OutputClosed, match=r"^standard output was closed \(Broken pipe\)$"):
        presenter.raise_if_closed()
