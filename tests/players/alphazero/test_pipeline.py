"""Tests for self-play, replay, training, arena, Elo and the resumable pipeline (tiny nets, CPU)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from players.alphazero.arena import RandomAgent, SearchAgent, play_match
from players.alphazero.elo import elo_difference, fit_elo
from players.alphazero.pipeline import Pipeline, RunConfig, main
from players.alphazero.replay import ReplayBuffer
from players.alphazero.selfplay import Examples, SelfPlayConfig, play_games
from players.errors import EXIT_RUN_DIR, EXIT_USAGE
from players.games.othello import Othello
from players.nets.checkpoint import load_checkpoint
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator
from players.nets.model import NetConfig, PolicyValueNet
from players.nets.train import TrainConfig, evaluate_losses, make_optimizer, train_steps

torch.set_num_threads(1)  # small nets: more threads only contend on 2 shared cores

TINY = dict(channels=8, blocks=1)


def tiny_net(game) -> PolicyValueNet:
    torch.manual_seed(0)
    enc = encoder_for(game)
    return PolicyValueNet(NetConfig(game.name, game.size, enc.num_planes, game.num_actions,
                                    value_hidden=16, **TINY)).eval()


def test_self_play_examples_are_consistent():
    game = Othello(4)
    evaluator = StateEvaluator(game, LocalPredictor(tiny_net(game)))
    examples, stats = play_games(game, evaluator.evaluate, 6, SelfPlayConfig(
        num_simulations=8, concurrent_games=4, temperature_moves=2), np.random.default_rng(0))
    assert stats.games == 6 and stats.positions == len(examples) == sum(stats.game_lengths)
    assert stats.black_wins + stats.white_wins + stats.draws == 6
    assert examples.planes.shape == (len(examples), 3, 4, 4)
    assert np.allclose(examples.policies.sum(axis=1), 1)
    # the search policy only covers legal moves (legal plane, or pass when it is empty)
    legal = examples.planes[:, 2].reshape(len(examples), 16) > 0
    no_move = ~legal.any(axis=1)
    assert np.all(examples.policies[:, :16][~legal] == 0)
    assert np.all(examples.policies[no_move, 16] == 1)
    assert set(np.unique(examples.values)) <= {-1.0, 0.0, 1.0}
    # one batched call per round for all concurrent games: far fewer calls than positions
    assert evaluator.calls < evaluator.positions / 2


def test_replay_window_and_disk_round_trip(tmp_path):
    def shard(n, fill):
        return Examples(np.full((n, 3, 4, 4), fill, np.float16), np.full((n, 17), 1 / 17, np.float32),
                        np.full(n, fill, np.float32))
    buffer = ReplayBuffer(max_positions=25)
    for it in range(1, 5):
        buffer.add(it, shard(10, it))
        ReplayBuffer.save_shard(tmp_path, it, shard(10, it))
    assert [it for it, _ in buffer.shards] == [2, 3, 4] and len(buffer) == 30
    loaded = ReplayBuffer.load(tmp_path, 25, up_to_iteration=3)
    assert [it for it, _ in loaded.shards] == [1, 2, 3]
    assert np.array_equal(loaded.arrays().values, buffer.arrays().values[:0].tolist()
                          + [1] * 10 + [2] * 10 + [3] * 10)


def test_sampler_augments_consistently():
    game = Othello(6)
    evaluator = StateEvaluator(game, LocalPredictor(tiny_net(game)))
    examples, _ = play_games(game, evaluator.evaluate, 2, SelfPlayConfig(num_simulations=4),
                             np.random.default_rng(1))
    buffer = ReplayBuffer(1000)
    buffer.add(1, examples)
    planes, policies, values = buffer.sampler(np.random.default_rng(2)).sample(64)
    legal = planes[:, 2].reshape(64, 36) > 0
    assert np.all(policies[:, :36][~legal] == 0)
    assert planes.dtype == np.float32 and values.shape == (64,)


def test_learning_a_trivial_position_set():
    """Value = who has more discs, policy = the lowest legal point: both must be learned."""
    game = Othello(4)
    rng = np.random.default_rng(0)
    states, state = [], game.initial_state()
    while len(states) < 400:
        if game.is_terminal(state):
            state = game.initial_state()
        if state.moves:
            states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    planes = encoder_for(game).encode(states)
    values = np.sign(planes[:, 0].sum(axis=(1, 2)) - planes[:, 1].sum(axis=(1, 2)) + 0.5).astype(np.float32)
    policies = np.zeros((len(states), 17), np.float32)
    for i, s in enumerate(states):
        policies[i, min(game.legal_actions(s))] = 1
    data = Examples(planes, policies, values)

    class Fixed:
        def sample(self, n):
            idx = rng.integers(0, len(data), n)
            return data.planes[idx], data.policies[idx], data.values[idx]

    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig("othello4", 4, 3, 17, channels=16, blocks=1, value_hidden=32))
    before = evaluate_losses(net, planes, policies, values)
    train_steps(net, make_optimizer(net, TrainConfig(learning_rate=3e-3)), Fixed(), steps=100,
                batch_size=64)
    after = evaluate_losses(net, planes, policies, values)
    assert after["policy_loss"] < 0.35 * before["policy_loss"]
    assert after["value_loss"] < 0.5 * before["value_loss"]
    with torch.no_grad():
        logits, v = net(torch.from_numpy(planes))
    assert np.mean(np.sign(v.numpy()) == values) > 0.85
    assert np.mean(logits.argmax(1).numpy() == policies.argmax(1)) > 0.85


def test_arena_and_elo():
    game = Othello(4)
    rng = np.random.default_rng(3)
    result = play_match(game, RandomAgent(game, rng, "a"), RandomAgent(game, rng, "b"), 10)
    assert result.games == 10
    agent = SearchAgent(game, StateEvaluator(game, LocalPredictor(tiny_net(game))).evaluate, 4, rng)
    assert play_match(game, agent, RandomAgent(game, rng), 4).games == 4

    class First:
        name = "first"

        def __init__(self):
            self.seen = set()

        def select(self, states):
            self.seen.update((s.own, s.opp) for s in states)
            return [min(game.legal_actions(s)) for s in states]

    fixed = First()
    play_match(game, fixed, First(), 8)
    assert len(fixed.seen) <= 16                     # deterministic: the same game every time
    varied = First()
    result = play_match(game, varied, First(), 8, opening_plies=2, rng=rng)
    assert result.games == 8 and len(varied.seen) > len(fixed.seen)

    assert elo_difference(0.75, 400) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(1.0, 10) == pytest.approx(-400 * np.log10(1 / 0.95 - 1))
    ratings = fit_elo([("a", "random", 300, 400), ("b", "a", 200, 400)], anchor="random")
    assert ratings["random"] == 0
    assert ratings["a"] == pytest.approx(190, abs=5)
    assert ratings["b"] == pytest.approx(ratings["a"], abs=5)


def test_pipeline_iterates_and_resumes(tmp_path):
    config = RunConfig(game="othello4", games_per_iteration=4, concurrent_games=4, simulations=6,
                       eval_every=1, eval_games=4, eval_simulations=4, min_train_steps=3,
                       batch_size=16, **TINY)
    run = tmp_path / "run"
    logs: list[str] = []
    pipeline = Pipeline(run, config, device="cpu", log=logs.append)
    row = pipeline.run_iteration()
    assert row["iteration"] == 1 and "elo" in row and row["vs_random_games"] == 4
    model, meta = load_checkpoint(run / "checkpoints" / "iter_0001.pt")
    assert meta["iteration"] == 1 and model.config.channels == 8
    # resume from the directory (a different config on the command line is ignored)
    again = Pipeline(run, RunConfig(game="othello6"), device="cpu", log=logs.append)
    assert again.iteration == 1 and again.config.game == "othello4"
    assert len(again.buffer) == row["positions"]
    for a, b in zip(pipeline.model.state_dict().values(), again.model.state_dict().values()):
        assert torch.equal(a, b)
    again.run(iterations=2)
    rows = json.loads((run / "metrics.json").read_text())
    assert [r["iteration"] for r in rows] == [1, 2]
    with open(run / "metrics.csv") as f:
        assert len(list(csv.DictReader(f))) == 2
    assert "<polyline" in (run / "metrics.svg").read_text()
    assert (run / "checkpoints" / "iter_0002.pt").exists()


def test_train_command_line(tmp_path, capsys):
    assert main(["--run-dir", str(tmp_path / "r"), "--game", "othello4", "--iterations", "1",
                 "--games-per-iteration", "2", "--concurrent-games", "2", "--simulations", "4",
                 "--eval-every", "0", "--channels", "8", "--blocks", "1", "--batch-size", "8",
                 "--min-train-steps", "1", "--device", "cpu"]) == 0
    assert "iter    1" in capsys.readouterr().out
    assert main(["--run-dir", str(tmp_path / "x"), "--game", "chess8"]) == 2


def test_seed_settings_on_pig_from_the_command_line(tmp_path):
    run = tmp_path / "pig"
    assert main(["--run-dir", str(run), "--game", "pig50", "--chance-mode", "sampling",
                 "--iterations", "1", "--games-per-iteration", "2", "--concurrent-games", "2",
                 "--simulations", "4", "--eval-every", "0", "--batch-size", "16",
                 "--optimizer", "cyclic-nesterov", "--afterstate-values", "0",
                 "--min-train-steps", "3", "--device", "cpu"]) == 0
    config = json.loads((run / "config.json").read_text())
    assert config["optimizer"] == "cyclic-nesterov" and config["chance_targets"] is True
    assert config["afterstate_values"] is False  # "0" is no, not a non-empty string
    trainer = torch.load(run / "trainer.pt", weights_only=False)
    group = trainer["optimizer"]["param_groups"][0]
    assert group["nesterov"] and group["lr"] == pytest.approx(1e-3)  # the cycle ends where it began
    assert main(["--run-dir", str(tmp_path / "y"), "--game", "pig50", "--optimizer", "adam"]) == 2
    with pytest.raises(SystemExit):
        main(["--run-dir", str(tmp_path / "z"), "--afterstate-values", "maybe"])


def test_the_cyclic_schedule_rises_to_its_peak_and_falls_back():
    from players.nets.train import make_schedule

    net = PolicyValueNet(NetConfig("othello4", 4, 3, 17, channels=4, blocks=1, value_hidden=8))
    config = TrainConfig(optimizer="cyclic-nesterov", learning_rate=1e-3, max_learning_rate=1e-2)
    optimizer = make_optimizer(net, config)
    schedule = make_schedule(optimizer, config, 10)
    rates, momenta = [], []
    for _ in range(10):
        rates.append(optimizer.param_groups[0]["lr"])
        momenta.append(optimizer.param_groups[0]["momentum"])
        optimizer.step()
        schedule.step()
    rates.append(optimizer.param_groups[0]["lr"])
    peak = int(np.argmax(rates))
    assert rates[0] == pytest.approx(1e-3) and rates[-1] == pytest.approx(1e-3)
    assert rates[peak] == pytest.approx(1e-2, rel=0.1) and 3 <= peak <= 7
    assert all(a < b for a, b in zip(rates[:peak], rates[1:peak + 1]))
    assert all(a > b for a, b in zip(rates[peak:-1], rates[peak + 1:]))
    assert momenta[0] == pytest.approx(0.9) and min(momenta) == pytest.approx(0.8, abs=0.02)
    assert make_schedule(optimizer, TrainConfig(), 10) is None  # AdamW keeps its rate


@pytest.mark.parametrize("game", ["go5", "othello8",
                                  pytest.param("go9", marks=pytest.mark.slow)])
def test_pipeline_runs_other_games_unchanged(tmp_path, game):
    config = RunConfig(game=game, games_per_iteration=2, concurrent_games=2, simulations=2,
                       eval_every=1, eval_games=2, eval_simulations=2, min_train_steps=1,
                       batch_size=8, **TINY)
    pipeline = Pipeline(tmp_path / game, config, device="cpu", log=lambda line: None)
    row = pipeline.run_iteration()
    assert row["games"] == 2 and row["positions"] > 0 and "elo" in row
    model, meta = load_checkpoint(tmp_path / game / "checkpoints" / "iter_0001.pt")
    assert model.config.game == game and meta["positions"] == row["positions"]


def test_the_arena_throws_pigs_dice_and_its_agents_see_decisions_only():
    from players.games.pig import ROLL, Pig, hold_at_policy
    game = Pig(20)

    class Holder:
        def __init__(self, name, hold_at):
            self.name, self.hold_at, self.seen = name, hold_at, []

        def select(self, states):
            self.seen += states
            return [hold_at_policy(game, s, self.hold_at) for s in states]

    a, b = Holder("a", 10), Holder("b", 1)
    result = play_match(game, a, b, 20, rng=np.random.default_rng(1))
    assert result.games == 20 and result.wins > result.losses   # holding at 1 is hopeless
    assert not any(game.is_chance(s) for s in a.seen + b.seen)
    assert {s.turn_total for s in a.seen} - {0} and ROLL in game.legal_actions(a.seen[0])


@pytest.mark.parametrize("mode", ["hidden", "sampling"])
def test_pig_training_evaluates_and_rates_as_othello_does(tmp_path, mode):
    # Pig's iterations skipped evaluation without a word: no vs random score, no Elo.
    config = RunConfig(game="pig20", chance_mode=mode, games_per_iteration=2, concurrent_games=2,
                       simulations=4, eval_every=1, eval_games=4, eval_simulations=4,
                       min_train_steps=1, batch_size=8, **TINY)
    pipeline = Pipeline(tmp_path / "pig", config, device="cpu", log=lambda line: None)
    row = pipeline.run_iteration()
    assert row["vs_random_games"] == 4 and row["previous"] == "iter_0000" and "elo" in row
    results = json.loads((tmp_path / "pig" / "elo.json").read_text())["results"]
    assert [r[:2] for r in results] == [["iter_0001", "random"], ["iter_0001", "iter_0000"]]


def test_pig_self_play_records_chance_states_with_a_value_target_only():
    import numpy as np

    from players.alphazero.selfplay import SelfPlayConfig, play_games
    from players.games.pig import Pig
    from players.mcts.chance import CHANCE_MODES, chance_rule, game_for_mode

    def evaluate(states):
        return np.full((len(states), 2), 0.5), np.zeros(len(states))

    for mode in CHANCE_MODES:
        game = game_for_mode(Pig(20), mode, 1)
        for record in (True, False):
            config = SelfPlayConfig(num_simulations=8, concurrent_games=2, chance_targets=record)
            examples, stats = play_games(game, evaluate, 2, config, np.random.default_rng(0),
                                         chance=chance_rule(mode))
            assert stats.games == 2 and len(examples) == stats.positions > 0
            rolling = examples.planes[:, 6, 0, 0] == 1.0  # the die in the air
            decided = examples.policies.sum(axis=1)
            # Decision states carry a visit distribution; chance states none, and only
            # when recorded and when the search stops at them (not in the hidden mode).
            assert np.allclose(decided[~rolling], 1.0) and np.all(decided[rolling] == 0.0)
            assert rolling.any() == (record and mode != "hidden")
            assert sum(stats.game_lengths) == int((~rolling).sum())
            assert set(np.unique(examples.values)) <= {-1.0, 1.0}


def test_the_policy_loss_ignores_examples_without_a_policy_target():
    from players.nets.train import losses

    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig("othello4", 4, 3, 17, channels=4, blocks=1, value_hidden=8)).eval()
    planes = torch.randn(6, 3, 4, 4)
    policies = torch.softmax(torch.randn(6, 17), dim=1)
    values = torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0, -1.0])
    with_targets = losses(net, planes[:3], policies[:3], values[:3])
    blanked = policies.clone()
    blanked[3:] = 0.0
    mixed = losses(net, planes, blanked, values)
    # The policy term averages over the three examples that have a target ...
    assert torch.allclose(mixed["policy_loss"], with_targets["policy_loss"], atol=1e-6)
    # ... while the value term averages over all six.
    _, predicted = net(planes)
    assert torch.allclose(mixed["value_loss"], torch.mean((predicted - values) ** 2), atol=1e-6)


def test_train_help_lists_the_games_and_says_what_0_channels_and_blocks_mean():
    from players.alphazero.pipeline import build_parser
    from players.games import GAMES
    text = " ".join(build_parser().format_help().split())
    trained = [name for name in GAMES if name != "go-light"]   # no network plays go-light
    assert all(name in text for name in trained) and "othello6, othello8, go9, pig50" in text
    assert "go-light" not in text
    assert "--channels CHANNELS the network's width" in text and "0: the game's default, 32" in text
    assert "--blocks BLOCKS the network's depth" in text and "3 blocks for boards up to 6x6" in text


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A run directory after one tiny iteration (copy it before breaking it)."""
    config = RunConfig(game="othello4", games_per_iteration=2, concurrent_games=2, simulations=2,
                       eval_every=0, min_train_steps=1, batch_size=8, **TINY)
    run = tmp_path_factory.mktemp("finished") / "run"
    row = Pipeline(run, config, device="cpu", log=lambda line: None).run_iteration()
    return run, row["positions"]


