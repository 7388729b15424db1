"""The AlphaZero GTP engine, on Othello and Go networks, in process and through the ringmaster."""

from __future__ import annotations

import random
import sys

import pytest
import torch

from players.engines import alphazero as alphazero_player
from players.errors import EXIT_CHECKPOINT, EXIT_USAGE
from players.nets.checkpoint import save_checkpoint
from players.nets.model import NetConfig, PolicyValueNet, make_net
from ringmaster.rules.othello import OthelloRules

torch.set_num_threads(1)  # small nets: more threads only contend on 2 shared cores


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig("othello6", 6, 3, 37, channels=8, blocks=1, value_hidden=16))
    path = tmp_path_factory.mktemp("model") / "tiny.pt"
    save_checkpoint(path, net, {"iteration": 0})
    return path


def engine_and_adapter(model_path, *extra: str):
    options = alphazero_player.build_parser().parse_args(
        ["--model", str(model_path), "--device", "cpu", "--seed", "1", *extra])
    return alphazero_player.build_engine(options)


def engine_for(model_path, *extra: str):
    return engine_and_adapter(model_path, *extra)[0]


def ok(engine, command: str, *args: str) -> str:
    is_failure, text, _ = engine.run_command(command, list(args))
    assert not is_failure, f"{command} {args}: {text}"
    return text


def fails(engine, command: str, *args: str) -> str:
    is_failure, text, _ = engine.run_command(command, list(args))
    assert is_failure, f"{command} {args} should fail"
    return text


def test_error_responses(model_path):
    engine = engine_for(model_path, "--playouts", "8")
    assert "unacceptable size" in fails(engine, "boardsize", "8")
    fails(engine, "boardsize", "six")
    fails(engine, "boardsize")
    ok(engine, "boardsize", "6")
    fails(engine, "play", "b")
    fails(engine, "play", "x", "C2")
    assert fails(engine, "play", "b", "Z9") == "invalid vertex"
    assert fails(engine, "play", "b", "A1") == "illegal move"      # turns nothing over
    assert fails(engine, "play", "b", "pass") == "illegal move"    # black has placements
    fails(engine, "genmove")
    fails(engine, "komi", "x")
    fails(engine, "undo")
    assert ok(engine, "known_command", "genmove") == "true"
    ok(engine, "play", "b", "C2")                                  # flips C3
    assert "#" in ok(engine, "showboard")
    ok(engine, "undo")


@pytest.mark.parametrize("budget", [["--playouts", "16", "--batch", "4"], ["--seconds", "0.01"]])
def test_whole_game_checked_by_the_referee(model_path, budget):
    """Engine vs random: every engine move is legal under the referee's rules, passes included."""
    engine = engine_for(model_path, *budget)
    ok(engine, "boardsize", "6")
    ok(engine, "clear_board")
    rules = OthelloRules(6)
    rng = random.Random(2)
    colour = "b"
    while not rules.is_over():
        if colour == "b":
            vertex = ok(engine, "genmove", "b")
            move = rules.parse_move(vertex)
        else:
            options = rules.legal_placements("w")
            move = rng.choice(options) if options else None
            ok(engine, "play", "w", rules.format_move(move))
        assert rules.check_move(colour, move) is None
        rules.play(colour, move)
        colour = "w" if colour == "b" else "b"
    assert ok(engine, "genmove", "b") == "pass"
    score = rules.area_score()
    expected = "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"
    assert ok(engine, "final_score") == expected


def test_implicit_pass_for_an_opponent_without_moves(model_path):
    """A controller may leave out a forced pass; the engine passes for that side itself."""
    engine = engine_for(model_path, "--playouts", "4")
    rng = random.Random(5)
    skipped = 0
    for _ in range(60):
        ok(engine, "clear_board")
        rules = OthelloRules(6)
        colour = "b"
        while not rules.is_over():
            options = rules.legal_placements(colour)
            move = rng.choice(options) if options else None
            if move is None and rng.random() < 0.5:
                skipped += 1
            else:
                ok(engine, "play", colour, rules.format_move(move))
            rules.play(colour, move)
            colour = "w" if colour == "b" else "b"
        score = rules.area_score()
        assert ok(engine, "final_score") == ("0" if score == 0 else
                                             f"B+{score:g}" if score > 0 else f"W+{-score:g}")
    assert skipped > 0


