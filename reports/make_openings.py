"""Make the shipped opening suites (openings/go9, go19, othello8) from games GNU Go or our engine plays.

    nice -n 19 python reports/make_openings.py go9 openings/go9 --candidates 24 --keep 12

Each candidate opening is a different start (Go: Black's first move and White's
reply from a fixed list of points; Othello: the positions after a few plies),
continued by the engine for a few plies, and kept only if no earlier candidate
is the same under the board's symmetries (ringmaster.rules.symmetry). Each
candidate is then measured: the engine plays it out against itself (Go: GNU Go
at --level, scored by GNU Go's final_score with --chinese-rules; Othello: our
rollout engine, `players othello-mcts`, scored by the discs on our board), and
the suite keeps as many openings Black won as White won, closest scores
first, so that a colour wins about half the suite's games. It prints the
table of every candidate (reports/fair_pairs.md quotes it) and writes one
SGF file an opening, named NN.sgf in the order kept.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Sequence

from sgfmill import sgf

from ringmaster.gtp.channel import SubprocessChannel
from ringmaster.gtp.controller import GtpController
from ringmaster.rules import get_rules
from ringmaster.rules.symmetry import fingerprint

GNUGO = "/usr/games/gnugo"
COMMAND_TIMEOUT = 600.0
"""Seconds any one GTP command may take."""
SPECS = {   # board size, plies of an opening, komi, game
    "go9": (9, 4, 7.5, "go"),
    "go19": (19, 6, 7.5, "go"),
    "othello8": (8, 6, 0.0, "othello"),
}


def start_engine(command: Sequence[str]) -> GtpController:
    """A GTP engine through the ringmaster's own controller (no shell, a timeout on every
    command, its process group killed on close)."""
    return GtpController(SubprocessChannel(list(command)), os.path.basename(command[0]),
                         default_timeout=COMMAND_TIMEOUT)


def go_candidates(size: int, plies: int, level: int,
                  limit: int) -> list[list[tuple[str, tuple[int, int]]]]:
    """Black's first move and White's reply from points of one corner and the centre (other
    points are their images), then GNU Go's moves to `plies`; the first `limit` starts."""
    rules = get_rules("go", size)
    if size == 9:
        firsts = ["E5", "D4", "C3", "C4", "D5", "C5"]
        replies = ["G6", "F3", "G3", "C6", "G7", "E3", "F7", "C7"]
    else:
        firsts = ["Q16", "R16", "R17", "Q17", "K10", "R15"]
        replies = ["D4", "C4", "D16", "C16", "Q4", "Q3", "D3", "R4"]
    result = []
    engine = start_engine([GNUGO, "--mode", "gtp", "--level", str(level), "--chinese-rules"])
    try:
        engine.do_command("boardsize", str(size))
        for first, reply in list(itertools.product(firsts, replies))[:limit]:
            engine.do_command("clear_board")
            engine.do_command("komi", "7.5")
            moves = [("b", rules.parse_move(first)), ("w", rules.parse_move(reply))]
            engine.do_command("play", "b", first)
            engine.do_command("play", "w", reply)
            colour = "b"
            while len(moves) < plies:
                vertex = engine.do_command("genmove", colour)
                if vertex.lower() in ("pass", "resign"):
                    break
                moves.append((colour, rules.parse_move(vertex)))
                colour = "w" if colour == "b" else "b"
            if len(moves) == plies:
                result.append(moves)
    finally:
        engine.close()
    return result


def othello_candidates(size: int, plies: int) -> list[list[tuple[str, tuple[int, int]]]]:
    """Every line of `plies` legal moves from the start, in a fixed order."""
    lines: list[list] = [[]]
    for ply in range(plies):
        colour = "b" if ply % 2 == 0 else "w"
        longer = []
        for line in lines:
            rules = get_rules("othello", size)
            for c, m in line:
                rules.play(c, m)
            longer += [line + [(colour, p)] for p in rules.legal_placements(colour)]
        lines = longer
    return lines


def distinct(size: int, game: str, lines: list) -> list:
    """The lines, leaving out each that is an image of an earlier one under the symmetries."""
    start = [(colour, (r, c)) for r, row in enumerate(get_rules(game, size).board_rows())
             for c, colour in enumerate(row) if colour is not None]
    seen, kept = set(), []
    for line in lines:
        key = fingerprint(size, start, line)
        if key not in seen:
            seen.add(key)
            kept.append(line)
    return kept


