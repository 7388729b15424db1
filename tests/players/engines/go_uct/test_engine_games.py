"""Every move our engine generates is legal for the referee, over whole self-play games."""

import pytest
from sgfmill import common

from players.engines.go_uct.engine import build_parser, make_engine
from ringmaster.rules.go import GoRules


@pytest.mark.parametrize("engine_name, size, seed", [
    ("fast", 5, 1), ("fast", 7, 2), ("fast", 9, 3), ("generic", 5, 4), ("generic", 7, 5),
])
def test_self_play_moves_are_legal(engine_name, size, seed):
    options = build_parser().parse_args(
        ["--engine", engine_name, "--playouts", "40", "--seed", str(seed), "--resign", "0",
         "--policy", "light" if seed % 2 else "heavy"])
    engine, generator = make_engine(options)
    engine.run_command("boardsize", [str(size)])
    engine.run_command("komi", ["0.5"])
    rules = GoRules(size)
    colour = "b"
    moves = 0
    try:
        while not rules.is_over() and moves < 4 * size * size:
            failed, vertex, _ = engine.run_command("genmove", [colour])
            assert not failed, vertex
            move = common.move_from_vertex(vertex, size)
            assert rules.check_move(colour, move) is None, vertex
            rules.play(colour, move)
            colour = "w" if colour == "b" else "b"
            moves += 1
    finally:
        generator.close()
    assert rules.is_over()  # the engines pass once the board is settled
    failed, score, _ = engine.run_command("final_score", [])
    margin = rules.area_score() - 0.5
    assert score == f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"
