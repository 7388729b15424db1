"""The Ringmaster: the job source of one run: it hands out games, records results, halts, logs."""

from __future__ import annotations

import datetime
import functools
import os
import shlex
import shutil
import time
from typing import Any

from ringmaster import reaper
from ringmaster.competitions.base import Competition, NoGameAvailable
from ringmaster.control_file import ControlFile, load_control_file
from ringmaster.dispatch.job_loop import NO_JOB, JobSource, NoJobAvailable
from ringmaster.dispatch.local import run_jobs
from ringmaster.errors import (
    CompetitionError,
    GomillStateFile,
    InternalError,
    LockError,
    NotRunning,
    RunHalted,
    StateFileDamaged,
    StateFileError,
)
from ringmaster.files import (
    TEMP_SUFFIX,
    commit_file,
    log_line,
    make_durable,
    one_line,
    remove_stale_temporaries,
    storage_error,
    temp_prefix,
)
from ringmaster.game import engine_pool
from ringmaster.game.engines import ChannelFactory, subprocess_channel
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.play import play_game_job
from ringmaster.game.result import (
    DEAD_STONES_DISPUTED,
    DEAD_STONES_UNKNOWN,
    DISAGREED,
    DISAGREEMENT_CAUSE,
    NAME_A_REFEREE,
)
from ringmaster.run.game_index import GameEntry, entry_for_result
from ringmaster.run.paths import CompetitionPaths
from ringmaster.run.reports import RunReports
from ringmaster.run.state_document import check_game_settings, check_state_fields
from ringmaster.state.encoding import EncodedList
from ringmaster.state.journal import StateStore
from ringmaster.state.lock import CompetitionLock
from ringmaster.state.state_file import reconcile_history
from ringmaster.stats.timing import RunClock, local_now

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
        self.control_file_path = control_file_path
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
        # Records of games counted whose rename into place may not have happened yet:
        # {record's name: its attempt's name}, each relative to the games directory.
        self.pending_records: dict[str, str] = {}
        self._renames_saved = False   # whether the last save noted any
        self.state_store = StateStore(self.paths.status, self.paths.journal)
        self.clock = RunClock()
        self._saved_elapsed: float | None = None   # the playing time the state last saved
        self._job_started: dict[str, float] = {}
        self._hosts: dict[str, str] = {}   # game id -> cluster worker, until its response
        self.cluster: Any = None
        self.reports = RunReports(self)
        # Shared services the players allowed to start them leave are spared (gtp/launch.py).
        self.service_token = reaper.new_service_token()

    @property
    def warnings(self) -> list[str]:
        return self.control_file.warnings

    # State

    def load_state(self, required: bool = False) -> bool:
        """Load the competition's state, or start clean. Returns True if there was one.

        Raises StateFileError if there is none and required is true, and
        StateFileError or CompetitionError if it can't be used: StateFileDamaged,
        saying what to do, if it is damaged (or missing, after an earlier run).
        """
        if not self.state_store.exists():
            self._require_no_earlier_run()
            if required:
                raise self.no_state_error()
            self.competition.set_clean_status()
            return False
        document = self._read_state()
        try:
            self._load_document(document)
        except StateFileDamaged as exc:
            raise StateFileDamaged(f"{exc}; {self._remedy()}") from None
        return True

    def _read_state(self) -> dict[str, Any]:
        """The state file's document. Raises StateFileError; a damaged one or a Gomill pickle
        says what to do."""
        try:
            return self.state_store.read()
        except StateFileDamaged as exc:
            raise StateFileDamaged(f"{exc}; {self._remedy()}") from None
        except GomillStateFile as exc:
            raise GomillStateFile(
                f"{exc}: finish the competition with Gomill's ringmaster, or start it afresh "
                f"here with `{self.command_line('reset')}`, which deletes Gomill's files "
                f"(move them aside first to keep them)") from None

    def _load_document(self, document: dict[str, Any]) -> None:
        name = os.path.basename(self.paths.status)
        if document.get("competition_type") != self.competition.competition_type:
            raise StateFileError(
                f"state file {name} is for a {document.get('competition_type')} competition, "
                f"but the control file says {self.competition.competition_type}")
        if document.get("competition_version") != self.competition.status_format_version:
            raise StateFileError(f"state file {name} has an incompatible competition version")
        check_state_fields(document, name)
        check_game_settings(document.get("game_settings"), self.competition.game_settings_by_key(),
                            name)
        try:
            self.competition.set_status(document["competition"])
            self.void_game_count = document["void_game_count"]
            self.history_size = document["history_size"]
            self.history_tail = document["history_tail"]
            self.game_index = [GameEntry.from_json(g) for g in document.get("games", [])]
            self.pending_records = dict(document.get("pending_records", {}))
            self.clock.load_json(document.get("timing"))
            self._saved_elapsed = self.clock.elapsed_before
        except CompetitionError as exc:
            raise CompetitionError(f"error loading competition state from {name}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise StateFileDamaged(f"state file {name} is malformed: {type(exc).__name__}: "
                                   f"{exc}"[:200]) from None

    def _remedy(self) -> str:
        """What to do about a damaged state (StateFileDamaged): it names the file."""
        return f"restore it from a backup, or start afresh with `{self.command_line('reset')}`"

    def _require_no_earlier_run(self) -> None:
        """With no state file: refuse to start afresh over an earlier run's games, which
        the new run would count again and whose records it would replace.

        Evidence of an earlier run is what exists only once its state has been saved: a
        history file with lines, a record in the games folder, a journal. Raises
        StateFileDamaged naming them.
        """
        held = []
        try:
            if os.path.getsize(self.paths.history) > 0:
                held.append(os.path.basename(self.paths.history))
        except OSError:
            pass
        try:
            if any(not name.endswith(TEMP_SUFFIX) for name in os.listdir(self.paths.games)):
                held.append(os.path.basename(self.paths.games) + "/")
        except OSError:
            pass
        if os.path.exists(self.paths.journal):
            held.append(os.path.basename(self.paths.journal))
        if held:
            names = ", ".join(held[:-1]) + " and " + held[-1] if len(held) > 1 else held[0]
            raise StateFileDamaged(
                f"state file {os.path.basename(self.paths.status)} is missing but {names} "
                f"{'hold' if len(held) > 1 else 'holds'} an earlier run's games: "
                f"{self._remedy()}")

    def save_state(self) -> None:
        """Record the state durably (see StateStore). Raises StorageError."""
        document = self._state_document()
        self.state_store.save(document)
        self._saved_elapsed = document["timing"]["elapsed"]
        self._renames_saved = bool(self.pending_records)

    def close_state(self) -> None:
        """At the end of a run: leave the state as last saved whole in FILE.status
        (see StateStore.close). Raises StorageError or StateFileError."""
        self.state_store.close()

    def _state_document(self) -> dict[str, Any]:
        document = {
            "competition_type": self.competition.competition_type,
            "competition_version": self.competition.status_format_version,
            "void_game_count": self.void_game_count,
            "history_size": self.history_size,
            "history_tail": self.history_tail,
            "competition": self.competition.get_status(),
            "game_settings": self.competition.game_settings_by_key(),
            "games": self._games_json.encode(self.game_index),
            "timing": self.clock.to_json(),
        }
        if self.pending_records:   # absent when there is none, as in states before it
            document["pending_records"] = dict(self.pending_records)
        return document

    def command_line(self, command: str) -> str:
        """The command line that runs command on this competition: 'ringmaster stop t.ctl'."""
        return f"ringmaster {command} {shlex.quote(self.control_file.path)}"

    def no_state_error(self) -> StateFileError:
        """The error for a command that needs the state when there is none yet."""
        name = os.path.basename(self.paths.status)
        if CompetitionLock(self.paths.log).is_held_elsewhere():
            return StateFileError(f"no status file {name} yet: the first run is playing and has "
                                  f"finished no game; ask again once one is in")
        return StateFileError(f"no status file {name}: play some games first with "
                              f"`{self.command_line('run')}`")

    def request_stop(self) -> None:
        """Ask the run going on to finish its games in progress and stop: write the command
        file it reads. Raises NotRunning if no run holds the lock (the request would wait
        for the next run, which removes it as it starts), StorageError if the file can't be
        written."""
        if not CompetitionLock(self.paths.log).is_held_elsewhere():
            raise NotRunning(f"no run of {self.paths.code} is going on: nothing to stop")
        try:
            with open(self.paths.command, "w", encoding="utf-8") as f:
                f.write("stop\n")
        except OSError as exc:
            raise storage_error(exc, self.paths.command) from None

    def acquire_lock(self, what_to_do: str = "") -> CompetitionLock:
        """The competition's lock, held by this run (or reset). Raises LockError naming the
        lock's file and saying what to do if another run holds it (what_to_do: run's advice
        unless given), StorageError if it can't be made."""
        lock = CompetitionLock(self.paths.log)
        try:
            lock.acquire()
        except LockError:
            raise LockError(f"competition is already running (another run holds the lock on "
                            f"{os.path.basename(self.paths.log)}): " + (
                                what_to_do or f"wait for it to end, or stop it with "
                                              f"`{self.command_line('stop')}`")) from None
        return lock

    def state_as_json(self) -> dict[str, Any]:
        """The state file's document (for debugstatus). Raises StateFileError if there is none."""
        if not self.state_store.exists():
            self._require_no_earlier_run()
            raise self.no_state_error()
        return self._read_state()

    # Logging

    def log(self, message: str) -> None:
        """Append one line to the log, with the time to the second (control characters escaped).
        Raises StorageError."""
        if self._log_file is not None:
            try:
                self._log_file.write(log_line(message) + "\n")
                self._log_file.flush()
            except OSError as exc:
                raise storage_error(exc, self.paths.log) from None

    def attach_presenter(self, presenter: Any) -> None:
        """From now on, display events go to presenter (see display.py)."""
        self.presenter = presenter
        presenter.attach(self)

    def warn(self, message: str) -> None:
        self.log(message)
        if self.presenter is not None:
            self.presenter.warning(message)

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
        job.commit_record = True
        job.service_token = self.service_token
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
        job = self.games_in_progress.pop(response.game_id, None)
        if job is None:   # counted already: a second result of one job (Dask played it again)
            self.log(f"ignored a second result for game {response.game_id}")
            return
        # Before anything counts the game: its record durable, under its attempt's name
        # (or its own, where there is no attempt). The state then counts the game with a
        # note of the record's rename, and only then does the record take its name: a
        # run stopped in between leaves the game counted and the rename to be done by
        # the next run's start (complete_pending_records), never a record under ID.sgf
        # for a game the state doesn't count, which the game's replay would overwrite.
        attempt = response.record_attempt if response.record is not None else None
        pending = None
        if attempt is not None:
            if not response.record_synced:
                make_durable(attempt)
            pending = os.path.relpath(response.record, self.paths.games)
            self.pending_records[pending] = os.path.relpath(attempt, self.paths.games)
        elif response.record is not None and not response.record_synced:
            make_durable(response.record)
        started = self._job_started.pop(response.game_id, None)
        entry = entry_for_result(
            response.game_result, response.moves,
            None if started is None else time.monotonic() - started, local_now(),
            response.game_data, response.clock_use, response.opening, response.fingerprint)
        entry.host = self._hosts.pop(response.game_id, None)
        entry.note = job.sgf_note
        self.game_index.append(entry)
        self.clock.games_this_run += 1
        screen_line = self.competition.process_game_result(response)
        history = self.competition.pending_history
        self.competition.pending_history = []
        text = self._append_history(history) if history else ""
        if not history:
            self.history_tail = ""
        self.save_state()
        if attempt is not None:
            commit_file(attempt, response.record, synced=True)   # made durable above
            # The note goes with the next save (a stop before it: the next start finds
            # the attempt gone, and forgets it).
            del self.pending_records[pending]
        if text:
            try:
                with open(self.paths.history, "a", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:   # the next run completes the history from the state
                raise storage_error(exc, self.paths.history) from None
        self.reports.result_in()
        self.log(f"response from game {response.game_id}")
        self._flush_competition_log()
        for warning in response.warnings:
            self.warn(warning)
        detail = response.game_result.detail or ""
        if detail.startswith(DISAGREED):
            self.warn(f"game {response.game_id}: {DISAGREEMENT_HINT}")
        elif detail.startswith((DEAD_STONES_DISPUTED, DEAD_STONES_UNKNOWN)):
            self.warn(f"game {response.game_id}: no result: {detail}; {NAME_A_REFEREE}")
        if self.presenter is not None:
            self.presenter.game_finished(
                response, screen_line or response.game_result.describe())

    def note_host(self, job: GameJob, host: str) -> None:
        """Which cluster worker played a job (called before its response is processed)."""
        self._hosts[job.game_id] = host
        self.log(f"game {job.game_id} played on {host}")

    def process_error_response(self, job: GameJob, message: str) -> None:
        self.games_in_progress.pop(job.game_id, None)
        self._job_started.pop(job.game_id, None)
        self.warn(f"game {job.game_id} -- {message}")
        self.void_game_count += 1
        self.game_index.append(GameEntry(job.game_id, job.player_b.code, job.player_w.code,
                                         "void", finished=local_now(), detail=message))
        stop, retry = self.competition.process_game_error(job, self.void_game_count - 1)
        self.save_state()
        self.reports.result_in()
        self.log(f"game {job.game_id} will be replayed" if retry else
                 f"game {job.game_id} will not be replayed")
        self._flush_competition_log()
        if self.presenter is not None:
            self.presenter.refresh()
        if stop and not self.stopping_for_voids:
            self.stopping_for_voids = True
            self.warn("halting run due to void games")
            self.halt("too many void games")

    def poll(self, running: list) -> None:
        if self.halt_reason is None and os.path.exists(self.paths.command):
            self._read_command_file()
        self.reports.write_html_if_due()
        if self.presenter is not None:
            self.presenter.refresh()
            self.presenter.raise_if_closed()   # `run x.ctl | head`: stop as after Ctrl-C

    def run(self, *, max_games: int | None = None, parallel: int | None = None,
            log_gtp: bool = False, presenter: Any = None, cluster: Any = None) -> None:
        """Play games until the competition is complete, max_games have started, or a stop.

        Each game is played by play_game_job() with this ringmaster's channel
        factory; presenter, if given, is attached (attach_presenter). The caller
        must hold the lock and have run the start-up checks
        (lifecycle.run_competition() does the whole lifecycle). Raises RunHalted if
        void games stopped the run.
        """
        self.max_games = max_games
        self.log_gtp = log_gtp
        if presenter is not None:
            self.attach_presenter(presenter)
        self.competition.load_code()
        self.clock.start_run(warmup=parallel or 1)
        self.reports.run_started()
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
                    run_jobs(self, play, parallel, note=self.warn)
            finally:
                engine_pool.release_engines()   # engines kept by games played in this process
        except (KeyboardInterrupt, InternalError) as exc:
            if isinstance(exc, InternalError):   # a bug: its traceback is shown, and kept here
                self.log(f"run stopped at {now()} by an internal error: {exc}")
                for line in exc.traceback.splitlines():
                    self.log(line)
            else:
                self.log(f"run interrupted at {now()}")
            if self.games_in_progress:
                self.log("games in progress were: " + " ".join(sorted(self.games_in_progress)))
            if self.reports.html_due:
                self.clock.end_run(self._saved_elapsed)   # the rate as `show` gives it
                self.reports.write_html()   # the results that came in since the last rewrite
            raise
        self.log(f"run finished at {now()}")
        if self._renames_saved and not self.pending_records:
            self.save_state()   # the notes of the renames done since the last save go
        # Attempts at games that were never counted (a lost worker's, a replayed one's).
        remove_stale_temporaries(self.paths.games)
        # The run's reports, and its last line, give the rate `show` gives from the state
        # (the whole event's: a run of one game a worker has none of its own).
        self.clock.end_run(self._saved_elapsed)
        self.write_report()
        if self.presenter is not None:
            self.presenter.refresh(final=True)
            self.presenter.raise_if_closed(final=True)   # `run x.ctl > out.txt` on a full disk
        if self.stopping_for_voids:
            raise RunHalted("run halted: too many void games; see the log file")

    def open_log(self) -> None:
        """Raises StorageError if the log can't be opened for appending."""
        try:
            # backslashreplace: a file name that isn't UTF-8 (bad\xff.cmd) is written escaped
            self._log_file = open(self.paths.log, "a", encoding="utf-8", errors="backslashreplace")
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
        for path in self.paths.files():   # this competition's only: not those of 't.x' beside 't'
            remove_stale_temporaries(self.paths.directory, temp_prefix(path))
        self.complete_pending_records()
        remove_stale_temporaries(self.paths.games)
        remove_stale_temporaries(self.paths.void)

    def complete_pending_records(self) -> None:
        """Rename into place the records of the games the state counts whose rename a
        stopped run didn't do (before the temporaries are removed: an attempt is one).
        Each note is then forgotten, the state's copy at the next save. Raises
        StorageError."""
        for name, attempt_name in sorted(self.pending_records.items()):
            attempt = os.path.join(self.paths.games, attempt_name)
            if os.path.exists(attempt):   # else renamed already
                commit_file(attempt, os.path.join(self.paths.games, name), synced=False)
                self.log(f"record {name}, of a game counted by the last run, renamed into place")
        self.pending_records = {}

    # Reports

    def report_text(self) -> str:
        """The full text report (`show`): the competition's, hosts, void games and progress."""
        return self.reports.text(full=True)

    def json_report(self) -> dict[str, Any]:
        """Every result and statistic as JSON-able data (`show --json`)."""
        return self.reports.json()

    def games_csv(self) -> str:
        """One CSV row per game (`show --csv`)."""
        return self.reports.csv()

    def write_report(self) -> None:
        """Write FILE.report and FILE.html from the state, each atomically."""
        self.reports.write()

    # Reset

    def reset(self) -> list[str]:
        """Delete the state and every output. Returns error messages for what couldn't go.

        Holds the run's lock throughout, so that no run starts meanwhile (its counted
        records would be deleted under it); the log, which is the lock's file, goes
        last. Raises LockError if a run holds the lock, StorageError if it can't be
        taken.
        """
        lock = self.acquire_lock(f"stop it with `{self.command_line('stop')}`, then reset")
        try:
            errors = []
            for path in [p for p in self.paths.all_outputs() if p != self.paths.log] + [self.paths.log]:
                try:
                    if os.path.isdir(path):
                        shutil.rmtree(path)
                    elif os.path.exists(path):
                        os.remove(path)
                except OSError as exc:
                    errors.append(f"error removing {path}: {exc.strerror}")
            return errors
        finally:
            lock.release()
