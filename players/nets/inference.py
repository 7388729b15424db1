"""Batched inference: a predictor on planes [B, C, H, W] (local or remote) and an evaluator on game states."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import torch

from players.errors import UsageError
from players.nets.encoding import encoder_for
from players.nets.model import PolicyValueNet


class Predictor(Protocol):
    """Planes float32 [B, C, H, W] -> (logits float32 [B, A], values float32 [B])."""

    def predict(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


DEVICES = "auto, cpu, cuda or cuda:N"


def set_threads(threads: int) -> None:
    """Run torch's CPU work in this process on `threads` threads (at least 1)."""
    torch.set_num_threads(threads)


def resolve_device(name: str = "auto") -> torch.device:
    """'auto' -> cuda when available, else cpu; 'cpu'/'cuda'/'cuda:N' as given.

    Raises UsageError (a ValueError), naming --device (every command's option
    for it), for another name, or if a CUDA device is asked for and absent.
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    match = re.fullmatch(r"(cpu|cuda)(?::(\d+))?", name)
    if match is None or (match.group(1) == "cpu" and match.group(2) is not None):
        raise UsageError(f"--device {name!r}: expected {DEVICES}")
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise UsageError(f"--device {name}: CUDA isn't available here; use --device cpu or auto")
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise UsageError(f"--device {name}: there are only {torch.cuda.device_count()} CUDA "
                             f"devices (cuda:0 to cuda:{torch.cuda.device_count() - 1})")
    return device


def bucket_size(n: int) -> int:
    """The batch size a batch of n is padded to: the next power of two (at least 1)."""
    return 1 << max(0, n - 1).bit_length()


class LocalPredictor:
    """A model in this process. On CUDA it runs in bfloat16 (reduced precision).

    bfloat16 keeps float32's exponent range, so the logits and tanh value can't
    overflow; the masked softmax is done in float32 afterwards. The weights are
    cast once, into a copy (the model given may still be trained); autocast would
    cast them again on every call, which made small batches on an H100 slower than
    float32 (0.58x-0.86x up to a batch of 512). On CUDA each batch is padded with
    zeros to a power of two (`bucket`): cuDNN picks its algorithms once per input
    shape, which costs far more than the padding, so a server that sees every batch
    size from 1 to 64 would otherwise keep paying it.
    """

    def __init__(self, model: PolicyValueNet, device: str | torch.device = "cpu",
                 reduced_precision: bool | None = None, bucket: bool | None = None) -> None:
        self.device = torch.device(device)
        on_cuda = self.device.type == "cuda"
        self.reduced = on_cuda if reduced_precision is None else reduced_precision
        if self.reduced:
            model = copy.deepcopy(model).to(dtype=torch.bfloat16)
        self.model = model.to(self.device).eval()
        self.dtype = torch.bfloat16 if self.reduced else torch.float32
        self.bucket = on_cuda if bucket is None else bucket
        self.warm = False
        if on_cuda:
            torch.backends.cudnn.benchmark = True   # fixed shapes per batch size
            self.model = self.model.to(memory_format=torch.channels_last)

    WARM_UP_TO = 256

    @torch.inference_mode()
    def predict(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = len(planes)
        planes = np.ascontiguousarray(planes, dtype=np.float32)
        if self.bucket and not self.warm:
            # The first call runs every bucket up to WARM_UP_TO once, so that the
            # choice of algorithms is paid here and not in the middle of a search.
            self.warm = True
            size = 1
            while size <= self.WARM_UP_TO:
                self.predict(np.zeros((size, *planes.shape[1:]), np.float32))
                size *= 2
        if self.bucket and bucket_size(n) != n:
            padded = np.zeros((bucket_size(n), *planes.shape[1:]), np.float32)
            padded[:n] = planes
            planes = padded
        x = torch.from_numpy(planes)
        if self.device.type == "cuda":
            x = x.pin_memory().to(self.device, non_blocking=True).contiguous(
                memory_format=torch.channels_last)
        logits, values = self.model(x.to(self.dtype))
        return (logits[:n].float().cpu().numpy(), values[:n].float().cpu().numpy())


def masked_softmax(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Softmax over the legal entries of each row; illegal entries get 0. [B, A] -> [B, A]."""
    z = np.where(legal, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class StateEvaluator:
    """Game states -> (priors [B, A] over legal actions, values [B] for each state's mover)."""

    def __init__(self, game, predictor: Predictor) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.predictor = predictor
        self.positions = 0  # evaluated so far (for speed metrics)
        self.calls = 0

    def evaluate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        planes = self.encoder.encode(states)
        logits, values = self.predictor.predict(planes)
        self.positions += len(states)
        self.calls += 1
        return masked_softmax(logits, self.encoder.legal_mask(states)), values
