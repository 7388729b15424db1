"""A checkpoint that can't be used is one CheckpointError naming the file, never torch's traceback."""

from __future__ import annotations

import pytest
import torch

from players.nets.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from players.nets.model import NetConfig, PolicyValueNet

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig("othello6", 6, 3, 37, channels=8, blocks=1, value_hidden=16))
    path = tmp_path_factory.mktemp("model") / "tiny.pt"
    save_checkpoint(path, net, {"iteration": 3})
    return path


def refusal(path, **kwargs) -> str:
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(path, **kwargs)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


def test_a_good_checkpoint_loads_and_a_wrong_kind_is_refused_by_its_game(saved):
    model, meta = load_checkpoint(saved, kinds=("othello", "go"), user="alphazero")
    assert meta == {"iteration": 3} and model.config.game == "othello6"
    assert refusal(saved, kinds=("pig",), user="pig-mcts").endswith(
        "a network for othello6; pig-mcts needs one for Pig (pigN)")


def test_unreadable_files_are_named(saved, tmp_path):
    text = tmp_path / "garb.pt"
    text.write_text("garbage, not a checkpoint\n")
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(saved.read_bytes()[:2000])
    for path in (text, truncated):
        assert "not a checkpoint, or a corrupt or truncated one" in refusal(path)
    assert "no such checkpoint file" in refusal(tmp_path / "none.pt")
    assert "no such checkpoint file" in refusal(tmp_path)             # a directory
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, other)
    assert "not a players.nets checkpoint" in refusal(other)


def test_a_checkpoint_whose_network_does_not_fit_is_named(saved, tmp_path):
    data = torch.load(saved, weights_only=True)
    data["config"]["channels"] = 16                                    # the weights have 8
    bad = tmp_path / "bad.pt"
    torch.save(data, bad)
    assert "corrupt checkpoint" in refusal(bad)
    data = torch.load(saved, weights_only=True)
    data["config"]["game"] = "othello8"                                # a 6x6 network
    moved = tmp_path / "moved.pt"
    torch.save(data, moved)
    assert "doesn't fit othello8" in refusal(moved, kinds=("othello",))
    data["config"]["game"] = "chess8"
    chess = tmp_path / "chess.pt"
    torch.save(data, chess)
    assert "'chess8', which is no game we play" in refusal(chess, kinds=("othello",))


@pytest.mark.parametrize("change", [
    {"config": [1, 2]}, {"config": {"channels": 8}}, {"state_dict": None}, {"meta": [1]},
    {"config": {"game": "othello6", "board_size": 6, "in_planes": 3, "num_actions": 37, "depth": 2}},
    {"config": {"game": "othello6", "board_size": "6", "in_planes": 3, "num_actions": 37}},
    {"config": {"game": "othello6", "board_size": 6, "in_planes": 3, "num_actions": 37,
                "kind": "transformer"}},
])
def test_a_checkpoint_with_settings_of_its_own_is_corrupt(saved, tmp_path, change):
    data = torch.load(saved, weights_only=True)
    foreign = tmp_path / "foreign.pt"
    torch.save({**data, **change}, foreign)
    assert "a corrupt checkpoint (its network doesn't match its settings)" in refusal(foreign)


def test_a_bug_building_the_network_is_not_blamed_on_the_file(saved, monkeypatch):
    def broken(self, config):
        raise RuntimeError("a bug of ours")
    monkeypatch.setattr(PolicyValueNet, "__init__", broken)
    with pytest.raises(RuntimeError, match="a bug of ours"):
        load_checkpoint(saved)
