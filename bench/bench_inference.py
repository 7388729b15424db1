"""Network inference throughput by batch size, and batched vs one-position-at-a-time, measured side by side.

    python bench/bench_inference.py [--game othello6] [--device auto] [--threads 1]
        [--batches 1,8,32,128,512] [--seconds 2] [--fp32]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from players.games import make_game
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device
from players.nets.model import NetConfig, PolicyValueNet, default_config


def sample_states(game, count: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    states, state = [], game.initial_state()
    while len(states) < count:
        if game.is_terminal(state):
            state = game.initial_state()
        states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return states


def rate(fn, positions_per_call: int, seconds: float, device: torch.device) -> float:
    """Positions per second of fn() over about `seconds` (after a warm-up call)."""
    fn()
    if device.type == "cuda":
        torch.cuda.synchronize()
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    if device.type == "cuda":
        torch.cuda.synchronize()
        elapsed = time.perf_counter() - start
    return calls * positions_per_call / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="othello6")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batches", default=None, help="comma-separated batch sizes")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--channels", type=int, default=0)
    parser.add_argument("--blocks", type=int, default=0)
    parser.add_argument("--fp32", action="store_true", help="no reduced precision on CUDA")
    options = parser.parse_args()
    torch.set_num_threads(options.threads)
    device = resolve_device(options.device)
    game = make_game(options.game)
    encoder = encoder_for(game)
    config = default_config(options.game, encoder.size, encoder.num_planes, game.num_actions)
    if options.channels or options.blocks:
        config = NetConfig(config.game, config.board_size, config.in_planes, config.num_actions,
                           channels=options.channels or config.channels,
                           blocks=options.blocks or config.blocks)
    model = PolicyValueNet(config)
    predictor = LocalPredictor(model, device, reduced_precision=False if options.fp32 else None)
    batches = ([int(b) for b in options.batches.split(",")] if options.batches else
               [1, 8, 32, 128, 512] + ([2048, 8192, 16384] if device.type == "cuda" else []))
    params = sum(p.numel() for p in model.parameters())
    print(f"game {options.game}  net {config.channels}x{config.blocks} ({params} parameters)  "
          f"device {device}  threads {torch.get_num_threads()}  "
          f"precision {'bf16' if predictor.reduced else 'fp32'}")
    states = sample_states(game, max(batches))
    planes = encoder.encode(states)
    print("network only (encoded planes -> logits, values):")
    for b in batches:
        speed = rate(lambda x=planes[:b]: predictor.predict(x), b, options.seconds, device)
        print(f"  batch {b:6d}: {speed:12.0f} positions/s")

    evaluator = StateEvaluator(game, predictor)
    batch = min(256, max(batches))
    some = states[:batch]
    one_at_a_time = rate(lambda: [evaluator.evaluate([s]) for s in some[:32]], 32, options.seconds, device)
    batched = rate(lambda: evaluator.evaluate(some), batch, options.seconds, device)
    print("states -> priors and values (encoding and masking included):")
    print(f"  one at a time   : {one_at_a_time:10.0f} positions/s")
    print(f"  batch of {batch:5d}  : {batched:10.0f} positions/s")
    print(f"  batched / one-at-a-time = {batched / one_at_a_time:.1f}x")


if __name__ == "__main__":
    main()
