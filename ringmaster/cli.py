"""The `ringmaster` command line: run, show, report, stop, reset, check, debugstatus."""

from __future__ import annotations

import json
import signal
import sys
import traceback

import click

from ringmaster import __version__
from ringmaster.display import Presenter, QuietPresenter
from ringmaster.errors import RingmasterError
from ringmaster.persistence import CompetitionLock
from ringmaster.ringmaster import Ringmaster, RunHalted

# Exit codes: each kind of ending has its own.
EXIT_OK = 0
EXIT_USER_ERROR = 1        # a bad control file, state file or command
EXIT_USAGE = 2             # the command line itself is wrong (click's own code)
EXIT_INTERRUPTED = 3       # Ctrl-C or SIGTERM
EXIT_INTERNAL_ERROR = 4    # a bug in ringmaster: a traceback is shown
EXIT_CHECKS_FAILED = 5     # a player failed its start-up check
EXIT_HALTED = 6            # the run stopped because of too many void games

COMMANDS = ("run", "show", "report", "stop", "reset", "check", "debugstatus")
_OPTIONS_WITH_VALUES = ("-j", "--parallel", "-g", "--max-games")


class UserError(click.ClickException):
    exit_code = EXIT_USER_ERROR

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        click.echo(f"ringmaster: {self.format_message()}", err=True)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _load(control_file: str) -> Ringmaster:
    try:
        ringmaster = Ringmaster(control_file)
    except RingmasterError as exc:
        raise UserError(str(exc)) from None
    for warning in ringmaster.warnings:
        click.echo(f"warning: {warning}", err=True)
    return ringmaster


def _load_state(ringmaster: Ringmaster) -> None:
    try:
        if not ringmaster.load_state():
            raise UserError("no status file")
    except RingmasterError as exc:
        raise UserError(str(exc)) from None


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
              help="Start at most this many games in this run.")
@click.option("-q", "--quiet", is_flag=True, help="Show nothing but warnings.")
@click.option("--log-gtp", is_flag=True, help="Write each game's GTP transcript.")
def run(control_file: str, parallel: int | None, max_games: int | None, quiet: bool,
        log_gtp: bool) -> None:
    """Play the competition's games (continuing where the last run stopped)."""
    ringmaster = _load(control_file)
    lock = CompetitionLock(ringmaster.paths.log)
    try:
        lock.acquire()
    except RingmasterError as exc:
        raise UserError(str(exc)) from None
    try:
        ringmaster.open_log()
        try:
            ringmaster.load_state()
        except RingmasterError as exc:
            raise UserError(str(exc)) from None
        if ringmaster.competition.skip_player_checks:
            count = len(ringmaster.competition.get_player_checks())
            if not quiet:
                click.echo(f"skipping {count} player checks")
        else:
            if not quiet:
                click.echo("running startup checks on all players")
            failures = ringmaster.run_startup_checks()
            if failures:
                for failure in failures:
                    click.echo(failure)
                click.echo("(use the 'check' command to see stderr output)")
                sys.exit(EXIT_CHECKS_FAILED)
        ringmaster.prepare_history()
        ringmaster.clean_up_after_crash()
        presenter = QuietPresenter() if quiet else Presenter()
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            ringmaster.run(max_games=max_games, parallel=parallel, log_gtp=log_gtp,
                           presenter=presenter)
        except RunHalted as exc:
            click.echo(f"ringmaster: {exc}", err=True)
            sys.exit(EXIT_HALTED)
        except KeyboardInterrupt:
            click.echo("ringmaster: interrupted; games in progress will be replayed", err=True)
            sys.exit(EXIT_INTERRUPTED)
    finally:
        ringmaster.close_log()
        lock.release()


@cli.command()
@control_file_argument
@click.option("--json", "as_json", is_flag=True,
              help="Print every game result and every statistic as JSON.")
def show(control_file: str, as_json: bool) -> None:
    """Print the report from the saved state (safe while a run is going on)."""
    ringmaster = _load(control_file)
    _load_state(ringmaster)
    if as_json:
        click.echo(json.dumps(ringmaster.json_report(), indent=2))
    else:
        click.echo(ringmaster.report_text(), nl=False)


@cli.command()
@control_file_argument
def report(control_file: str) -> None:
    """Rewrite the report file from the saved state."""
    ringmaster = _load(control_file)
    _load_state(ringmaster)
    ringmaster.write_report()


@cli.command()
@control_file_argument
def stop(control_file: str) -> None:
    """Ask a running competition to finish its games in progress and stop."""
    ringmaster = _load(control_file)
    with open(ringmaster.paths.command, "w", encoding="utf-8") as f:
        f.write("stop\n")


@cli.command()
@control_file_argument
def reset(control_file: str) -> None:
    """Delete the state and every output file (refused while a run is going on)."""
    ringmaster = _load(control_file)
    try:
        errors = ringmaster.reset()
    except RingmasterError as exc:
        raise UserError(str(exc)) from None
    for error in errors:
        click.echo(error, err=True)


@cli.command()
@control_file_argument
def check(control_file: str) -> None:
    """Start every player and run its start-up checks, showing its stderr."""
    ringmaster = _load(control_file)
    failures = ringmaster.run_startup_checks(stderr="inherit", report=click.echo)
    for failure in failures:
        click.echo(failure)
    if failures:
        sys.exit(EXIT_CHECKS_FAILED)


@cli.command()
@control_file_argument
def debugstatus(control_file: str) -> None:
    """Print the raw state file."""
    ringmaster = _load(control_file)
    try:
        document = ringmaster.state_as_json()
    except RingmasterError as exc:
        raise UserError(str(exc)) from None
    click.echo(json.dumps(document, indent=2, sort_keys=True))


def normalise_arguments(argv: list[str]) -> list[str]:
    """Accept Gomill's order too: `FILE [COMMAND] [options]` becomes `COMMAND FILE [options]`."""
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
    first = positional[0]
    rest = [w for i, w in enumerate(argv) if i != first]
    if len(positional) > 1 and argv[positional[1]] in COMMANDS:
        command_index = positional[1]
        command = argv[command_index]
        rest = [w for i, w in enumerate(argv) if i not in (first, command_index)]
    else:
        command = "run"
    return [command, argv[first]] + rest


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    try:
        cli.main(normalise_arguments(argv), prog_name="ringmaster", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        sys.exit(EXIT_INTERRUPTED)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except SystemExit:
        raise
    except Exception:
        click.echo("ringmaster: internal error", err=True)
        traceback.print_exc()
        sys.exit(EXIT_INTERNAL_ERROR)
    sys.exit(EXIT_OK)


if __name__ == "__main__":
    main()
