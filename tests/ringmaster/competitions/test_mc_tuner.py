"""Tests for the mc_tuner: configuration, geometry, selection, expansion, results, state, reports."""

import io
import json
import math
import random

import pytest

from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.mc_tuner import McTuner
from ringmaster.competitions.simulate import make_result
from ringmaster.control_file import load_control_file
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.settings import Player
from ringmaster.tuning.parameters import McParameter as Parameter
from ringmaster.tuning.scales import EXPLICIT, LINEAR, LOG
from ringmaster.tuning.tree import Node, Tree, cube_coordinates, edges_touched, parameters_for_path

TWINS_CTL = """competition_type = 'mc_tuner'
players = {'opp': Player('gnugo')}
board_size = 9
komi = 7.5
opponent = 'opp'
candidate_colour = 'b'
number_of_games = 10
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
def make_candidate(n):
    return Player('gnugo')
parameters = [Parameter('n', scale=SCALE, split=SPLIT)]
"""


def simple_make_candidate(*args):
    if -1 in args:
        raise ValueError("oops")
    return Player("cand " + " ".join(map(str, args)))


def default_config(**changes):
    config = {
        "board_size": 13,
        "komi": 7.5,
        "players": {"opp": Player("test")},
        "candidate_colour": "w",
        "opponent": "opp",
        "exploration_coefficient": 0.2,
        "initial_visits": 10,
        "initial_wins": 5,
        "parameters": [
            Parameter("resign_at", scale=float, split=12, format="rsn@ %.2f"),
            Parameter("initial_wins", scale=LINEAR(0, 100), split=10, format="iwins %d"),
        ],
        "make_candidate": simple_make_candidate,
    }
    config.update(changes)
    return config


def make_tuner(config=None, seed=1):
    tuner = McTuner("mctstest")
    tuner.initialise_from_control_file(config or default_config())
    tuner.set_clean_status()
    tuner.rng = random.Random(seed)
    return tuner


def candidate_wins(tuner, job):
    colour = "w" if job.player_w.code.startswith("#") or job.player_w.code == "best" else "b"
    return tuner.process_game_result(make_result(job, colour))


def candidate_loses(tuner, job):
    colour = "b" if job.player_w.code.startswith("#") or job.player_w.code == "best" else "w"
    return tuner.process_game_result(make_result(job, colour))


def report(tuner, kind="short"):
    out = io.StringIO()
    getattr(tuner, f"write_{kind}_report")(out)
    return out.getvalue()


# Configuration

def test_komi_must_be_fractional():
    with pytest.raises(ControlFileError, match="^'komi': must be fractional to prevent jigos$"):
        make_tuner(default_config(komi=6))


def test_the_report_names_the_game_settings_each_game_has():
    assert report(make_tuner()).startswith("MCTS tuning event: mctstest\nboard size: 13\nkomi: 7.5\n")
    pig = make_tuner(default_config(game="pig", board_size=None, komi=6, pig_target=30))
    head = report(pig).split("\n")[:5]
    assert head == ["MCTS tuning event: mctstest", "game: pig", "target: 30",
                    "turn limit: 200 (no result when hit)", "black moves first"]
    othello = make_tuner(default_config(game="othello", board_size=6, komi=0))
    assert report(othello).split("\n")[1:4] == ["game: othello", "board size: 6", "komi: 0.0"]


def test_parameter_formatting():
    tuner = make_tuner()
    assert tuner.tree.max_depth == 1
    assert tuner.format_engine_parameters((0.5, 23)) == "rsn@ 0.50; iwins 23"
    assert tuner.format_engine_parameters(("x", 23)) == "[resign_at?x]; iwins 23"
    assert tuner.format_optimiser_parameters([0.5, 0.23]) == "rsn@ 0.50; iwins 23"
    assert tuner.convert([0.5, 0.23]) == (0.5, 23)
    with pytest.raises(CompetitionError, match="^error from scale for initial_wins"):
        tuner.convert([0.5, None])


def test_default_format_follows_the_manual():
    config = default_config(parameters=[Parameter("p1", scale=LINEAR(0, 1), split=2)])
    assert make_tuner(config).format_engine_parameters((0.25,)) == "p1: 0.25"


@pytest.mark.parametrize("parameters, message", [
    ([Parameter("bad", scale=LOG(0.0, 1.0), split=10)],
     "parameter bad: 'scale': invalid parameters for LOG: lower bound is zero"),
    ([Parameter("a", scale=float, split=2), 99], "'parameters': item 1: not a Parameter"),
    ([Parameter("a", scale=float, split=2), Parameter(scale=float, split=2)],
     "parameter 1: 'code' not specified"),
    ([Parameter("a", scale=3, split=2)], "parameter a: 'scale': invalid callable"),
    ([Parameter("a", scale=None, split=2)], "parameter a: 'scale' not specified"),
    ([Parameter("a", scale=float, split=0)], "parameter a: 'split': must be positive"),
    ([Parameter("a", scale=float, split=2, format="nopct")],
     "parameter a: 'format': invalid format string"),
    ([Parameter("a", scale=str, split=2, format="bad: %.2f")],
     "parameter a: 'format': invalid format string"),
    ([Parameter("a", scale=str.split, split=10)],
     "parameter a: error from scale (applied to 0.05): TypeError"),
    ([Parameter("a", scale=float, split=2), Parameter("a", scale=float, split=3)],
     "duplicate parameter code: a"),
    ([], "'parameters': empty list"),
    # An integer scale's first-level candidates that round to one integer would be twins.
    ([Parameter("n", scale=LINEAR(0, 3, integer=True), split=8)],
     "parameter n: 'split' is 8, but its integer scale has only 4 different values at the centres of its 8 "
     "divisions, so that some candidates would be twins; use split=4"),
    ([Parameter("n", scale=LINEAR(0, 2.6, integer=True), split=4)],   # 0 to 3, but 1.625 and 2.275 give 2
     "parameter n: 'split' is 4, but its integer scale has only 3 different values at the centres of its 4 "
     "divisions, so that some candidates would be twins; use split=3"),
    ([Parameter("n", scale=LINEAR(0, 3, integer=True), split=5)],   # 4 values, but split 4 still works
     "parameter n: 'split' is 5, but its integer scale has only 4 different values at the centres of its 5 "
     "divisions, so that some candidates would be twins; use split=4"),
    ([Parameter("n", scale=LOG(1, 8, integer=True), split=8)],
     "parameter n: 'split' is 8, but its integer scale has only 6 different values at the centres of its 8 "
     "divisions, so that some candidates would be twins; use split=5"),
    ([Parameter("n", scale=LINEAR(5, 5, integer=True), split=2)],
     "parameter n: 'split' is 2, but its integer scale has only 1 different value at the centres of its 2 "
     "divisions, so that some candidates would be twins; use split=1"),
])
def test_bad_parameters_are_refused_naming_the_parameter(parameters, message):
    with pytest.raises(ControlFileError) as info:
        make_tuner(default_config(parameters=parameters))
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("scale, split, values", [
    (LINEAR(0, 3, integer=True), 4, [0, 1, 2, 3]), (LINEAR(0, 2.6, integer=True), 3, [0, 1, 2]),
    (LINEAR(0, 10, integer=True), 11, list(range(11))), (LOG(1, 8, integer=True), 5, [1, 2, 3, 4, 6]),
    (LINEAR(5, 5, integer=True), 1, [5]), (LINEAR(0, 3), 8, [(i + 0.5) * 3 / 8 for i in range(8)])])
def test_an_integer_split_whose_candidates_all_differ_is_accepted(scale, split, values):
    tuner = make_tuner(default_config(parameters=[Parameter("n", scale=scale, split=split)]))
    assert [tuner.convert(tuner.tree.parameters_for_path((i,)))[0] for i in range(split)] == values


def test_an_integer_split_making_twins_is_refused_for_a_new_event_naming_the_control_files_line(write_ctl):
    # Refused when the event starts (a fresh run, `check`), not as the control file loads: an older
    # ringmaster's event with such a split must still show, report and resume.
    text = TWINS_CTL.replace("SCALE", "LINEAR(0, 3, integer=True)").replace("SPLIT", "8")
    tuner = load_control_file(write_ctl(text)).make_competition()
    expected = (
        "error in control file comp.ctl line 13: parameter n: 'split' is 8, but its integer scale has only 4 "
        "different values at the centres of its 8 divisions, so that some candidates would be twins; use "
        "split=4")
    for start in (tuner.set_clean_status, tuner.get_player_checks):
        with pytest.raises(ControlFileError) as info:
            start()
        assert str(info.value) == expected


