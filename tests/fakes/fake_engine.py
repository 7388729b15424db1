"""A misbehaving GTP engine for tests, as a subprocess or in-process; each option is one fault.

It plays legal moves (scanning the board in order, never filling its own
eyes), so without options its games end normally. channels.py runs the same
engine in-process, where crashes, hangs and garbage become the channel
errors a subprocess's would. Options:
  --exit-at-start          exit before answering anything
  --crash-on N             exit without answering the Nth genmove
  --hang-on N              never answer the Nth genmove
  --hang-on-command NAME   never answer NAME, or one command line ('known_command x')
  --crash-on-command LINE  exit without answering the command line LINE
  --garbage-on-command LINE  answer the command line LINE with non-GTP text
  --garbage-on N           answer the Nth genmove with non-GTP text
  --illegal-on N           answer the Nth genmove with an occupied point (or A1 if empty)
  --ill-formed-on N        answer the Nth genmove with 'Z99'
  --resign-on N            resign at the Nth genmove
  --fail-genmove-on N      failure response to the Nth genmove
  --fail-command NAME      failure response to NAME (for example komi), or to
                           one command line ('boardsize 7')
  --reject-play            failure response 'illegal move' to every play
  --stderr-flood BYTES     write this much to stderr at every command
  --spawn-child            start a child process that sleeps (to test group kill)
  --escape-child FILE      start a child in a new session that keeps stdout and stderr
                           open and sleeps (before --exit-at-start exits); its pid is
                           appended to FILE, one a line
  --score TEXT             answer final_score with TEXT
  --dead TEXT              answer 'final_status_list dead' with TEXT (by default: no
                           dead stone, the truth of its own finished games)
  --dead-colour COLOUR     answer 'final_status_list dead' with every stone of COLOUR
  --no-status-list         don't know final_status_list
  --protocol-version TEXT  answer protocol_version with TEXT
  --gmp                    start by writing a GMP byte
  --name NAME              engine name
  --cpu-time SECONDS       support gomill-cpu_time with this answer
  --record FILE            append each command received to FILE
  --env-to-stderr          write RINGMASTER_GAME_ID and RINGMASTER_SLOT to stderr
  --move-delay SECONDS     think this long before answering each genmove
  --exit-after LINE        answer the command line LINE, then exit (an engine that dies
                           between games: 'known_command gomill-cpu_time' ends a game)
  --extra-after LINE       answer LINE, then write a second, unasked-for response
  --exit-on-id             exit on reading a command with an id ('1 protocol_version'),
                           as some engines do (subprocess only)
  --answer-twice-on N      answer the Nth genmove again, with its id, on reading the
                           next command (so after the controller sent it), before
                           answering that (subprocess only)
  --think SECONDS          take this long over each genmove (in-process: on the
                           virtual clock, channels.VirtualTime, when a test sets one)
  --think-on N SECONDS     take this long over the Nth genmove (as --think; repeatable)
  --time-commands A,B      list these time commands (time_settings, kgs-time_settings,
                           kata-time_settings, time_left): each succeeds (unless
                           --fail-command names it) and changes nothing
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import time

from sgfmill import boards, common

from ringmaster.gtp.engine import (
    GtpEngine,
    GtpError,
    format_response,
    parse_command_line,
    run_gtp_session,
)


def parse(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--exit-at-start", action="store_true")
    for name in ("crash-on", "hang-on", "garbage-on", "illegal-on", "ill-formed-on",
                 "resign-on", "fail-genmove-on"):
        p.add_argument("--" + name, type=int, default=None)
    p.add_argument("--hang-on-command", default=None)
    p.add_argument("--crash-on-command", default=None)
    p.add_argument("--garbage-on-command", default=None)
    p.add_argument("--fail-command", action="append", default=[])
    p.add_argument("--reject-play", action="store_true")
    p.add_argument("--stderr-flood", type=int, default=0)
    p.add_argument("--spawn-child", action="store_true")
    p.add_argument("--escape-child", default=None)
    p.add_argument("--score", default=None)
    p.add_argument("--dead", default=None)
    p.add_argument("--dead-colour", default=None)
    p.add_argument("--no-status-list", action="store_true")
    p.add_argument("--protocol-version", default="2")
    p.add_argument("--gmp", action="store_true")
    p.add_argument("--name", default="fake")
    p.add_argument("--cpu-time", default=None)
    p.add_argument("--record", default=None)
    p.add_argument("--env-to-stderr", action="store_true")
    p.add_argument("--move-delay", type=float, default=0.0)
    p.add_argument("--exit-after", default=None)
    p.add_argument("--extra-after", default=None)
    p.add_argument("--answer-twice-on", type=int, default=None)
    p.add_argument("--exit-on-id", action="store_true")
    p.add_argument("--think", type=float, default=0.0)
    p.add_argument("--think-on", nargs=2, action="append", default=[], metavar=("N", "SECONDS"))
    p.add_argument("--time-commands", default="")
    return p.parse_args(argv)


class State:
    def __init__(self):
        self.size = 19
        self.board = boards.Board(19)
        self.ko = None
        self.genmoves = 0

    def clear(self):
        self.board = boards.Board(self.size)
        self.ko = None

    def play(self, colour, move):
        if move is None:
            self.ko = None
            return
        self.ko = self.board.play(move[0], move[1], colour)

    def choose(self, colour):
        for row in range(self.size):
            for col in range(self.size):
                if self.board.get(row, col) is not None or (row, col) == self.ko:
                    continue
                neighbours = [(r, c) for r, c in ((row - 1, col), (row + 1, col),
                                                  (row, col - 1), (row, col + 1))
                              if 0 <= r < self.size and 0 <= c < self.size]
                if all(self.board.get(r, c) == colour for r, c in neighbours):
                    continue
                trial = self.board.copy()
                trial.play(row, col, colour)
                if trial.get(row, col) is None:
                    continue
                return row, col
        return None

    def occupied_point(self):
        for row in range(self.size):
            for col in range(self.size):
                if self.board.get(row, col) is not None:
                    return row, col
        return 0, 0


class ProcessMisbehaviour:
    """How the engine misbehaves as a subprocess: really exiting, hanging, writing garbage.

    command_id is the id of the command being answered (None if it has none), as
    CommandReader notes it; late is an answer to write on reading the next command.
    """

    def __init__(self) -> None:
        self.command_id: str | None = None
        self.late: str | None = None
        self.exit_on_id = False

    def exit_at_start(self) -> None:
        sys.exit(1)

    def crash(self) -> None:
        os._exit(3)

    def hang(self) -> None:
        time.sleep(3600)

    def think(self, seconds: float) -> None:
        time.sleep(seconds)

    def garbage(self) -> None:
        sys.stdout.write("this is not GTP\n\n")
        sys.stdout.flush()
        time.sleep(3600)

    def gmp(self) -> None:
        sys.stdout.buffer.write(b"\x01\x02")
        sys.stdout.flush()

    def spawn_child(self) -> None:
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])

    def stderr(self, text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def answer_and_exit(self, is_failure: bool, text: str) -> None:
        sys.stdout.write(format_response(self.command_id, is_failure, text))
        sys.stdout.flush()
        os._exit(0)

    def answer_again_late(self, is_failure: bool, text: str) -> None:
        self.late = format_response(self.command_id, is_failure, text)

    def escape_child(self, pid_file: str) -> None:
        # Like a server started by an engine: a new session, the engine's pipes inherited.
        # Engines that share the file (games played at once) each append one whole line:
        # one write to a file opened for appending (a shared temporary file renamed into
        # place made the second engine's rename fail, and that engine exit at start-up).
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", pid_file],
                                 start_new_session=True)
        fd = os.open(pid_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{child.pid}\n".encode())
        finally:
            os.close(fd)


def make_engine(options, misbehave, env) -> GtpEngine:
    """The fake engine for parsed options; misbehave says how to crash, hang and so on."""
    if options.gmp:
        misbehave.gmp()
    if options.escape_child:   # first: an engine that exits at start-up may leave it behind
        misbehave.escape_child(options.escape_child)
    if options.exit_at_start:
        misbehave.exit_at_start()
    if options.spawn_child:
        misbehave.spawn_child()
    if options.env_to_stderr:
        misbehave.stderr("game={} slot={}".format(env.get("RINGMASTER_GAME_ID"),
                                               env.get("RINGMASTER_SLOT")))
    state = State()
    engine = GtpEngine(options.name, "1.0")
    original_run = engine.run_command

    def run_command(command, args):
        if options.record:
            with open(options.record, "a") as f:
                f.write(" ".join([command] + args) + "\n")
        if options.stderr_flood:
            misbehave.stderr("x" * options.stderr_flood)
        line = " ".join([command] + args)
        if options.hang_on_command in (command, line):
            misbehave.hang()
        if line == options.crash_on_command:
            misbehave.crash()
        if line == options.garbage_on_command:
            misbehave.garbage()
        if command in options.fail_command or " ".join([command] + args) in options.fail_command:
            return True, f"{command} refused", False
        is_failure, text, end = original_run(command, args)
        if line == options.exit_after:
            misbehave.answer_and_exit(is_failure, text)
        if command == "genmove" and state.genmoves == options.answer_twice_on:
            misbehave.answer_again_late(is_failure, text)
        if line == options.extra_after:
            # A line holding a space ends a response: the second follows as its own.
            text = f"{text}\n\n= unasked"
        return is_failure, text, end
    engine.run_command = run_command

    def boardsize(args):
        state.size = int(args[0])
        state.clear()

    def play(args):
        if options.reject_play:
            raise GtpError("illegal move")
        state.play(args[0].lower()[0], common.move_from_vertex(args[1], state.size))

    think_on = {int(n): float(seconds) for n, seconds in options.think_on}

    def genmove(args):
        if options.move_delay:
            time.sleep(options.move_delay)
        colour = args[0].lower()[0]
        state.genmoves += 1
        n = state.genmoves
        if options.think or n in think_on:
            misbehave.think(think_on.get(n, options.think))
        if n == options.crash_on:
            misbehave.crash()
        if n == options.hang_on:
            misbehave.hang()
        if n == options.garbage_on:
            misbehave.garbage()
        if n == options.resign_on:
            return "resign"
        if n == options.fail_genmove_on:
            raise GtpError("cannot think")
        if n == options.illegal_on:
            return common.format_vertex(state.occupied_point())
        if n == options.ill_formed_on:
            return "Z99"
        move = state.choose(colour)
        state.play(colour, move)
        return common.format_vertex(move)

    def final_score(args):
        if options.score is None:
            raise GtpError("no score")
        return options.score

    def final_status_list(args):
        if len(args) != 1 or args[0] not in ("dead", "alive", "seki"):
            raise GtpError("invalid status")
        stones = [(colour, common.format_vertex(point))
                  for colour, point in state.board.list_occupied_points()]
        if args[0] == "alive":
            dead = {v for c, v in stones if c == options.dead_colour} if options.dead is None \
                else set(options.dead.split())
            return " ".join(v for c, v in stones if v not in dead)
        if args[0] == "seki":
            return ""
        if options.dead is not None:
            return options.dead
        return " ".join(v for c, v in stones if c == options.dead_colour)

    engine.add_commands({
        "protocol_version": lambda args: options.protocol_version,
        "boardsize": boardsize,
        "clear_board": lambda args: state.clear(),
        "komi": lambda args: None,
        "play": play,
        "genmove": genmove,
        "fixed_handicap": lambda args: None,
        "set_free_handicap": lambda args: state.board.apply_setup(
            [common.move_from_vertex(v, state.size) for v in args], [], []),
    })
    if options.score is not None:
        engine.add_command("final_score", final_score)
    if not options.no_status_list:
        engine.add_command("final_status_list", final_status_list)
    if options.cpu_time is not None:
        engine.add_command("gomill-cpu_time", lambda args: options.cpu_time)
    for command in filter(None, options.time_commands.split(",")):
        engine.add_command(command, lambda args: None)
    return engine


class CommandReader:
    """The engine's stdin, noting each command's id for ProcessMisbehaviour, and writing its
    late answer, if one is due, on reading the next command."""

    def __init__(self, stream, misbehave: ProcessMisbehaviour) -> None:
        self._stream = stream
        self._misbehave = misbehave

    def readline(self) -> str:
        line = self._stream.readline()
        parsed = parse_command_line(line)
        if parsed is not None:
            if parsed[0] is not None and self._misbehave.exit_on_id:
                sys.exit(1)
            self._misbehave.command_id = parsed[0]
            if self._misbehave.late is not None:
                sys.stdout.write(self._misbehave.late)
                sys.stdout.flush()
                self._misbehave.late = None
        return line


def main(argv):
    misbehave = ProcessMisbehaviour()
    options = parse(argv)
    misbehave.exit_on_id = options.exit_on_id
    engine = make_engine(options, misbehave, os.environ)
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    run_gtp_session(engine, CommandReader(stdin, misbehave))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
