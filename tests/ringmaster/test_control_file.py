"""Control-file parsing: competition_type, running the file, and every error message."""

from __future__ import annotations

import random

import pytest

from ringmaster.control_file import load_control_file
from ringmaster.errors import CompetitionError, ControlFileError

HEADER = "competition_type = 'playoff'\n"
GOOD = HEADER + """
players = {'a': Player('gnugo --level 1'), 'b': Player(['gnugo', '--level', '2'])}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b', number_of_games=2)]
"""


def load(write_ctl, text, name="comp.ctl"):
    return load_control_file(write_ctl(text, name))


def error(write_ctl, text, name="comp.ctl") -> str:
    with pytest.raises(ControlFileError) as info:
        control_file = load(write_ctl, text, name)
        control_file.make_competition()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_good_file_builds_a_playoff(write_ctl):
    control_file = load(write_ctl, GOOD)
    competition = control_file.make_competition()
    assert control_file.competition_type == "playoff"
    assert control_file.competition_code == "comp"
    assert competition.players["a"].command == ("gnugo", "--level", "1")
    assert competition.players["b"].timeout == 300.0
    assert list(competition.matchups) == ["0"]


def test_helpers_and_python_names_are_allowed_without_warnings(write_ctl):
    control_file = load(write_ctl, HEADER + """
import os
def engine(level):
    return Player([PYTHON, '-m', 'players', 'random'], environ={'L': str(level)})
levels = [1, 2]
players = {f'r{n}': engine(n) for n in levels}
board_size = 9
komi = 7.5
matchups = [Matchup('r1', 'r2')]
""")
    competition = control_file.make_competition()
    assert control_file.warnings == []
    assert dict(competition.players["r2"].environ) == {"L": "2"}


def test_misspelt_setting_is_warned_with_its_line(write_ctl):
    control_file = load(write_ctl, GOOD + "kommi = 6.5\nnumber_of_game = 3\n")
    assert control_file.warnings == [
        "comp.ctl line 7: 'kommi' is not a setting; did you mean 'komi'?",
        "comp.ctl line 8: 'number_of_game' is not a setting; did you mean 'number_of_games'?",
    ]


def test_a_plain_value_that_is_no_setting_and_unused_is_warned_once_with_its_line(write_ctl):
    # A user who writes 'reuse = True' (the setting is reuse_engines) or a setting
    # this ringmaster doesn't have believes a feature is on: each is named, once.
    control_file = load(write_ctl, GOOD + "reuse = True\nopening_book = ['c3', 'd4']\n"
                        "ponder_limit = {'a': 5}\n")
    assert control_file.warnings == [
        "comp.ctl line 7: 'reuse' is not a setting of playoff and nothing in the file uses it, "
        "so it has no effect; did you mean 'reuse_engines'?",
        "comp.ctl line 8: 'opening_book' is not a setting of playoff and nothing in the file "
        "uses it, so it has no effect",
        "comp.ctl line 9: 'ponder_limit' is not a setting of playoff and nothing in the file "
        "uses it, so it has no effect",
    ]


def test_helpers_named_like_a_setting_are_not_taken_for_misspellings(write_ctl):
    # A function, a class, an import or a name the file reads is the file's own
    # helper, however close its name is to a setting's; an unread plain value or
    # Player is still warned as the misspelling it most likely is.
    control_file = load(write_ctl, HEADER + """
from math import pi as kmi
import os as komu
def player(mode):
    return Player(['gnugo', '--mode', mode])
class Matchups:
    pass
board_siz = lambda: 9
players = {'a': player('gtp'), 'b': player('gtp')}
matchup = Matchup('a', 'b', number_of_games=1)
matchups = [matchup]
board_size = board_siz()
komi = 7.5
number_of_game = 10
referre = Player('gnugo')
""")
    control_file.make_competition()
    assert control_file.warnings == [
        "comp.ctl line 15: 'number_of_game' is not a setting; did you mean 'number_of_games'?",
        "comp.ctl line 16: 'referre' is not a setting; did you mean 'referee'?",
    ]