def test_parameter_constructor_checks_its_arguments():
    with pytest.raises(ControlFileError, match="code specified as both positional and keyword"):
        Parameter("pa1", code="pa2", scale=float, split=2)
    with pytest.raises(ControlFileError, match="too many positional arguments"):
        Parameter("pa1", float, split=2)
    with pytest.raises(ControlFileError, match="unknown argument 'x'"):
        Parameter("pa1", x=3)


@pytest.mark.parametrize("changes, message", [
    ({"opponent": "nobody"}, "'opponent': unknown player nobody"),
    ({"candidate_colour": "green"}, "'candidate_colour'"),
    ({"initial_visits": 0}, "'initial_visits': must be positive"),
    ({"initial_wins": 11}, "'initial_wins': must not be more than initial_visits"),
    ({"exploration_coefficient": None}, "'exploration_coefficient' not specified"),
    ({"make_candidate": 3}, "'make_candidate': invalid callable"),
    ({"make_candidate": lambda a, b: "not a player"},
     "'make_candidate': error from make_candidate(resign_at=0.0416667, initial_wins=5): "
     "returned 'not a player', not a Player"),
    ({"stop_when_confident": 1.0}, "'stop_when_confident': 1: must be more than 0.5"),
    # At or below 0.5 two candidates can meet the bar at once (0.1 stopped a run after one game).
    ({"stop_when_confident": 0.1}, "'stop_when_confident': 0.1: must be more than 0.5 (a bar at or "
                                   "below 0.5 can be met by two candidates at once) and less than 1.0"),
    ({"stop_when_confident": 0.5}, "'stop_when_confident': 0.5: must be more than 0.5"),
    # A candidate table with a header and no rows, or none at all.
    ({"summary_spec": [0]}, "'summary_spec': item 0: must be positive"),
    ({"summary_spec": [30, -1]}, "'summary_spec': item 1: must be positive"),
    ({"summary_spec": []}, "'summary_spec': empty list"),
    ({"max_depth": 0}, "'max_depth': must be positive"),
    ({"count_games_in_flight": "sometimes"},
     "'count_games_in_flight': unknown rule for games in flight: 'sometimes'"),
])
def test_bad_settings_are_refused(changes, message):
    with pytest.raises(ControlFileError) as info:
        make_tuner(default_config(**changes))
    assert str(info.value).startswith(message)


def test_control_file_globals_offer_the_scales_and_parameter():
    names = McTuner.control_file_globals()
    assert names["Parameter"] is Parameter
    assert names["LOG"] is LOG and names["LINEAR"] is LINEAR and names["EXPLICIT"] is EXPLICIT
    assert {"summary_spec", "max_depth", "stop_when_confident", "confirm_games"} \
        <= McTuner.known_settings()


def test_make_candidate():
    tuner = make_tuner()
    candidate = tuner.make_candidate("c#1", (0.5, 23))
    assert candidate.code == "c#1"
    assert candidate.command == ("cand", "0.5", "23")
    expected = r"^error from make_candidate\(resign_at=-1, initial_wins=23\): ValueError: oops$"
    with pytest.raises(CompetitionError, match=expected):
        tuner.make_candidate("c#1", (-1, 23))


def test_player_checks_use_the_first_candidate():
    checks = make_tuner().get_player_checks()
    assert [c.player.code for c in checks] == ["candidate", "opp"]
    assert checks[0].player.command == ("cand", str(1 / 24), "5.0")
    assert checks[1].player.command == ("test",)
    assert (checks[0].setup.board_size, checks[0].setup.komi) == (13, 7.5)


def test_explicit_scale_candidates_see_each_value():
    values = list("abcdefghi")
    tuner = make_tuner(default_config(
        parameters=[Parameter("range", scale=EXPLICIT(values), split=len(values))]))
    seen = [tuner.convert(tuner.tree.parameters_for_path((i,)))[0] for i in range(9)]
    assert seen == values


# Geometry

def test_cube_coordinates_first_dimension_slowest():
    assert cube_coordinates([3, 3]) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2),
                                        (2, 0), (2, 1), (2, 2)]
    assert cube_coordinates([2, 4]) == [(0, 0), (0, 1), (0, 2), (0, 3),
                                        (1, 0), (1, 1), (1, 2), (1, 3)]


@pytest.mark.parametrize("splits, path, expected", [
    ([3, 3], (0,), (1 / 6, 1 / 6)),
    ([3, 3], (1,), (1 / 6, 3 / 6)),
    ([3, 3], (3,), (3 / 6, 1 / 6)),
    ([3, 3], (8,), (5 / 6, 5 / 6)),
    ([3, 3], (0, 1), (1 / 18, 3 / 18)),
    ([3, 3], (3, 1), (7 / 18, 3 / 18)),
    ([3, 3], (3, 4), (9 / 18, 3 / 18)),
    ([2, 4], (5,), (3 / 4, 3 / 8)),
    ([2, 4], (1, 0), (1 / 8, 9 / 32)),
    ([2, 4], (7, 7), (7 / 8, 31 / 32)),
])
def test_parameters_for_path_are_cell_centres(splits, path, expected):
    assert parameters_for_path(splits, path) == pytest.approx(list(expected))


def test_children_subdivide_their_parent_in_coordinate_order():
    # The children of (1,2) in a [3, 3] tree tile the cell [1/3, 2/3) x [2/3, 1).
    centres = [parameters_for_path([3, 3], (5, i)) for i in range(9)]
    assert centres[0] == pytest.approx([1 / 3 + 1 / 18, 2 / 3 + 1 / 18])
    assert centres[1] == pytest.approx([1 / 3 + 1 / 18, 2 / 3 + 3 / 18])
    assert centres[3] == pytest.approx([1 / 3 + 3 / 18, 2 / 3 + 1 / 18])


def test_coordinates_description():
    tree = Tree([3, 3], 2, 0.5, 10, 5)
    # No Python tuple syntax: '1,2' for two parameters, '2' for one, ' > ' between levels.
    assert tree.describe_path((5,)) == "1,2"
    assert tree.describe_path((5, 0)) == "1,2 > 0,0"
    assert Tree([4], 1, 0.5, 10, 5).describe_path((2,)) == "2"


# Selection and update on hand-built trees

def play_tree(tree, games, seed=0):
    """Play games through the tree as the tuner would, each won or lost at random."""
    rng = random.Random(seed)
    for _ in range(games):
        path = tree.select(rng)
        tree.start_game(path)
        tree.record_result(path, rng.random() < 0.5)


def candidates_by_depth(tuner):
    """The engine parameters of every candidate the tree holds, a list for each depth."""
    tree = tuner.tree
    return [[tuple(tuner.convert(tree.parameters_for_path(path))) for path, _ in tree.generations(depth)]
            for depth in range(1, tree.max_depth + 1)]


@pytest.mark.parametrize("length, split, max_depth", [
    (2, 2, 2), (2, 2, 3), (3, 2, 2), (3, 3, 3), (4, 2, 3), (5, 2, 3), (6, 2, 3), (6, 3, 2), (9, 3, 3)])
def test_a_deeper_tree_makes_no_twins_of_an_explicit_list(length, split, max_depth):
    # A tree that split EXPLICIT(['light', 'heavy']) again at depth 2 made pairs of candidates with the
    # same values (twins), the same engine sharing the games of one.
    tuner = make_tuner(default_config(max_depth=max_depth, exploration_coefficient=5.0, parameters=[
        Parameter("c", scale=LINEAR(0, 1), split=2),
        Parameter("v", scale=EXPLICIT(range(length)), split=split)]))
    play_tree(tuner.tree, 1500)
    generations = candidates_by_depth(tuner)
    assert len(generations[1]) > 2 * split   # the games reached below the first level
    for candidates in generations:
        assert len(set(candidates)) == len(candidates)


@pytest.mark.parametrize("length, split, levels", [
    (2, 2, [[8, 2], [8, 1], [8, 1]]), (4, 2, [[8, 2], [8, 2], [8, 1]]), (9, 3, [[8, 3], [8, 3], [8, 1]]),
    (8, 2, [[8, 2], [8, 2], [8, 2]]), (5, 2, [[8, 2], [8, 2], [8, 1]]), (3, 3, [[8, 3], [8, 1], [8, 1]])])
def test_an_explicit_list_is_split_while_its_cells_are_no_more_than_its_values(length, split, levels):
    # Where split ** max_depth <= its length the tree is as before (every level splits it).
    tree = Tree([8, split], 3, 0.5, 10, 5, scales=[None, EXPLICIT(range(length))])
    assert [tree.splits_at(depth) for depth in range(3)] == levels


