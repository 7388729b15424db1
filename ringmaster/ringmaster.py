"""Ringmaster: runs one competition from one control file, and owns its files."""

from __future__ import annotations

import datetime
import functools
import io
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ringmaster import __version__
from ringmaster.competitions.base import Competition, NoGameAvailable, PlayerCheck
from ringmaster.control_file import ControlFile, load_control_file
from ringmaster.dispatch.job_loop import NO_JOB, JobSource, NoJobAvailable
from ringmaster.dispatch.local import run_jobs
from ringmaster.errors import (
    CompetitionError,
    LockError,
    RunHalted,
    StateFileError,
)
from ringmaster.files import make_durable, one_line, remove_stale_temporaries, storage_error, write_atomically
from ringmaster.game import engine_pool
from ringmaster.game.engines import ChannelFactory, greet_player, launch_player, subprocess_channel
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.play import play_game_job
from ringmaster.game.result import DISAGREED, DISAGREEMENT_CAUSE
from ringmaster.game_index import GameEntry, entry_for_result, games_csv
from ringmaster.gtp.controller import BadGtpResponse, GtpChannelError, GtpController
from ringmaster.host_check import HostComparison, compare_hosts, host_report
from ringmaster.rules import get_rules_class
from ringmaster.state.encoding import EncodedList
from ringmaster.state.journal import StateStore
from ringmaster.state.lock import CompetitionLock
from ringmaster.state.state_file import reconcile_history
from ringmaster.timing import RunClock, local_now, progress, progress_line

HTML_INTERVAL = 1.0
"""Least seconds between rewrites of FILE.html during a run (0: after every result)."""

HTML_SHARE = 0.05
"""The largest share of the run's time that rewriting FILE.html may take: a page that
took 0.2 s to render waits 4 s for the next rewrite, so a long run's growing report
never slows the games (a small one renders in about 50 ms, so once a second)."""


@dataclass(frozen=True)
class CompetitionPaths:
    """Every file of a competition, beside its control file, with Gomill's names."""

    directory: str
    code: str

    def _path(self, suffix: str) -> str:
        return os.path.join(self.directory, self.code + suffix)

    @property
    def status(self) -> str:
        return self._path(".status")

    @property
    def journal(self) -> str:
        return self._path(".journal")

    @property
    def log(self) -> str:
        return self._path(".log")

    @property
    def history(self) -> str:
        return self._path(".hist")

    @property
    def report(self) -> str:
        return self._path(".report")

    @property
    def html(self) -> str:
        return self._path(".html")

    @property
    def command(self) -> str:
        return self._path(".cmd")

    @property
    def games(self) -> str:
        return self._path(".games")

    @property
    def void(self) -> str:
        return self._path(".void")

    @property
    def gtplogs(self) -> str:
        return self._path(".gtplogs")

    def all_outputs(self) -> list[str]:
        return [self.log, self.status, self.journal, self.command, self.history, self.report, self.html,
                self.games, self.void, self.gtplogs]


DISAGREEMENT_HINT = ("the players disagreed on the score (each one's final_score is in the SGF): "
                     + DISAGREEMENT_CAUSE)


def now() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


