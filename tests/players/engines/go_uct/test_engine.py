"""GTP conformance of `python -m players mcts`: every command, and errors for bad arguments."""

import time

import pytest

from players.engines.go_uct.engine import build_parser, main, make_engine

REQUIRED = ["protocol_version", "name", "version", "known_command", "list_commands",
            "boardsize", "clear_board", "komi", "play", "genmove", "undo", "final_score",
            "quit", "time_settings", "time_left", "kgs-genmove_cleanup", "kgs-time_settings",
            "kata-time_settings", "fixed_handicap", "place_free_handicap", "set_free_handicap"]


@pytest.fixture(params=["fast", "generic"])
def engine(request):
    options = build_parser().parse_args(
        ["--engine", request.param, "--playouts", "60", "--seed", "3", "--resign", "0"])
    engine, generator = make_engine(options)
    yield engine
    generator.close()


def ok(engine, line):
    command, *args = line.split()
    failed, text, _ = engine.run_command(command, args)
    assert not failed, f"{line!r} failed: {text}"
    return text


def fails(engine, line):
    command, *args = line.split()
    failed, text, _ = engine.run_command(command, args)
    assert failed, f"{line!r} should fail, got {text!r}"
    return text


def test_administrative_commands(engine):
    assert ok(engine, "protocol_version") == "2"
    assert ok(engine, "name") and ok(engine, "version")
    listed = ok(engine, "list_commands").split("\n")
    for command in REQUIRED:
        assert command in listed
        assert ok(engine, f"known_command {command}") == "true"
    assert ok(engine, "known_command frobnicate") == "false"
    fails(engine, "known_command")
    fails(engine, "frobnicate")


@pytest.mark.parametrize("size", [5, 9, 13, 19])
def test_boardsize_range(engine, size):
    ok(engine, f"boardsize {size}")
    ok(engine, "play b A1")
    letters = "ABCDEFGHJKLMNOPQRST"
    ok(engine, f"play w {letters[size - 1]}{size}")
    fails(engine, f"play b {letters[size - 1]}{size + 1}")


@pytest.mark.parametrize("bad", ["4", "20", "x", "", "9.5"])
def test_boardsize_errors(engine, bad):
    fails(engine, f"boardsize {bad}")


def test_komi(engine):
    ok(engine, "komi 6.5")
    ok(engine, "komi -3")
    for bad in ["", "x", "nan", "inf"]:
        fails(engine, f"komi {bad}")


def test_play_errors(engine):
    ok(engine, "boardsize 9")
    ok(engine, "play b E5")
    fails(engine, "play w E5")        # occupied
    fails(engine, "play x D4")        # colour
    fails(engine, "play b Z4")        # vertex
    fails(engine, "play b")           # arguments
    fails(engine, "play b D4 D5")
    ok(engine, "play w pass")
    ok(engine, "play b d4")           # case-insensitive vertex


def test_play_accepts_self_capture_and_refuses_ko(engine):
    ok(engine, "boardsize 5")
    # White stones around A1: B1, A2; Black playing A1 is self-capture, which the referee allows.
    ok(engine, "play w B1")
    ok(engine, "play w A2")
    ok(engine, "play b A1")
    board = ok(engine, "showboard")
    assert board.splitlines()[-2].split()[1] == "."  # A1 is empty again
    # A ko: Black captures at C2, White may not retake at once.
    ok(engine, "clear_board")
    for line in ["play b C1", "play b B2", "play b C3", "play w D1", "play w E2", "play w D3",
                 "play w C2", "play b D2"]:
        ok(engine, line)
    fails(engine, "play w C2")
    ok(engine, "play w A5")
    ok(engine, "play b A4")
    ok(engine, "play w C2")


def test_genmove_plays_a_legal_move_and_undo(engine):
    ok(engine, "boardsize 7")
    ok(engine, "play b D4")
    move = ok(engine, "genmove w")
    assert move != "D4"
    if move.lower() != "pass":
        fails(engine, f"play b {move}")
    ok(engine, "undo")
    ok(engine, "undo")
    fails(engine, "undo")
    fails(engine, "genmove")
    fails(engine, "genmove purple")


def test_final_score(engine):
    ok(engine, "boardsize 5")
    ok(engine, "komi 0.5")
    assert ok(engine, "final_score") == "W+0.5"
    ok(engine, "play b C3")
    assert ok(engine, "final_score") == "B+24.5"
    ok(engine, "komi 25")
    assert ok(engine, "final_score") == "0"


def test_time_commands(engine):
    ok(engine, "boardsize 9")
    ok(engine, "time_settings 30 0 0")
    ok(engine, "time_left b 10 0")
    ok(engine, "time_left w 5 3")
    assert ok(engine, "genmove b")
    for bad in ["time_settings 30 0", "time_settings a b c", "time_settings -1 0 0"]:
        fails(engine, bad)
    for bad in ["time_left b 10", "time_left x 10 0", "time_left b -1 0", "time_left b t 0"]:
        fails(engine, bad)


