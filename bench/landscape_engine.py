#!/usr/bin/env python3
"""A GTP Go engine whose games are decided by a known win-rate landscape, for tuner runs end to end.

    python bench/landscape_engine.py --problem NAME --meet DIR [--at U0,U1,...]

With --at the engine is a candidate at those parameters (the unit cube's
coordinates of a problem in clop_problems.py); without it, the opponent. The
problem gives the candidate's strength s(u), the logit of its win rate against
the opponent (whose strength is 0), and a game between two engines is won by
Black with probability logistic(s_black - s_white): simulate.py's model, so that a
run through the ringmaster (game jobs, workers, state files) can be compared with
the bench's simulated games.

The two engines of a game meet through DIR: at start-up each writes its strength
to DIR/<game id>.<pid> (the game id from RINGMASTER_GAME_ID); at its first genmove
Black reads the other's (a live process's: a void game's leftovers are passed over),
draws the winner and writes it to DIR/<game id>.winner, which White reads and removes
at its first genmove; each removes its own file once it knows the winner, and both files at
quit (when Black resigns at once, White has no genmove). The loser
resigns at its first genmove from then on; the winner plays a legal move, so a game
ends within two moves. Each game needs its own engines (reuse_engines = False, the
default). A replayed game (same id, same players) draws the same winner.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clop_problems import PROBLEMS, logistic  # noqa: E402

from ringmaster.files import write_atomically  # noqa: E402
from ringmaster.gtp.engine import GtpEngine, GtpError, board_game_commands, run_gtp_session  # noqa: E402

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MEET_TIMEOUT = 10.0   # seconds Black waits for White's strength (both engines start before the first move)


def strength(problem: str, at: list[float] | None) -> float:
    """The engine's strength: the logit of its win rate against the opponent (0 for the opponent)."""
    return 0.0 if at is None else PROBLEMS[problem].strength_at(at)


def black_wins(black: float, white: float, game_id: str, meet: str) -> bool:
    """The game's draw, seeded by the meeting place and the game id (a rerun of a game draws again the
    same way)."""
    rng = random.Random(f"{meet}/{game_id}")
    return rng.random() < logistic(black - white)


class Meeting:
    """The files through which the two engines of one game agree on its winner."""

    def __init__(self, directory: str, game_id: str, own: float) -> None:
        self.directory = Path(directory)
        self.game_id = game_id
        self.own_file = self.directory / f"{game_id}.{os.getpid()}"
        self.winner_file = self.directory / f"{game_id}.winner"
        self.own = own
        self.known: str | None = None
        # atomically: the other engine never reads half a number (its temporary file is hidden from the glob)
        write_atomically(str(self.own_file), repr(own).encode(), durable=False)

    def other_strength(self) -> float:
        deadline = time.monotonic() + MEET_TIMEOUT
        while True:
            others = [p for p in self.directory.glob(f"{self.game_id}.*")
                      if p != self.own_file and p.suffix[1:].isdigit() and alive(int(p.suffix[1:]))]
            if others:
                return float(others[0].read_text())
            if time.monotonic() > deadline:
                raise GtpError(f"no other engine met in {self.directory} for game {self.game_id}")
            time.sleep(0.01)

    def winner(self, colour: str) -> str:
        """'b' or 'w': drawn by Black at its first genmove, read (and removed) by White at its own."""
        if self.known is None:
            if colour == "b":
                won = black_wins(self.own, self.other_strength(), self.game_id, str(self.directory))
                self.known = "b" if won else "w"
                write_atomically(str(self.winner_file), self.known.encode(), durable=False)
            else:
                try:
                    self.known = self.winner_file.read_text().strip()
                except FileNotFoundError:
                    raise GtpError("White asked to move before Black drew the winner") from None
                self.winner_file.unlink(missing_ok=True)
            self.own_file.unlink(missing_ok=True)
        return self.known


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def make_engine(meeting: Meeting) -> GtpEngine:
    engine = GtpEngine("landscape", "1.0")
    board: dict[str, object] = {"size": 19, "occupied": set()}

    def set_size(size: int) -> None:
        if not 2 <= size <= 25:
            raise ValueError(size)
        board["size"] = size
        board["occupied"] = set()

    def clear() -> None:
        board["occupied"] = set()

    def play(colour: str, vertex: str) -> None:
        board["occupied"].add(vertex.upper())   # type: ignore[attr-defined]

    def genmove(colour: str) -> str:
        if meeting.winner(colour) != colour:
            return "resign"
        size = int(board["size"])  # type: ignore[call-overload]
        points = [f"{LETTERS[c]}{r}" for r in range(1, size + 1) for c in range(size)]
        if colour == "w":
            points.reverse()
        vertex = next(p for p in points if p not in board["occupied"])   # type: ignore[operator]
        board["occupied"].add(vertex)   # type: ignore[attr-defined]
        return vertex

    engine.add_commands(board_game_commands(set_size=set_size, clear=clear, set_komi=lambda komi: None,
                                            play=play, genmove=genmove))
    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", required=True, choices=sorted(PROBLEMS))
    parser.add_argument("--at", default=None, help="the candidate's parameters, comma-separated, in [0, 1]")
    parser.add_argument("--meet", required=True, help="a directory the two engines of a game share")
    args = parser.parse_args()
    at = None if args.at is None else [float(x) for x in args.at.split(",")]
    if at is not None and len(at) != PROBLEMS[args.problem].dimensions:
        parser.error(f"--at needs {PROBLEMS[args.problem].dimensions} numbers for {args.problem}")
    game_id = os.environ.get("RINGMASTER_GAME_ID")
    if not game_id:
        parser.error("RINGMASTER_GAME_ID is not set: run it from the ringmaster")
    meeting = Meeting(args.meet, game_id, strength(args.problem, at))
    try:
        run_gtp_session(make_engine(meeting))
    finally:
        meeting.own_file.unlink(missing_ok=True)
        meeting.winner_file.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