def broken_copy(finished_run, tmp_path, break_it) -> Path:
    run = tmp_path / "run"
    shutil.copytree(finished_run[0], run)
    break_it(run)
    return run


def train_refusal(capsys, argv: list[str], status: int = EXIT_USAGE) -> str:
    """The one line `train` prints on stderr as it refuses argv (with that exit status)."""
    assert main(argv) == status
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("train: "), lines
    return lines[0]


@pytest.mark.parametrize("name, break_it, says", [
    ("trainer.pt", lambda run: (run / "trainer.pt").unlink(), "missing, and the run can't resume"),
    ("trainer.pt", lambda run: (run / "trainer.pt").write_bytes(b"PK\x03\x04 cut short"),
     "corrupt or truncated"),
    ("state.json", lambda run: (run / "state.json").write_text('{"iter\x01": 1}'),
     "corrupt, not JSON at line 1 column 7"),
    ("state.json", lambda run: (run / "state.json").write_text('{"games": 1}'),
     "not a run's state (it lacks iteration, train_steps"),
    ("config.json", lambda run: (run / "config.json").unlink(), "can't read it"),
    # A new run started here overwrote the run's trainer.pt, config and checkpoints.
    ("state.json", lambda run: (run / "state.json").unlink(),
     "missing, where {run} holds a run's config.json, trainer.pt, checkpoints, replay"),
    ("replay/iter_00001.npz", lambda run: (run / "replay" / "iter_00001.npz").write_bytes(b"PK"),
     "a corrupt replay shard; delete it to resume without its positions"),
])
def test_a_missing_or_corrupt_run_file_is_named_with_what_to_do(finished_run, tmp_path, capsys,
                                                                 name, break_it, says):
    run = broken_copy(finished_run, tmp_path, break_it)
    line = train_refusal(capsys, ["--run-dir", str(run), "--device", "cpu", "--iterations", "1"],
                         EXIT_RUN_DIR)
    assert line.startswith(f"train: {run / name}: {says.format(run=run)}")
    if name != "replay/iter_00001.npz":
        assert line.endswith("; restore it from a copy, or start a new run in another --run-dir")