def test_the_children_of_a_used_up_explicit_cell_keep_its_value():
    # c (8 cells) and policy (light, heavy): below the first level only c is split again.
    tuner = make_tuner(default_config(max_depth=2, parameters=[
        Parameter("c", scale=LINEAR(0, 8), split=8), Parameter("policy", scale=EXPLICIT(["light", "heavy"]),
                                                              split=2)]))
    tree = tuner.tree
    parent = 2 * 3 + 1   # c cell 3 (3 to 4), heavy
    tree.expand(tree.node_for_path((parent,)), 1)
    assert len(tree.node_for_path((parent,)).children) == 8
    children = [tuner.convert(tree.parameters_for_path((parent, i))) for i in range(8)]
    assert children == [(3 + (i + 0.5) / 8, "heavy") for i in range(8)]
    assert tree.describe_path((parent, 5)) == "3,1 > 5,0"
    assert tree.edges_touched((parent, 0)) == [(1, "high")]   # the child's cell is its parent's heavy half


def every_candidate(tuner, depth):
    """The engine parameters of every candidate the tree's shape allows at this depth, played or not."""
    tree, paths = tuner.tree, [()]
    for level in range(depth):
        if level and not tree.can_expand(level):
            return []
        paths = [path + (i,) for path in paths for i in range(math.prod(tree.splits_at(level)))]
    return [tuple(tuner.convert(tree.parameters_for_path(path))) for path in paths]


@pytest.mark.parametrize("scale, split, max_depth", [
    (LINEAR(0, 10, integer=True), 4, 2), (LINEAR(0, 10, integer=True), 2, 5),
    (LINEAR(0, 10, integer=True), 3, 3), (LINEAR(10, 0, integer=True), 2, 5),
    (LINEAR(-5, 5, integer=True), 3, 3), (LOG(1, 32, integer=True), 4, 3),
    (LOG(1, 1000, integer=True), 3, 4), (LOG(-64, -1, integer=True), 2, 5)])
def test_a_deeper_tree_makes_no_twins_of_an_integer_scale(scale, split, max_depth):
    # LINEAR(0, 10, integer=True) split 4 has 16 cells at depth 2 for its 11 integers: a tree that split
    # it there too made candidates with the same values (twins), the same engine sharing the games of one.
    tuner = make_tuner(default_config(max_depth=max_depth, exploration_coefficient=5.0, parameters=[
        Parameter("n", scale=scale, split=split), Parameter("c", scale=LINEAR(0, 1), split=2)]))
    for depth in range(1, max_depth + 1):
        candidates = every_candidate(tuner, depth)
        assert len(candidates) >= 2 * split * 2 ** (depth - 1)   # c is split at every level
        assert len(set(candidates)) == len(candidates)
    play_tree(tuner.tree, 600)
    assert len(candidates_by_depth(tuner)[1]) > 2 * split   # the games reached below the first level
    for candidates in candidates_by_depth(tuner):
        assert len(set(candidates)) == len(candidates)


@pytest.mark.parametrize("scale, split, levels", [
    (LINEAR(0, 10, integer=True), 2, [2, 2, 2, 1, 1]),   # 4 and 8 cells give different integers, 16 can't
    (LINEAR(0, 10, integer=True), 3, [3, 3, 1, 1, 1]),   # 9 cells do
    (LINEAR(0, 10, integer=True), 4, [4, 1, 1, 1, 1]),
    (LOG(1, 32, integer=True), 4, [4, 1, 1, 1, 1]),     # 16 cells: 1.11 and 1.38 both give 1
    (LOG(1, 1000, integer=True), 3, [3, 3, 1, 1, 1]),
    (LINEAR(0, 1000, integer=True), 2, [2] * 9 + [1]),  # 512 cells give different integers, 1024 can't
    (LINEAR(0, 10), 4, [4] * 5),                        # real numbers: every level
    (float, 4, [4] * 5)])                               # a function: every level, as before
def test_an_integer_scale_is_split_while_its_cells_all_give_different_values(scale, split, levels):
    tree = Tree([split, 8], len(levels), 0.5, 10, 5, scales=[scale, None])
    assert [tree.splits_at(depth) for depth in range(len(levels))] == [[s, 8] for s in levels]


def test_a_huge_integer_range_is_split_until_its_neighbours_are_two_apart():
    # Beyond EXACT_LIMIT cells the values aren't compared one by one; it takes well under a second.
    tree = Tree([2], 40, 0.5, 10, 5, scales=[LINEAR(0, 1e9, integer=True)])
    assert [tree.twin_free_splits(depth)[0] for depth in range(30)] == [2] * 28 + [1, 1]


def hand_tree(records, exploration=0.5, count_in_flight=True):
    """A depth-1 tree whose children have these (games, wins), initial 10/5."""
    tree = Tree([len(records)], 1, exploration, 10, 5, count_in_flight=count_in_flight)
    for child, (games, won) in zip(tree.root.children, records):
        child.games, child.won = games, won
    tree.root.games = sum(g for g, _ in records)
    tree.root.won = sum(w for _, w in records)
    return tree


def test_urgency_formula():
    tree = hand_tree([(10, 8), (2, 0), (0, 0)])
    root, children = tree.root, tree.root.children
    import math
    assert tree.urgency(root, children[0]) == pytest.approx(
        13 / 20 + 0.5 * math.sqrt(math.log(22) / 20))
    assert tree.urgency(root, children[1]) == pytest.approx(
        5 / 12 + 0.5 * math.sqrt(math.log(22) / 12))


def test_selection_picks_highest_urgency():
    assert hand_tree([(10, 8), (10, 2), (10, 5)]).select(random.Random(0)) == (0,)
    # With a large exploration coefficient the least-played candidate wins instead.
    assert hand_tree([(10, 8), (0, 0), (10, 5)], exploration=5.0).select(random.Random(0)) == (1,)


def test_ties_are_broken_at_random():
    tree = hand_tree([(0, 0)] * 4)
    chosen = {tree.select(random.Random(seed)) for seed in range(40)}
    assert chosen == {(0,), (1,), (2,), (3,)}
    # But a unique maximum is always chosen.
    tree = hand_tree([(0, 0), (4, 4), (0, 0), (0, 0)])
    assert {tree.select(random.Random(seed)) for seed in range(20)} == {(1,)}


def test_games_in_flight_count_as_losses_when_choosing():
    tree = hand_tree([(4, 3), (4, 2)], count_in_flight="loss")
    assert tree.select(random.Random(0)) == (0,)
    tree.start_game((0,))
    tree.start_game((0,))
    assert tree.select(random.Random(0)) == (1,)
    # Gomill's behaviour: the same candidate again while its games are in flight.
    gomill = hand_tree([(4, 3), (4, 2)], count_in_flight=False)
    gomill.start_game((0,))
    gomill.start_game((0,))
    assert gomill.select(random.Random(0)) == (0,)


def test_games_in_flight_at_the_mean_only_shrink_exploration():
    import math
    tree = Tree([2], 1, 0.5, 10, 5, count_in_flight="mean")
    root, child = tree.root, tree.root.children[0]
    child.games, child.won = 10, 8
    root.games, root.won = 10, 8
    tree.start_game((0,))
    tree.start_game((0,))
    # The win rate stays 13/20; the visits in the exploration term include the 2 in flight.
    assert tree.urgency(root, child) == pytest.approx(
        13 / 20 + 0.5 * math.sqrt(math.log(22)) / math.sqrt(22))
    loss = Tree([2], 1, 0.5, 10, 5, count_in_flight="loss")
    loss.root.children[0].games, loss.root.children[0].won = 10, 8
    loss.root.games, loss.root.won = 10, 8
    loss.start_game((0,))
    loss.start_game((0,))
    assert loss.urgency(loss.root, loss.root.children[0]) == pytest.approx(
        13 / 22 + 0.5 * math.sqrt(math.log(22)) / math.sqrt(22))
    # choose_child ranks children exactly as urgency() does.
    for t in (tree, loss):
        other = t.root.children[1]
        expected = 0 if t.urgency(t.root, t.root.children[0]) > t.urgency(t.root, other) else 1
        assert t.choose_child(t.root, random.Random(0)) == expected


@pytest.mark.parametrize("rule, digest", [
    ("mean", "fb3f41caac04c0bb"), ("loss", "242c2193e3c15eee"), ("ignore", "9bf6b7bd6f7b6da1")])
