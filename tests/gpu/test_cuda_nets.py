"""GPU tests (marked gpu; skipped without CUDA): reduced precision inference, training, self-play."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from players.alphazero.selfplay import SelfPlayConfig, play_games
from players.games.othello import Othello
from players.games.positions import random_states
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device
from players.nets.model import PolicyValueNet, default_config
from players.nets.train import TrainConfig, make_optimizer, train_steps

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]


def net_and_planes(size: int, count: int):
    game = Othello(size)
    enc = encoder_for(game)
    torch.manual_seed(0)
    net = PolicyValueNet(default_config(game.name, size, enc.num_planes, game.num_actions)).eval()
    states = random_states(game, count)
    return game, net, states, enc.encode(states)


def test_auto_device_is_cuda():
    assert resolve_device("auto").type == "cuda"


def test_bf16_inference_matches_cpu_fp32():
    game, net, states, planes = net_and_planes(8, 512)
    cpu_logits, cpu_values = LocalPredictor(net, "cpu").predict(planes)
    gpu = LocalPredictor(PolicyValueNet(net.config).eval(), "cuda")
    gpu.model.load_state_dict(net.state_dict())
    assert gpu.reduced
    logits, values = gpu.predict(planes)
    assert np.abs(values - cpu_values).max() < 0.05
    agree = (logits.argmax(1) == cpu_logits.argmax(1)).mean()
    assert agree > 0.9


def test_training_step_and_self_play_on_cuda():
    game, net, states, planes = net_and_planes(6, 64)
    net = net.to("cuda")
    policies = np.full((len(states), game.num_actions), 1.0 / game.num_actions, np.float32)
    values = np.zeros(len(states), np.float32)

    class Fixed:
        def sample(self, n):
            return planes[:n], policies[:n], values[:n]

    before = [p.detach().clone() for p in net.parameters()]
    terms = train_steps(net, make_optimizer(net, TrainConfig()), Fixed(), steps=2, batch_size=32,
                        device="cuda")
    assert np.isfinite(terms["loss"])
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))
    evaluator = StateEvaluator(game, LocalPredictor(net, "cuda"))
    examples, stats = play_games(game, evaluator.evaluate, 4,
                                 SelfPlayConfig(num_simulations=8, concurrent_games=4),
                                 np.random.default_rng(0))
    assert stats.games == 4 and len(examples) == stats.positions
