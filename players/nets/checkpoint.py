"""Save and load a PolicyValueNet: weights + NetConfig + metadata in one small torch file."""

from __future__ import annotations

import os
from pathlib import Path

import torch

from players.nets.model import NetConfig, PolicyValueNet, make_net


def save_checkpoint(path: str | Path, model: PolicyValueNet, meta: dict | None = None) -> None:
    """Write atomically (temp file + rename) so a killed run never leaves half a checkpoint."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu", torch.float32) if v.is_floating_point() else v.detach().cpu()
             for k, v in model.state_dict().items()}
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": 1, "config": model.config.to_dict(), "state_dict": state,
                "meta": dict(meta or {})}, tmp)
    os.replace(tmp, path)


def load_checkpoint(path: str | Path, device: str | torch.device = "cpu") -> tuple[PolicyValueNet, dict]:
    """Return (model in eval mode on device, metadata).

    Raises ValueError if the file isn't one of our checkpoints.
    """
    data = torch.load(Path(path), map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or data.get("format") != 1:
        raise ValueError(f"{path}: not a players.nets checkpoint")
    model = make_net(NetConfig(**data["config"]))
    model.load_state_dict(data["state_dict"])
    model.to(device).eval()
    return model, data["meta"]