def test_a_seed_gives_the_same_candidates_as_before(rule, digest):
    # The paths chosen over 600 games (up to 4 in flight), hashed as the tree chose them before
    # choose_child and urgency() shared one function: a run resumed or repeated with the same seed
    # must play the same candidates, bit for bit.
    import hashlib
    tree = Tree([3, 2], 3, 0.5, 10, 5, count_in_flight=rule)
    rng = random.Random(7)
    paths, flying = [], []
    for _ in range(600):
        path = tree.select(rng)
        tree.start_game(path)
        flying.append(path)
        paths.append(path)
        if len(flying) > 3:
            tree.record_result(flying.pop(rng.randrange(len(flying))), rng.random() < 0.5)
    assert hashlib.sha256(repr(paths).encode()).hexdigest()[:16] == digest


def test_update_counts_every_node_on_the_path_and_the_root():
    tree = Tree([2], 2, 0.5, 10, 5)
    tree.root.children[1].children = [tree.new_node(), tree.new_node()]
    tree.root.children[1].games = 1
    tree.start_game((1, 0))
    tree.record_result((1, 0), True)
    assert (tree.root.visits, tree.root.wins) == (11, 6)
    assert (tree.root.children[1].visits, tree.root.children[1].wins) == (12, 6)
    assert (tree.root.children[1].children[0].visits,
            tree.root.children[1].children[0].wins) == (11, 6)
    assert tree.root.children[1].children[0].in_flight == 0
    tree.record_result((0,), False)
    assert (tree.root.visits, tree.root.wins) == (12, 6)
    assert (tree.root.children[0].visits, tree.root.children[0].wins) == (11, 5)


def test_expansion_at_depth_two_when_chosen_the_second_time():
    tree = Tree([3], 2, 0.5, 10, 5)
    rng = random.Random(0)
    first = tree.select(rng)
    assert len(first) == 1
    tree.start_game(first)
    tree.record_result(first, True)   # now its urgency is highest
    second = tree.select(rng)
    assert second[0] == first[0] and len(second) == 2
    assert len(tree.node_for_path(first).children) == 3
    assert tree.root.count_nodes() == 1 + 3 + 3


def test_expansion_counts_a_game_in_flight_as_a_choice():
    tree = Tree([1], 2, 0.5, 10, 5)
    tree.start_game(tree.select(random.Random(0)))
    assert len(tree.select(random.Random(0))) == 2
    gomill = Tree([1], 2, 0.5, 10, 5, count_in_flight=False)
    gomill.start_game(gomill.select(random.Random(0)))
    assert len(gomill.select(random.Random(0))) == 1


def test_no_expansion_at_max_depth():
    tree = Tree([2], 1, 0.5, 10, 5)
    for _ in range(5):
        path = tree.select(random.Random(0))
        assert len(path) == 1
        tree.start_game(path)
        tree.record_result(path, True)
    assert tree.root.count_nodes() == 3


def test_a_candidate_with_nothing_left_to_split_is_not_expanded():
    # One EXPLICIT parameter whose list the first level uses up: a child would be its parent again.
    tree = Tree([3], 2, 0.5, 10, 5, scales=[EXPLICIT(range(3))])
    play_tree(tree, 50)
    assert len(tree.select(random.Random(0))) == 1
    assert tree.root.count_nodes() == 4
    assert Tree([3], 2, 0.5, 10, 5, scales=[EXPLICIT(range(9))]).can_expand(1)


def test_recommended_candidate_walks_down_by_most_games():
    tree = Tree([2], 2, 0.5, 10, 5)
    # (0,) has fewer wins per game but more games: the bandit believed in it, so it is chosen.
    tree.root.children[0].games, tree.root.children[0].won = 30, 12
    tree.root.children[1].games, tree.root.children[1].won = 10, 8
    tree.root.children[0].children = [tree.new_node(), tree.new_node()]
    tree.root.children[0].children[0].games = tree.root.children[0].children[0].won = 3
    tree.root.children[0].children[1].games = 3
    tree.root.children[0].children[1].won = 2
    # Equal games below (0,): the higher win rate.
    assert tree.best_path() == (0, 0)
    tree.root.children[0].children[0].games = tree.root.children[0].children[0].won = 0
    tree.root.children[0].children[1].won = 1
    # The most-played child below (0,) looks worse than an untried one: (1 + 5)/(3 + 10) < 5/10.
    assert tree.best_path() == (0,)
    tree.root.children[0].children[1].won = 2
    # (2 + 5)/(3 + 10) > 5/10: it is recommended though its sibling hasn't played.
    assert tree.best_path() == (0, 1)


def test_one_lost_game_recommends_nothing():
    tree = Tree([3], 1, 0.5, 10, 5)
    tree.record_result((1,), False)
    assert tree.best_path() == ()
    tree.record_result((0,), True)
    # (0,) has won its game: (1 + 5)/(1 + 10) beats an untried 5/10, and ties (1,) on games.
    assert tree.best_path() == (0,)
    tree.record_result((2,), False)
    assert tree.best_path() == (0,)


def test_edges_touched_by_a_cell():
    assert edges_touched([8], (0,)) == [(0, "low")]
    assert edges_touched([8], (7,)) == [(0, "high")]
    assert edges_touched([8], (3,)) == []
    # Depth 2: the lowest sub-cell of the lowest cell touches the edge; its upper one doesn't.
    assert edges_touched([2], (0, 0)) == [(0, "low")]
    assert edges_touched([2], (0, 1)) == []
    # Two parameters, 3x3: cell 2 is (0, 2): low end of the first, high end of the second.
    assert edges_touched([3, 3], (2,)) == [(0, "low"), (1, "high")]
    assert edges_touched([1, 3], (1,)) == []


# Playing

def test_play_and_first_jobs():
    tuner = make_tuner()
    job1 = tuner.get_game()
    assert job1.game_id == "0"
    assert job1.player_b.code == "opp" and job1.player_w.code == "#0"
    assert (job1.board_size, job1.komi, job1.move_limit) == (13, 7.5, 1000)
    assert job1.use_internal_scorer is False
    assert job1.internal_scorer_handicap_compensation == "full"
    assert job1.sgf_event == "mctstest"
    assert job1.sgf_note.startswith("Candidate parameters: rsn@ ")
    job2 = tuner.get_game()
    assert (job2.game_id, job2.player_w.code) == ("1", "#1")
    line = candidate_wins(tuner, job1)
    assert line.endswith(" won W+R")
    assert (tuner.tree.root.visits, tuner.tree.root.wins) == (11, 6)
    assert sum(n.games for n in tuner.tree.root.children) == 1
    assert list(tuner.outstanding) == [1]


def test_candidate_colour_black_and_random():
    tuner = make_tuner(default_config(candidate_colour="b"))
    job = tuner.get_game()
    assert (job.player_b.code, job.player_w.code) == ("#0", "opp")
    tuner = make_tuner(default_config(candidate_colour="random"))
    colours = {tuner.get_game().player_b.code == "opp" for _ in range(20)}
    assert colours == {True, False}


def test_a_game_with_no_result_is_played_but_in_no_record():
    # It counted as a loss, though the reports say such games are left out of every figure.
    tuner = make_tuner(default_config(number_of_games=3))
    won = tuner.get_game()
    candidate_wins(tuner, won)
    before = json.loads(json.dumps(tuner.tree.root.to_json()))
    probability = tuner.best_probability()
    job = tuner.get_game()
    assert tuner.process_game_result(make_result(job, None)).endswith(" had no result ?")
    # No candidate's record changed, and the game is no longer in flight.
    assert tuner.tree.root.to_json() == before and tuner.best_probability() == probability
    assert {node.in_flight for node in tuner.tree.walk_nodes(tuner.tree.root)} == {0}
    # It was played: counted among the tuning games, not replayed, and kept so by the state.
    assert tuner.games_played() == 2 and job.game_data[0] in tuner.scheduler.fixed
    assert "2/3 tuning games played (1 with no result, in no candidate's record)" in report(tuner)
    assert tuner.get_json_report()["no_result_games"] == 1
    restored = make_tuner(default_config(number_of_games=3))
    restored.set_status(json.loads(json.dumps(tuner.get_status())))
    assert restored.no_result_games == 1 and restored.games_played() == 2
    candidate_wins(restored, restored.get_game())
    assert restored.get_game() is NO_GAME and restored.is_complete()


def test_tuning_games_all_without_a_result_lead_nowhere_and_say_so():
    tuner = make_tuner(default_config(number_of_games=2, confirm_games=2))
    for _ in range(2):
        tuner.process_game_result(make_result(tuner.get_game(), None))
    confirmation = tuner.get_game()
    assert tuner.is_confirmation(confirmation.game_data) and tuner.tree.root.games == 0
    text = report(tuner)
    assert "Leader: none yet (no tuning game has a result)\n" in text
    assert "the first candidate, as no tuning game had a result" in text
    assert tuner.verdict().evidence.startswith("no tuning game has a result yet; ")