def test_a_missing_replay_shard_is_a_warning_counting_the_positions_lost(finished_run, tmp_path):
    run = broken_copy(finished_run, tmp_path, lambda run: (run / "replay" / "iter_00001.npz").unlink())
    logs: list[str] = []
    pipeline = Pipeline(run, RunConfig(), device="cpu", log=logs.append)
    assert len(pipeline.buffer) == 0 and pipeline.iteration == 1
    assert logs[0] == (f"warning: {run / 'replay' / 'iter_00001.npz'} is missing: the replay buffer "
                       f"resumes without {finished_run[1]} positions (self-play refills it)")
    pipeline.run_iteration()                              # and the run goes on
    assert len(pipeline.buffer) > 0


def test_bad_settings_leave_no_run_directory_behind(tmp_path, capsys):
    for game in ("bogus", "go1", "othello5"):
        train_refusal(capsys, ["--run-dir", str(tmp_path / game), "--game", game])
        assert not (tmp_path / game).exists()
    train_refusal(capsys, ["--run-dir", str(tmp_path / "adam"), "--optimizer", "adam"])
    assert not (tmp_path / "adam").exists()
    assert train_refusal(capsys, ["--run-dir", str(tmp_path / "gpu"), "--device", "gpu"]) == \
        "train: --device 'gpu': expected auto, cpu, cuda or cuda:N"
    assert not (tmp_path / "gpu").exists()
    (tmp_path / "file.pt").write_text("x")
    assert train_refusal(capsys, ["--run-dir", str(tmp_path / "file.pt")], EXIT_RUN_DIR) == \
        f"train: --run-dir {tmp_path / 'file.pt'}: a file, not a directory; give a directory for the run"
    assert train_refusal(capsys, ["--run-dir", str(tmp_path / "threads"), "--threads", "-1"]) == \
        "train: --threads -1: expected a count of threads (0: torch's default)"
    assert train_refusal(capsys, ["--run-dir", str(tmp_path / "mode"), "--game", "pig20",
                                  "--chance-mode", "dice"]).startswith("train: unknown chance mode 'dice'")


