"""The `ringmaster` command line: run, show, report, stop, reset, check, debugstatus."""

from __future__ import annotations

import difflib
import json
import os
import sys
import traceback
from typing import NoReturn

import click

from ringmaster import __version__
from ringmaster.errors import (
    EXIT_CHECKS_FAILED,
    EXIT_HALTED,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_USER_ERROR,
    InternalError,
    RingmasterError,
    StartupCheckFailed,
    StorageError,
    UsageError,
)
from ringmaster.files import printable
from ringmaster.game.engines import ChannelFactory, subprocess_channel
from ringmaster.reaper import helper_pids, reaping
from ringmaster.run.display import Presenter, QuietPresenter, say, silence
from ringmaster.run.lifecycle import run_competition, sigterm_interrupts
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.run.startup_checks import cluster_startup_failures, startup_failures

__all__ = ["EXIT_CHECKS_FAILED", "EXIT_HALTED", "EXIT_INTERNAL_ERROR", "EXIT_INTERRUPTED",
           "EXIT_OK", "EXIT_USAGE", "EXIT_USER_ERROR", "cli", "main", "normalise_arguments",
           "run_command_line"]

COMMANDS = ("run", "show", "check", "report", "stop", "reset", "debugstatus")
_OPTIONS_WITH_VALUES = ("-j", "--parallel", "-g", "--max-games", "--matchup", "--cluster")


def _load(control_file: str, echo_warnings: bool = True) -> Ringmaster:
    factory = click.get_current_context().obj or subprocess_channel
    ringmaster = Ringmaster(control_file, channel_factory=factory)
    if echo_warnings:   # run shows them itself, on its display and in the log
        for warning in ringmaster.warnings:
            click.echo(f"warning: {warning}", err=True)
    return ringmaster


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ringmaster")
def cli() -> None:
    """Run competitions and tuning events between GTP engines.

    Usage: ringmaster COMMAND CONTROL_FILE [OPTIONS], or Gomill's order,
    ringmaster CONTROL_FILE [COMMAND] [OPTIONS] (the command defaults to run).
    """


control_file_argument = click.argument("control_file", type=click.Path(dir_okay=False))


@cli.command()
@control_file_argument
@click.option("-j", "--parallel", type=click.IntRange(1, 1023), default=None,
              help="Play this many games at once, in worker processes.")
@click.option("-g", "--max-games", type=click.IntRange(0), default=None,
              help="Start at most this many games in this run. A playoff or all-play-all "
                   "takes them from every matchup in turn (the one with the fewest games "
                   "first); --matchup chooses which.")
@click.option("--matchup", "matchups", multiple=True, metavar="ID",
              help="Play only this matchup (its id or name) in this run; repeat it for more.")
@click.option("-q", "--quiet", is_flag=True,
              help="Show only warnings while it runs, and the results at the end.")
@click.option("--log-gtp", is_flag=True, help="Write each game's GTP transcript.")
@click.option("--cluster", metavar="tcp://HOST:PORT", default=None,
              help="Play the games on the workers of this Dask scheduler.")
def run(control_file: str, parallel: int | None, max_games: int | None, matchups: tuple[str, ...],
        quiet: bool, log_gtp: bool, cluster: str | None) -> None:
    """Play the competition's games (continuing where the last run stopped)."""
    ringmaster = _load(control_file, echo_warnings=False)
    refuse_output_into_own_files(ringmaster)
    run_competition(ringmaster, max_games=max_games, parallel=parallel,
                    log_gtp=log_gtp, presenter=QuietPresenter() if quiet else Presenter(),
                    say=say, quiet=quiet, cluster=cluster, matchups=list(matchups))


def refuse_output_into_own_files(ringmaster: Ringmaster) -> None:
    """Raise UsageError if standard output or error is one of the competition's own files.

    `ringmaster run x.ctl > x.log` would write the display into the log that the
    run writes (and locks) itself.
    """
    for name, stream in (("output", sys.stdout), ("error", sys.stderr)):
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):   # not a real file (a test's capture)
            continue
        own = ringmaster.paths.own_file_written_by(fd)
        if own is not None:
            raise UsageError(f"standard {name} is {os.path.basename(own)}, which the run writes "
                             f"itself: send it to another file")