def test_a_jigo_counts_half_a_win_and_the_state_keeps_the_half():
    tuner = make_tuner()
    job = tuner.get_game()
    path = tuple(job.game_data[1])
    assert tuner.process_game_result(make_result(job, None, "0")).endswith(" drew 0")
    candidate_wins(tuner, tuner.get_game())
    assert (tuner.tree.root.games, tuner.tree.root.won) == (2, 1.5)
    assert (tuner.tree.node_for_path(path).games, tuner.tree.node_for_path(path).won) == (1, 0.5)
    status = json.loads(json.dumps(tuner.get_status()))
    assert status["tree"][3] == 1.5
    restored = make_tuner()
    restored.set_status(status)
    assert restored.tree.root == tuner.tree.root
    assert f"{tuner.describe_path(path)} 0.5/1 0.500 [0.055, 0.945]" in report(tuner)
    assert "Win rate 1.5/2 = 0.750" in tuner.describe_tree()


def test_an_older_state_without_half_wins_keeps_whole_numbers_and_no_games_without_a_result():
    status = json.loads(json.dumps(OLD_TWINS_STATE))
    tuner = make_tuner(twins_config())
    tuner.set_status(status)
    assert tuner.no_result_games == 0 and tuner.games_played() == 12
    saved = tuner.get_status()
    assert saved["tree"] == OLD_TWINS_STATE["tree"]
    assert all(isinstance(node.won, int) for node in tuner.tree.walk_nodes(tuner.tree.root))


def test_number_of_games_limits_the_event():
    tuner = make_tuner(default_config(number_of_games=3))
    jobs = [tuner.get_game() for _ in range(3)]
    assert tuner.get_game() is NO_GAME
    assert not tuner.is_complete()
    for job in jobs:
        candidate_loses(tuner, job)
    assert tuner.is_complete()
    assert tuner.get_game() is NO_GAME


def test_history_lines_and_tree_dump():
    config = default_config(parameters=[Parameter("lv", scale=EXPLICIT([0, 1]), split=2),
                                        Parameter("sd", scale=LINEAR(0, 100), split=2,
                                                  format="sd: %d")],
                            log_tree_to_history_period=2, initial_visits=2, initial_wins=1)
    tuner = make_tuner(config)
    job = tuner.get_game()
    path = tuple(job.game_data[1])
    line = candidate_loses(tuner, job)
    described = tuner.describe_path(path)
    assert line == f"{described} lost B+R"
    assert tuner.pending_history == [f"{described} lost"]
    candidate_wins(tuner, tuner.get_game())
    dump = tuner.pending_history[-1].splitlines()
    assert dump[0] == "5 nodes"
    assert dump[1] == "Win rate 1/2 = 0.500"
    assert dump[2].startswith("  cell 0,0: lv: 0; sd: 25  win rate ")
    assert len(dump) == 6


def test_the_tree_dump_names_a_cell_by_its_own_level():
    # Below the first level the list is used up: the children of a cell split only sd.
    config = default_config(max_depth=2, parameters=[
        Parameter("sd", scale=LINEAR(0, 100), split=2, format="sd: %d"),
        Parameter("lv", scale=EXPLICIT([0, 1]), split=2)])
    tuner = make_tuner(config)
    tuner.tree.expand(tuner.tree.root.children[3], 1)
    dump = tuner.describe_tree().splitlines()
    assert dump[6:8] == ["    cell 0,0: sd: 62; lv: 1  win rate --  games 0",
                         "    cell 1,0: sd: 87; lv: 1  win rate --  games 0"]
    assert tuner.describe_path((3, 1)) == "sd: 87; lv: 1 [cell 1,1 > 1,0]"


def test_void_game_rules():
    tuner = make_tuner()
    job = tuner.get_game()
    # The first result of a run is void: halt.
    assert tuner.process_game_error(job, 0) == (True, False)
    assert tuner.tree.root.in_flight == 0 and tuner.outstanding == {}
    tuner = make_tuner()
    candidate_wins(tuner, tuner.get_game())
    job1, job2 = tuner.get_game(), tuner.get_game()
    assert tuner.process_game_error(job1, 0) == (False, False)   # dropped, not replayed
    assert tuner.process_game_error(job2, 0) == (True, False)    # two in a row: halt
    assert tuner.get_game().game_id == "3"


# State

def test_state_round_trip_through_json():
    tuner = make_tuner(default_config(max_depth=2))
    for i in range(30):
        job = tuner.get_game()
        (candidate_wins if i % 3 else candidate_loses)(tuner, job)
    in_flight = tuner.get_game()
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(default_config(max_depth=2))
    restored.set_status(status)
    assert restored.get_status() == tuner.get_status()
    assert restored.tree.root == tuner.tree.root
    # The game in flight is replayed with the same id.
    assert restored.get_game().game_id == in_flight.game_id
    assert restored.get_game().game_id == str(int(in_flight.game_id) + 1)


REMEDY = "; put it back, or start afresh with `ringmaster reset`"


@pytest.mark.parametrize("changes, message", [
    ({"parameters": [Parameter("resign_at", scale=float, split=12, format="rsn@ %.2f"),
                     Parameter("initial_wins", scale=LINEAR(0, 100), split=11)]},
     "parameter initial_wins: 'split' is 11 in the control file but was 10 for the games so far" + REMEDY),
    ({"parameters": [Parameter("resign_at", scale=float, split=12, format="rsn@ %.2f"),
                     Parameter("initial_wins", scale=LINEAR(0, 99), split=10)]},
     "parameter initial_wins: 'scale' (its first and last candidates) is 4.95 to 94.05 in the "
     "control file but was 5 to 95 for the games so far" + REMEDY),
    ({"parameters": [Parameter("resign_at", scale=float, split=10),
                     Parameter("initial_wins", scale=LINEAR(0, 100), split=12)]},
     "parameter resign_at: 'split' is 10 in the control file but was 12 for the games so far" + REMEDY),
    ({"parameters": [Parameter("resign_at", scale=float, split=120)]},
     "the parameters are resign_at in the control file but were resign_at, initial_wins for the games "
     "so far; put them back, or start afresh with `ringmaster reset`"),
    ({"parameters": [Parameter("resign", scale=float, split=12),
                     Parameter("initial_wins", scale=LINEAR(0, 100), split=10)]},
     "the parameters are resign, initial_wins in the control file but were resign_at, initial_wins"),
])
def test_inconsistent_control_file_is_refused_naming_what_changed(changes, message):
    tuner = make_tuner()
    candidate_wins(tuner, tuner.get_game())
    status = json.loads(json.dumps(tuner.get_status()))
    other = make_tuner(default_config(**changes))
    with pytest.raises(CompetitionError) as info:
        other.set_status(status)
    assert str(info.value).startswith(message)


def test_a_changed_explicit_list_is_refused_naming_its_first_and_last_candidates():
    status = json.loads(json.dumps(make_tuner(twins_config()).get_status()))
    changed = twins_config()
    changed["parameters"][1] = Parameter("policy", scale=EXPLICIT(["light", "medium"]), split=2)
    with pytest.raises(CompetitionError) as info:
        make_tuner(changed).set_status(status)
    assert str(info.value) == (
        "parameter policy: 'scale' (its first and last candidates) is light to medium in the control "
        "file but was light to heavy for the games so far" + REMEDY)


def test_a_changed_scale_is_shown_exactly_only_where_short_values_would_read_the_same():
    status = json.loads(json.dumps(make_tuner().get_status()))
    changed = default_config(parameters=[Parameter("resign_at", scale=float, split=12, format="rsn@ %.2f"),
                                         Parameter("initial_wins", scale=LINEAR(0, 100.0001), split=10)])
    with pytest.raises(CompetitionError) as info:
        make_tuner(changed).set_status(status)
    assert str(info.value).startswith(
        "parameter initial_wins: 'scale' (its first and last candidates) is 5.000005000000001 to "
        "95.00009500000002 in the control file but was 5.0 to 95.0 for the games so far")


def test_a_changed_parameter_list_is_refused_for_a_state_without_codes():
    # A state written before the parameters' codes were kept says how many there were.
    tuner = make_tuner()
    status = json.loads(json.dumps(tuner.get_status()))
    del status["codes"]
    make_tuner().set_status(status)
    other = make_tuner(default_config(parameters=[Parameter("resign_at", scale=float, split=12)]))
    with pytest.raises(CompetitionError, match=r"^the control file has 1 parameters \(resign_at\) but "
                       r"the games so far had 2; put them back, or start afresh with `ringmaster reset`$"):
        other.set_status(status)


