"""Training: the AlphaZero loss (policy cross-entropy + value MSE, L2 by weight decay) and update steps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from players.errors import UsageError
from players.nets.model import PolicyValueNet


@dataclass(frozen=True)
class TrainConfig:
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4     # the seed's L2 coefficient
    optimizer: str = "adamw"       # or "cyclic-nesterov", the seed's (see make_schedule)
    max_learning_rate: float = 1e-2  # cyclic-nesterov's peak; learning_rate is its floor


OPTIMIZERS = ("adamw", "cyclic-nesterov")


def make_optimizer(model: PolicyValueNet, config: TrainConfig) -> torch.optim.Optimizer:
    """AdamW (decoupled weight decay), or SGD with Nesterov momentum and L2 for cyclic-nesterov.

    Raises UsageError (a ValueError) for another optimizer.
    """
    if config.optimizer == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=config.learning_rate,
                                 weight_decay=config.weight_decay)
    if config.optimizer == "cyclic-nesterov":
        return torch.optim.SGD(model.parameters(), lr=config.learning_rate, momentum=0.9,
                               nesterov=True, weight_decay=config.weight_decay)
    raise UsageError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, not {config.optimizer!r}")


def make_schedule(optimizer: torch.optim.Optimizer, config: TrainConfig, steps: int):
    """One learning-rate cycle over a training phase of `steps` updates, or None for AdamW.

    cyclic-nesterov: the rate rises linearly from learning_rate to
    max_learning_rate over the first half and falls back over the second,
    while the momentum falls from 0.9 to 0.8 and rises back (AlphaZero.jl's
    CyclicNesterov, which seed 001 used with rates 1e-3 to 1e-2).
    """
    if config.optimizer != "cyclic-nesterov" or steps < 1:
        return None
    return torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=config.max_learning_rate, total_steps=steps + 1, pct_start=0.5,
        anneal_strategy="linear", div_factor=config.max_learning_rate / config.learning_rate,
        final_div_factor=1.0, base_momentum=0.8, max_momentum=0.9)


def losses(model: PolicyValueNet, planes: torch.Tensor, policies: torch.Tensor,
           values: torch.Tensor) -> dict[str, torch.Tensor]:
    """planes [B, C, H, W], policies [B, A] (search visit distributions), values [B] (outcomes).

    A row of policies that is all zeros (a chance state's example) has no
    policy target: the policy terms average over the other rows, the value
    term over all.
    """
    logits, predicted = model(planes)
    log_p = torch.log_softmax(logits, dim=-1)                      # [B, A]
    targeted = (policies.sum(dim=1) > 0).to(log_p.dtype)            # [B]
    count = targeted.sum().clamp(min=1.0)
    policy_loss = -(policies * log_p).sum() / count
    value_loss = torch.mean((predicted - values) ** 2)
    entropy = -((log_p.exp() * log_p).sum(dim=1) * targeted).sum() / count
    return {"loss": policy_loss + value_loss, "policy_loss": policy_loss,
            "value_loss": value_loss, "policy_entropy": entropy.detach()}


def train_steps(model: PolicyValueNet, optimizer: torch.optim.Optimizer, sampler, *,
                steps: int, batch_size: int, device: torch.device | str = "cpu",
                schedule=None) -> dict[str, float]:
    """Run `steps` minibatch updates (then schedule.step(), if given); return each loss term's mean."""
    model.train()
    totals: dict[str, float] = {}
    for _ in range(steps):
        planes, policies, values = (torch.from_numpy(a).to(device) for a in sampler.sample(batch_size))
        terms = losses(model, planes, policies, values)
        optimizer.zero_grad(set_to_none=True)
        terms["loss"].backward()
        optimizer.step()
        if schedule is not None:
            schedule.step()
        for name, value in terms.items():
            totals[name] = totals.get(name, 0.0) + float(value.detach())
    model.eval()
    return {name: total / max(steps, 1) for name, total in totals.items()}


def evaluate_losses(model: PolicyValueNet, planes: np.ndarray, policies: np.ndarray,
                    values: np.ndarray, device: torch.device | str = "cpu") -> dict[str, float]:
    """The loss terms on a fixed set, without updating (eval-mode batch norm)."""
    model.eval()
    with torch.no_grad():
        terms = losses(model, *(torch.from_numpy(np.asarray(a, dtype=np.float32)).to(device)
                                for a in (planes, policies, values)))
    return {name: float(value) for name, value in terms.items()}