@cli.command()
@control_file_argument
@click.option("--json", "as_json", is_flag=True,
              help="Print every game result and every statistic as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per game.")
def show(control_file: str, as_json: bool, as_csv: bool) -> None:
    """Print the report from the saved state (safe while a run is going on)."""
    ringmaster = _load(control_file)
    ringmaster.load_state(required=True)
    if as_csv:
        click.echo(ringmaster.games_csv(), nl=False)
    elif as_json:
        _write_json(ringmaster.json_report())
    else:
        click.echo(ringmaster.report_text(), nl=False)


def _write_json(report: dict[str, object]) -> None:
    """Print report as JSON a piece at a time: json.dumps holds the text whole with its pieces
    (4 MB a 1,000 games), and json.dump writes each piece apart, a third slower."""
    pieces: list[str] = []
    for piece in json.JSONEncoder(indent=2, allow_nan=False).iterencode(report):
        pieces.append(piece)
        if len(pieces) == 10_000:
            sys.stdout.write("".join(pieces))
            pieces.clear()
    sys.stdout.write("".join(pieces) + "\n")
    sys.stdout.flush()


@cli.command()
@control_file_argument
def report(control_file: str) -> None:
    """Rewrite the report file and FILE.html from the saved state."""
    ringmaster = _load(control_file)
    ringmaster.load_state(required=True)
    ringmaster.write_report()


@cli.command()
@control_file_argument
def stop(control_file: str) -> None:
    """Ask a running competition to finish its games in progress and stop (exit 1 if none is)."""
    _load(control_file).request_stop()


@cli.command()
@control_file_argument
def reset(control_file: str) -> None:
    """Delete the state and every output file (refused while a run is going on)."""
    errors = _load(control_file).reset()
    if len(errors) == 1:
        raise StorageError(errors[0])
    if errors:
        raise StorageError(f"{len(errors)} outputs could not be removed; the first: {errors[0]}")


@cli.command()
@control_file_argument
@click.option("--cluster", metavar="tcp://HOST:PORT", default=None,
              help="Run the checks on every worker of this Dask scheduler too.")
def check(control_file: str, cluster: str | None) -> None:
    """Start every player and run its start-up checks, showing its stderr.

    First the saved state, if there is one, is read as `run` reads it (never written, and safe
    while a run is going on): a control file it can't resume with is refused, as `run` refuses
    it, before any engine starts.
    """
    ringmaster = _load(control_file)
    ringmaster.load_state()
    notes: list[str] = []
    with reaping(helper_pids):
        failures = startup_failures(ringmaster.competition, ringmaster.channel_factory,
                                    stderr="inherit", report=click.echo, notes=notes)
    for note in notes:
        click.echo(f"warning: {note}", err=True)
    if cluster is not None:
        from ringmaster.dispatch.cluster import connect
        with connect(cluster) as client:
            failures += cluster_startup_failures(ringmaster.competition, client,
                                                 ringmaster.paths.directory, click.echo)
    for failure in failures:
        click.echo(failure)
    if failures:
        raise StartupCheckFailed(failures, stderr_shown=True)


@cli.command()
@control_file_argument
def debugstatus(control_file: str) -> None:
    """Print the state as JSON (the state file with the journal's saves applied)."""
    document = _load(control_file).state_as_json()
    click.echo(json.dumps(document, indent=2, sort_keys=True))


def _looks_like_a_file(word: str) -> bool:
    return word.endswith(".ctl") or os.sep in word or os.path.exists(word)


def unknown_command(words: list[str]) -> str | None:
    """The mistyped command among the first two positional words, if neither is a command and
    one of them can't be the control file (`rnu t.ctl`, or Gomill's order `t.ctl rnu`)."""
    if len(words) < 2 or words[0] in COMMANDS or words[1] in COMMANDS:
        return None
    for word in words[:2]:
        if not _looks_like_a_file(word):
            return word
    return None


