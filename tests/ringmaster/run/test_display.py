"""The live display: warnings it shows only while drawing are repeated when it stops; notices at once."""

from __future__ import annotations

import io
import types

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