def test_a_game_no_network_plays_is_refused_in_one_line_naming_the_games_train_plays(tmp_path, capsys):
    # go-light (the random engines' Go) has no encoder: train ended with a ValueError's traceback.
    line = train_refusal(capsys, ["--run-dir", str(tmp_path / "light"), "--game", "go-light"])
    assert line == ("train: --game 'go-light': no network plays go-light games; expected a sized name "
                    "(goN, othelloN, pigN: go9, othello6, pig50) or one of go, go-sensible, othello, pig")
    assert not (tmp_path / "light").exists()
    assert train_refusal(capsys, ["--run-dir", str(tmp_path / "chess"), "--game", "chess"]) == (
        "train: --game 'chess': unknown game; expected a sized name "
        "(goN, othelloN, pigN: go9, othello6, pig50) or one of go, go-sensible, othello, pig")


def test_a_run_directory_that_cant_be_made_is_named_in_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    run = tmp_path / "file" / "run"
    line = train_refusal(capsys, ["--run-dir", str(run), "--game", "othello4", "--channels", "8",
                                  "--blocks", "1", "--device", "cpu"], EXIT_RUN_DIR)
    assert line.startswith(f"train: {run}: can't write the new run's files (Not a directory)")


@pytest.mark.parametrize("break_it", [
    # Another torch file where trainer.pt should be: a checkpoint, not a run's trainer state.
    lambda run: shutil.copy(run / "checkpoints" / "iter_0001.pt", run / "trainer.pt"),
    # A trainer state whose weights don't fit the network its config describes.
    lambda run: torch.save({**torch.load(run / "trainer.pt", weights_only=False),
                            "config": {**torch.load(run / "trainer.pt", weights_only=False)["config"],
                                       "channels": 16}}, run / "trainer.pt"),
    lambda run: torch.save({**torch.load(run / "trainer.pt", weights_only=False), "rng": 3},
                           run / "trainer.pt"),
])
def test_a_foreign_trainer_file_is_corrupt_in_one_line(finished_run, tmp_path, capsys, break_it):
    run = broken_copy(finished_run, tmp_path, break_it)
    line = train_refusal(capsys, ["--run-dir", str(run), "--device", "cpu"], EXIT_RUN_DIR)
    assert line == (f"train: {run / 'trainer.pt'}: corrupt or truncated; restore it from a copy, "
                    "or start a new run in another --run-dir")


def test_a_bug_while_resuming_is_a_traceback_not_a_corrupt_file(finished_run, tmp_path, monkeypatch):
    """Only what the file itself can get wrong is reported as the file's fault."""
    run = broken_copy(finished_run, tmp_path, lambda run: None)

    def broken_init(self, config):
        raise RuntimeError("a bug in building the network")
    monkeypatch.setattr(PolicyValueNet, "__init__", broken_init)
    with pytest.raises(RuntimeError, match="a bug in building the network"):
        main(["--run-dir", str(run), "--device", "cpu", "--iterations", "1"])
