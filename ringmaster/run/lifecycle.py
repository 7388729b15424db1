"""A run's whole lifecycle: lock, log, state, start-up checks, history, clean-up, signals, play."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from ringmaster.competitions.tournament import Tournament
from ringmaster.errors import (
    Interrupt,
    OutputClosed,
    RunInterrupted,
    StartupCheckFailed,
    StateFileError,
    StorageError,
    UsageError,
)
from ringmaster.reaper import helper_pids, reaping
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.run.run_log import RUN_ENDED, unfinished_run, unfinished_run_warning
from ringmaster.run.startup_checks import (
    engines_started_together,
    require_cluster_passes,
    require_players_pass,
    usable_cores,
)

INTERRUPTED_MESSAGE = "interrupted; games in progress will be replayed"
INTERRUPTED_BEFORE_PLAY_MESSAGE = "interrupted before any game started; nothing was played"
STOPPED_MESSAGE = "stopped; games in progress will be replayed"
STOPPED_BEFORE_PLAY_MESSAGE = "stopped before any game started; nothing was played"
COMPLETE_MESSAGE = "competition is complete: nothing to play (ringmaster show prints the results)"


def parallel_clock_warning(parallel: int | None, uses_clock: bool, cores: int) -> str | None:
    """The warning for -j N past the cores this process may use while games are timed, or None."""
    if not uses_clock or parallel is None or parallel <= cores:
        return None
    return (f"-j {parallel} plays more games at once than the {cores} cores this process may "
            "use, and the games are played at a time control: engines then share cores, "
            "think slower than alone, and are measured as weaker (use -j "
            f"{cores} or fewer)")


def _interrupt(signum: int, frame: Any) -> None:
    raise Interrupt


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP unwind like Ctrl-C, and all three raise errors.Interrupt.

    Only in the main thread (elsewhere nothing changes). SIGINT is handled even
    when it was ignored: a shell starts `ringmaster run x.ctl &` with SIGINT
    ignored, and Ctrl-C and `kill -INT` must still stop the run as documented.
    SIGHUP (the terminal closed, ssh dropped) is handled only where it has its
    default action, which kills the run outright: `nohup` ignores it, and so
    the run goes on. A handler of the embedding program's own is left alone.
    Interrupt tells a signal from a KeyboardInterrupt that a control file
    raises itself.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous_term = signal.signal(signal.SIGTERM, _interrupt)
    previous_int = signal.getsignal(signal.SIGINT)
    ours = previous_int in (signal.default_int_handler, signal.SIG_IGN, signal.SIG_DFL)
    if ours:
        signal.signal(signal.SIGINT, _interrupt)
    hangup = getattr(signal, "SIGHUP", None)   # not on Windows
    previous_hup = signal.getsignal(hangup) if hangup is not None else None
    hup_ours = previous_hup == signal.SIG_DFL
    if hup_ours:
        signal.signal(hangup, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        if ours:
            signal.signal(signal.SIGINT, previous_int)
        if hup_ours:
            signal.signal(hangup, previous_hup)


def choose_matchups(ringmaster: Ringmaster, matchups: list[str]) -> None:
    """run --matchup: only these matchups get games in this run. Raises UsageError."""
    competition = ringmaster.competition
    if not isinstance(competition, Tournament):
        raise UsageError(f"--matchup: {ringmaster.paths.code} is an event of type "
                         f"{competition.competition_type}, which has no matchups (playoff and "
                         "allplayall have)")
    competition.choose_matchups(matchups)


def run_competition(ringmaster: Ringmaster, *, max_games: int | None = None,
                    parallel: int | None = None, log_gtp: bool = False,
                    presenter: Any = None, say: Callable[[str], None] = print,
                    quiet: bool = False, cluster: str | None = None,
                    matchups: list[str] | None = None) -> None:
    """Run a competition from its lock to its report: what 'ringmaster run' does.

    Takes the lock, opens the log (where the control file's warnings go, and
    to the presenter), loads the state (or starts clean; a complete
    competition is said to be so, and nothing more is done), runs the
    start-up checks, makes the history agree with the state, cleans up after a
    crashed run, then plays (see Ringmaster.run()) with SIGTERM and SIGHUP
    treated as Ctrl-C. say() receives the lines for the user about the
    checks. matchups (ids or names), if given: only these matchups get games
    (choose_matchups).

    cluster: the address of a Dask scheduler that plays the games (the
    players are checked on every worker too). Raises ClusterUnavailable if
    it can't be reached, ClusterLost if it goes away during the run (the
    run can be resumed). Raises LockError if another run holds the lock; StateFileError or
    CompetitionError if the state can't be used; StartupCheckFailed if a
    player fails its check; RunHalted if void games stopped the run;
    RunInterrupted after Ctrl-C, SIGTERM or SIGHUP, or once standard output
    can't be written (the state is saved, and games in progress will be
    replayed); StorageError if a file can't be written (the state is as it
    was). Every process the engines leave behind is killed
    (this process is their subreaper meanwhile; see reaper.py).
    """
    if cluster is not None:
        from ringmaster.dispatch.cluster import check_address
        check_address(cluster)
    lock = ringmaster.acquire_lock()
    if presenter is not None:
        ringmaster.attach_presenter(presenter)
    try:
        with sigterm_interrupts(), reaping(helper_pids), ExitStack() as stack:
            killed = unfinished_run(ringmaster.paths.log)
            ringmaster.open_log()
            if killed is not None:
                ringmaster.warn(unfinished_run_warning(killed))
            for warning in ringmaster.warnings:
                ringmaster.warn(warning)
            ringmaster.load_state()
            # Before anything else, complete or not: a run killed while saving its last
            # game leaves the history short and temporaries behind.
            ringmaster.prepare_history()
            ringmaster.clean_up_after_crash()
            if matchups:
                choose_matchups(ringmaster, matchups)
            if ringmaster.competition.is_complete():
                say(COMPLETE_MESSAGE)
                return
            warning = parallel_clock_warning(parallel, ringmaster.competition.uses_clock(),
                                             usable_cores())
            if warning is not None:
                ringmaster.warn(warning)
            try:
                require_players_pass(ringmaster.competition, ringmaster.channel_factory, say, quiet,
                                     engines_started_together(parallel), warn=ringmaster.warn)
                client = None
                if cluster is not None:
                    from ringmaster.dispatch.cluster import connect
                    client = stack.enter_context(connect(cluster))
                    require_cluster_passes(ringmaster.competition, client,
                                           ringmaster.paths.directory, say, quiet)
            except StartupCheckFailed as exc:   # the log says why this run played nothing
                for failure in exc.failures:
                    ringmaster.log(failure)
                ringmaster.log(f"run refused: {exc}")
                raise
            ringmaster.run(max_games=max_games, parallel=parallel, log_gtp=log_gtp, cluster=client)
    except OutputClosed as exc:   # `run x.ctl | head -2`: stopped as after Ctrl-C, and said why
        ringmaster.log(f"{exc}: the run stopped")
        raise RunInterrupted(f"{exc}: " + (STOPPED_MESSAGE if ringmaster.games_started
                                           else STOPPED_BEFORE_PLAY_MESSAGE)) from None
    except KeyboardInterrupt:
        raise RunInterrupted(INTERRUPTED_MESSAGE if ringmaster.games_started
                             else INTERRUPTED_BEFORE_PLAY_MESSAGE) from None
    finally:
        try:
            ringmaster.close_state()
        except (StorageError, StateFileError) as exc:   # the journal still holds every save
            ringmaster.log(f"the journal was not folded into the state file: {exc}")
        try:
            ringmaster.log(RUN_ENDED)   # so that the next run can tell this one wasn't killed
        except StorageError:
            pass   # a full disk: the error that stopped the run has been raised
        ringmaster.close_log()
        lock.release()
        if presenter is not None and hasattr(presenter, "close"):
            presenter.close()
