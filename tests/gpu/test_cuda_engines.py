"""GPU tests (marked gpu; skipped without CUDA): the shared inference server and the GTP engine on CUDA."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import torch

from players.games.othello import Othello
from players.games.positions import random_states
from players.nets.checkpoint import save_checkpoint
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor
from players.nets.model import PolicyValueNet, default_config
from players.nets.server import connect_or_start, server_address
from tests.conftest import gone_within, processes_mentioning

pytestmark = [pytest.mark.gpu, pytest.mark.integration,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]


def othello8_net() -> PolicyValueNet:
    game = Othello(8)
    enc = encoder_for(game)
    torch.manual_seed(0)
    return PolicyValueNet(default_config(game.name, 8, enc.num_planes, game.num_actions)).eval()


def some_planes(count: int) -> np.ndarray:
    game = Othello(8)
    return encoder_for(game).encode(random_states(game, count, seed=1))


def test_one_cuda_server_serves_two_engines_in_reduced_precision(tmp_path, no_leftover_processes):
    model_path = tmp_path / "m.pt"
    net = othello8_net()
    save_checkpoint(model_path, net)
    first = connect_or_start(model_path, "cuda", idle_seconds=1.0)
    second = connect_or_start(model_path, "cuda", idle_seconds=1.0)
    address = server_address(model_path, "cuda")
    try:
        assert len(processes_mentioning(str(model_path))) == 1
        x = some_planes(64)
        a, b = first.predict(x), second.predict(x)
        local = LocalPredictor(net, "cuda")
        assert local.reduced
        want_logits, want_values = local.predict(x)
        # The server runs the same bf16 model as a local CUDA predictor: equal up to
        # batching order, and both far from float32 noise only by bf16's rounding.
        for logits, values in (a, b):
            assert np.abs(values - want_values).max() < 0.02
            assert (logits.argmax(1) == want_logits.argmax(1)).mean() > 0.95
    finally:
        first.close()
        second.close()
    assert gone_within(address, 30)


@pytest.mark.parametrize("server", ["off", "on"])
def test_engine_on_cuda_plays_a_whole_game_through_the_ringmaster(tmp_path, server, no_leftover_processes):
    from ringmaster.game.job import GameJob, PlayerSpec
    from ringmaster.game.play import play_game_job
    model_path = tmp_path / "m.pt"
    save_checkpoint(model_path, othello8_net())
    az = PlayerSpec("az", (sys.executable, "-m", "players", "alphazero", "--model", str(model_path),
                           "--device", "cuda", "--server", server, "--playouts", "32"))
    rnd = PlayerSpec("rnd", (sys.executable, "-m", "players", "random-othello", "--seed", "4"))
    job = GameJob(game_id="g0", player_b=rnd, player_w=az, board_size=8, komi=0, game="othello",
                  sgf_dirname=str(tmp_path))
    result = play_game_job(job)
    assert not result.game_result.is_forfeit, result.warnings
    assert result.game_result.sgf_result[0] in "BW0"
    assert result.moves >= 40
    if server == "on":   # the shared server ends by itself, 30 s after its last engine
        assert gone_within(server_address(model_path, "cuda"), 90, poll=0.5)
