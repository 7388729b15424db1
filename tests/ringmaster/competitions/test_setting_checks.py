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


@pytest.mark.parametrize("komi, expected", [
    ("1e300", "line 4: 'komi': must be from -81 to 81 (the 9x9 board's points)"),
    ("-82", "line 4: 'komi': must be from -81 to 81 (the 9x9 board's points)"),
    ("81", None),
    ("-81.0", None),
])
def test_komi_is_at_most_the_boards_points_either_way(write_ctl, komi, expected):
    message = load_error(write_ctl, komi=komi)
    if expected is None:
        assert message is None
    else:
        assert message is not None and message.endswith(expected)


def test_a_matchups_komi_is_checked_against_its_own_board(write_ctl):
    text = (PLAYOFF % {"aliases": "{}", "komi": "100"}).replace(
        "board_size = 9\n", "").replace("number_of_games=2", "board_size=19, number_of_games=2")
    load_control_file(write_ctl(text)).make_competition()   # 100 points: fine on 19x19
    with pytest.raises(ControlFileError) as info:
        load_control_file(write_ctl(text.replace("board_size=19", "board_size=9"))).make_competition()
    assert str(info.value).endswith("matchup 0: 'komi': must be from -81 to 81 (the 9x9 board's points)")
