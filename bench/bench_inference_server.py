"""AlphaZero engines under --parallel: N engines sharing one inference server against N with a network each.

    python bench/bench_inference_server.py [--model players/models/othello6.pt] [--engines 2,4]
        [--playouts 200] [--moves 4] [--repeats 3] [--device cpu] [--batch 8]

Each run starts N engine processes (`python -m players alphazero --server on|off`)
at once, sends each `boardsize`/`clear_board`, then --moves `genmove` commands
(colours alternating, so each search starts from a new position), and times from
the first genmove sent to the last answer: the engines' start-up, network
loading and server start are left out (one warm-up genmove each first).
Positions per second = N * moves * playouts / that time. On CUDA the GPU's memory in
use (nvidia-smi, all processes) is read once the engines are warm.
Shared and separate runs alternate within each repeat, so a shared machine's load
affects both alike; each figure is the mean over repeats with a 95% t interval.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}


class Engine:
    """One engine process, spoken to line by line."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, cwd=REPO)

    def command(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            reply = self.process.stdout.readline()
            if not reply:
                raise RuntimeError(f"engine exited on {line!r}")
            if not reply.strip():
                if lines:
                    break
                continue
            lines.append(reply.strip())
        if not lines[0].startswith("="):
            raise RuntimeError(f"{line!r}: {lines[0]}")
        return lines[0]

    def close(self) -> None:
        try:
            self.command("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.process.wait(30)


def gpu_memory_used_mib() -> float | None:
    """The GPU's memory in use, all processes together (nvidia-smi), or None without one."""
    if shutil.which("nvidia-smi") is None:
        return None
    out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True, timeout=30).stdout.split()
    return float(out[0]) if out else None


def one_run(args, engines: int, server: str) -> tuple[float, float | None]:
    """Positions per second of `engines` engines searching at once, and the GPU memory they hold."""
    argv = [sys.executable, "-m", "players", "alphazero", "--model", args.model, "--device",
            args.device, "--server", server, "--playouts", str(args.playouts), "--threads", "1",
            "--batch", str(args.batch)]
    procs = [Engine(argv) for _ in range(engines)]
    try:
        for engine in procs:
            engine.command(f"boardsize {args.board_size}")
            engine.command("clear_board")
            engine.command("genmove b")   # warm: started, network loaded or server connected
            engine.command("clear_board")
        memory = gpu_memory_used_mib() if args.device.startswith("cuda") else None
        barrier = threading.Barrier(engines + 1)
        errors: list[BaseException] = []

        def play(engine: Engine) -> None:
            barrier.wait()
            try:
                for i in range(args.moves):
                    engine.command(f"genmove {'bw'[i % 2]}")
            except BaseException as exc:  # noqa: BLE001 (reported below)
                errors.append(exc)
        threads = [threading.Thread(target=play, args=(e,)) for e in procs]
        for thread in threads:
            thread.start()
        barrier.wait()
        start = time.perf_counter()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
        if errors:
            raise errors[0]
    finally:
        for engine in procs:
            engine.close()
    return engines * args.moves * args.playouts / elapsed, memory


def mean_interval(values: list[float]) -> str:
    mean = statistics.mean(values)
    if len(values) < 2:
        return f"{mean:.0f}"
    half = T95.get(len(values) - 1, 2.0) * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:.0f} [{mean - half:.0f}, {mean + half:.0f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="players/models/othello6.pt")
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--engines", default="2,4")
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batch", type=int, default=8, help="each engine's leaves per network call")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    for n in [int(x) for x in args.engines.split(",")]:
        samples: dict[str, list[float]] = {"on": [], "off": []}
        memory: dict[str, list[float]] = {"on": [], "off": []}
        ratios = []
        for _ in range(args.repeats):
            for server in ("on", "off"):
                speed, used = one_run(args, n, server)
                samples[server].append(speed)
                if used is not None:
                    memory[server].append(used)
                print(f"  .. {n} engines, server {server}: {speed:.0f} positions/s"
                      + (f", GPU memory {used:.0f} MiB" if used is not None else ""),
                      file=sys.stderr, flush=True)
            ratios.append(samples["on"][-1] / samples["off"][-1])
        rows.append((n, samples, ratios, memory))
    print(f"AlphaZero engines at once, {args.model} on {args.device}, batches of {args.batch} leaves, "
          f"{args.playouts} playouts "
          f"x {args.moves} moves each; {os.cpu_count()} CPUs; load average {load_before:.2f} "
          f"before, {os.getloadavg()[0]:.2f} after; mean of {args.repeats} paired runs [95%]")
    print(f"{'engines':>7}  {'shared server, positions/s':>30}  {'a network each, positions/s':>30}"
          f"  {'ratio shared/each':>20}")
    for n, samples, ratios, memory in rows:
        print(f"{n:>7}  {mean_interval(samples['on']):>30}  {mean_interval(samples['off']):>30}"
              f"  {statistics.mean(ratios):>20.2f}"
              + (f" [{min(ratios):.2f}-{max(ratios):.2f}]" if len(ratios) > 1 else ""))
        if memory["on"] and memory["off"]:
            print(f"{'':>7}  GPU memory in use (all processes): "
                  f"shared {statistics.mean(memory['on']):.0f} MiB, "
                  f"a network each {statistics.mean(memory['off']):.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
