"""The Pig encoder: features from the mover's side, the legal mask, and the MLP it asks for."""

import numpy as np
import pytest
import torch

from players.games.pig import Pig, PigState
from players.nets.encoding import encoder_for
from players.nets.model import MlpNet, NetConfig, make_net


def test_features_are_from_the_movers_side():
    encoder = encoder_for(Pig(50))
    planes = encoder.encode([PigState((10, 30), 5, 0, 4), PigState((10, 30), 5, 1, 4, True)])
    assert planes.shape == (2, encoder.num_planes, 1, 1) and planes.dtype == np.float32
    first, second = planes[:, :, 0, 0]
    assert first[:3].tolist() == pytest.approx([0.2, 0.6, 0.1])
    assert second[:2].tolist() == pytest.approx([0.6, 0.2])
    assert first[6] == 0.0 and second[6] == 1.0


def test_legal_mask_allows_hold_only_with_a_turn_total():
    encoder = encoder_for(Pig(50))
    mask = encoder.legal_mask([PigState((0, 0), 0, 0, 0), PigState((0, 0), 4, 0, 0),
                               PigState((0, 0), 4, 0, 0, True)])
    assert mask.tolist() == [[False, True], [True, True], [True, True]]


def test_the_mlp_maps_features_to_policy_and_value():
    encoder = encoder_for(Pig(50))
    config = NetConfig("pig50", 1, encoder.num_planes, 2, channels=64, blocks=4, kind="mlp")
    net = make_net(config)
    assert isinstance(net, MlpNet) and sum(isinstance(m, torch.nn.Linear) for m in net.modules()) == 6
    logits, values = net(torch.from_numpy(encoder.encode([PigState((0, 0), 4, 0, 0)] * 3)))
    assert logits.shape == (3, 2) and values.shape == (3,) and bool((values.abs() < 1).all())
