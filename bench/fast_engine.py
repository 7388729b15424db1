#!/usr/bin/env python
"""A near-instant GTP engine for benchmarks.  Runs under Python 2.7 and Python 3.

It answers at once and plays a fixed, legal sequence: Black walks the board
points from A1 upwards (row by row), White walks them from the top-right
corner downwards; each skips occupied points, the point of any single-stone
capture on the previous move (a superset of simple ko) and self-capture.
Once the game has MOVES moves (passes included) it passes, so with no early
passes a game lasts exactly MOVES + 2 moves, ended by two passes.

    python fast_engine.py [--moves N]

It keeps its own board (captures included), so the referee's board and its
own agree.  It must not import ringmaster: Gomill launches it too.
"""

import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Board:
    def __init__(self, size):
        self.size = size
        self.points = {}          # (row, col) -> 'b' / 'w'
        self.history = 0          # moves played in this game, passes included
        self.forbidden = None     # point of a single-stone capture by the last move
        self.black_order = [(r, c) for r in range(size) for c in range(size)]
        self.white_order = list(reversed(self.black_order))

    def neighbours(self, point):
        r, c = point
        size = self.size
        if r > 0:
            yield (r - 1, c)
        if r < size - 1:
            yield (r + 1, c)
        if c > 0:
            yield (r, c - 1)
        if c < size - 1:
            yield (r, c + 1)

    def group_and_liberties(self, point, points):
        colour = points[point]
        group = set([point])
        liberties = set()
        stack = [point]
        while stack:
            p = stack.pop()
            for n in self.neighbours(p):
                occupant = points.get(n)
                if occupant is None:
                    liberties.add(n)
                elif occupant == colour and n not in group:
                    group.add(n)
                    stack.append(n)
        return group, liberties

    def _apply(self, points, colour, point):
        """Play on a copy or the real dict; returns the captured stones."""
        points[point] = colour
        other = "w" if colour == "b" else "b"
        captured = []
        for n in self.neighbours(point):
            if points.get(n) == other:
                group, libs = self.group_and_liberties(n, points)
                if not libs:
                    for p in group:
                        if p in points:
                            del points[p]
                            captured.append(p)
        group, libs = self.group_and_liberties(point, points)
        if not libs:  # self-capture
            for p in group:
                del points[p]
        return captured

    def is_self_capture(self, colour, point):
        for n in self.neighbours(point):
            if n not in self.points:
                return False  # an empty neighbour: a liberty (the usual case)
        points = dict(self.points)
        self._apply(points, colour, point)
        return point not in points

    def play(self, colour, point):
        self.history += 1
        if point is None:
            self.forbidden = None
            return
        captured = self._apply(self.points, colour, point)
        self.forbidden = captured[0] if len(captured) == 1 else None

    def choose(self, colour, limit):
        if self.history >= limit:
            return None
        order = self.black_order if colour == "b" else self.white_order
        for point in order:
            if point in self.points or point == self.forbidden:
                continue
            if self.is_self_capture(colour, point):
                continue
            return point
        return None


def format_vertex(point):
    if point is None:
        return "pass"
    row, col = point
    return "%s%d" % (LETTERS[col], row + 1)  # noqa: UP031 (this file also runs under Python 2.7)


def parse_vertex(text, size):
    text = text.strip().upper()
    if text == "PASS":
        return None
    col = LETTERS.index(text[0])
    row = int(text[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(text)
    return (row, col)


def gtp_commands(stdin):
    """Yield (id, words) for each command line read, skipping blank lines and comments."""
    while True:
        line = stdin.readline()
        if not line:
            return
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                continue
        yield ident, words


COMMANDS = ["protocol_version", "name", "version", "known_command", "list_commands",
            "boardsize", "clear_board", "komi", "play", "genmove", "quit"]


def administrative(command, args, name):
    """The answer both bench engines give to an administrative command, or None for another."""
    if command == "protocol_version":
        return "2"
    if command == "name":
        return name
    if command == "version":
        return "1"
    if command == "known_command":
        return "true" if args and args[0] in COMMANDS else "false"
    if command == "list_commands":
        return "\n".join(COMMANDS)
    return None


def main(argv):
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(__doc__)
        return
    limit = 100
    if "--moves" in argv:
        limit = int(argv[argv.index("--moves") + 1])
    board = Board(19)
    stdin = sys.stdin
    stdout = sys.stdout
    for ident, words in gtp_commands(stdin):
        command, args = words[0], words[1:]
        answer = administrative(command, args, "fast_engine")
        ok, text = True, answer or ""
        try:
            if answer is not None:
                pass
            elif command == "genmove":
                colour = args[0].lower()[0]
                point = board.choose(colour, limit)
                board.play(colour, point)
                text = format_vertex(point)
            elif command == "play":
                board.play(args[0].lower()[0], parse_vertex(args[1], board.size))
            elif command == "boardsize":
                board = Board(int(args[0]))
            elif command == "clear_board":
                board = Board(board.size)
            elif command == "komi":
                pass
            elif command == "quit":
                stdout.write("=%s\n\n" % ident)  # noqa: UP031
                stdout.flush()
                return
            else:
                ok, text = False, "unknown command"
        except (IndexError, ValueError):
            ok, text = False, "syntax error"
        stdout.write("{}{} {}\n\n".format("=" if ok else "?", ident, text))
        stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
