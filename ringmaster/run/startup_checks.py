"""Every start-up check: start each player's engine, set up a board, close it; here or on each Dask worker."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ringmaster.competitions.base import Competition, PlayerCheck, Setup
from ringmaster.errors import StartupCheckFailed, failed_check_message
from ringmaster.game.engines import ChannelFactory, greet_player, launch_player, subprocess_channel
from ringmaster.game.time_commands import PREFERENCE, lists_command, negotiate
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules import get_rules_class


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask where the system has one
    (a container or `taskset` may give fewer than the machine has), else the count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_player_checks(checks: list[PlayerCheck], factory: ChannelFactory,
                      stderr: str = "discard", at_once: int = 1,
                      report: Callable[[str], None] | None = None,
                      notes: list[str] | None = None) -> list[str | None]:
    """Start each check's engine, set up a board, check it has the commands the
    competition needs, and close it: each check's error message or None, in order.
    A timed player's engine that lists no time command gets a line in notes.

    Up to at_once engines are launched before the first of them is greeted, so
    that their start-ups (an interpreter, a network to load) overlap instead of
    adding up; each is then greeted, set up and closed in turn.
    """
    errors: list[str | None] = []
    step = max(1, at_once)
    for first in range(0, len(checks), step):
        batch = checks[first:first + step]
        launched: list[GtpController | str | None] = []   # None: checked and closed
        try:
            for check in batch:
                if report is not None:
                    report(f"checking player {check.player.code}")
                launched.append(_launch_check(check, factory, stderr))
            for index, check in enumerate(batch):
                errors.append(_finish_check(check, launched[index], notes))
                launched[index] = None
        finally:   # an exception (Ctrl-C, our bug) leaves no engine of the batch behind
            left = [controller for controller in launched if isinstance(controller, GtpController)]
            for controller in left:   # all killed first: a second Ctrl-C can't spare one
                controller.kill()
            for controller in left:   # even one whose close() was interrupted while it waited
                controller.is_closed = True
                controller.channel.close(0)
    return errors


def failure_messages(checks: list[PlayerCheck], errors: list[str | None]) -> list[str]:
    """'player X failed startup check: ...' for each check with an error."""
    return [failed_check_message(check.player.code, error)
            for check, error in zip(checks, errors) if error is not None]


def _launch_check(check: PlayerCheck, factory: ChannelFactory,
                  stderr: str) -> GtpController | str:
    """The checked player's engine, launched (not yet greeted), or an error message
    (the factory checks the command and its working directory, as for a game)."""
    try:
        return launch_player(check.player, game_id="startup-check", slot=None, colour="b",
                             factory=factory, stderr=stderr)
    except GtpChannelError as exc:
        return str(exc)


def _finish_check(check: PlayerCheck, controller: GtpController | str | None,
                  notes: list[str] | None = None) -> str | None:
    """Greet a launched engine, set up each board its matchups use, ask for the commands the
    competition needs, and close it. Returns an error message or None."""
    if not isinstance(controller, GtpController):
        return controller
    try:
        greet_player(controller, check.player, gtp_log=None)
    except (GtpChannelError, BadGtpResponse) as exc:
        return str(exc)
    where = ""
    try:
        for matchup, board in ((check.matchup, check.setup), *check.more_boards):
            where = f" (matchup {matchup}'s board)" if matchup is not None else ""
            set_up(controller, board)
        where = ""
        missing = [(command, why) for command, why in check.needs
                   if not lists_command(controller, command)]
        if check.timed and notes is not None and negotiate(controller).settings is None:
            notes.append(no_time_command_note(check.player.code))
        controller.close()
    except (GtpChannelError, BadGtpResponse) as exc:
        controller.abandon()
        return f"{exc}{where}"
    if missing:
        return "; ".join(f"it has no '{command}' command, which {why} needs"
                         for command, why in missing)
    return None


def set_up(controller: GtpController, board: Setup) -> None:
    """Send the commands that set up a board (boardsize, clear_board, komi...)."""
    for command, *args in get_rules_class(board.game).setup_commands(board.board_size, board.komi,
                                                                     dict(board.options)):
        controller.do_command(command, *args)


def no_time_command_note(code: str) -> str:
    """The warning for a timed player whose engine lists no time command."""
    return (f"player {code} lists none of the time commands {', '.join(PREFERENCE)}: it is "
            "timed all the same, but not told its clock")


def worker_startup_failures(checks: list[PlayerCheck], directory: str) -> list[str]:
    """On a cluster worker: the competition's directory is writable, and every player passes its check."""
    failures = []
    if not os.path.isdir(directory) or not os.access(directory, os.W_OK):
        failures.append(f"can't write to {directory} (the competition's directory must be "
                        "shared, at the same path, with every worker)")
    return failures + failure_messages(
        checks, run_player_checks(checks, subprocess_channel, at_once=usable_cores()))


