"""Settings checked when the control file is read: each mistake is one line naming the setting."""

from __future__ import annotations

import pytest

from ringmaster.control_file import load_control_file
from ringmaster.errors import ControlFileError

PLAYOFF = """
competition_type = 'playoff'
players = {'a': Player('gnugo', gtp_aliases=%(aliases)s), 'b': Player('gnugo')}
board_size = 9
komi = %(komi)s
matchups = [Matchup('a', 'b', number_of_games=2)]
"""


def load_error(write_ctl, aliases: str = "{}", komi: str = "7.5") -> str | None:
    """The control file's error message, or None if it loads."""
    try:
        load_control_file(write_ctl(PLAYOFF % {"aliases": aliases, "komi": komi})).make_competition()
    except ControlFileError as exc:
        assert "\n" not in str(exc)
        return str(exc)
    return None


@pytest.mark.parametrize("aliases, expected", [
    ("{'genmove': ''}", "{'genmove': ''}: the alias is empty"),
    ("{'': 'genmove'}", "{'': 'genmove'}: the command is empty"),
    ("{'genmove': 'genmove\\nquit'}", "{'genmove': 'genmove\\nquit'}: the alias is not one GTP "
                                      "command word (no spaces, control characters or '#')"),
    ("{'genmove': 'gen move'}", "the alias is not one GTP command word"),
    ("{'gen move': 'genmove'}", "the command is not one GTP command word"),
    ("{'genmove': 'genmove\\x1b'}", "the alias is not one GTP command word"),
    ("{'genmove': '#genmove'}", "the alias is not one GTP command word"),
    ("{'genmove': 3}", "'gtp_aliases': must map strings to strings"),
])
def test_a_bad_gtp_alias_is_the_control_files_error_naming_the_player(write_ctl, aliases,
                                                                      expected):
    message = load_error(write_ctl, aliases=aliases)
    assert message is not None and "player a: 'gtp_aliases': " in message
    assert expected in message


def test_a_gtp_alias_of_one_word_is_accepted(write_ctl):
    assert load_error(write_ctl, aliases="{'genmove': 'kgs-genmove_cleanup'}") is None