def test_allowed_control_file_changes_are_accepted():
    tuner = make_tuner()
    candidate_wins(tuner, tuner.get_game())
    status = json.loads(json.dumps(tuner.get_status()))
    changed = default_config(exploration_coefficient=0.9, max_depth=3, number_of_games=50,
                             initial_visits=4, initial_wins=2, summary_spec=[5, 5])
    changed["parameters"] = [
        Parameter("resign_at", scale=float, split=12, format="R %.3f"),
        Parameter("initial_wins", scale=LINEAR(0, 100), split=10, format="iw %d")]
    other = make_tuner(changed)
    other.set_status(status)
    # Existing candidates keep their initial counts; new ones get the new values.
    assert other.tree.root.children[0].prior_visits == 10
    assert other.tree.new_node().prior_visits == 4


def older_status(tuner):
    """The tuner's state without what this ringmaster adds to an older one's (candidate_values)."""
    status = tuner.get_status()
    del status["candidate_values"]
    return status


# Written by the ringmaster before twin-free trees (d9a8e36) for twins_config() after 12 games: its
# candidate 3 (c 0.75, heavy) was split into 4, heavy in each (twins: 3 > 0 and 3 > 1, 3 > 2 and 3 > 3).
OLD_TWINS_STATE = {
    "scheduler": {"next_new": 12, "unfixed": []},
    "tree": [10, 5, 12, 8, [[10, 5, 0, 0, None], [10, 5, 1, 0, None], [10, 5, 0, 0, None], [10, 5, 11, 8, [
        [10, 5, 0, 0, None], [10, 5, 2, 1, None], [10, 5, 8, 6, None], [10, 5, 0, 0, None]]]]],
    "opponent_description": None, "codes": ["c", "policy"], "splits": [2, 2],
    "check_values": [["0.25", "'light'"], ["0.75", "'heavy'"]],
    "confirmation": {"parameters": None, "label": "", "scheduler": {"next_new": 0, "unfixed": []}, "won": 0,
                     "jigos": 0, "unknown": 0, "played": 0, "against": "opponent"},
    "opponent": "opp", "candidate_colour": "w"}


def twins_config():
    """A depth-2 tree over c and a list of two policies, which the first level uses up."""
    return default_config(max_depth=2, parameters=[
        Parameter("c", scale=LINEAR(0, 1), split=2),
        Parameter("policy", scale=EXPLICIT(["light", "heavy"]), split=2)])


def test_a_state_whose_tree_split_a_used_up_list_resumes_in_its_older_shape():
    tuner = make_tuner(twins_config())
    tuner.set_status(json.loads(json.dumps(OLD_TWINS_STATE)))
    assert tuner.tree.shape == "uniform"
    assert older_status(tuner) == OLD_TWINS_STATE
    # Its candidates are where the older ringmaster put them, twins included.
    assert [tuner.convert(tuner.tree.parameters_for_path((3, i))) for i in range(4)] == [
        (0.625, "heavy"), (0.625, "heavy"), (0.875, "heavy"), (0.875, "heavy")]
    assert tuner.verdict().warnings[0] == (
        "warning: this run's tree keeps the shape an older ringmaster gave it, which splits the EXPLICIT "
        "list of policy again once the values are used up, so candidates below the first level that "
        "differ only in it may be twins sharing the games of one; start afresh with `ringmaster reset` "
        "for a tree without them")
    assert "may be twins" in report(tuner)
    # It grows in that shape, and starts afresh in the twin-free one.
    play_tree(tuner.tree, 200)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {4}
    tuner.set_clean_status()
    assert tuner.tree.shape == "twin-free" and tuner.verdict().warnings == []


def test_an_older_state_that_split_nothing_below_the_first_level_resumes_twin_free():
    status = json.loads(json.dumps(OLD_TWINS_STATE))
    status["tree"][4][3][4] = None
    tuner = make_tuner(twins_config())
    tuner.set_status(status)
    assert tuner.tree.shape == "twin-free" and older_status(tuner) == status
    play_tree(tuner.tree, 200)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {4, 2}


def test_a_twin_free_state_resumes_as_it_was_and_a_misshapen_one_is_refused():
    tuner = make_tuner(twins_config())
    play_tree(tuner.tree, 100)
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(twins_config())
    restored.set_status(status)
    assert restored.tree.shape == "twin-free" and restored.tree.root == tuner.tree.root
    status["tree"][4][0][4] = [[10, 5, 0, 0, None]] * 3   # neither shape
    with pytest.raises(CompetitionError, match="^status file is inconsistent with control file$"):
        make_tuner(twins_config()).set_status(status)


# Written by main's ringmaster (92aaf10, which split integer scales at every level) for int_config() after 7
# games (seed 20): n 1 and c 0.375 is both 0 > 3 and 2 > 1 (twins, with 1 and 2 games).
MAIN_INTEGER_STATE = {
    "scheduler": {"next_new": 7, "unfixed": []},
    "tree": [10, 5, 7, 1, [[10, 5, 2, 0, [[10, 5, 0, 0, None], [10, 5, 0, 0, None], [10, 5, 0, 0, None],
                                          [10, 5, 1, 0, None]]],
                           [10, 5, 1, 0, None],
                           [10, 5, 3, 1, [[10, 5, 0, 0, None], [10, 5, 2, 1, None], [10, 5, 0, 0, None],
                                          [10, 5, 0, 0, None]]],
                           [10, 5, 1, 0, None]]],
    "opponent_description": None, "codes": ["n", "c"], "splits": [2, 2],
    "check_values": [["1", "0.25"], ["2", "0.75"]],
    "confirmation": {"parameters": None, "label": "", "scheduler": {"next_new": 0, "unfixed": []}, "won": 0,
                     "jigos": 0, "unknown": 0, "played": 0, "against": "opponent"},
    "opponent": "opp", "candidate_colour": "w"}

# Written by the same for mixed_config() after 7 games (seed 5): it split n again below the first level
# but not the used-up policy list, so 0 > 1 and 2 > 0 are both n 1, light (twins).
MAIN_MIXED_STATE = {
    "scheduler": {"next_new": 7, "unfixed": []},
    "tree": [10, 5, 7, 1, [[10, 5, 2, 0, [[10, 5, 0, 0, None], [10, 5, 1, 0, None]]],
                           [10, 5, 2, 0, [[10, 5, 1, 0, None], [10, 5, 0, 0, None]]],
                           [10, 5, 2, 1, [[10, 5, 1, 1, None], [10, 5, 0, 0, None]]],
                           [10, 5, 1, 0, None]]],
    "opponent_description": None, "codes": ["n", "policy"], "splits": [2, 2],
    "check_values": [["1", "'light'"], ["2", "'heavy'"]],
    "confirmation": {"parameters": None, "label": "", "scheduler": {"next_new": 0, "unfixed": []}, "won": 0,
                     "jigos": 0, "unknown": 0, "played": 0, "against": "opponent"},
    "opponent": "opp", "candidate_colour": "w"}


def int_config():
    """A depth-2 tree over n (0, 1 or 2), whose 4 cells below the first level would make twins, and c."""
    return default_config(max_depth=2, parameters=[
        Parameter("n", scale=LINEAR(0, 2, integer=True), split=2),
        Parameter("c", scale=LINEAR(0, 1), split=2)])


def mixed_config():
    """As int_config, with a list of two policies, which the first level uses up, for c."""
    return default_config(max_depth=2, parameters=[
        Parameter("n", scale=LINEAR(0, 2, integer=True), split=2),
        Parameter("policy", scale=EXPLICIT(["light", "heavy"]), split=2)])


INTEGER_TWINS_WARNING = (
    "warning: this run's tree keeps the shape an older ringmaster gave it, which splits the integer scale of "
    "n again once the values are used up, so candidates below the first level that differ only in it may be "
    "twins sharing the games of one; start afresh with `ringmaster reset` for a tree without them")


def test_a_state_whose_tree_split_an_integer_scale_again_resumes_in_its_older_shape():
    tuner = make_tuner(int_config())
    tuner.set_status(json.loads(json.dumps(MAIN_INTEGER_STATE)))
    assert tuner.tree.shape == "lists"
    assert older_status(tuner) == MAIN_INTEGER_STATE
    # Its candidates are where main's ringmaster put them, twins included.
    assert [tuner.convert(tuner.tree.parameters_for_path(path)) for path in ((0, 3), (2, 1), (2, 3))] == [
        (1, 0.375), (1, 0.375), (2, 0.375)]
    assert tuner.verdict().warnings[0] == INTEGER_TWINS_WARNING
    # It grows in that shape, and starts afresh in the twin-free one (n is not split below the first level).
    play_tree(tuner.tree, 200)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {4}
    tuner.set_clean_status()
    assert tuner.tree.shape == "twin-free" and tuner.verdict().warnings == []
    play_tree(tuner.tree, 200)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {4, 2}


