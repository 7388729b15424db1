"""The Pig engines over GTP: pig-target, reg_genmove, play with the referee's dice."""

import io

from players.engines.pig_hold import HoldAt, make_pig_engine
from players.engines.pig_mcts import PigSearch, rollout_for
from players.games.pig import HOLD, ROLL, Pig, PigState
from ringmaster.gtp.engine import run_gtp_session


def session(engine, commands):
    out = io.StringIO()
    run_gtp_session(engine, io.StringIO("".join(c + "\n" for c in commands)), out)
    return [block for block in out.getvalue().split("\n\n") if block]


def test_hold20_dialogue_with_the_referee():
    engine, adapter = make_pig_engine(HoldAt(20), "hold")
    replies = session(engine, ["pig-target 30", "clear_board", "reg_genmove b", "play b roll 6",
                               "play b roll 6", "play b roll 6", "play b roll 4", "reg_genmove b",
                               "play b hold", "reg_genmove b", "reg_genmove w", "play w roll 1"])
    assert replies[2] == "= roll" and replies[7] == "= hold"
    assert replies[9].startswith("? it is the other colour's turn")
    assert adapter.game.target == 30
    assert adapter.state == PigState((22, 0), 0, 0, 2, False)


def test_bad_moves_and_targets_are_refused():
    engine, _ = make_pig_engine(HoldAt(20), "hold")
    replies = session(engine, ["pig-target 0", "clear_board", "play b hold", "play b roll 9",
                               "play w roll 3", "play b"])
    assert all(r.startswith("?") for r in replies[:1] + replies[2:])


def test_pig_mcts_holds_when_holding_wins_and_rolls_at_zero_in_every_mode():
    game = Pig(50)
    for mode in ("hidden", "sampling", "progressive", "expectimax"):
        search = PigSearch(mode, playouts=200, seconds=None, c=0.5, seed=1)
        assert search(game, PigState((40, 45), 12, 0, 20), cleanup=False, seconds=None) == HOLD
        assert search(game, PigState((0, 0), 0, 0, 0), cleanup=False, seconds=None) == ROLL


def test_pig_mcts_rolls_on_a_turn_total_of_two_at_the_start():
    for mode in ("hidden", "progressive"):
        search = PigSearch(mode, playouts=1000, seconds=None, c=1.0, seed=0)
        assert search(Pig(50), PigState((0, 0), 2, 0, 0), cleanup=False, seconds=None) == ROLL


def test_rollout_policies_by_name():
    game = Pig()
    assert rollout_for("hold20", game) and rollout_for("random", game)
    try:
        rollout_for("greedy", game)
    except ValueError as exc:
        assert "unknown rollout policy" in str(exc)
    else:
        raise AssertionError("expected ValueError")


def test_an_opponent_model_rollout_races_for_the_searcher_only():
    game = Pig(50)
    state = PigState((10, 45), 22, 0, 10)
    search = PigSearch("progressive", playouts=600, seconds=None, c=1.0, rollout="race:hold20", seed=0)
    assert search(game, state, cleanup=False, seconds=None) == ROLL
    for spec in ("race:hold20", "hold25", "race"):
        assert callable(rollout_for(spec, game, 1))