@pytest.mark.integration
def test_engine_through_the_ringmaster(model_path, tmp_path):
    """A real game: our engine and the random engine as subprocesses, refereed by the ringmaster."""
    from ringmaster.game.job import GameJob, PlayerSpec
    from ringmaster.game.play import play_game_job
    az = PlayerSpec("az", (sys.executable, "-m", "players", "alphazero", "--model", str(model_path),
                           "--device", "cpu", "--playouts", "8"))
    rnd = PlayerSpec("rnd", (sys.executable, "-m", "players", "random-othello", "--seed", "4"))
    job = GameJob(game_id="g0", player_b=az, player_w=rnd, board_size=6, komi=0, game="othello",
                  sgf_dirname=str(tmp_path))
    result = play_game_job(job)
    assert not result.game_result.is_forfeit, result.warnings
    assert result.game_result.sgf_result[0] in "BW0"
    assert result.moves >= 28
    assert "GM[2]" in (tmp_path / "g0.sgf").read_text()


def test_bad_options(model_path, tmp_path, capsys):
    assert alphazero_player.main(["--model", str(tmp_path / "none.pt")]) == EXIT_CHECKPOINT
    assert alphazero_player.main(["--model", str(model_path), "--batch", "0"]) == 2
    with pytest.raises(SystemExit):
        alphazero_player.main(["--model", str(model_path), "--playouts", "5", "--seconds", "1"])


def one_line_error(argv: list[str], code: int) -> str:
    """What alphazero says, as one line on stderr, when it refuses to start with argv."""
    import io
    from contextlib import redirect_stderr
    err = io.StringIO()
    with redirect_stderr(err):
        assert alphazero_player.main(argv) == code
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("alphazero: "), lines
    return lines[0]


def test_bad_budgets_and_devices_are_refused_in_one_line_naming_the_option(model_path):
    for budget in (["--seconds", "-1"], ["--seconds", "0"]):
        assert "--seconds must be a positive number" in one_line_error(
            ["--model", str(model_path), *budget], 2)
    assert "--seconds must be a finite number, not nan" in one_line_error(
        ["--model", str(model_path), "--seconds", "nan"], 2)
    assert "--playouts must be at least 1, not 0" in one_line_error(
        ["--model", str(model_path), "--playouts", "0"], 2)
    for device in ("gpu", "cpu:1", "cuda:x"):
        assert one_line_error(["--model", str(model_path), "--device", device], EXIT_USAGE) == \
            f"alphazero: --device {device!r}: expected auto, cpu, cuda or cuda:N"
    if not torch.cuda.is_available():
        assert "--device cuda: CUDA isn't available here" in one_line_error(
            ["--model", str(model_path), "--device", "cuda"], EXIT_USAGE)
    assert one_line_error(["--model", str(model_path), "--threads", "0"], EXIT_USAGE) == \
        "alphazero: --threads must be at least 1, not 0"


def test_unusable_checkpoints_are_refused_in_one_line_naming_the_file(model_path, tmp_path):
    garbage = tmp_path / "garb.pt"
    garbage.write_text("this is not a network\n")
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(model_path.read_bytes()[:2000])
    for path in (garbage, truncated):
        assert one_line_error(["--model", str(path), "--device", "cpu"], EXIT_CHECKPOINT).startswith(
            f"alphazero: {path}: not a checkpoint, or a corrupt or truncated one")
    pig = tmp_path / "pig.pt"
    save_checkpoint(pig, make_net(NetConfig("pig50", 1, 8, 2, channels=8, blocks=1,
                                            value_hidden=16, kind="mlp")))
    assert one_line_error(["--model", str(pig), "--device", "cpu"], EXIT_CHECKPOINT) == \
        f"alphazero: {pig}: a network for pig50; alphazero needs one for Othello (othelloN) or Go (goN)"


