"""Network inference throughput by batch size, and batched vs one-position-at-a-time, measured side by side.

    python bench/bench_inference.py [--game othello6] [--device auto] [--threads 1]
        [--batches 1,8,32,128,512] [--seconds 2] [--precision auto|fp32|bf16|both]
"""

from __future__ import annotations

import argparse
import time

import torch

from players.games import make_game
from players.games.positions import random_states
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device
from players.nets.model import NetConfig, PolicyValueNet, default_config


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
    parser.add_argument("--precision", choices=("auto", "fp32", "bf16", "both"), default="auto",
                        help="auto: both on CUDA, fp32 on the CPU; both: fp32 and bf16 timed in turn")
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
    precision = options.precision
    if precision == "auto":
        precision = "both" if device.type == "cuda" else "fp32"
    names = ["fp32", "bf16"] if precision == "both" else [precision]
    model = PolicyValueNet(config)
    predictors = {name: LocalPredictor(model, device, reduced_precision=name == "bf16") for name in names}
    batches = ([int(b) for b in options.batches.split(",")] if options.batches else
               [1, 8, 32, 128, 512] + ([2048, 8192, 16384] if device.type == "cuda" else []))
    params = sum(p.numel() for p in model.parameters())
    print(f"game {options.game}  net {config.channels}x{config.blocks} ({params} parameters)  "
          f"device {device}{f' ({torch.cuda.get_device_name(device)})' if device.type == 'cuda' else ''}  "
          f"threads {torch.get_num_threads()}  torch {torch.__version__}")
    states = random_states(game, max(batches))
    planes = encoder.encode(states)
    print("network only (encoded planes -> logits, values), positions/s; precisions timed in turn:")
    print(f"  {'batch':>6}" + "".join(f"  {name:>12}" for name in names)
          + ("  bf16/fp32" if len(names) == 2 else ""))
    for b in batches:
        speeds = [rate(lambda x=planes[:b], p=predictors[name]: p.predict(x), b, options.seconds, device)
                  for name in names]
        print(f"  {b:6d}" + "".join(f"  {speed:12.0f}" for speed in speeds)
              + (f"  {speeds[1] / speeds[0]:9.2f}x" if len(speeds) == 2 else ""))

    batch = min(256, max(batches))
    some = states[:batch]
    for name in names:
        evaluator = StateEvaluator(game, predictors[name])
        one_at_a_time = rate(lambda e=evaluator: [e.evaluate([s]) for s in some[:32]], 32,
                             options.seconds, device)
        batched = rate(lambda e=evaluator: e.evaluate(some), batch, options.seconds, device)
        print(f"states -> priors and values (encoding and masking included), {name}:")
        print(f"  one at a time   : {one_at_a_time:10.0f} positions/s")
        print(f"  batch of {batch:5d}  : {batched:10.0f} positions/s")
        print(f"  batched / one-at-a-time = {batched / one_at_a_time:.1f}x")


if __name__ == "__main__":
    main()
