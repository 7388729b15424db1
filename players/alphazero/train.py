"""Training: the AlphaZero loss (policy cross-entropy + value MSE, L2 by weight decay) and update steps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from players.nets.model import PolicyValueNet


@dataclass(frozen=True)
class TrainConfig:
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4     # the seed's L2 coefficient
    steps_per_iteration: int = 100


def make_optimizer(model: PolicyValueNet, config: TrainConfig) -> torch.optim.Optimizer:
    return torch.optim.AdamW(model.parameters(), lr=config.learning_rate,
                             weight_decay=config.weight_decay)


def losses(model: PolicyValueNet, planes: torch.Tensor, policies: torch.Tensor,
           values: torch.Tensor) -> dict[str, torch.Tensor]:
    """planes [B, C, H, W], policies [B, A] (search visit distributions), values [B] (outcomes)."""
    logits, predicted = model(planes)
    log_p = torch.log_softmax(logits, dim=-1)                      # [B, A]
    policy_loss = -(policies * log_p).sum(dim=1).mean()
    value_loss = torch.mean((predicted - values) ** 2)
    entropy = -(log_p.exp() * log_p).sum(dim=1).mean()
    return {"loss": policy_loss + value_loss, "policy_loss": policy_loss,
            "value_loss": value_loss, "policy_entropy": entropy.detach()}


def train_steps(model: PolicyValueNet, optimizer: torch.optim.Optimizer, sampler, *,
                steps: int, batch_size: int, device: torch.device | str = "cpu") -> dict[str, float]:
    """Run `steps` minibatch updates; return the mean of each loss term."""
    model.train()
    totals: dict[str, float] = {}
    for _ in range(steps):
        planes, policies, values = (torch.from_numpy(a).to(device) for a in sampler.sample(batch_size))
        terms = losses(model, planes, policies, values)
        optimizer.zero_grad(set_to_none=True)
        terms["loss"].backward()
        optimizer.step()
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