def test_a_missing_setting_is_not_said_to_be_misspelt_as_a_function(write_ctl):
    text = GOOD.replace("players = {'a'", "def player(code):\n    return Player(code)\n"
                                          "player_list = {'a'")
    assert error(write_ctl, text).endswith("'players' not specified")


def test_names_bound_inside_top_level_blocks_are_checked_as_top_level_ones(write_ctl):
    # They run in the file's namespace: a misspelt setting under an if, a with or a try
    # is as ineffective as one at the top level. Function and class bodies are their own.
    control_file = load(write_ctl, GOOD + """import os
if os.environ.get('NO_SUCH_VARIABLE') is None:
    reuse = True
    recrd_games = False
try:
    with open(os.devnull) as null:
        kommi = 6.5
finally:
    for _ in [0]:
        (number_of_game := 3)
def helper():
    move_limt = 5
    return move_limt
class Settings:
    komy = 5
""")
    assert control_file.warnings == [
        "comp.ctl line 9: 'reuse' is not a setting of playoff and nothing in the file uses it, "
        "so it has no effect; did you mean 'reuse_engines'?",
        "comp.ctl line 10: 'recrd_games' is not a setting; did you mean 'record_games'?",
        "comp.ctl line 13: 'kommi' is not a setting; did you mean 'komi'?",
        "comp.ctl line 16: 'number_of_game' is not a setting; did you mean 'number_of_games'?",
    ]


def test_another_competition_types_setting_is_warned(write_ctl):
    control_file = load(write_ctl, GOOD + "exploration_coefficient = 0.45\n")
    assert [w.split(":")[0] for w in control_file.warnings] == ["comp.ctl line 7"]
    assert "'exploration_coefficient' is not a setting of playoff" in control_file.warnings[0]


def test_helpers_stay_silent_as_the_tuner_manuals_sample_files_need(write_ctl):
    # The style of Gomill's mc_tuner samples: helper functions (with a default list),
    # a constant in UPPER_CASE, imported functions and modules, a class, scale
    # functions, and plain names that the file's own code reads.
    control_file = load(write_ctl, """competition_type = 'mc_tuner'
import os
from math import exp, log
ENGINE_PLAYOUTS = 5000
level = 3
def engine(playouts, extra_commands=[]):
    return Player(['gnugo', '--level', str(level)], startup_gtp_commands=extra_commands)
class Helper:
    pass
def scale_log(f):
    return exp(log(1000) * f) * 3
players = {'opp': Player('gnugo --level 10')}
sizes = [9]
board_size = sizes[0]
komi = 7.5
opponent = 'opp'
candidate_colour = 'w'
parameters = [Parameter('p', scale=scale_log, split=4)]
def make_candidate(p):
    return engine(ENGINE_PLAYOUTS, ['x %f' % p])
exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
""")
    control_file.make_competition()
    assert control_file.warnings == []


@pytest.mark.parametrize("text, expected", [
    ("", "error in control file comp.ctl: can't find competition_type"),
    ("# comment\nboard_size = 9\n",
     "error in control file comp.ctl line 2: the first statement must be competition_type = '...'"),
    ("competition_type = 'cem_tuner'\n",
     "error in control file comp.ctl line 1: unknown competition type: cem_tuner "
     "(known: playoff, allplayall, mc_tuner, ce_tuner, spsa_tuner, bayes_tuner)"),
    (HEADER + "board_size = 9\nkomi = (\n",
     "error in control file comp.ctl line 3: SyntaxError: '(' was never closed"),
    (HEADER + "x = 1\ny = 1 / 0\n",
     "error in control file comp.ctl line 3: ZeroDivisionError: division by zero"),
    (HEADER + "players = {'a': Player('x', colour='b')}\n",
     "error in control file comp.ctl line 2: Player: unknown argument 'colour'"),
    (HEADER + "players = {'a': Player('x', command='y')}\n",
     "error in control file comp.ctl line 2: Player: command specified as both "
     "positional and keyword argument"),
])
def test_errors_running_the_file(write_ctl, text, expected):
    assert error(write_ctl, text) == expected


