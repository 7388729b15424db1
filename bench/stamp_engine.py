#!/usr/bin/env python3
"""A GTP engine for the clock bench: bench/fast_engine.py's game, with every read and answer time-stamped.

It plays fast_engine's fixed legal game, thinking THINK milliseconds over
each genmove (busy, as an engine computes), and appends to
LOG_DIR/GAMEID_NAME.log one line per event, in CLOCK_MONOTONIC nanoseconds
(one clock for every process on the machine):

    r NS COMMAND     a command line read (the time readline returned)
    w NS genmove     a genmove's answer about to be written (taken before the write, as
                     an engine's own clock stops: the engine may lose the CPU to the
                     reader as soon as the answer is in the pipe)

so that bench_clock_latency.py can tell how long each controller took from a
genmove's answer to its next command, and compare the engine's own time over
each genmove with what the ringmaster's clock charged it. With --timed it lists
kgs-time_settings and time_left (and accepts them), so that our ringmaster sends
them as it would to a real engine. Python 3 only; it must not import ringmaster.

    python stamp_engine.py --name b --log /tmp/stamps [--moves 100] [--think 20] [--timed]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from fast_engine import COMMANDS, Board, format_vertex, parse_vertex

TIME_COMMANDS = ["kgs-time_settings", "time_left"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--think", type=float, default=20.0, help="milliseconds a genmove")
    parser.add_argument("--timed", action="store_true")
    options = parser.parse_args(argv)
    commands = COMMANDS + (TIME_COMMANDS if options.timed else [])
    game = os.environ.get("RINGMASTER_GAME_ID") or os.environ.get("GOMILL_GAME_ID") or "check"
    log = open(os.path.join(options.log, f"{game}_{options.name}.log"), "a", buffering=1 << 16)
    board = Board(19)
    stdin, stdout = sys.stdin, sys.stdout
    think_ns = int(options.think * 1e6)
    while True:
        line = stdin.readline()
        now = time.monotonic_ns()
        if not line:
            break
        words = line.split()
        if not words:
            continue
        ident = words.pop(0) if words[0].isdigit() else ""
        command, args = words[0], words[1:]
        log.write(f"r {now} {command}\n")
        ok, text = True, ""
        if command == "protocol_version":
            text = "2"
        elif command in ("name", "version"):
            text = "stamp_engine" if command == "name" else "1"
        elif command == "known_command":
            text = "true" if args and args[0] in commands else "false"
        elif command == "list_commands":
            text = "\n".join(commands)
        elif command == "genmove":
            colour = args[0].lower()[0]
            point = board.choose(colour, options.moves)
            board.play(colour, point)
            while time.monotonic_ns() - now < think_ns:
                pass
            text = format_vertex(point)
        elif command == "play":
            board.play(args[0].lower()[0], parse_vertex(args[1], board.size))
        elif command == "boardsize":
            board = Board(int(args[0]))
        elif command == "clear_board":
            board = Board(board.size)
        elif command == "quit":
            stdout.write(f"={ident}\n\n")
            stdout.flush()
            break
        elif command in commands:   # komi, and the time commands with --timed
            pass
        else:
            ok, text = False, "unknown command"
        if command == "genmove":
            log.write(f"w {time.monotonic_ns()} genmove\n")
        stdout.write(f"{'=' if ok else '?'}{ident} {text}\n\n")
        stdout.flush()
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
