"""The Pig engines over GTP: pig-target, reg_genmove, play with the referee's dice."""

import io
from pathlib import Path

import pytest

from players.engines.pig_hold import HoldAt, make_pig_engine
from players.engines.pig_mcts import PigSearch, rollout_for
from players.errors import EXIT_CHECKPOINT, EXIT_USAGE
from players.games.pig import HOLD, ROLL, Pig, PigState
from ringmaster.gtp.engine import run_gtp_session

ROOT = Path(__file__).resolve().parents[3]


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
                               "play w roll 3", "play b", "pig-target \u00b2", "pig-target \u0663"])
    assert all(r.startswith("?") for r in replies[:1] + replies[2:])
    assert replies[-2:] == ["? pig-target needs a positive integer"] * 2   # digits int() refuses


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
        assert "unknown policy 'greedy'" in str(exc)
    else:
        raise AssertionError("expected ValueError")


def test_an_opponent_model_rollout_races_for_the_searcher_only():
    game = Pig(50)
    state = PigState((10, 45), 22, 0, 10)
    search = PigSearch("progressive", playouts=600, seconds=None, c=1.0, rollout="race:hold20", seed=0)
    assert search(game, state, cleanup=False, seconds=None) == ROLL
    for spec in ("race:hold20", "hold25", "race"):
        assert callable(rollout_for(spec, game, 1))


def test_the_prior_evaluator_favours_each_players_policy_choice():
    from players.engines.pig_mcts import PriorRolloutEvaluator
    from players.games.pig import HOLD20, RACE50
    game = Pig(50)
    evaluator = PriorRolloutEvaluator(game, rollout_for("race:hold20", game, 0), 0, RACE50, HOLD20, 0.8,
                                      seed=1)
    # Player 0 (racing) at 10 v 45 with 25 rolls on; player 1 (Hold20) at 45 v 10 with 25 holds.
    priors, values = evaluator([PigState((10, 45), 25, 0, 9), PigState((10, 45), 25, 1, 9)])
    assert priors[0].tolist() == [pytest.approx(0.2), 0.8] and priors[1].tolist() == [0.8, pytest.approx(0.2)]
    assert len(values) == 2


def test_pig_mcts_with_a_prior_follows_the_policy_where_it_is_clearly_right():
    game = Pig(50)
    search = PigSearch("hidden", playouts=300, seconds=None, c=2.0, rollout="race:hold20",
                       prior="race:hold20", seed=0)
    assert search(game, PigState((10, 45), 22, 0, 10), cleanup=False, seconds=None) == ROLL
    assert search(game, PigState((40, 10), 12, 0, 10), cleanup=False, seconds=None) == HOLD


def test_leaf_and_prior_rollouts_set_how_many_rollouts_value_a_leaf():
    from players.engines.pig_mcts import PriorRolloutEvaluator
    from players.games.pig import HOLD20, RACE50
    calls = []

    def rollout(state, rng):
        calls.append(state.rolling)
        return 0.0

    evaluator = PriorRolloutEvaluator(Pig(50), rollout, 0, RACE50, HOLD20, 0.8, chance_rollouts=5, rollouts=3)
    evaluator([PigState((0, 0), 4, 0, 0), PigState((0, 0), 4, 0, 0, True)])
    assert calls.count(False) == 3 and calls.count(True) == 5
    with pytest.raises(ValueError):
        PigSearch("hidden", playouts=10, seconds=None, c=1.0, leaf_rollouts=0)


@pytest.mark.parametrize("name, defaults", [
    ("pig-hold", [("--hold-at", "20")]),
    ("pig-mcts", [("--chance-mode", "progressive"), ("--c", "1.0"),
                  ("--progressive-widening-alpha", "0.5"), ("--prior-virtual-visits", "1.0")]),
])
def test_help_shows_every_default_and_says_it_speaks_gtp(name, defaults, capsys):
    from players.engines import pig_hold, pig_mcts
    main = {"pig-hold": pig_hold.main, "pig-mcts": pig_mcts.main}[name]
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "It speaks GTP version 2 on stdin and stdout" in text and "reg_genmove b" in text
    for option, default in defaults:
        assert f"{option} " in text and f"(default: {default})" in text, option
    assert "(default: None)" not in text


def refusal(capsys, main, argv: list[str], status: int = EXIT_USAGE) -> str:
    """The one line an engine prints on stderr as it refuses argv (with that exit status)."""
    assert main(argv) == status
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("argv, message", [
    (["--playouts", "0"], "--playouts must be at least 1, not 0"),
    (["--playouts", "-5"], "--playouts must be at least 1, not -5"),
    (["--seconds", "-1"], "--seconds must be a positive number of seconds, not -1"),
    (["--seconds", "0"], "--seconds must be a positive number of seconds, not 0"),
    (["--prior-weight", "0.2"], "--prior-weight must be at least 0.5 and below 1"),
    (["--rollouts", "hold0"], "unknown policy 'hold0' (expected random, holdN, race or MINE:THEIRS)"),
    (["--progressive-widening-alpha", "2"], "progressive_widening_alpha must be in (0, 1]"),
])
def test_pig_mcts_refuses_a_budget_that_searches_nothing(capsys, argv, message):
    from players.engines import pig_mcts
    assert refusal(capsys, pig_mcts.main, argv) == f"pig-mcts: {message}"


def test_pig_mcts_refuses_a_network_for_another_game_or_none(capsys, tmp_path):
    """Checked as it loads, not at the first reg_genmove, naming the file and its game."""
    from players.engines import pig_mcts
    from players.nets.checkpoint import save_checkpoint
    from players.nets.model import NetConfig, PolicyValueNet
    othello = tmp_path / "othello6.pt"
    save_checkpoint(othello, PolicyValueNet(NetConfig("othello6", 6, 3, 37, channels=4, blocks=1,
                                                      value_hidden=8)))
    assert refusal(capsys, pig_mcts.main, ["--model", str(othello)], EXIT_CHECKPOINT) == \
        f"pig-mcts: {othello}: a network for othello6; pig-mcts needs one for Pig (pigN)"
    garbage = tmp_path / "garb.pt"
    garbage.write_text("not a network")
    assert refusal(capsys, pig_mcts.main, ["--model", str(garbage)], EXIT_CHECKPOINT).startswith(
        f"pig-mcts: {garbage}: not a checkpoint, or a corrupt or truncated one")


def test_a_network_engine_plays_only_its_networks_target():
    # The network's features are scores scaled by the target it was trained for: fed a game to
    # 100 it saw every score as twice what it was, and played on.
    from players.engines.pig_mcts import network_evaluator
    evaluate, target = network_evaluator(str(ROOT / "players/models/pig50_hidden_iter6.pt"))
    assert target == 50
    priors, values = evaluate([PigState((0, 0), 0, 0, 0)])
    assert priors.shape == (1, 2) and values.shape == (1,)
    engine, adapter = make_pig_engine(HoldAt(20), "net", only_target=target)
    assert engine.run_command("pig-target", ["100"])[:2] == (
        True, "this engine's network plays target 50 only")
    assert engine.run_command("pig-target", ["50"])[0] is False and adapter.game.target == 50
    free, adapter = make_pig_engine(HoldAt(20), "rollouts")
    assert free.run_command("pig-target", ["100"])[0] is False and adapter.game.target == 100
    assert isinstance(adapter.game, Pig)
