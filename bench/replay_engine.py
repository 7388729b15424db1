#!/usr/bin/env python
"""The cheapest GTP engine a benchmark can have: it replays one fixed legal game.

Runs under Python 2.7 and Python 3 (Gomill launches it too), and must not
import ringmaster.

    python replay_engine.py --script FILE [--cpu-log LOG]

With --cpu-log, the engine appends its own CPU seconds (user + system, from
getrusage) to LOG as it answers quit: one line an engine, so that a benchmark can
tell the engines' CPU in a run from the controller's.

FILE holds the game's moves, one vertex a line ('pass' included), as played
by bench/fast_engine.py against itself (bench_ringmaster.py writes it). The
engine keeps no board: it counts the moves of the current game (genmove and
play alike; clear_board and boardsize start again), answers genmove with the
script's next move, and acknowledges play. So its own cost is reading and
answering a line, and a benchmark run with it measures the controller.

If a play names another move than the script's (another opponent, or another
game), it stops following the script and passes from then on: still legal.
Past the script's end it passes.
"""

import os
import resource
import sys

from fast_engine import administrative, gtp_commands  # beside this file, so first on sys.path


def main(argv):
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(__doc__)
        return 0
    if "--script" not in argv:
        sys.stderr.write("usage: replay_engine.py --script FILE\n")
        return 2
    with open(argv[argv.index("--script") + 1]) as f:
        script = [line.strip().upper() for line in f if line.strip()]
    cpu_log = argv[argv.index("--cpu-log") + 1] if "--cpu-log" in argv else None
    length = len(script)
    played = 0            # moves of this game so far
    in_step = True        # False once the game has left the script
    stdin = sys.stdin
    stdout = sys.stdout
    for ident, words in gtp_commands(stdin):
        command = words[0]
        answer = administrative(command, words[1:], "replay_engine")
        ok, text = True, answer or ""
        if answer is not None:
            pass
        elif command == "genmove":
            text = script[played] if in_step and played < length else "PASS"
            played += 1
        elif command == "play":
            if len(words) < 3:
                ok, text = False, "syntax error"
            else:
                if in_step and (played >= length or words[2].upper() != script[played]):
                    in_step = False
                played += 1
        elif command in ("boardsize", "clear_board"):
            played, in_step = 0, True
        elif command == "komi":
            pass
        elif command == "quit":
            if cpu_log:
                usage = resource.getrusage(resource.RUSAGE_SELF)
                fd = os.open(cpu_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                os.write(fd, ("%.6f\n" % (usage.ru_utime + usage.ru_stime)).encode("ascii"))
                os.close(fd)
            stdout.write("=" + ident + "\n\n")
            stdout.flush()
            return 0
        else:
            ok, text = False, "unknown command"
        stdout.write(("=" if ok else "?") + ident + " " + text + "\n\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