def _unknown_command_error(word: str) -> UsageError:
    guess = difflib.get_close_matches(word, COMMANDS, n=1)
    hint = f" (did you mean '{guess[0]}'?)" if guess else ""
    return UsageError(f"no such command {word!r}{hint}; the commands are {', '.join(COMMANDS)}")


def normalise_arguments(argv: list[str]) -> list[str]:
    """Accept Gomill's order too: `FILE [COMMAND] [options]` becomes `COMMAND FILE [options]`.

    Raises UsageError naming a mistyped command (`ringmaster rnu t.ctl`).
    """
    positional = []
    skip = False
    for i, word in enumerate(argv):
        if skip:
            skip = False
            continue
        if word in _OPTIONS_WITH_VALUES:
            skip = True
            continue
        if word.startswith("-"):
            continue
        positional.append(i)
    if not positional or argv[positional[0]] in COMMANDS:
        return argv
    mistyped = unknown_command([argv[i] for i in positional])
    if mistyped is not None:
        raise _unknown_command_error(mistyped)
    first = positional[0]
    rest = [w for i, w in enumerate(argv) if i != first]
    if len(positional) > 1 and argv[positional[1]] in COMMANDS:
        command_index = positional[1]
        command = argv[command_index]
        rest = [w for i, w in enumerate(argv) if i not in (first, command_index)]
    else:
        command = "run"
    return [command, argv[first]] + rest


def _tell(message: str, nl: bool = True) -> None:
    """The command's last word, on standard error; nothing if that can't be written (a
    terminal hung up): the log says it too."""
    try:
        click.echo(message, err=True, nl=nl)
    except OSError:
        silence(sys.stderr)


def run_command_line(argv: list[str],
                     channel_factory: ChannelFactory = subprocess_channel) -> int:
    """Run one command line; the one place errors become messages and exit codes.

    Returns the exit code (docs/running.md, 'Exit codes'): each RingmasterError
    carries its own, shown as one line; anything else is an internal error,
    shown with its traceback. channel_factory starts the engines (tests run
    them in-process).
    """
    try:
        with sigterm_interrupts():
            cli.main(normalise_arguments(argv), prog_name="ringmaster", standalone_mode=False,
                     obj=channel_factory)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code
    except click.exceptions.Abort:   # Ctrl-C or SIGTERM outside a run's games (click ends the line)
        _tell("ringmaster: interrupted")
        return EXIT_INTERRUPTED
    except RingmasterError as exc:
        _tell(f"ringmaster: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as exc:   # the environment (a full disk, a read-only directory), not a bug
        where = f"{exc.filename}: " if exc.filename else ""
        _tell(f"ringmaster: {where}{exc.strerror or exc}")
        return EXIT_USER_ERROR
    except InternalError as exc:   # a bug in a game's job: its worker's traceback
        _tell(f"ringmaster: internal error: {exc}; the results so far are saved")
        _tell(printable(exc.traceback), nl=False)   # it may quote an engine
        return EXIT_INTERNAL_ERROR
    except Exception:
        _tell("ringmaster: internal error")
        _tell(traceback.format_exc(), nl=False)
        return EXIT_INTERNAL_ERROR
    return EXIT_OK


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: run sys.argv's command line and exit with its code.

    A standard stream that can't be flushed (a pipe whose reader ended, a terminal hung up)
    is silenced first: Python's own flush at exit would print a traceback and exit 120. One
    closed from the start is None, and skipped.
    """
    reserve_standard_fds()
    code = run_command_line(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        if stream is None:   # closed when the command started (`2>&-`)
            continue
        try:
            stream.flush()
        except (OSError, ValueError):   # ValueError: a stream closed here
            silence(stream)
    sys.exit(code)


def reserve_standard_fds() -> None:
    """Open /dev/null on each of fds 0-2 closed when the command started (`>&-`, `2>&-`; Python
    has made its stream None), so that no file the run opens (its log, its state) gets that
    number, to be written by whatever writes there: a child's inherited stderr, a fatal error."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)   # the lowest free number: fd itself
            if null == fd:
                os.set_inheritable(fd, True)
            else:
                os.dup2(null, fd)
                os.close(null)


if __name__ == "__main__":
    main()