def test_missing_file_and_bad_encoding(write_ctl, tmp_path):
    with pytest.raises(ControlFileError, match=r"control file .*nothere.ctl not found"):
        load_control_file(str(tmp_path / "nothere.ctl"))
    path = tmp_path / "latin.ctl"
    path.write_bytes(b"competition_type = 'playoff'\ndescription = '\xe9'\n")
    with pytest.raises(ControlFileError, match="not encoded in utf-8"):
        load_control_file(str(path))


@pytest.mark.parametrize("extension", [".status", ".journal", ".html"])
def test_forbidden_extension(write_ctl, extension):
    # Each is a file the run writes beside the control file, which would be overwritten.
    with pytest.raises(ControlFileError, match=f"forbidden control file extension: {extension}"):
        load(write_ctl, GOOD, name="comp" + extension)


@pytest.mark.parametrize("change, expected", [
    (("board_size = 9", "board_size = 26"), "line 4: 'board_size': too large"),
    (("board_size = 9", "board_size = 1"), "line 4: 'board_size': too small"),
    (("board_size = 9", "board_size = '9'"), "line 4: 'board_size': invalid integer"),
    (("komi = 7.5", "komi = 'x'"), "line 5: 'komi': invalid float"),
    (("komi = 7.5\n", ""), "line 5: matchup 0: 'komi' not specified"),
    (("Matchup('a', 'b'", "Matchup('a', 'c'"), "line 6: matchup 0: unknown player c"),
    (("number_of_games=2", "number_of_games=-1"),
     "line 6: matchup 0: 'number_of_games': must not be negative"),
    (("number_of_games=2", "handicap=10"),
     "line 6: matchup 0: fixed handicap out of range for board size 9"),
    (("number_of_games=2", "handicap=5, handicap_style='free'"), None),
    (("number_of_games=2", "scorer='mine'"),
     "line 6: matchup 0: 'scorer': must be one of 'internal', 'players'"),
    (("Player('gnugo --level 1')", "Player('gnugo \"unclosed')"),
     "player a: 'command': can't parse command line: No closing quotation"),
    (("Player('gnugo --level 1')", "Player('gnugo', timeout=0)"),
     "player a: 'timeout': must be positive"),
    (("Player('gnugo --level 1')", "'gnugo'"), "player a: not a Player"),
    (("matchups = [", "matchups = [3, "), "line 6: 'matchups': item 0: not a Matchup"),
    (("matchups = [Matchup('a', 'b', number_of_games=2)]",
      "matchups = [Matchup('a', 'b', id='m'), Matchup('b', 'a', id='m')]"),
     "line 6: matchup m: duplicate matchup id"),
    (("matchups = [Matchup('a', 'b', number_of_games=2)]", "matchups = []"),
     "line 6: 'matchups': empty list"),
    (("board_size = 9\n", "board_size = 9\ntimeout = -3\n"), "line 5: 'timeout': must be positive"),
    (("board_size = 9\n", "board_size = 9\ntimeout = 1e7\n"),
     "line 5: 'timeout': must be at most 1000000 seconds (None for no limit)"),
    (("Player('gnugo --level 1')", "Player('gnugo', timeout=float('inf'))"),
     "player a: 'timeout': must be finite"),
    (("Player('gnugo --level 1')", "Player('gnugo', missing_hint='set GNUGO')"), None),
    (("Player('gnugo --level 1')", "Player('gnugo', missing_hint='set\\nGNUGO')"),
     "player a: 'missing_hint': must be one line of printable text"),
    (("Player('gnugo --level 1')", "Player('gnugo', missing_hint=1)"),
     "player a: 'missing_hint': not a string"),
])
def test_setting_errors_name_setting_and_line(write_ctl, change, expected):
    old, new = change
    assert old in GOOD
    text = GOOD.replace(old, new)
    if expected is None:
        load(write_ctl, text).make_competition()
        return
    message = error(write_ctl, text)
    assert message.startswith("error in control file comp.ctl")
    assert message.endswith(expected)