def test_a_state_that_split_an_integer_scale_but_not_a_used_up_list_resumes_in_that_shape(monkeypatch):
    tuner = make_tuner(mixed_config())
    tuner.set_status(json.loads(json.dumps(MAIN_MIXED_STATE)))
    assert tuner.tree.shape == "lists"
    assert older_status(tuner) == MAIN_MIXED_STATE
    assert [tuner.convert(tuner.tree.parameters_for_path(path)) for path in ((0, 1), (2, 0), (2, 1))] == [
        (1, "light"), (1, "light"), (2, "light")]
    assert tuner.verdict().warnings == [INTEGER_TWINS_WARNING]
    play_tree(tuner.tree, 200)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {4, 2}
    # It fits neither the twin-free shape (nothing below the first level) nor the uniform one (4 children):
    # a scale that split n or policy once more would have grown it (the state keeps no values to tell which).
    monkeypatch.setattr(Tree, "SHAPES", ("twin-free", "uniform"))
    with pytest.raises(CompetitionError, match="^parameter n or policy: 'scale' splits the tree of "
                       "candidates below the first level otherwise than it did for the games so far"):
        make_tuner(mixed_config()).set_status(json.loads(json.dumps(MAIN_MIXED_STATE)))


def lists_config(*lists):
    """A depth-3 tree over an EXPLICIT list for each of lists (n1, n2, ...) and c, each split 2."""
    return default_config(max_depth=3, parameters=[
        *(Parameter(f"n{i}", scale=EXPLICIT(values), split=2) for i, values in enumerate(lists, 1)),
        Parameter("c", scale=LINEAR(0, 1), split=2)])


TREE_SHAPE_CHANGED = ("'scale' splits the tree of candidates below the first level otherwise than it did "
                      "for the games so far (the state's tree fits no shape the control file gives)" + REMEDY)


def test_a_list_whose_change_leaves_the_tree_fitting_no_shape_is_named():
    # Three values are used up by the first level; four with the same first and last candidates are not.
    tuner = make_tuner(lists_config(["a", "b", "d"]))
    play_tree(tuner.tree, 200)
    status = json.loads(json.dumps(tuner.get_status()))
    grown = lists_config(["x", "a", "y", "d"])
    assert make_tuner(grown).convert([0.25, 0.25]) == tuner.convert([0.25, 0.25])
    with pytest.raises(CompetitionError) as info:
        make_tuner(grown).set_status(status)
    assert str(info.value) == "parameter n1: " + TREE_SHAPE_CHANGED
    # Without its candidates' values the state can't tell which of two parameters split 2 it was.
    del status["candidate_values"]
    with pytest.raises(CompetitionError) as info:
        make_tuner(grown).set_status(status)
    assert str(info.value) == "parameter n1 or c: " + TREE_SHAPE_CHANGED
    make_tuner(lists_config(["a", "b", "d"])).set_status(status)


def test_two_lists_whose_change_leaves_the_tree_fitting_no_shape_are_both_named():
    tuner = make_tuner(lists_config(["a", "b", "d"], ["e", "f", "h"]))
    play_tree(tuner.tree, 300)
    assert {len(node.children) for node in tuner.tree.walk_nodes(tuner.tree.root) if node.children} == {8, 2}
    status = json.loads(json.dumps(tuner.get_status()))
    with pytest.raises(CompetitionError) as info:
        make_tuner(lists_config(["x", "a", "y", "d"], ["x", "e", "y", "h"])).set_status(status)
    assert str(info.value) == "parameters n1 and n2: " + TREE_SHAPE_CHANGED


def test_refits_finds_no_change_of_splitting_for_a_tree_no_scales_give():
    tree = make_tuner(lists_config(["a", "b", "d"])).tree
    leaf = [10, 5, 0, 0, None]

    def node(*children):
        return [10, 5, 0, 0, list(children)]
    assert tree.refits(Node.from_json(node(node(*[leaf] * 3), leaf, leaf, leaf))) == []
    assert tree.refits(Node.from_json(node(node(leaf, leaf), node(*[leaf] * 4), leaf, leaf))) == []
    # Split in 4 below the first level: n1 split there too (as the uniform shape does, for one).
    split_again = Node.from_json(node(node(*[leaf] * 4), leaf, leaf, leaf))
    assert tree.refits(split_again) == [((0,), [[2, 2], [2, 2]])]


def test_a_uniform_state_that_split_a_list_and_an_integer_scale_again_warns_of_both():
    status = json.loads(json.dumps(MAIN_MIXED_STATE))
    status["tree"][4][0][4] = [[10, 5, 1, 0, None], [10, 5, 1, 1, None], [10, 5, 0, 0, None],
                               [10, 5, 0, 0, None]]
    status["tree"][4][1][4] = status["tree"][4][2][4] = None
    tuner = make_tuner(mixed_config())
    tuner.set_status(status)
    assert tuner.tree.shape == "uniform" and older_status(tuner) == status
    assert tuner.verdict().warnings[0].startswith(
        "warning: this run's tree keeps the shape an older ringmaster gave it, which splits the EXPLICIT "
        "list of policy and the integer scale of n again once the values are used up, so candidates below "
        "the first level that differ only in them may be twins")


def test_an_integer_state_that_split_nothing_below_the_first_level_resumes_twin_free():
    status = json.loads(json.dumps(MAIN_INTEGER_STATE))
    status["tree"][4][0][4] = status["tree"][4][2][4] = None
    tuner = make_tuner(int_config())
    tuner.set_status(status)
    assert tuner.tree.shape == "twin-free" and older_status(tuner) == status


# Reports

def test_report_line_format():
    config = default_config(parameters=[Parameter("lv", scale=EXPLICIT([0, 1]), split=2),
                                        Parameter("sd", scale=LINEAR(0, 100), split=2,
                                                  format="sd: %d")],
                            initial_visits=2, initial_wins=1, summary_spec=[4],
                            number_of_games=8, description="Tiny study.")
    tuner = make_tuner(config)
    tuner.tree.root.children[3].games = 3
    tuner.tree.root.children[3].won = 2
    tuner.tree.root.children[1].games = 1
    tuner.tree.root.games, tuner.tree.root.won = 4, 2
    tuner.tree.root.children[0].games = tuner.tree.root.children[2].games = 1
    tuner.tree.root.games, tuner.tree.root.won = 6, 2
    text = report(tuner)
    lines = text.splitlines()
    assert lines[:6] == ["MCTS tuning event: mctstest", "Tiny study.", "board size: 13",
                         "komi: 7.5", "6/8 tuning games played", "state: running"]
    # Six games: the leader is far from clear, and the headline says so.
    assert lines[lines.index("Verdict: No clear winner yet") + 1] == (
        "  leading: lv: 1; sd: 75 [cell 1,1] 2/3 0.667 [0.208, 0.939]; "
        "lv: 0; sd: 25 [cell 0,0] 0/1 0.000 [0.000, 0.793]; "
        "lv: 0; sd: 75 [cell 0,1] 0/1 0.000 [0.000, 0.793]")
    assert "Leader: lv: 1; sd: 75 [cell 1,1]" in lines
    assert any(line.startswith("  (how it is chosen: the recommended candidate is") for line in lines)
    # Every candidate sits at the edge of a two-division range.
    assert "  warning: lv lies at the highest end of its range: the best value may be above it; " \
           "widen the range of lv and tune again" in lines
    assert "most visited candidates at depth 1" in text
    table = lines[lines.index(next(x for x in lines if x.startswith("cell "))):]
    assert table[0].split() == ["cell", "lv", "sd", "wins", "games", "win", "rate", "95%",
                                "interval"]
    assert table[2].split() == ["0,1", "lv:", "0", "sd:", "75", "0", "1", "0.000",
                                "[0.000,", "0.793]"]
    assert table[4].split() == ["1,1", "lv:", "1", "sd:", "75", "2", "3", "0.667",
                                "[0.208,", "0.939]", "<-", "leader"]
    assert "flatters" in text
    assert "(0,)" not in text and "[(" not in text
    assert lines[-2] == "opponent: opp"
    assert lines[-1].startswith("Elo: logistic")


def test_report_shows_best_candidate_elo_and_opponent_description():
    tuner = make_tuner(default_config(parameters=[Parameter("x", scale=LINEAR(0, 1), split=2)],
                                      exploration_coefficient=5.0))
    for _ in range(2):
        job = tuner.get_game()
        response = make_result(job, "w" if _ == 0 else "b")
        response.engine_names = {"opp": "opp engine:v1.2.3"}
        tuner.process_game_result(response)
    text = report(tuner)
    assert "opponent (opp): opp engine:v1.2.3" in text
    assert "Elo vs opponent " in text


