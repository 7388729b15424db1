"""Opening suites: read and checked before the first game; pairs of games share one, colours swapped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sgfmill import sgf

from ringmaster.competitions.openings import opening_index, read_suite
from ringmaster.control_file import load_control_file
from ringmaster.errors import ControlFileError
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command

CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r})}}
board_size = {size}
komi = 0.5
scorer = 'internal'
{top}
matchups = [{matchups}]
"""


def write_suite(directory: Path, openings: dict[str, str]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in openings.items():
        (directory / name).write_text(text)
    return directory


GO5 = {"b.sgf": "(;SZ[5];B[cc];W[bb])", "a.sgf": "(;GM[1]SZ[5];B[bd];W[dd];B[db])",
       "c.sgf": "(;SZ[5]AB[aa][ee];W[cc])"}


def playoff(write_ctl, top, matchups="Matchup('p', 'q', number_of_games=8)", size=5,
            game=""):
    path = write_ctl(CTL.format(p=fake_engine_command("--name", "p"),
                                q=fake_engine_command("--name", "q"), size=size,
                                top=top + game, matchups=matchups))
    return load_control_file(path).make_competition()


def refused(write_ctl, top, match, **kwargs):
    with pytest.raises(ControlFileError, match=match):
        playoff(write_ctl, top, **kwargs)


@pytest.mark.parametrize("order", ["sequential", "random"])
def test_each_pair_of_games_shares_an_opening_and_every_opening_is_played_once_a_pass(order):
    chosen = [opening_index(n, 5, order, 7) for n in range(30)]
    assert all(chosen[2 * k] == chosen[2 * k + 1] for k in range(15))
    for start in (0, 10, 20):                        # each pass of 5 pairs plays all 5
        assert sorted(chosen[start:start + 10:2]) == [0, 1, 2, 3, 4]
    if order == "sequential":
        assert chosen[::2] == [0, 1, 2, 3, 4] * 3
    else:
        assert chosen[::2][:5] != chosen[::2][5:10] or chosen[::2][5:10] != chosen[::2][10:]
        assert [opening_index(n, 5, order, 8) for n in range(30)] != chosen   # another seed
    assert [opening_index(n, 5, order, 7) for n in range(30)] == chosen       # pure


def test_games_take_the_suites_openings_in_pairs_with_colours_swapped(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    comp = playoff(write_ctl, "openings = Openings('suite')")
    comp.set_clean_status()
    jobs = [comp.get_game() for _ in range(8)]
    names = [job.opening.name for job in jobs]
    assert names == ["a.sgf", "a.sgf", "b.sgf", "b.sgf", "c.sgf", "c.sgf", "a.sgf", "a.sgf"]
    assert [(j.player_b.code, j.player_w.code) for j in jobs[:2]] == [("p", "q"), ("q", "p")]
    assert jobs[0].opening.moves == (("b", (1, 1)), ("w", (1, 3)), ("b", (3, 3)))
    assert jobs[4].opening.setup == ((0, 4), (4, 0)) and jobs[4].opening.moves == (("w", (2, 2)),)
    m = comp.matchups["0"]
    assert m.alternating and m.game_settings["openings"].startswith("suite (3 openings, sequential")
    saved = comp.game_settings_by_key()["0"]
    assert saved["openings"] == m.game_settings["openings"] and saved["referee"] == "none"
    # The set-up stones need set_free_handicap of both players.
    (check,) = [c for c in comp.get_player_checks() if c.player.code == "p"]
    assert ("set_free_handicap", "the openings' set-up stones") in check.needs


def test_moves_cuts_the_openings_and_a_collection_file_names_each_game(write_ctl, tmp_path):
    (tmp_path / "all.sgf").write_text("(;SZ[5];B[cc];W[bb];B[dd])(;SZ[5];B[bc];W[cb];B[bb])")
    comp = playoff(write_ctl, "openings = Openings('all.sgf', moves=2)")
    comp.set_clean_status()
    jobs = [comp.get_game() for _ in range(4)]
    assert [j.opening.name for j in jobs] == ["all.sgf#1"] * 2 + ["all.sgf#2"] * 2
    assert jobs[0].opening.moves == (("b", (2, 2)), ("w", (3, 1)))
    assert "cut to 2 moves" in comp.matchups["0"].game_settings["openings"]


@pytest.mark.parametrize("files, options, message", [
    ({"a.sgf": "(;SZ[9];B[cc])"}, "", r"line 6: matchup 0: 'openings': a.sgf: board size 9, but "
                                      r"the games are played on 5x5"),
    ({"a.sgf": "(;SZ[5];B[cc];W[cc])"}, "", "a.sgf: move 2 is illegal: attempted move to "
                                             "occupied point C3"),
    ({"a.sgf": "(;SZ[5];B[cc];B[dd])"}, "", "a.sgf: move 2 is B's, but W is to play"),
    ({"a.sgf": "(;SZ[5];W[cc])"}, "", "a.sgf: move 1 is W's, but B is to play"),
    ({"a.sgf": "(;SZ[5]AW[aa];B[cc])"}, "", r"a.sgf: set-up stones \(AB/AW/AE\) can be sent to the "
                                              "engines only as Black's handicap-style stones"),
    ({"a.sgf": "(;SZ[5]AB[aa];W[cc])"}, "", "two or more AB"),
    ({"a.sgf": "(;SZ[5];B[cc];AB[aa])"}, "", "set-up stones after the first node"),
    ({"a.sgf": "(;SZ[5];B[];W[])"}, "", "a.sgf: the opening ends the game"),
    ({"a.sgf": "(;SZ[5]C[nothing])"}, "", "a.sgf: no move and no set-up stone"),
    ({"a.sgf": "(;GM[2]SZ[5];B[cc])"}, "", r"a.sgf: GM\[2\] is not go \(GM\[1\]\)"),
    ({"a.sgf": "not sgf"}, "", "a.sgf: not an SGF file"),
    ({"a.txt": "(;SZ[5];B[cc])"}, "", "suite holds no .sgf file"),
    ({"a.sgf": "(;SZ[5];B[aa];W[ee])", "b.sgf": "(;SZ[5];B[ee];W[aa])"}, "",
     r"b.sgf is the same opening as a.sgf \(under a symmetry of the board\): remove one$"),
    ({"a.sgf": "(;SZ[5];B[aa];W[ee])", "b.sgf": "(;SZ[5];B[ae];W[ca])"}, ", moves=1",
     "b.sgf is the same opening as a.sgf .* or cut them to more moves"),
    ({"a.sgf": "(;SZ[5];B[cc])"}, ", order='shuffled'", "'openings': 'order': must be one of "
                                                        "'sequential', 'random'"),
    ({"a.sgf": "(;SZ[5];B[cc])"}, ", moves=0", "'openings': 'moves': must be positive"),
    ({"a.sgf": "(;SZ[5];B[cc])"}, ", seed='x'", "'openings': 'seed': invalid integer"),
])
def test_a_suite_that_cant_be_played_is_refused_before_the_first_game(write_ctl, tmp_path, files,
                                                                      options, message):
    write_suite(tmp_path / "suite", files)
    refused(write_ctl, f"openings = Openings('suite'{options})", message)


def test_a_missing_suite_and_a_wrong_object_are_refused(write_ctl):
    refused(write_ctl, "openings = Openings('nowhere')", "'openings': nowhere: no such file")
    refused(write_ctl, "openings = 'suite'", r"'openings': must be Openings\('DIRECTORY")
    refused(write_ctl, "openings = Openings(3)", "the path must be a string")


def test_openings_refuse_alternating_false_handicap_pig_and_tuners(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    refused(write_ctl, "openings = Openings('suite')",
            "matchup 0: openings are played in colour-swapped pairs: remove alternating = False",
            matchups="Matchup('p', 'q', alternating=False)")
    refused(write_ctl, "openings = Openings('suite')\nhandicap = 2",
            "'openings' and 'handicap' can't go together")
    refused(write_ctl, "openings = Openings('suite')\ngame = 'pig'",
            "'openings': pig has no board to play openings on")
    path = write_ctl(f"""
        competition_type = 'mc_tuner'
        players = {{'o': Player({fake_engine_command()!r})}}
        board_size = 5
        komi = 0.5
        openings = Openings('suite')
        opponent = 'o'
        candidate_colour = 'b'
        parameters = [Parameter('x', scale=LINEAR(0, 1), split=2)]
        def make_candidate(x):
            return Player({fake_engine_command()!r})
        """, name="tune.ctl")
    with pytest.raises(ControlFileError, match="'openings': the tuners play no openings"):
        load_control_file(path).make_competition()


def test_a_matchup_has_its_own_suite_and_a_shared_one_is_read_once(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    write_suite(tmp_path / "two", {"x.sgf": "(;SZ[5];B[cc])"})
    comp = playoff(write_ctl, "openings = Openings('suite')", matchups=(
        "Matchup('p', 'q', id='a'), Matchup('q', 'p', id='b'), "
        "Matchup('p', 'q', id='c', openings=Openings('two'))"))
    suites = {mid: m.suite for mid, m in comp.matchups.items()}
    assert suites["a"] is suites["b"] and len(suites["a"].openings) == 3
    assert [o.name for o in suites["c"].openings] == ["x.sgf"]


def test_a_matchup_with_openings_none_plays_none_whatever_the_default(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    sprt = "sprt = {'elo0': 0, 'elo1': 150, 'alpha': 0.05, 'beta': 0.05}"
    comp = playoff(write_ctl, f"openings = Openings('suite')\n{sprt}", matchups=(
        "Matchup('p', 'q', id='a'), "
        "Matchup('p', 'q', id='b', openings=None, sprt=None, board_size=None)"))
    a, b = comp.matchups["a"], comp.matchups["b"]
    assert a.suite is not None and a.sprt is not None and a.alternating
    assert b.suite is None and b.game_settings["openings"] is None and b.sprt is None
    assert not b.alternating
    assert b.game_settings["board_size"] == 5   # None where None is no value leaves the default
    comp = playoff(write_ctl, "handicap = 2", matchups=(
        "Matchup('p', 'q', id='a'), Matchup('p', 'q', id='b', handicap=None)"), size=9)
    assert [m.game_settings["handicap"] for m in comp.matchups.values()] == [2, None]



def othello_sgf(moves: str) -> str:
    return f"(;GM[2]SZ[4]{moves})"


def test_othello_suites_take_the_standard_start_and_add_the_passes_the_rules_force(
        write_ctl, tmp_path):
    write_suite(tmp_path / "suite", {
        "a.sgf": othello_sgf("AB[bb][cc]AW[bc][cb];B[bd]"),   # AB/AW: the standard start
        "b.sgf": othello_sgf(";B[bd];W[ad]")})
    comp = playoff(write_ctl, "openings = Openings('suite')", size=4, game="\ngame = 'othello'")
    assert [o.moves for o in comp.matchups["0"].suite.openings] == [
        (("b", (0, 1)),), (("b", (0, 1)), ("w", (0, 0)))]
    write_suite(tmp_path / "bad", {"a.sgf": othello_sgf("AB[aa];B[bd]")})
    refused(write_ctl, "openings = Openings('bad')", "can be sent to the engines only as Black's",
            size=4, game="\ngame = 'othello'")


def test_an_othello_move_out_of_turn_is_taken_as_the_forced_pass_it_follows(write_ctl, tmp_path):
    from ringmaster.rules.othello import OthelloRules
    from tests.ringmaster.game.test_opening import forced_pass_line
    line = forced_pass_line(OthelloRules(4))
    *before, (passer, _) = line
    rules = OthelloRules(4)
    for colour, move in before:
        rules.play(colour, move)
    rules.play(passer, None)
    mover = "b" if passer == "w" else "w"
    after = rules.legal_placements(mover)[0]
    text = "".join(f";{c.upper()}[{sgf_point(m)}]" for c, m in before)
    write_suite(tmp_path / "suite", {"a.sgf": othello_sgf(text + f";{mover.upper()}[{sgf_point(after)}]")})
    comp = playoff(write_ctl, "openings = Openings('suite')", size=4, game="\ngame = 'othello'")
    (opening,) = comp.matchups["0"].suite.openings
    assert opening.moves == (*before, (passer, None), (mover, after))


def sgf_point(move) -> str:
    row, col = move
    return "abcd"[col] + "abcd"[3 - row]


def run(ctl, *options):
    result = cli.invoke("run", ctl, "-q", *options, channel_factory=fake_engine_channel)
    assert result.exit_code == 0, result.output
    return result


def check_records(ctl: str, games: int) -> list[str]:
    """Each game's record starts from its opening with its colours; the openings, in order."""
    comp = load_control_file(ctl).make_competition()
    m = comp.matchups["0"]
    suite = m.suite
    names = []
    for number in range(games):
        path = Path(ctl[:-4] + f".games/{m.game_id(number)}.sgf")
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        opening = suite.opening_for_game(number)
        assert game.get_root().get("ON") == opening.name
        moves = [n.get_move() for n in game.get_main_sequence()[1:]]
        assert tuple(moves[:len(opening.moves)]) == opening.moves
        black = game.get_root().get("PB")
        assert black.endswith("(p)" if number % 2 == 0 else "(q)")
        names.append(opening.name)
    return names


def test_a_resumed_run_gives_each_game_its_opening(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    ctl = write_ctl(CTL.format(p=fake_engine_command("--name", "p"),
                               q=fake_engine_command("--name", "q"), size=5,
                               top="openings = Openings('suite', order='random', seed=3)",
                               matchups="Matchup('p', 'q', number_of_games=12)"))
    run(ctl, "-g", "5")
    run(ctl)
    names = check_records(ctl, 12)
    assert names[::2][:3] != ["a.sgf", "b.sgf", "c.sgf"] or names[::2][3:] != names[::2][:3]
    report = json.loads(cli.invoke("show", ctl, "--json", channel_factory=fake_engine_channel).output)
    openings = report["matchups"][0]["openings"]
    assert sorted(row["opening"] for row in openings["by_opening"]) == ["a.sgf", "b.sgf", "c.sgf"]
    assert sum(row["games"] for row in openings["by_opening"]) == 12
    assert sum(openings["pairs"]) == 6
    assert {g["opening"] for g in report["games"]} == {"a.sgf", "b.sgf", "c.sgf"}


def test_a_changed_suite_is_refused_on_resume_and_an_old_state_loads(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    ctl = write_ctl(CTL.format(p=fake_engine_command("--name", "p"),
                               q=fake_engine_command("--name", "q"), size=5,
                               top="openings = Openings('suite')",
                               matchups="Matchup('p', 'q', number_of_games=4)"))
    run(ctl, "-g", "2")
    (tmp_path / "suite" / "b.sgf").write_text("(;SZ[5];B[cc];W[bc])")
    result = cli.invoke("run", ctl, "-q", channel_factory=fake_engine_channel)
    assert result.exit_code == 1
    assert "openings of matchup 0 is suite (3 openings, sequential; digest" in result.output
    assert "but was suite (3 openings" in result.output
    # A state saved before openings existed holds no 'openings': it means none.
    status = Path(ctl[:-4] + ".status")
    document = json.loads(status.read_text())
    for settings in document["game_settings"].values():
        del settings["openings"], settings["referee"]
    status.write_text(json.dumps(document))
    Path(ctl[:-4] + ".journal").unlink(missing_ok=True)
    Path(ctl).write_text(Path(ctl).read_text().replace("openings = Openings('suite')", ""))
    run(ctl)
    state = json.loads(status.read_text())
    assert len(state["competition"]["results"]["0"]) == 4


@pytest.mark.integration
def test_worker_processes_give_each_game_its_opening(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    ctl = write_ctl(CTL.format(p=fake_engine_command("--name", "p"),
                               q=fake_engine_command("--name", "q"), size=5,
                               top="openings = Openings('suite', order='random')",
                               matchups="Matchup('p', 'q', number_of_games=8)"))
    result = cli.invoke("run", ctl, "-q", "-j", "2", "-g", "3")
    assert result.exit_code == 0, result.output
    result = cli.invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    assert len(check_records(ctl, 8)) == 8


ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("suite, game, size", [("go9", "go", 9), ("go19", "go", 19),
                                               ("othello8", "othello", 8)])
def test_the_suites_we_ship_pass_the_checks_and_are_balanced_as_measured(suite, game, size):
    loaded = read_suite(str(ROOT / "openings" / suite), suite, game, size, None, "sequential", 0)
    assert len(loaded.openings) >= 6
    # Each opening's comment gives Black's margin as reports/make_openings.py measured it:
    # as many openings Black won as White won.
    margins = []
    for opening in loaded.openings:
        root = sgf.Sgf_game.from_bytes((ROOT / "openings" / suite / opening.name).read_bytes()).get_root()
        margins.append(float(root.get("C").rsplit("black - white ", 1)[1]))
    assert sum(m > 0 for m in margins) == sum(m < 0 for m in margins) == len(margins) / 2