def gnugo_playout(size: int, line: list, level: int) -> float:
    """GNU Go against itself from the opening; Black's score less White's (final_score)."""
    rules = get_rules("go", size)
    engine = start_engine([GNUGO, "--mode", "gtp", "--level", str(level), "--chinese-rules"])
    try:
        engine.do_command("boardsize", str(size))
        engine.do_command("komi", "7.5")
        for colour, move in line:
            engine.do_command("play", colour, rules.format_move(move))
        colour, passes, count = "b" if len(line) % 2 == 0 else "w", 0, 0
        while passes < 2 and count < 4 * size * size:
            vertex = engine.do_command("genmove", colour)
            if vertex.lower() == "resign":
                return 1000.0 if colour == "w" else -1000.0
            passes = passes + 1 if vertex.lower() == "pass" else 0
            colour, count = ("w" if colour == "b" else "b"), count + 1
        score = engine.do_command("final_score")
    finally:
        engine.close()
    if score in ("0", "Jigo"):
        return 0.0
    return float(score[2:]) * (1 if score[0] == "B" else -1)


def othello_playout(size: int, line: list, seconds: float, seed: int) -> float:
    """Our rollout engine against itself from the opening; Black's discs less White's."""
    rules = get_rules("othello", size)
    engine = start_engine([sys.executable, "-m", "players", "othello-mcts", "--seconds", str(seconds),
                           "--seed", str(seed)])
    try:
        engine.do_command("boardsize", str(size))
        for colour, move in line:
            engine.do_command("play", colour, rules.format_move(move))
            rules.play(colour, move)
        colour = "b" if len(line) % 2 == 0 else "w"
        while not rules.is_over():
            if rules.pass_is_forced(colour):
                rules.play(colour, None)
            else:
                vertex = engine.do_command("genmove", colour)
                move = rules.parse_move(vertex)
                reason = rules.check_move(colour, move)
                if reason is not None:
                    raise RuntimeError(f"illegal move {vertex}: {reason}")
                rules.play(colour, move)
            colour = "w" if colour == "b" else "b"
    finally:
        engine.close()
    return rules.area_score()


def balanced(scored: list[tuple[list, float]], keep: int) -> list[tuple[list, float]]:
    """keep // 2 openings Black won and as many White won, the closest scores first."""
    black = sorted((s for s in scored if s[1] > 0), key=lambda s: s[1])
    white = sorted((s for s in scored if s[1] < 0), key=lambda s: -s[1])
    half = min(keep // 2, len(black), len(white))
    return black[:half] + white[:half]


def write_sgf(path: str, size: int, game: str, line: list, komi: float, comment: str) -> None:
    sgf_game = sgf.Sgf_game(size)
    root = sgf_game.get_root()
    if game == "othello":
        root.set("GM", 2)
    root.set("KM", komi)
    root.set("C", comment)
    for colour, move in line:
        sgf_game.extend_main_sequence().set_move(colour, move)
    with open(path, "wb") as f:
        f.write(sgf_game.serialise())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=sorted(SPECS))
    parser.add_argument("directory")
    parser.add_argument("--candidates", type=int, default=24)
    parser.add_argument("--keep", type=int, default=12)
    parser.add_argument("--level", type=int, default=1, help="GNU Go's level (Go)")
    parser.add_argument("--seconds", type=float, default=0.05, help="our engine's (Othello)")
    args = parser.parse_args()
    size, plies, komi, game = SPECS[args.suite]
    if game == "go":
        lines = distinct(size, game, go_candidates(size, plies, args.level,
                                                          2 * args.candidates))
    else:
        lines = distinct(size, game, othello_candidates(size, plies))
    lines = lines[::max(1, len(lines) // args.candidates)][:args.candidates]
    scored = []
    for i, line in enumerate(lines):
        if game == "go":
            score = gnugo_playout(size, line, args.level)
        else:   # two games, seeds apart; their mean
            score = (othello_playout(size, line, args.seconds, 2 * i)
                     + othello_playout(size, line, args.seconds, 2 * i + 1)) / 2
        rules = get_rules(game, size)
        shown = " ".join(rules.format_move(m) for _, m in line)
        print(f"candidate {i:2d}  {shown:30s}  black - white {score:+.1f}", flush=True)
        scored.append((line, score))
    kept = balanced(scored, args.keep)
    os.makedirs(args.directory, exist_ok=True)
    for n, (line, score) in enumerate(kept, 1):
        rules = get_rules(game, size)
        shown = " ".join(rules.format_move(m) for _, m in line)
        how = (f"GNU Go --level {args.level} against itself" if game == "go"
               else f"players othello-mcts --seconds {args.seconds} against itself (2 games)")
        write_sgf(os.path.join(args.directory, f"{n:02d}.sgf"), size, game, line, komi,
                  f"Made by reports/make_openings.py: {shown}; {how} from here: "
                  f"black - white {score:+.1f}")
    black_won = sum(1 for _, s in kept if s > 0)
    print(f"kept {len(kept)} of {len(scored)} candidates: Black won {black_won}, White "
          f"{len(kept) - black_won}; of all candidates Black won "
          f"{sum(1 for _, s in scored if s > 0)} of {len(scored)}")


if __name__ == "__main__":
    main()