@pytest.mark.parametrize("old, new, expected", [
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player('gnugo', timeout=0)",
     "line 4: player b: 'timeout': must be positive"),
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player([])",
     "line 4: player b: 'command': empty"),
    ("board_size = 9", "referee = (\n    Player('gnugo', environ={'A': 1}))\nboard_size = 9",
     "line 5: player referee: 'environ': keys and values must be strings"),
    # A NUL character reached the engine's start: "internal error ... embedded null byte".
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player(['gnugo', '--level\\0', '2'])",
     "line 4: player b: 'command': word 1, '--level\\x00', holds a NUL character (no command "
     "line can)"),
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player('gnugo --level\\x00 2')",
     "line 4: player b: 'command': word 1, '--level\\x00', holds a NUL character (no command "
     "line can)"),
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player('gnugo', environ={'A': 'x\\0'})",
     "line 4: player b: 'environ': the value of 'A' holds a NUL character"),
    ("'b': Player(['gnugo', '--level', '2'])", "\n    'b': Player('gnugo', environ={'A\\0': 'x'})",
     "line 4: player b: 'environ': the key 'A\\x00' holds a NUL character"),
])
def test_a_bad_player_names_the_line_of_its_player_call(write_ctl, old, new, expected):
    assert error(write_ctl, GOOD.replace(old, new)) == f"error in control file comp.ctl {expected}"


@pytest.mark.parametrize("parameter, expected", [
    ("Parameter('a', scale=LOG(-1, 5), split=3)",
     "line 13: parameter a: 'scale': invalid parameters for LOG: bounds have different signs"),
    ("Parameter('a',\n              scale=EXPLICIT([]), split=3)",
     "line 14: parameter a: 'scale': invalid parameters for EXPLICIT: empty value list"),
    ("Parameter('a', scale=LINEAR(0, 1), split=0)", "line 13: parameter a: 'split': must be positive"),
    ("Parameter('a', scale=LINEAR(0, 1), splt=3)", "line 13: Parameter: unknown argument 'splt'"),
    # Cells 2-4 would all be a=2, and cells 0 and 1 differ from them only by chance.
    ("Parameter('a', scale=EXPLICIT([1, 2]), split=5)",
     "line 13: parameter a: 'split' is 5, more than the 2 values of its EXPLICIT scale, so that some "
     "candidates would be twins; use split=2"),
])
def test_a_bad_parameter_names_the_line_of_its_call_or_its_scales(write_ctl, parameter, expected):
    text = TUNER.replace("SPLIT_B", "3").replace(
        "Parameter('a', scale=LINEAR(0, 1), split=SPLIT_A)", parameter)
    assert error(write_ctl, text) == f"error in control file comp.ctl {expected}"


def test_an_explicit_scale_as_long_as_its_split_is_accepted(write_ctl):
    text = TUNER.replace("SPLIT_B", "3").replace("scale=LINEAR(0, 1), split=SPLIT_A",
                                                 "scale=EXPLICIT([1, 2]), split=2")
    assert len(load(write_ctl, text).make_competition().tree.root.children) == 6


@pytest.mark.parametrize("old, new, expected", [
    ("opponent = 'opp'", "opponent = 'nobody'", "line 5: 'opponent': unknown player nobody"),
    ("number_of_games = 10", "number_of_games = 10\nstop_when_confident = 0.1",
     "line 8: 'stop_when_confident': 0.1: must be more than 0.5 (a bar at or below 0.5 can be met by two "
     "candidates at once) and less than 1.0"),
    ("number_of_games = 10", "number_of_games = 10\nsummary_spec = [0]",
     "line 8: 'summary_spec': item 0: must be positive"),
    ("number_of_games = 10", "number_of_games = 10\nsummary_spec = []",
     "line 8: 'summary_spec': empty list: give how many candidates to describe at each depth, e.g. [30]"),
])
def test_a_bad_tuner_setting_names_its_line(write_ctl, old, new, expected):
    text = TUNER.replace("SPLIT_A", "3").replace("SPLIT_B", "3").replace(old, new)
    assert error(write_ctl, text) == f"error in control file comp.ctl {expected}"