def test_help_suggests_commands_it_accepts(capsys):
    with pytest.raises(SystemExit):
        alphazero_player.main(["--help"])
    assert "boardsize 9" not in " ".join(capsys.readouterr().out.split())


def test_sample_plies_vary_the_opening(model_path):
    def opening(*extra: str) -> tuple[str, ...]:
        engine = engine_for(model_path, "--playouts", "8", *extra)
        return tuple(ok(engine, "genmove", c) for c in "bwbw")
    assert len({opening("--seed", str(s)) for s in range(6)}) == 1
    assert len({opening("--seed", str(s), "--sample-plies", "4") for s in range(6)}) > 1


@pytest.fixture(scope="module")
def go_model_path(tmp_path_factory):
    """An untrained network for 5x5 Go (none is committed)."""
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig("go5", 5, 4, 26, channels=8, blocks=1, value_hidden=16))
    path = tmp_path_factory.mktemp("model") / "go5.pt"
    save_checkpoint(path, net, {"iteration": 0})
    return path


def test_go_network_scores_shows_the_board_and_lets_either_colour_move(go_model_path):
    engine = engine_for(go_model_path, "--playouts", "8")
    assert "unacceptable size" in fails(engine, "boardsize", "9")
    ok(engine, "boardsize", "5")
    ok(engine, "komi", "0.5")
    assert ok(engine, "final_score") == "W+0.5"
    ok(engine, "play", "b", "C3")
    ok(engine, "play", "b", "B2")                          # GTP lets black move twice in Go
    assert ok(engine, "final_score") == "B+24.5"
    move = ok(engine, "genmove", "w")
    assert move not in ("C3", "B2", "resign")
    board = ok(engine, "showboard").splitlines()
    assert board[3].split() == ["3", ".", ".", "X", ".", "."]
    assert board[-1].split() == list("ABCDE")
    ok(engine, "undo")
    assert ok(engine, "final_score") == "B+24.5"


def test_go_network_plays_under_a_clock(go_model_path):
    engine, adapter = engine_and_adapter(go_model_path)
    generator = adapter.generate
    budgets = []
    search = generator.search
    generator.search = lambda seconds: budgets.append(seconds) or search(seconds)
    ok(engine, "genmove", "b")
    assert budgets == [None]                               # the default playouts
    ok(engine, "time_settings", "0", "1", "1")
    ok(engine, "time_left", "w", "0.3", "1")
    ok(engine, "genmove", "w")
    assert budgets[-1] == pytest.approx(0.9 * 0.3 - 0.1)


def test_tree_is_kept_between_moves_and_dropped_after_undo(model_path):
    engine, adapter = engine_and_adapter(model_path, "--playouts", "32")
    generator = adapter.generate
    ok(engine, "genmove", "b")
    root = generator.tree.root
    assert root.state == adapter.state and root.expanded          # the chosen move's subtree
    reply = root.actions[max(range(len(root.N)), key=root.N.__getitem__)]
    ok(engine, "play", "w", "ABCDEF"[reply % 6] + str(reply // 6 + 1))
    assert generator.tree.root.state == adapter.state and generator.tree.root.expanded
    ok(engine, "undo")
    assert generator.tree.root.state == adapter.state and not generator.tree.root.expanded


def test_go_engine_plays_on_past_the_self_play_move_limit(go_model_path):
    """Self-play's Go ends a game at 3 n^2 moves (75 on 5x5); under GTP the controller ends it."""
    engine, adapter = engine_and_adapter(go_model_path, "--playouts", "4")
    for _ in range(40):                                    # 80 moves, the board still empty
        ok(engine, "play", "b", "pass")
        ok(engine, "play", "w", "pass")
    ok(engine, "play", "b", "C3")
    assert adapter.state.moves == 81
    assert ok(engine, "genmove", "w") not in ("pass", "resign", "C3")
    assert ok(engine, "genmove", "b") not in ("pass", "resign")