def test_screen_report_shows_games_in_progress():
    tuner = make_tuner(default_config(number_of_running_simulations_to_show=2))
    jobs = [tuner.get_game() for _ in range(3)]
    text = report(tuner, "screen")
    progress = text.split("In progress:\n")[1].splitlines()
    assert len(progress) == 2
    assert progress[0] == f"game 0: {tuner.describe_path(tuple(jobs[0].game_data[1]))}"


def test_json_report():
    tuner = make_tuner(default_config(number_of_games=5))
    candidate_loses(tuner, tuner.get_game())
    data = json.loads(json.dumps(tuner.get_json_report()))
    assert data["competition_type"] == "mc_tuner"
    assert data["games_played"] == 1
    # One lost game recommends nothing (the "best" after one lost game).
    assert data["best"] is None and data["probability_best"] == 0.0
    assert len(data["candidates"]) == 120
    for child in tuner.tree.root.children:
        child.games, child.won = 2, 1
    tuner.tree.root.children[7].games = 3
    data = json.loads(json.dumps(tuner.get_json_report()))
    assert data["best"]["games"] == 3 and data["best"]["wins"] == 1
    # Numbers as numbers: the Elo of 1/3 is -400 log10(2).
    assert data["best"]["elo"] == pytest.approx(-400 * math.log10(2))
    assert all(isinstance(x, float) for x in (data["best"]["elo_low"], data["best"]["elo_high"]))


# Written by the ringmaster before first-level integer twins were refused (d9a8e36) for
# first_level_twins_config() after 12 games (seed 3, won or lost at random.Random(4)): a's 5 candidates
# are 1, 2, 2, 2, 3, so candidates 3 (a 2, b 1) and 5 (a 2, b 1) are twins.
OLD_FIRST_LEVEL_TWINS_STATE = {
    "scheduler": {"next_new": 12, "unfixed": []},
    "tree": [2, 1, 12, 8, [[2, 1, 0, 0, None], [2, 1, 0, 0, None], [2, 1, 2, 1, None], [2, 1, 8, 6, None],
                           [2, 1, 1, 1, None], [2, 1, 0, 0, None], [2, 1, 0, 0, None], [2, 1, 0, 0, None],
                           [2, 1, 0, 0, None], [2, 1, 1, 0, None]]],
    "opponent_description": None, "codes": ["a", "b"], "splits": [5, 2],
    "check_values": [["1", "0"], ["3", "1"]],
    "confirmation": {"parameters": None, "label": "", "scheduler": {"next_new": 0, "unfixed": []}, "won": 0,
                     "jigos": 0, "unknown": 0, "played": 0, "against": "opponent"},
    "opponent": "opp", "candidate_colour": "w"}


def first_level_twins_config():
    """a split 5 over 1, 2 and 3 (twins at the first level: refused for a new event), and b."""
    return default_config(initial_visits=2, initial_wins=1, exploration_coefficient=0.5, parameters=[
        Parameter("a", scale=LINEAR(1, 3, integer=True), split=5),
        Parameter("b", scale=LINEAR(0, 1, integer=True), split=2)])


FIRST_LEVEL_TWINS_WARNING = (
    "warning: parameter a: the first level splits its integer scale into 5, though it has only 3 different "
    "values at their centres (an older ringmaster allowed it), so candidates that differ only in it may be "
    "twins sharing the games of one; start afresh with `ringmaster reset` with split=3 for a tree without "
    "them")


def older_tuner(config):
    """A tuner loaded from config as for an event whose state is about to be loaded (no clean status)."""
    tuner = McTuner("mctstest")
    tuner.initialise_from_control_file(config)
    tuner.rng = random.Random(1)
    return tuner


def test_an_older_state_with_first_level_integer_twins_shows_reports_and_resumes_in_its_shape():
    tuner = older_tuner(first_level_twins_config())
    with pytest.raises(ControlFileError, match="^parameter a: 'split' is 5, but its integer scale has "):
        tuner.get_player_checks()   # `check`, with no state loaded
    tuner.set_status(json.loads(json.dumps(OLD_FIRST_LEVEL_TWINS_STATE)))
    assert tuner.tree.shape == "twin-free"
    assert tuner.tree.root == Node.from_json(OLD_FIRST_LEVEL_TWINS_STATE["tree"])
    assert [tuner.convert(tuner.tree.parameters_for_path((i,))) for i in (3, 5)] == [(2, 1), (2, 1)]
    # show and report: the verdict warns of the twins and names the remedy.
    assert tuner.verdict().warnings[0] == FIRST_LEVEL_TWINS_WARNING
    assert FIRST_LEVEL_TWINS_WARNING in report(tuner, "full")
    assert "\n12 tuning games played\n" in report(tuner)
    # resume: its games stay with their candidates, and more are played on the same 10.
    assert len(tuner.get_player_checks()) == 2
    for _ in range(8):
        job = tuner.get_game()
        candidate_wins(tuner, job)
    status = tuner.get_status()
    assert status["splits"] == [5, 2] and status["tree"][2] == 20 and len(status["tree"][4]) == 10
    assert all(node[2] >= old[2] and node[3] >= old[3]
               for node, old in zip(status["tree"][4], OLD_FIRST_LEVEL_TWINS_STATE["tree"][4]))


# What each candidate plays with, kept in the state (candidate_values)

def rescaled_config(a=None, b=None):
    """A depth-2 tree over a and b (by default 0 to 3 and 0 to 1), integer scales whose values decide how
    it splits below the first level."""
    return default_config(max_depth=2, initial_visits=2, initial_wins=1, parameters=[
        Parameter("a", scale=a or LINEAR(0, 3, integer=True), split=2),
        Parameter("b", scale=b or LINEAR(0, 1, integer=True), split=2)])


def played_rescaled_status():
    tuner = make_tuner(rescaled_config())
    for _ in range(60):
        candidate_wins(tuner, tuner.get_game())
    return json.loads(json.dumps(tuner.get_status()))


def test_a_scale_changed_with_the_same_ends_is_refused_where_it_moves_candidates_below_the_first_level():
    # a 0..3 split 2 is split again below the first level (0, 1 | 2, 3) and b 0..1 is not; with a 0.5..2.5
    # and b -1..2 (the same first-level candidates) it is the other way round, and the games recorded at
    # depth 2 would belong to other candidates (0 > 0 was a 0, b 0; it would be a 1, b -1).
    status = played_rescaled_status()
    assert sorted(len(child[4] or []) for child in status["tree"][4]) == [0, 0, 0, 2]
    changed = make_tuner(rescaled_config(LINEAR(0.5, 2.5, integer=True), LINEAR(-1, 2, integer=True)))
    with pytest.raises(CompetitionError) as info:
        changed.set_status(status)
    assert str(info.value) == (
        "parameter a: 'scale' (its values at the tree's 2 candidates at depth 2) is 1, 1 in the control file "
        "but was different for the games so far; put it back, or start afresh with `ringmaster reset`")


def test_an_unchanged_control_file_resumes_with_its_record_of_candidate_values():
    status = played_rescaled_status()
    assert [len(levels) for levels in status["candidate_values"]] == [2, 2]
    resumed = make_tuner(rescaled_config())
    resumed.set_status(status)
    assert resumed.get_status() == status
    # Another scale giving every candidate the same value is accepted.
    make_tuner(rescaled_config(LINEAR(0, 3.2, integer=True))).set_status(status)


def test_a_state_without_the_record_is_accepted_as_before_and_then_keeps_one():
    status = played_rescaled_status()
    del status["candidate_values"]
    changed = make_tuner(rescaled_config(LINEAR(0.5, 2.5, integer=True), LINEAR(-1, 2, integer=True)))
    changed.set_status(status)   # a state written before the record was kept: nothing to check against
    assert [len(levels) for levels in changed.get_status()["candidate_values"]] == [2, 2]


def test_the_record_notes_a_scale_failing_at_an_untried_candidate():
    def scale(f):
        return 1 / 0 if f > 0.8 else f
    tuner = make_tuner(default_config(max_depth=2, parameters=[Parameter("p", scale=scale, split=2)]))
    tuner.tree.expand(tuner.tree.root.children[1], 1)   # 0.625 and 0.875, which the scale can't give
    status = json.loads(json.dumps(tuner.get_status()))
    restored = make_tuner(default_config(max_depth=2, parameters=[Parameter("p", scale=scale, split=2)]))
    restored.set_status(status)
    assert restored.get_status()["candidate_values"] == status["candidate_values"]