def engines_started_together(parallel: int | None) -> int:
    """How many engines the start-up checks launch at once: no more than the cores the
    run may use, nor than its games in flight will run (two a game)."""
    return max(1, min(usable_cores(), 2 * (parallel or 1)))


def startup_failures(competition: Competition, factory: ChannelFactory, stderr: str = "discard",
                     report: Callable[[str], None] | None = None, at_once: int = 1,
                     notes: list[str] | None = None) -> list[str]:
    """Check every player; returns 'player X failed startup check: ...' messages.

    at_once engines start together (see run_player_checks); 1 checks one player
    after another, so that each engine's inherited stderr stands apart. Warnings
    (a timed engine with no time command) go to notes.
    """
    checks = list(competition.get_player_checks())
    return failure_messages(checks, run_player_checks(checks, factory, stderr, at_once, report,
                                                      notes))


def cluster_startup_failures(competition: Competition, client: Any, directory: str,
                             report: Callable[[str], None] | None = None) -> list[str]:
    """The start-up checks on every worker of a Dask cluster, and that each can write to
    the competition's directory. Returns messages naming the worker, for each failure."""
    from ringmaster.dispatch.cluster import run_on_workers
    checks = [] if competition.skip_player_checks else list(competition.get_player_checks())
    if report is not None:
        report(f"checking {len(checks)} players on every Dask worker")
    results = run_on_workers(client, worker_startup_failures, checks, directory)
    return [f"on worker {worker}: {failure}"
            for worker, failures in sorted(results.items()) for failure in failures]


def require_players_pass(competition: Competition, factory: ChannelFactory,
                         say: Callable[[str], None], quiet: bool, at_once: int = 1,
                         warn: Callable[[str], None] | None = None) -> None:
    """Run the start-up checks the control file asks for, telling say() about them.

    at_once engines start together (see run_player_checks). Each failure is
    said whatever quiet is, and each warning goes to warn() (say() if None).
    Raises StartupCheckFailed if a player fails its check.
    """
    if competition.skip_player_checks:
        if not quiet:
            say(f"skipping {len(competition.get_player_checks())} player checks")
        return
    if not quiet:
        say("running startup checks on all players")
    notes: list[str] = []
    failures = startup_failures(competition, factory, at_once=at_once, notes=notes)
    for note in notes:
        (warn or say)(note)
    _raise_failures(failures, say)


def require_cluster_passes(competition: Competition, client: Any, directory: str,
                           say: Callable[[str], None], quiet: bool) -> None:
    """Run the start-up checks on every worker of the cluster.

    Raises StartupCheckFailed, naming the workers, if any check fails.
    """
    _raise_failures(cluster_startup_failures(competition, client, directory, None if quiet else say),
                    say)


def _raise_failures(failures: list[str], say: Callable[[str], None]) -> None:
    for failure in failures:
        say(failure)
    if failures:
        raise StartupCheckFailed(failures)
