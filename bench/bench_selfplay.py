"""Self-play positions per second: many games sharing one batched net call per round vs one game at a time.

    python bench/bench_selfplay.py [--game othello6] [--simulations 48] [--games 64]
        [--concurrent 1,64] [--device auto] [--threads 1] [--model PATH]
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from players.alphazero.selfplay import SelfPlayConfig, play_games
from players.games import make_game
from players.nets.checkpoint import load_checkpoint
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device
from players.nets.model import PolicyValueNet, default_config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="othello6")
    parser.add_argument("--model", default=None, help="checkpoint (default: an untrained default net)")
    parser.add_argument("--simulations", type=int, default=48)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--concurrent", default="1,64", help="comma-separated games at once")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=1)
    options = parser.parse_args()
    torch.set_num_threads(options.threads)
    device = resolve_device(options.device)
    if options.model:
        model, _ = load_checkpoint(options.model, device)
        game = make_game(model.config.game)
    else:
        game = make_game(options.game)
        enc = encoder_for(game)
        model = PolicyValueNet(default_config(options.game, enc.size, enc.num_planes, game.num_actions))
    c = model.config
    print(f"game {c.game}  net {c.channels}x{c.blocks}  simulations {options.simulations}  "
          f"device {device}  threads {torch.get_num_threads()}")
    for concurrent in (int(x) for x in options.concurrent.split(",")):
        evaluator = StateEvaluator(game, LocalPredictor(model, device))
        games = options.games if concurrent > 1 else max(2, options.games // 16)
        config = SelfPlayConfig(num_simulations=options.simulations, concurrent_games=concurrent)
        _, stats = play_games(game, evaluator.evaluate, games, config, np.random.default_rng(0))
        print(f"  {concurrent:4d} games at once: {stats.games:4d} games, {stats.positions:6d} positions "
              f"in {stats.seconds:7.1f}s = {stats.positions_per_second:7.1f} positions/s; "
              f"net {evaluator.positions / stats.seconds:8.0f} evals/s, "
              f"mean batch {evaluator.positions / evaluator.calls:6.1f}")


if __name__ == "__main__":
    main()
