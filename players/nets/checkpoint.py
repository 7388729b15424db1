"""Save and load a PolicyValueNet: weights + NetConfig + metadata in one small torch file; and a
training run's trainer state (network, optimiser, random state) in another."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

import numpy as np
import torch

from players.errors import CheckpointError
from players.nets.model import NetConfig, PolicyValueNet, make_net
from players.nets.train import TrainConfig, make_optimizer

# What to do about a file that isn't one of our checkpoints.
REMEDY = "give a .pt file that `python -m players train` wrote (players/models/ has some)"

# A game kind's name in messages, and the names of its networks.
KIND_NAMES = {"othello": "Othello (othelloN)", "go": "Go (goN)", "pig": "Pig (pigN)"}


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


def load_checkpoint(path: str | Path, device: str | torch.device = "cpu", *,
                    kinds: Collection[str] | None = None,
                    user: str = "this engine") -> tuple[PolicyValueNet, dict]:
    """Return (model in eval mode on device, metadata).

    With kinds, the network's game must be of one of those kinds ('othello',
    'go', 'pig'), and its input and output must fit that game; user (the
    engine's name) says who needs them in the message.

    Raises CheckpointError (a ValueError), naming the file, if it can't be read,
    is corrupt or truncated, isn't one of our checkpoints, or is for another game.
    """
    data = _read(Path(path))
    corrupt = CheckpointError(f"{path}: a corrupt checkpoint (its network doesn't match its "
                              f"settings); {REMEDY}")
    meta = data.get("meta") or {}
    try:
        config = NetConfig.from_dict(data.get("config"))
    except ValueError:
        raise corrupt from None
    if not isinstance(meta, dict):
        raise corrupt
    model = make_net(config)
    load_weights(model, data.get("state_dict"), corrupt)
    if kinds is not None:
        _check_game(path, config, kinds, user)
    model.to(device).eval()
    return model, dict(meta)


def load_weights(model: torch.nn.Module, state_dict: object, error: Exception) -> None:
    """Load a file's weights into model. Raises error if they don't fit it (keys or shapes)."""
    if not isinstance(state_dict, dict):
        raise error
    try:
        model.load_state_dict(state_dict)
    except RuntimeError:   # torch's error for missing, unexpected or misshapen weights
        raise error from None


def save_trainer(path: Path, model: PolicyValueNet, optimizer: torch.optim.Optimizer,
                 rng: np.random.Generator) -> None:
    """Write what a training run resumes from, atomically (temp file + rename)."""
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"config": model.config.to_dict(), "model": model.state_dict(),
                "optimizer": optimizer.state_dict(), "rng": rng.bit_generator.state}, tmp)
    os.replace(tmp, path)


def load_trainer(path: Path, train_config: TrainConfig, device: str | torch.device = "cpu"
                 ) -> tuple[PolicyValueNet, torch.optim.Optimizer, np.random.Generator]:
    """(model in eval mode on device, its optimiser, the random generator) as save_trainer wrote them.

    Raises CheckpointError, naming the file, if it can't be read or isn't
    one that save_trainer wrote, or one that fits train_config's optimiser.
    """
    corrupt = CheckpointError(f"{path}: corrupt or truncated")
    try:
        trainer = torch.load(path, map_location="cpu", weights_only=False)
    except OSError as exc:
        raise CheckpointError(f"{path}: can't read it ({exc.strerror or exc})") from None
    except Exception:  # whatever torch and pickle make of a corrupt or truncated file
        raise corrupt from None
    if not isinstance(trainer, dict) or not isinstance(trainer.get("optimizer"), dict):
        raise corrupt
    try:
        config = NetConfig.from_dict(trainer.get("config"))
    except ValueError:
        raise corrupt from None
    model = make_net(config).to(device)
    load_weights(model, trainer.get("model"), corrupt)
    model.eval()
    optimizer = make_optimizer(model, train_config)
    rng = np.random.default_rng()
    try:
        optimizer.load_state_dict(trainer["optimizer"])
        rng.bit_generator.state = trainer.get("rng")
    except (KeyError, TypeError, ValueError):  # the file's state doesn't fit the run's
        raise corrupt from None
    return model, optimizer, rng


def _read(path: Path) -> dict:
    """The checkpoint's dictionary. Raises CheckpointError for a file that isn't one."""
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint file; {REMEDY}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except OSError as exc:
        raise CheckpointError(f"{path}: can't read it ({exc.strerror or exc})") from None
    except Exception:  # whatever torch and pickle make of a file that isn't theirs
        raise CheckpointError(f"{path}: not a checkpoint, or a corrupt or truncated one; "
                              f"{REMEDY}") from None
    if not isinstance(data, dict) or data.get("format") != 1:
        raise CheckpointError(f"{path}: not a players.nets checkpoint; {REMEDY}")
    return data


def _check_game(path: str | Path, config: NetConfig, kinds: Collection[str], user: str) -> None:
    """Raises CheckpointError unless config's game is of one of kinds and the network fits it."""
    from players.games import make_game
    from players.nets.encoding import encoder_for

    needs = " or ".join(KIND_NAMES.get(kind, kind) for kind in kinds)
    try:
        game = make_game(config.game)
    except (ValueError, TypeError):
        raise CheckpointError(f"{path}: a network for {config.game!r}, which is no game we play; "
                              f"{user} needs one for {needs}") from None
    if game.kind not in kinds:
        raise CheckpointError(f"{path}: a network for {config.game}; {user} needs one for {needs}")
    encoder = encoder_for(game)
    if (config.in_planes, config.num_actions) != (encoder.num_planes, game.num_actions) \
            or config.board_size != encoder.size:
        raise CheckpointError(f"{path}: a corrupt checkpoint (its network's shape doesn't fit "
                              f"{config.game}); {REMEDY}")
