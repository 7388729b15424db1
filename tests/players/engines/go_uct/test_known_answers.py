"""Known-answer positions for both search engines: a winning capture, an atari escape, passes."""

import numpy as np
import pytest
from sgfmill import common

from players.engines.go_uct.engine import MctsGenerator, build_parser
from players.engines.go_uct.search import SearchConfig, make_searcher
from players.games.go import GoGame, state_from_diagram

# Every white stone has the single liberty C3: capturing there takes the board.
CAPTURE = """
. X X X X
X X O O X
X O . O X
X X O X X
. X X X .
"""

# Black's two stones are in atari; extending at D5 reaches open space.
ESCAPE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . O X O . .
. . O X O . .
. . . O . . .
. . . . . . .
"""

# White has passed; the white stone at B4 is dead inside Black's area.
DEAD_STONE = """
. . X O .
. O X O .
. . X O .
. . X O .
. . X O .
"""

# The same with the stone captured: passing now wins.
CAPTURED = """
. . X O .
. . X O .
. . X O .
. . X O .
. . X O .
"""


def vertex(game, action):
    return common.format_vertex(game.action_to_move(action))


def best_move(engine, diagram, komi, playouts, seed=1):
    state = state_from_diagram(diagram)
    game = GoGame(int(np.sqrt(len(state.board))) - 2, komi)
    searcher = make_searcher(game, SearchConfig(engine=engine, seed=seed,
                                                c=0.7 if engine == "generic" else 0.2))
    try:
        result = searcher.search(state, playouts)
    finally:
        searcher.close()
    return vertex(game, result.best_action)


@pytest.mark.parametrize("engine", ["fast", "generic"])
def test_capture_that_wins(engine):
    assert best_move(engine, CAPTURE, 20.5, 1000) == "C3"


@pytest.mark.parametrize("engine", ["fast", "generic"])
def test_atari_escape(engine):
    assert best_move(engine, ESCAPE, -8.5, 2000) == "D5"


def generator(*args):
    return MctsGenerator(build_parser().parse_args(["--playouts", "800", "--seed", "2",
                                                    "--resign", "0", *args]))


@pytest.mark.parametrize("engine", ["fast", "generic"])
def test_passes_when_passing_wins(engine):
    state = state_from_diagram(CAPTURED, passes=1)
    game = GoGame(5, 0.5)
    gen = generator("--engine", engine)
    assert gen(game, state, cleanup=False, seconds=None) == game.pass_action
    gen.close()


@pytest.mark.parametrize("engine", ["fast", "generic"])
def test_captures_dead_stone_before_passing(engine):
    state = state_from_diagram(DEAD_STONE, passes=1)
    game = GoGame(5, 0.5)
    assert game.area_score(state) - game.komi < 0  # passing now loses
    gen = generator("--engine", engine)
    action = gen(game, state, cleanup=False, seconds=None)
    gen.close()
    # Any move inside Black's area (not a pass, not into White's) keeps the win.
    assert action != game.pass_action
    assert vertex(game, action)[0] in "AB"
