"""Tests for the policy/value net, checkpoints and batched inference on the CPU."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import torch

from players.games.othello import Othello
from players.games.positions import random_states
from players.nets.checkpoint import load_checkpoint, save_checkpoint
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, bucket_size, masked_softmax
from players.nets.model import NetConfig, PolicyValueNet, default_config, masked_log_softmax

torch.set_num_threads(1)  # small nets: more threads only contend on 2 shared cores


def tiny_net(game, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    enc = encoder_for(game)
    return PolicyValueNet(NetConfig(game.name, game.size, enc.num_planes, game.num_actions,
                                    channels=8, blocks=1, value_hidden=16)).eval()


def some_states(game, count: int) -> list:
    return random_states(game, count, seed=1)


@pytest.mark.parametrize("size", [6, 8])
def test_output_shapes_and_value_range(size):
    game = Othello(size)
    net = tiny_net(game)
    x = torch.from_numpy(encoder_for(game).encode(some_states(game, 5)))
    logits, value = net(x)
    assert logits.shape == (5, size * size + 1)
    assert value.shape == (5,)
    assert torch.all(value.abs() < 1)


def test_default_config_by_board_size():
    small = default_config("othello6", 6, 3, 37)
    large = default_config("othello8", 8, 3, 65)
    assert (small.channels, small.blocks) == (32, 3)
    assert (large.channels, large.blocks) == (64, 4)


def test_masking_of_illegal_moves():
    logits = np.array([[5.0, 1.0, 0.0, 3.0], [0.0, 0.0, 9.0, 0.0]])
    legal = np.array([[False, True, True, False], [True, True, False, True]])
    p = masked_softmax(logits, legal)
    assert np.all(p[~legal] == 0)
    assert np.allclose(p.sum(axis=1), 1)
    assert p[0, 1] > p[0, 2]
    log_p = masked_log_softmax(torch.tensor(logits), torch.tensor(legal))
    assert torch.allclose(log_p.exp(), torch.tensor(p, dtype=torch.float32), atol=1e-6)


def test_evaluator_priors_are_legal_distributions():
    game = Othello(6)
    states = some_states(game, 30)
    evaluator = StateEvaluator(game, LocalPredictor(tiny_net(game)))
    priors, values = evaluator.evaluate(states)
    assert priors.shape == (30, 37) and values.shape == (30,)
    for state, prior in zip(states, priors):
        assert set(np.flatnonzero(prior)) == set(game.legal_actions(state))
        assert prior.sum() == pytest.approx(1, abs=1e-5)
    # batched and one-at-a-time agree
    one = [evaluator.evaluate([s]) for s in states[:5]]
    for k, (p, v) in enumerate(one):
        assert np.allclose(p[0], priors[k], atol=1e-5) and v[0] == pytest.approx(values[k], abs=1e-5)


def test_checkpoint_round_trip(tmp_path):
    game = Othello(6)
    net = tiny_net(game, seed=4)
    with torch.no_grad():   # make batch-norm statistics non-trivial
        net.stem[1].running_mean.uniform_(-1, 1)
    path = tmp_path / "net.pt"
    save_checkpoint(path, net, {"iteration": 7})
    loaded, meta = load_checkpoint(path)
    assert meta == {"iteration": 7}
    assert loaded.config == net.config
    x = torch.from_numpy(encoder_for(game).encode(some_states(game, 4)))
    with torch.no_grad():
        for a, b in zip(net(x), loaded(x)):
            assert torch.allclose(a, b)


def test_checkpoint_rejects_other_files(tmp_path):
    path = tmp_path / "other.pt"
    torch.save({"weights": 1}, path)
    with pytest.raises(ValueError):
        load_checkpoint(path)


def test_evaluator_fits_the_search_core():
    """The network evaluator plugs into players.mcts.search as its batched evaluator."""
    from players.mcts import Tree, puct, search
    game = Othello(6)
    evaluator = StateEvaluator(game, LocalPredictor(tiny_net(game)))
    tree = Tree(game, game.initial_state())
    run = search([tree], evaluator.evaluate, functools.partial(puct, c_puct=1.5),
                 num_simulations=40, leaves_per_tree=8, rng=np.random.default_rng(0))
    assert run == [40] and tree.visit_counts().sum() == 40
    assert int(np.argmax(tree.visit_counts())) in game.legal_actions(game.initial_state())
    assert evaluator.calls < 40        # leaves were batched


def test_bucket_sizes_are_the_next_power_of_two():
    sizes = (0, 1, 2, 3, 4, 5, 8, 9, 63, 64, 65)
    assert [bucket_size(n) for n in sizes] == [1, 1, 2, 4, 4, 8, 8, 16, 64, 64, 128]


def test_padded_batches_give_the_unpadded_answers():
    """Padding to a bucket (as on CUDA) changes no row: the net is in eval mode, rows are independent."""
    game = Othello(6)
    net = tiny_net(game)
    plain = LocalPredictor(net, bucket=False)
    padded = LocalPredictor(net, bucket=True)
    calls: list[int] = []
    forward = net.forward
    net.forward = lambda x: (calls.append(len(x)), forward(x))[1]
    rng = np.random.default_rng(3)
    for n in (1, 3, 5, 17):
        x = rng.random((n, encoder_for(game).num_planes, 6, 6), dtype=np.float32)
        want, got = plain.predict(x), padded.predict(x)
        assert got[0].shape == want[0].shape and got[1].shape == want[1].shape
        assert np.allclose(got[0], want[0], atol=1e-5) and np.allclose(got[1], want[1], atol=1e-5)
    # The padded predictor warmed every bucket up to WARM_UP_TO on its first call, then ran
    # only powers of two.
    assert calls[1:10] == [1, 2, 4, 8, 16, 32, 64, 128, 256]   # after the plain predictor's 1
    assert calls[10:] == [1, 3, 4, 5, 8, 17, 32]   # then padded, plain, padded... in turn


def test_reduced_precision_casts_a_copy_and_stays_close():
    """bfloat16 weights (as on CUDA) are a copy: the model given stays float32 for training."""
    game = Othello(6)
    net = tiny_net(game)
    reduced = LocalPredictor(net, reduced_precision=True, bucket=False)
    assert reduced.model is not net and next(reduced.model.parameters()).dtype == torch.bfloat16
    assert all(p.dtype == torch.float32 for p in net.parameters())
    x = encoder_for(game).encode(some_states(game, 40))
    (logits, values), (want_logits, want_values) = reduced.predict(x), LocalPredictor(net).predict(x)
    assert logits.dtype == values.dtype == np.float32
    assert np.abs(values - want_values).max() < 0.05
    assert (logits.argmax(1) == want_logits.argmax(1)).mean() > 0.8
