"""Policy/value networks: a residual conv tower (board games) or an MLP (Pig); logits [B, A], value [B]."""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class NetConfig:
    """Shape of a PolicyValueNet; saved inside every checkpoint."""

    game: str            # players.games registry name, e.g. 'othello6'
    board_size: int
    in_planes: int
    num_actions: int
    channels: int = 32
    blocks: int = 3
    value_hidden: int = 64
    kind: str = "resnet"  # 'resnet', or 'mlp' (channels = width, blocks = depth)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> NetConfig:
        """The config a file's to_dict() holds. Raises ValueError if data isn't one."""
        if not isinstance(data, dict):
            raise ValueError("not a dictionary")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(str(name) for name in data if name not in known)
        missing = [name for name, f in known.items() if f.default is MISSING and name not in data]
        if unknown or missing:
            raise ValueError(f"unknown {', '.join(unknown)}" if unknown else f"no {', '.join(missing)}")
        for name, value in data.items():
            wanted = str if name in ("game", "kind") else int
            if type(value) is not wanted:
                raise ValueError(f"{name} isn't a {wanted.__name__}")
        if data.get("kind", "resnet") not in NET_KINDS:
            raise ValueError(f"unknown network kind {data['kind']!r}")
        return cls(**data)


def seed_weights(seed: int) -> None:
    """Seed torch's generator, which draws a new network's initial weights."""
    torch.manual_seed(seed)


def default_config(game: str, board_size: int, in_planes: int, num_actions: int) -> NetConfig:
    """The default net for a game: sized for what 2 CPU cores can train in hours.

    32 channels x 3 blocks for boards up to 6x6, 64 x 4 (the seed's width and depth) above.
    """
    if board_size <= 6:
        return NetConfig(game, board_size, in_planes, num_actions, channels=32, blocks=3)
    return NetConfig(game, board_size, in_planes, num_actions, channels=64, blocks=4)


class ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class PolicyValueNet(nn.Module):
    """x [B, C_in, H, W] -> (policy logits [B, A], value [B] in (-1, 1) for the mover)."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        c, n = config.channels, config.board_size
        self.stem = nn.Sequential(
            nn.Conv2d(config.in_planes, c, 3, padding=1, bias=False),
            nn.BatchNorm2d(c), nn.ReLU())
        self.tower = nn.Sequential(*[ResidualBlock(c) for _ in range(config.blocks)])
        self.policy_conv = nn.Sequential(nn.Conv2d(c, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU())
        self.policy_fc = nn.Linear(2 * n * n, config.num_actions)
        self.value_conv = nn.Sequential(nn.Conv2d(c, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU())
        self.value_fc = nn.Sequential(
            nn.Linear(n * n, config.value_hidden), nn.ReLU(), nn.Linear(config.value_hidden, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.tower(self.stem(x))                                   # [B, c, H, W]
        logits = self.policy_fc(self.policy_conv(h).flatten(1))        # [B, A]
        value = torch.tanh(self.value_fc(self.value_conv(h).flatten(1))).squeeze(1)  # [B]
        return logits, value


class MlpNet(nn.Module):
    """The seed's SimpleNet-like MLP: features [B, F, 1, 1], `blocks` layers of `channels` units, 2 heads."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        layers: list[nn.Module] = []
        width = config.in_planes * config.board_size * config.board_size
        for _ in range(config.blocks):
            layers += [nn.Linear(width, config.channels), nn.ReLU()]
            width = config.channels
        self.body = nn.Sequential(*layers)
        self.policy = nn.Linear(width, config.num_actions)
        self.value = nn.Linear(width, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x.flatten(1))
        return self.policy(h), torch.tanh(self.value(h)).squeeze(1)


NET_KINDS = ("resnet", "mlp")


def make_net(config: NetConfig) -> nn.Module:
    """The network a config describes (its kind). Raises ValueError for an unknown kind."""
    if config.kind == "resnet":
        return PolicyValueNet(config)
    if config.kind == "mlp":
        return MlpNet(config)
    raise ValueError(f"unknown network kind {config.kind!r}")


def masked_log_softmax(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """log_softmax over legal actions only; illegal entries get -inf. logits, legal: [B, A]."""
    return torch.log_softmax(logits.float().masked_fill(~legal, float("-inf")), dim=-1)