@pytest.mark.parametrize("competition_type", ["spsa_tuner", "bayes_tuner"])
def test_a_split_a_continuous_tuner_ignores_is_warned_at_its_parameters_line(write_ctl, competition_type):
    text = TUNER.replace("'mc_tuner'", repr(competition_type)).replace("SPLIT_A", "5").replace(
        "number_of_games = 10", "number_of_games = 200").replace(
        "Parameter('b', scale=LINEAR(0, 1), split=SPLIT_B)", "Parameter('b', scale=LINEAR(0, 1))")
    control_file = load(write_ctl, text)
    assert control_file.warnings == []
    control_file.make_competition()
    assert control_file.warnings == [
        f"comp.ctl line 13: parameter a: 'split' has no effect on {competition_type}, which searches the "
        f"whole range (it is accepted so that an mc_tuner control file works unchanged)"]


def test_an_mc_tuner_split_is_not_warned(write_ctl):
    control_file = load(write_ctl, TUNER.replace("SPLIT_A", "3").replace("SPLIT_B", "3"))
    control_file.make_competition()
    assert control_file.warnings == []


@pytest.mark.parametrize("values, depth", [
    ("['light', 'heavy']", 2), ("['light', 'heavy']", 1), ("[1, 2, 3, 4]", 2), ("[1, 2, 3]", 2),
    ("[1, 2, 3]", 3)])
def test_a_tree_deeper_than_an_explicit_list_makes_no_twins(write_ctl, values, depth):
    # A depth-2 tree split EXPLICIT(['light', 'heavy']) again: pairs of identical candidates, which
    # the control file was warned of. It no longer splits a list its cells have used up.
    text = TUNER.replace("SPLIT_A", "3").replace("= 0.45", "= 5").replace(
        "Parameter('b', scale=LINEAR(0, 1), split=SPLIT_B)",
        f"Parameter('b', scale=EXPLICIT({values}), split=2)")
    control_file = load(write_ctl, text + f"max_depth = {depth}\n")
    competition = control_file.make_competition()
    assert control_file.warnings == []
    tree, rng = competition.tree, random.Random(0)
    for _ in range(500):
        path = tree.select(rng)
        tree.start_game(path)
        tree.record_result(path, rng.random() < 0.5)
    for level in range(1, depth + 1):
        candidates = [tuple(competition.convert(tree.parameters_for_path(path)))
                      for path, _ in tree.generations(level)]
        assert len(candidates) > 6 * (level - 1) and len(set(candidates)) == len(candidates)


@pytest.mark.parametrize("top, player, expected_a, expected_b", [
    ("", "", 300.0, 300.0),
    ("timeout = None\n", "", None, None),
    ("timeout = 20\n", ", timeout=None", None, 20.0),
    ("timeout = None\n", ", timeout=5", 5.0, None),
])
def test_none_is_no_timeout_and_a_player_inherits_the_top_level_one(write_ctl, top, player,
                                                                       expected_a, expected_b):
    text = GOOD.replace("Player('gnugo --level 1')", f"Player('gnugo --level 1'{player})") + top
    competition = load(write_ctl, text).make_competition()
    assert (competition.players["a"].timeout, competition.players["b"].timeout) == (expected_a,
                                                                                    expected_b)


def test_relative_paths_start_at_the_control_file(write_ctl, tmp_path):
    control_file = load(write_ctl, GOOD.replace("Player('gnugo --level 1')",
                                                "Player('./bin/engine', cwd='work')"))
    spec = control_file.make_competition().players["a"]
    assert spec.command[0] == str(tmp_path / "bin/engine")
    assert spec.cwd == str(tmp_path / "work")


def test_error_carries_its_setting_and_line_as_data(write_ctl):
    with pytest.raises(ControlFileError) as info:
        load(write_ctl, GOOD.replace("komi = 7.5", "komi = 'x'")).make_competition()
    assert (info.value.setting, info.value.line) == ("komi", 5)
    with pytest.raises(ControlFileError) as info:
        load(write_ctl, GOOD.replace("number_of_games=2", "number_of_games=-1")).make_competition()
    assert (info.value.setting, info.value.line) == (None, 6)


OTHELLO = HEADER + """
players = {'a': Player('x'), 'b': Player('y')}
game = 'othello'
board_size = 9
komi = 0
matchups = [Matchup('a', 'b')]
"""