class Ringmaster(JobSource):
    """Runs a competition described by a control file.

    Public attributes:
      control_file, competition, paths
      channel_factory -- starts an engine for a PlayerSpec (default: a subprocess),
                         for the start-up checks and for every game
      void_game_count
      halt_reason     -- why the run is stopping, or None
      presenter       -- receives display events (see display.py)

    Raises ControlFileError if the control file can't be used.
    """

    def __init__(self, control_file_path: str,
                 channel_factory: ChannelFactory = subprocess_channel) -> None:
        self.control_file: ControlFile = load_control_file(control_file_path)
        self.competition: Competition = self.control_file.make_competition()
        self.paths = CompetitionPaths(os.path.dirname(os.path.abspath(control_file_path)),
                                      self.control_file.competition_code)
        self.void_game_count = 0
        self.history_size = 0
        self.history_tail = ""
        self.halt_reason: str | None = None
        self.stopping_for_voids = False
        self.max_games: int | None = None
        self.games_started = 0
        self.games_in_progress: dict[str, GameJob] = {}
        self.log_gtp = False
        self.presenter: Any = None
        self.channel_factory = channel_factory
        self._log_file: Any = None
        self.game_index: list[GameEntry] = []
        self._games_json = EncodedList()      # the game index as saved, extended after each result
        self.state_store = StateStore(self.paths.status, self.paths.journal)
        self.clock = RunClock()
        self._job_started: dict[str, float] = {}
        self._hosts: dict[str, str] = {}   # game id -> cluster worker, until its response
        self.cluster: Any = None
        self._html_due = False             # a result has come in since FILE.html was written
        self._html_written_at = float("-inf")
        self._html_pause = HTML_INTERVAL   # seconds from one rewrite to the next

    @property
    def warnings(self) -> list[str]:
        return self.control_file.warnings

    # State

    def load_state(self, required: bool = False) -> bool:
        """Load the competition's state, or start clean. Returns True if there was one.

        Raises StateFileError if there is none and required is true, and
        StateFileError or CompetitionError if it can't be used.
        """
        if not self.state_store.exists():
            if required:
                raise StateFileError("no status file")
            self.competition.set_clean_status()
            return False
        document = self.state_store.read()
        name = os.path.basename(self.paths.status)
        if document.get("competition_type") != self.competition.competition_type:
            raise StateFileError(
                f"state file {name} is for a {document.get('competition_type')} competition, "
                f"but the control file says {self.competition.competition_type}")
        if document.get("competition_version") != self.competition.status_format_version:
            raise StateFileError(f"state file {name} has an incompatible competition version")
        check_state_fields(document, name)
        self.check_game_settings(document.get("game_settings"), name)
        try:
            self.competition.set_status(document["competition"])
            self.void_game_count = document["void_game_count"]
            self.history_size = document["history_size"]
            self.history_tail = document["history_tail"]
            self.game_index = [GameEntry.from_json(g) for g in document.get("games", [])]
            self.clock.load_json(document.get("timing"))
        except CompetitionError as exc:
            raise CompetitionError(f"error loading competition state from {name}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise StateFileError(f"state file {name} is malformed: {type(exc).__name__}: "
                                 f"{exc}"[:200]) from None
        return True

    def game_settings(self) -> dict[str, dict[str, Any]]:
        """{matchup id (or '' for a tuner): the settings its games are played under}."""
        return game_settings_of(self.competition)

    def check_game_settings(self, saved: Any, name: str) -> None:
        """Refuse a control file whose komi, board size or handicap changed since the state.

        Raises CompetitionError naming the matchup and setting.
        """
        if not isinstance(saved, dict):
            return
        for key, settings in self.game_settings().items():
            before = saved.get(key)
            if not isinstance(before, dict):
                continue
            for setting, value in settings.items():
                if setting in before and before[setting] != value:
                    where = f"matchup {key}" if key else "the competition"
                    raise CompetitionError(
                        f"{setting} of {where} is {value} in the control file but was "
                        f"{before[setting]} for the games in {name}; put it back, or use "
                        f"a new matchup (or reset) for games at {value}")

    def save_state(self) -> None:
        """Record the state durably (see StateStore). Raises StorageError."""
        self.state_store.save(self._state_document())

    def close_state(self) -> None:
        """At the end of a run: leave the state as last saved whole in FILE.status
        (see StateStore.close). Raises StorageError or StateFileError."""
        self.state_store.close()

    def _state_document(self) -> dict[str, Any]:
        return {
            "competition_type": self.competition.competition_type,
            "competition_version": self.competition.status_format_version,
            "void_game_count": self.void_game_count,
            "history_size": self.history_size,
            "history_tail": self.history_tail,
            "competition": self.competition.get_status(),
            "game_settings": self.game_settings(),
            "games": self._games_json.encode(self.game_index),
            "timing": self.clock.to_json(),
        }

    def state_as_json(self) -> dict[str, Any]:
        """The state file's document (for debugstatus). Raises StateFileError if there is none."""
        if not self.state_store.exists():
            raise StateFileError("no status file")
        return self.state_store.read()

    # Logging

    def log(self, message: str) -> None:
        """Append one line to the log (control characters escaped). Raises StorageError."""
        if self._log_file is not None:
            try:
                self._log_file.write(one_line(message) + "\n")
                self._log_file.flush()
            except OSError as exc:
                raise storage_error(exc, self.paths.log) from None

    def warn(self, message: str) -> None:
        self.log(message)
        if self.presenter is not None:
            self.presenter.warning(message)

    # Start-up checks

    def run_startup_checks_on_cluster(self, client: Any,
                                      report: Callable[[str], None] | None = None) -> list[str]:
        """The start-up checks on every worker of a Dask cluster, and that it can write our files.

        Returns messages naming the worker, for each failure.
        """
        from ringmaster.dispatch.cluster import run_on_workers
        checks = [] if self.competition.skip_player_checks else \
            list(self.competition.get_player_checks())
        if report is not None:
            report(f"checking {len(checks)} players on every Dask worker")
        results = run_on_workers(client, check_on_worker, checks,
                                 os.path.dirname(os.path.abspath(self.paths.status)))
        return [f"on worker {worker}: {failure}"
                for worker, failures in sorted(results.items()) for failure in failures]

    def run_startup_checks(self, stderr: str = "discard",
                           report: Callable[[str], None] | None = None,
                           at_once: int = 1) -> list[str]:
        """Check every player; returns 'player X failed startup check: ...' messages.

        at_once engines start together (see run_player_checks); 1 checks one player
        after another, so that each engine's inherited stderr stands apart.
        """
        checks = list(self.competition.get_player_checks())
        return failure_messages(
            checks, run_player_checks(checks, self.channel_factory, stderr, at_once, report))

    # The run

    def get_job(self) -> GameJob | NoJobAvailable:
        if self.halt_reason is None:
            if os.path.exists(self.paths.command):
                self._read_command_file()
        if self.halt_reason is None and self.max_games is not None \
                and self.games_started >= self.max_games:
            self.halt("max-games reached for this run")
        if self.halt_reason is not None:
            return NO_JOB
        job = self.competition.get_game()
        if isinstance(job, NoGameAvailable):
            return NO_JOB
        if self.competition.record_games:
            job.sgf_dirname = self.paths.games
            job.void_sgf_dirname = self.paths.void
        if self.log_gtp:
            job.gtp_log_pathname = os.path.join(self.paths.gtplogs, job.game_id + ".log")
        if self.competition.stderr_to_log:
            job.stderr_pathname = self.paths.log
        # Here the worker's record is on this machine's disk, and this process makes it
        # durable before it counts the game; a Dask worker syncs its own.
        job.coordinator_syncs_record = self.cluster is None
        self.games_started += 1
        self.games_in_progress[job.game_id] = job
        self._job_started[job.game_id] = time.monotonic()
        self.log(f"starting game {job.game_id}: {job.player_b.code} (b) vs "
                 f"{job.player_w.code} (w)")
        return job

    def _read_command_file(self) -> None:
        try:
            with open(self.paths.command, encoding="utf-8", errors="replace") as f:
                command = f.read().strip()
            os.remove(self.paths.command)
        except OSError:
            return
        if command == "stop":
            self.halt("stop command received")
        else:
            self.warn(f"ignoring unknown command in {os.path.basename(self.paths.command)}: "
                      f"{command[:40]}")

    def _flush_competition_log(self) -> None:
        for line in self.competition.pending_log:
            self.log(line)
        self.competition.pending_log = []

    def halt(self, reason: str) -> None:
        if self.halt_reason is None:
            self.halt_reason = reason
            self.log(f"halting competition: {reason}")

    def _append_history(self, lines: list[str]) -> str:
        text = "".join(one_line(line) + "\n" for line in lines)
        self.history_tail = text
        self.history_size += len(text.encode("utf-8"))
        return text

    def process_response(self, response: GameJobResult) -> None:
        if response.unsynced_record is not None:   # before anything counts the game
            make_durable(response.unsynced_record)
        job = self.games_in_progress.pop(response.game_id, None)
        started = self._job_started.pop(response.game_id, None)
        entry = entry_for_result(
            response.game_result, response.moves,
            None if started is None else time.monotonic() - started, local_now(),
            response.game_data)
        entry.host = self._hosts.pop(response.game_id, None)
        entry.note = None if job is None else job.sgf_note
        self.game_index.append(entry)
        self.clock.games_this_run += 1
        screen_line = self.competition.process_game_result(response)
        history = self.competition.pending_history
        self.competition.pending_history = []
        text = self._append_history(history) if history else ""
        if not history:
            self.history_tail = ""
        self.save_state()
        if text:
            try:
                with open(self.paths.history, "a", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:   # the next run completes the history from the state
                raise storage_error(exc, self.paths.history) from None
        self._html_due = True
        self._write_html_if_due()
        self.log(f"response from game {response.game_id}")
        self._flush_competition_log()
        for warning in response.warnings:
            self.warn(warning)
        if (response.game_result.detail or "").startswith(DISAGREED):
            self.warn(f"game {response.game_id}: {DISAGREEMENT_HINT}")
        if self.presenter is not None:
            self.presenter.game_finished(
                response, screen_line or response.game_result.describe())

    def note_host(self, job: GameJob, host: str) -> None:
        """Which cluster worker played a job (called before its response is processed)."""
        self._hosts[job.game_id] = host
        self.log(f"game {job.game_id} played on {host}")

    def host_comparison(self) -> HostComparison:
        """Results per host, compared (see host_check)."""
        return compare_hosts((g.host, g.black, g.white, g.winner) for g in self.game_index
                             if not g.is_void)

    def process_error_response(self, job: GameJob, message: str) -> None:
        self.games_in_progress.pop(job.game_id, None)
        self._job_started.pop(job.game_id, None)
        self.warn(f"game {job.game_id} -- {message}")
        self.void_game_count += 1
        self.game_index.append(GameEntry(job.game_id, job.player_b.code, job.player_w.code,
                                         "void", finished=local_now(), detail=message))
        stop, retry = self.competition.process_game_error(job, self.void_game_count - 1)
        self.save_state()
        self._html_due = True
        self._write_html_if_due()
        self.log(f"game {job.game_id} will be replayed" if retry else
                 f"game {job.game_id} will not be replayed")
        self._flush_competition_log()
        if self.presenter is not None:
            self.presenter.refresh()
        if stop and not self.stopping_for_voids:
            self.stopping_for_voids = True
            self.warn("halting run due to void games")
            self.halt("too many void games")

    def interrupted(self) -> None:
        """Ctrl-C or SIGTERM: say so at once (the job loop then stops the games)."""
        if self.presenter is not None:
            self.presenter.notice("interrupted: stopping the games in progress "
                                  "(they will be replayed)")

    def poll(self, running: list) -> None:
        if self.halt_reason is None and os.path.exists(self.paths.command):
            self._read_command_file()
        self._write_html_if_due()
        if self.presenter is not None:
            self.presenter.refresh()

    def run(self, *, max_games: int | None = None, parallel: int | None = None,
            log_gtp: bool = False, presenter: Any = None, cluster: Any = None) -> None:
        """Play games until the competition is complete, max_games have started, or a stop.

        Each game is played by play_game_job() with this ringmaster's channel
        factory. The caller must hold the lock and have run the start-up checks
        (run.run_competition() does the whole lifecycle). Raises RunHalted if
        void games stopped the run.
        """
        self.max_games = max_games
        self.log_gtp = log_gtp
        self.presenter = presenter
        if presenter is not None:
            presenter.attach(self)
        self.clock.start_run()
        self._html_written_at = time.monotonic()   # as if written now: its first rewrite waits
        self.log(f"run started at {now()} with max_games {max_games}")
        # A Dask worker's threads outlive the run: engines aren't kept there.
        play = functools.partial(play_game_job, factory=self.channel_factory,
                                 keep_engines=cluster is None)
        self.cluster = cluster
        if cluster is not None:
            self.log(f"using the Dask cluster at {cluster.scheduler.address}"
                     + (f", {parallel} games at once" if parallel else ""))
        elif parallel is not None:
            self.log(f"using {parallel} worker processes")
        try:
            try:
                if cluster is not None:
                    from ringmaster.dispatch.cluster import run_jobs_on_cluster
                    run_jobs_on_cluster(self, play, parallel, cluster, note=self.warn)
                else:
                    run_jobs(self, play, parallel)
            finally:
                engine_pool.release_engines()   # engines kept by games played in this process
        except KeyboardInterrupt:
            self.log(f"run interrupted at {now()}")
            if self.games_in_progress:
                self.log("games in progress were: " + " ".join(sorted(self.games_in_progress)))
            if self._html_due:
                self.write_html()   # the results that came in since the last rewrite
            raise
        self.log(f"run finished at {now()}")
        self.write_report()
        if presenter is not None:
            presenter.refresh(final=True)
        if self.stopping_for_voids:
            raise RunHalted("run halted: too many void games; see the log file")

    def open_log(self) -> None:
        """Raises StorageError if the log can't be opened for appending."""
        try:
            self._log_file = open(self.paths.log, "a", encoding="utf-8")
        except OSError as exc:
            raise storage_error(exc, self.paths.log, "open") from None

    def close_log(self) -> None:
        if self._log_file is not None:
            try:
                self._log_file.close()
            except OSError:
                pass   # a full disk: the error that stopped the run has been raised
            self._log_file = None

    def prepare_history(self) -> None:
        """After loading state: make the history file agree with it."""
        warning = reconcile_history(self.paths.history, self.history_size, self.history_tail)
        if warning:
            self.warn(warning)
            try:
                self.history_size = os.path.getsize(self.paths.history)
            except OSError:
                self.history_size = 0

    def clean_up_after_crash(self) -> None:
        """Remove a stale stop request and half-written files a killed run left behind."""
        try:
            os.remove(self.paths.command)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise storage_error(exc, self.paths.command, "remove") from None
        remove_stale_temporaries(self.paths.directory, f".{self.paths.code}.")
        remove_stale_temporaries(self.paths.games)
        remove_stale_temporaries(self.paths.void)

    # Reports

    def report_text(self) -> str:
        """The full text report (`show`): the competition's, hosts, void games and progress."""
        return self._text_report(full=True)

    def _text_report(self, full: bool) -> str:
        out = io.StringIO()
        if full:
            self.competition.write_full_report(out)
        else:
            self.competition.write_short_report(out)
        hosts = host_report(self.host_comparison())
        if hosts:
            out.write("\n" + hosts)
        if full and self.void_game_count:
            out.write(f"\n{self.void_game_count} void games; see log file.\n")
        out.write(f"\nprogress: {progress_line(self.progress())}\n")
        return out.getvalue()

    def progress(self) -> dict[str, Any]:
        """Elapsed time, games per hour and ETA (see timing.progress)."""
        return progress(self.competition.games_played(), self.competition.games_wanted(),
                        self.clock)

    def write_report(self) -> None:
        """Write FILE.report and FILE.html from the state, each atomically."""
        write_atomically(self.paths.report, self._text_report(full=False).encode("utf-8"),
                         durable=False)
        self.write_html()

    def write_html(self) -> None:
        """Write FILE.html (atomically) from the state."""
        from ringmaster.reporting.html import render_html  # jinja2: only once a result is in
        started = time.monotonic()
        write_atomically(self.paths.html, render_html(self.json_report()).encode("utf-8"),
                         durable=False)
        self._html_due = False
        self._html_written_at = time.monotonic()
        took = self._html_written_at - started
        self._html_pause = max(HTML_INTERVAL, took / HTML_SHARE) if HTML_INTERVAL > 0 else 0.0

    def _write_html_if_due(self) -> None:
        """Rewrite FILE.html if a result came in and the pause since the last has passed.

        The pause is HTML_INTERVAL, or longer when rendering is slow (HTML_SHARE);
        the first rewrite of a run waits as long after its start. Called after each
        result and from poll() (at least once a second while games run); the end
        of a run always rewrites it.
        """
        if self._html_due and time.monotonic() - self._html_written_at >= self._html_pause:
            self.write_html()

    def json_report(self) -> dict[str, Any]:
        report = self.competition.get_json_report()
        report["void_games"] = self.void_game_count
        report["ringmaster_version"] = __version__
        report["progress"] = self.progress()
        report["games"] = [g.to_json() for g in self.game_index]
        report["games_directory"] = os.path.basename(self.paths.games)
        comparison = self.host_comparison()
        if comparison.games:
            report["hosts"] = comparison.to_json()
        return report

    def games_csv(self) -> str:
        """One CSV row per game (show --csv)."""
        return games_csv(self.game_index)

    # Reset

    def reset(self) -> list[str]:
        """Delete the state and every output. Returns error messages for what couldn't go.

        Raises LockError if a run holds the lock.
        """
        lock = CompetitionLock(self.paths.log)
        if lock.is_held_elsewhere():
            raise LockError("competition is running; stop it before resetting")
        errors = []
        for path in self.paths.all_outputs():
            try:
                if os.path.isdir(path):
                    shutil.rmtree(path)
                elif os.path.exists(path):
                    os.remove(path)
            except OSError as exc:
                errors.append(f"error removing {path}: {exc.strerror}")
        return errors


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask where the system has one
    (a container or `taskset` may give fewer than the machine has), else the count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_player_checks(checks: list[PlayerCheck], factory: ChannelFactory,
                      stderr: str = "discard", at_once: int = 1,
                      report: Callable[[str], None] | None = None) -> list[str | None]:
    """Start each check's engine, set up a board and close it: each check's error
    message or None, in order.

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
                errors.append(_finish_check(check, launched[index]))
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
    return [f"player {check.player.code} failed startup check: {error}"
            for check, error in zip(checks, errors) if error is not None]


def _launch_check(check: PlayerCheck, factory: ChannelFactory,
                  stderr: str) -> GtpController | str:
    """The checked player's engine, launched (not yet greeted), or an error message."""
    player = check.player
    if player.cwd is not None and not os.path.isdir(player.cwd):
        return f"bad working directory: {player.cwd}"
    try:
        return launch_player(player, game_id="startup-check", slot=None, colour="b",
                             factory=factory, stderr=stderr)
    except GtpChannelError as exc:
        return str(exc)


def _finish_check(check: PlayerCheck, controller: GtpController | str | None) -> str | None:
    """Greet a launched engine, set up a board and close it. Returns an error message or None."""
    if not isinstance(controller, GtpController):
        return controller
    try:
        greet_player(controller, check.player, gtp_log=None)
    except (GtpChannelError, BadGtpResponse) as exc:
        return str(exc)
    commands = get_rules_class(check.game).setup_commands(check.board_size, check.komi,
                                                           dict(check.options))
    try:
        for command, *args in commands:
            controller.do_command(command, *args)
        controller.close()
    except (GtpChannelError, BadGtpResponse) as exc:
        controller.abandon()
        return str(exc)
    return None


def check_on_worker(checks: list[PlayerCheck], directory: str) -> list[str]:
    """On a cluster worker: the competition's directory is writable, and every player passes its check."""
    failures = []
    if not os.path.isdir(directory) or not os.access(directory, os.W_OK):
        failures.append(f"can't write to {directory} (the competition's directory must be "
                        "shared, at the same path, with every worker)")
    return failures + failure_messages(
        checks, run_player_checks(checks, subprocess_channel, at_once=usable_cores()))


def check_state_fields(document: dict[str, Any], name: str) -> None:
    """Check the ringmaster's own fields of a state document.

    Raises StateFileError naming the file and the field if one is missing or
    of the wrong type, or a count is negative.
    """
    for field, kind in (("void_game_count", int), ("history_size", int),
                        ("history_tail", str), ("competition", dict)):
        if field not in document:
            raise StateFileError(f"state file {name} is malformed: no {field}")
        value = document[field]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StateFileError(f"state file {name} is malformed: {field} should be "
                                 f"{'an integer' if kind is int else 'a ' + kind.__name__}, "
                                 f"not {type(value).__name__}")
        if kind is int and value < 0:
            raise StateFileError(f"state file {name} is malformed: {field} is negative")


def game_settings_of(competition: Competition) -> dict[str, dict[str, Any]]:
    """The settings each matchup's games are played under (komi, board size, handicap, game)."""
    names = ("board_size", "komi", "handicap", "game")
    matchups = getattr(competition, "matchups", None)
    if isinstance(matchups, dict):
        sources = {str(key): m.game_settings for key, m in matchups.items()}
    else:
        sources = {"": getattr(competition, "game_settings", {})}
    return {key: {n: settings[n] for n in names if n in settings}
            for key, settings in sources.items()}