def test_cleanup_genmove(engine):
    ok(engine, "boardsize 5")
    move = ok(engine, "kgs-genmove_cleanup b")
    assert move.lower() != "pass"
    fails(engine, "kgs-genmove_cleanup")


def test_quit_ends_session(engine):
    failed, _, end = engine.run_command("quit", [])
    assert not failed and end


def test_help_shows_every_default_and_says_it_speaks_gtp():
    text = " ".join(build_parser().format_help().split())
    assert "It speaks GTP version 2 on stdin and stdout" in text
    for option, default in (("--playouts", "2000"), ("--rave", "591.2"), ("--policy", "heavy"),
                            ("--mode", "serial"), ("--resign", "0.1"), ("--expand-after", "2")):
        assert option in text
        assert f"(default: {default})" in text, option
    assert "(default 0.0334 fast, 0.7 generic)" in text and "(default: None)" not in text


@pytest.mark.parametrize("engine_kind", ["fast", "generic"])
def test_a_clock_has_the_searcher_built_before_the_first_genmove(engine_kind):
    options = build_parser().parse_args(["--engine", engine_kind, "--playouts", "60", "--seed", "3"])
    engine, generator = make_engine(options)
    searchers = []
    original = generator.searcher
    generator.searcher = lambda game: searchers.append(game) or original(game)
    try:
        ok(engine, "boardsize 7")
        ok(engine, "komi 8.5")
        assert searchers == []                  # nothing built without a clock
        ok(engine, "kata-time_settings fischer 5 0.1")
        assert [(g.size, g.komi) for g in searchers] == [(7, 8.5)]
        ok(engine, "kgs-time_settings absolute 5")
        assert len(searchers) == 1              # the same board: built once
        ok(engine, "genmove b")
    finally:
        generator.close()


@pytest.mark.parametrize("options", [["--time-manage"], ["--time-extend", "2"], ["--time-early"],
                                     ["--time-manage", "--time-extend", "1.5", "--time-early"]])
def test_time_management_plays_under_a_clock_and_measures_its_lag(options):
    parsed = build_parser().parse_args(["--playouts", "100000", "--seed", "3", *options])
    engine, generator = make_engine(parsed)
    try:
        ok(engine, "boardsize 7")
        ok(engine, "kata-time_settings absolute 3")
        left = {"b": 3.0, "w": 3.0}
        for colour in "bwbw":
            ok(engine, f"time_left {colour} {left[colour]} 0")
            started = time.monotonic()
            assert ok(engine, f"genmove {colour}").lower() != "resign"
            if colour == "w":
                left["w"] -= time.monotonic() - started + 0.02
        # white's second move tells what its first cost beyond its search; black's clock
        # never moved (no sample below 0)
        white, black = generator.meters[1], generator.meters[0]
        assert len(white.samples) == 1 and 0.0 <= white.lag() < 0.5
        assert not black.samples
    finally:
        generator.close()


def test_time_management_needs_the_fast_engine(capsys):
    assert main(["--engine", "generic", "--time-early"]) == 2
    assert "need --engine fast" in capsys.readouterr().err
    assert main(["--engine", "generic", "--lgrf"]) == 2
    assert "need --engine fast" in capsys.readouterr().err
    assert main(["--time-extend", "0.5"]) == 2
    assert main(["--time-extend", "2", "--time-max", "nan"]) == 2


def test_playout_knowledge_options_reach_the_search():
    from players.engines.go_uct.engine import MctsGenerator
    default = MctsGenerator(build_parser().parse_args([])).config.uct
    assert default.ladders and not (default.ladder_chase or default.lgrf or default.capture_left)
    chosen = MctsGenerator(build_parser().parse_args(
        ["--no-ladders", "--ladder-chase", "--lgrf", "--capture-left"])).config.uct
    assert not chosen.ladders and chosen.ladder_chase and chosen.lgrf and chosen.capture_left


def test_engine_defaults_are_the_tuned_search_and_time_management_for_fast_only():
    from players.engines.go_uct.engine import MctsGenerator, with_engine_defaults
    fast = MctsGenerator(build_parser().parse_args([]))
    assert fast.options.time_manage and fast.options.time_early
    assert fast.options.time_extend == 2.0 and fast.manages_time
    uct = fast.config.uct
    assert (uct.c, uct.rave_equiv, uct.prior_weight, uct.prior_even) == (0.0334, 591.2, 27.79, 14.41)
    assert (uct.prior_pattern, uct.prior_edge, uct.prior_near, uct.prior_atari) == (
        0.8104, 1.215, 1.165, 0.065)
    generic = with_engine_defaults(build_parser().parse_args(["--engine", "generic"]))
    assert generic.c == 0.7 and not (generic.time_manage or generic.time_early)
    assert generic.time_extend == 0.0
    named = MctsGenerator(build_parser().parse_args(
        ["--no-time-manage", "--time-extend", "0", "--no-time-early", "--c", "0.2"]))
    assert not named.manages_time and named.config.uct.c == 0.2