@pytest.mark.parametrize("old, new, expected", [
    ("", "", "line 5: 'board_size': out of range for othello (even, 4-16)"),
    ("matchups = [Matchup('a', 'b')]", "matchups = [Matchup('a', 'b', board_size=10)]",
     "line 5: 'board_size': out of range for othello (even, 4-16)"),
    ("board_size = 9", "board_size = 8", None),
    ("board_size = 9", "board_size = 8\nhandicap = 2",
     "line 6: handicap not supported for othello"),
    ("game = 'othello'\n", "", None),
])
def test_game_rules_decide_board_size_and_handicap_when_the_file_is_read(
        write_ctl, old, new, expected):
    text = OTHELLO.replace(old, new) if old else OTHELLO
    if expected is None:
        load(write_ctl, text).make_competition()
        return
    message = error(write_ctl, text)
    assert message == f"error in control file comp.ctl {expected}"


def test_matchup_game_settings_are_checked_per_matchup(write_ctl):
    text = GOOD.replace("Matchup('a', 'b', number_of_games=2)",
                        "Matchup('a', 'b', game='othello', number_of_games=2)")
    assert error(write_ctl, text) == ("error in control file comp.ctl line 6: matchup 0: "
                                      "'board_size': out of range for othello (even, 4-16)")
    fine = GOOD.replace("Matchup('a', 'b', number_of_games=2)",
                        "Matchup('a', 'b', number_of_games=2), "
                        "Matchup('a', 'b', game='othello', board_size=8, id='o')")
    competition = load(write_ctl, fine).make_competition()
    assert competition.matchups["o"].game_settings["board_size"] == 8


@pytest.mark.parametrize("competition", ["allplayall", "mc_tuner"])
def test_other_competition_types_check_the_board_size_too(write_ctl, competition):
    text = f"""competition_type = '{competition}'
players = {{'a': Player('x'), 'b': Player('y')}}
game = 'othello'
board_size = 9
komi = 0.5
competitors = ['a', 'b']
opponent = 'a'
candidate_colour = 'w'
number_of_games = 10
exploration_coefficient = 0.2
def make_candidate(x):
    return Player('z')
parameters = [Parameter('x', scale=LINEAR(0, 1), split=2)]
"""
    if competition == "allplayall":
        text = text.split("opponent =")[0]
    with pytest.raises(ControlFileError) as info:
        load(write_ctl, text).make_competition()
    assert str(info.value) == ("error in control file comp.ctl line 4: 'board_size': "
                               "out of range for othello (even, 4-16)")
    assert (info.value.setting, info.value.line) == ("board_size", 4)


@pytest.mark.parametrize("statement, expected", [
    ("import sys\nsys.exit(0)\n", "line 8: the control file called sys.exit(0); a control file "
                                  "only defines settings"),
    ("raise KeyboardInterrupt\n", "line 7: KeyboardInterrupt"),
])
def test_a_control_file_that_exits_or_interrupts_is_a_control_file_error(write_ctl, statement,
                                                                           expected):
    assert error(write_ctl, GOOD + statement) == f"error in control file comp.ctl {expected}"


@pytest.mark.parametrize("statement, expected", [
    ("raise ValueError('l1\\nl2\\n\\n  l3')", "line 7: ValueError: l1 / l2 / l3"),
    ("class Odd(Exception):\n    def __str__(self):\n        return 1 / 0\nraise Odd('x')",
     "line 10: Odd"),
    ("raise BaseException('x')", "line 7: BaseException: x"),
    ("class Meta(type):\n    @property\n    def __name__(cls):\n        return 1 / 0\n"
     "class Odder(Exception, metaclass=Meta):\n    pass\nraise Odder('x')", "line 13: Odder: x"),
    ("raise GeneratorExit", "line 7: GeneratorExit"),
])
def test_whatever_the_control_file_raises_is_one_line_naming_its_line(write_ctl, statement,
                                                                       expected):
    assert error(write_ctl, GOOD + statement + "\n") == f"error in control file comp.ctl {expected}"


def test_a_missing_setting_looks_for_a_misspelt_one(write_ctl):
    message = error(write_ctl, GOOD.replace("board_size = 9", "boardsize = 9"))
    assert message.endswith("'board_size' not specified (line 4 sets 'boardsize': "
                            "did you mean 'board_size'?)")


TUNER = """competition_type = 'mc_tuner'
players = {'opp': Player('gnugo')}
board_size = 9
komi = 7.5
opponent = 'opp'
candidate_colour = 'b'
number_of_games = 10
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
def make_candidate(a, b):
    return Player('gnugo')
parameters = [Parameter('a', scale=LINEAR(0, 1), split=SPLIT_A),
              Parameter('b', scale=LINEAR(0, 1), split=SPLIT_B)]
"""


def test_the_tuner_below_is_complete_with_small_splits(write_ctl):
    # So that the tests on TUNER fail for the reason they name, and no other.
    text = TUNER.replace("SPLIT_A", "3").replace("SPLIT_B", "4")
    assert len(load(write_ctl, text).make_competition().tree.root.children) == 12


@pytest.mark.parametrize("statement, expected", [
    ("import sys; sys.exit(0)", "it called sys.exit(0); a control file only defines settings"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("raise ValueError('no')", "ValueError: no"),
])
def test_make_candidate_that_exits_or_interrupts_is_a_control_file_error(write_ctl, statement,
                                                                         expected):
    text = TUNER.replace("SPLIT_A", "3").replace("SPLIT_B", "3").replace(
        "    return Player('gnugo')", f"    {statement}")
    assert error(write_ctl, text) == ("error in control file comp.ctl line 12, in "
                                      f"make_candidate(a=0.166667, b=0.166667): {expected}")


RUN_TIME_TUNER = TUNER.replace("SPLIT_A", "3").replace("SPLIT_B", "3").replace(
    "def make_candidate(a, b):\n    return Player('gnugo')\n", """def check(value):
    if value > 0.5:
        raise ValueError(f'boom\\nat {value}')
def make_candidate(a, b):
    check(a)
    if b > 0.5:
        return None
    return Player('gnugo', timeout=a - 0.15)
def scale(f):
    return 1 / (f - 0.25)
""").replace("Parameter('b', scale=LINEAR(0, 1)", "Parameter('b', scale=scale")


@pytest.mark.parametrize("call, expected", [
    (lambda c: c.make_candidate("x", (0.9, 0.1)),
     "line 13, in make_candidate(a=0.9, b=0.1): ValueError: boom / at 0.9"),
    (lambda c: c.make_candidate("x", (0.4, 0.9)),
     "line 14, in make_candidate(a=0.4, b=0.9): returned None, not a Player"),
    (lambda c: c.make_candidate("x", (0.1, 0.1)),
     "line 18, in make_candidate(a=0.1, b=0.1): player x: 'timeout': must be positive"),
    (lambda c: c.convert([0.1, 0.25]),
     "line 20, in scale for b (applied to 0.25): ZeroDivisionError: float division by zero"),
])
def test_a_control_file_function_failing_later_names_its_line_and_arguments(write_ctl, call,
                                                                            expected):
    # make_candidate and scales run long after the file was read, for parameters
    # the load-time check never tried: the error still names the file, the line
    # in it, and what the function was given.
    competition = load(write_ctl, RUN_TIME_TUNER).make_competition()
    with pytest.raises(CompetitionError) as info:
        call(competition)
    assert str(info.value) == f"error in control file comp.ctl {expected}"


@pytest.mark.parametrize("split_a, split_b, expected", [
    (10**6, 10**6, "line 13: parameter a: 'split' is 1000000, more than the 100000 candidates "
                   "a tuner may have"),
    (1000, 1000, "line 13: 'parameters': the splits make 1000000 candidates, more than the "
                 "100000 a tuner may have; use smaller splits (max_depth refines the best ones)"),
])
def test_a_tuner_with_too_many_candidates_is_refused(write_ctl, split_a, split_b, expected):
    text = TUNER.replace("SPLIT_A", str(split_a)).replace("SPLIT_B", str(split_b))
    assert error(write_ctl, text) == f"error in control file comp.ctl {expected}"
