"""A game's two engines: started (or taken from the worker's pool), greeted, and at the end kept or closed."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from contextlib import ExitStack
from typing import TextIO

from ringmaster import reaper
from ringmaster.errors import START_FAILED
from ringmaster.files import clipped, log_line, printable, storage_error
from ringmaster.game import engine_pool
from ringmaster.game.job import GameJob, PlayerSpec, engine_environment
from ringmaster.gtp.channel import Channel, GtpChannelError, SubprocessChannel
from ringmaster.gtp.controller import BadGtpResponse, GtpController

ChannelFactory = Callable[[PlayerSpec, dict[str, str], "str | Callable[[str], None]"], Channel]


def subprocess_channel(spec: PlayerSpec, env: dict[str, str],
                       stderr: str | Callable[[str], None]) -> Channel:
    """Start the engine for a PlayerSpec (the default channel factory)."""
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise GtpChannelError(f"bad working directory: {spec.cwd}")
    return SubprocessChannel(list(spec.command), cwd=spec.cwd, env=env, stderr=stderr,
                             missing_hint=spec.missing_hint, send_ids=spec.gtp_ids)


class StderrSink:
    """Appends engines' stderr lines to one file, each line labelled with game and player.

    A line that can't be written (a full disk) raises StorageError naming the file:
    the run's error, as for the run's own lines, not the game's.
    """

    def __init__(self, pathname: str) -> None:
        self._pathname = pathname
        try:
            self._file = open(pathname, "a", encoding="utf-8", errors="replace")
        except OSError as exc:
            raise storage_error(exc, pathname, "open") from None
        self._lock = threading.Lock()

    def for_player(self, label: str) -> Callable[[str], None]:
        def write(line: str) -> None:
            with self._lock:
                try:
                    self._file.write(log_line(f"[{label}] {line}") + "\n")
                    self._file.flush()
                except OSError as exc:
                    raise storage_error(exc, self._pathname) from None
        return write

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass   # a full disk: the write that failed has raised the run's error


class EngineDescription:
    """What an engine says about itself: name:version and a longer description."""

    def __init__(self, controller: GtpController) -> None:
        self.name = self._ask(controller, "name")
        self.version = self._ask(controller, "version")
        self.description = None
        if controller.known_command("gomill-describe_engine"):
            self.description = self._ask(controller, "gomill-describe_engine")

    @staticmethod
    def _ask(controller: GtpController, command: str) -> str | None:
        """The engine's answer, or None; its control characters escaped (it reaches the
        terminal through show and the SGF through a viewer)."""
        try:
            return printable(clipped(controller.do_command(command).strip(), 2000)) or None
        except BadGtpResponse:
            return None

    @property
    def short(self) -> str | None:
        if self.name is None:
            return None
        version = self.version or ""
        if version.startswith(self.name):
            version = version[len(self.name):].strip()
        if len(version) > 32:
            version = version.split()[0] if version.split() else ""
            if len(version) > 32:
                version = ""
        return f"{self.name}:{version}" if version else self.name

    @property
    def long(self) -> str | None:
        return self.description or self.short


def launch_player(spec: PlayerSpec, *, game_id: str, slot: int | None, colour: str,
                  factory: ChannelFactory, stderr: str | Callable[[str], None],
                  service_token: str | None = None) -> GtpController:
    """Start an engine's process and give it a controller; greet_player then talks to it.

    Launching both engines of a game before greeting either lets the second
    one's start-up run while the first answers. Raises GtpChannelError naming
    the player.
    """
    name = f"player {spec.code}"
    with reaper.starting_engine():
        try:
            channel = factory(spec, engine_environment(spec, game_id, slot, service_token),
                              stderr)
        except GtpChannelError as exc:
            raise GtpChannelError(f"{START_FAILED}{name}: {exc}") from None
        controller = GtpController(channel, name, default_timeout=spec.timeout,
                                   aliases=dict(spec.gtp_aliases), log_label=colour)
        pid = engine_pool.engine_pid(controller)
        if pid is not None:
            reaper.note_engine(pid)   # the job's, if it is stopped from another thread
    return controller


GTP_IDS_HINT = (" (if the engine can't take GTP command ids, as in '1 protocol_version', "
                "set gtp_ids=False in its Player)")
"""Said where an engine's first answer, to a command with an id, is garbled."""

EXITED_HINT = (" (its stderr, which `ringmaster check` shows, says why: most often a bad option "
               "or path; or, if the engine can't take GTP command ids, as in '1 protocol_version', "
               "set gtp_ids=False in its Player)")
"""Said where an engine's channel breaks on its first command, which went with an id: the
engine may have failed to start (the usual case) or died on the id."""


def greet_player(controller: GtpController, spec: PlayerSpec,
                 gtp_log: TextIO | None) -> EngineDescription:
    """Check a launched engine speaks GTP version 2, ask what it is, run its start-up commands.

    Raises GtpChannelError or BadGtpResponse, with messages naming the
    player; the engine is then killed and its controller closed. Where the
    first command, sent with an id, has an answer that is no number, the
    message suggests gtp_ids=False (an engine may garble a command with an
    id); where it breaks the channel, the message points to the engine's
    stderr first (a bad option or path is the usual cause), then gtp_ids.
    """
    hint = GTP_IDS_HINT if spec.gtp_ids else ""
    try:
        try:
            version = controller.do_command("protocol_version")
        except BadGtpResponse:
            version = None
        except GtpChannelError as exc:
            raise type(exc)(str(exc).replace("'protocol_version'",   # the controller's words
                                             "first command (protocol_version)", 1)
                            + (EXITED_HINT if spec.gtp_ids else "")) from None
        if version is not None:
            try:
                ok = float(version.strip()) == 2.0
            except ValueError:
                ok = False
            else:
                hint = ""
            if not ok:
                raise GtpChannelError(f"player {spec.code} reports GTP protocol version "
                                      f"{version.strip()[:20]}{hint}")
        description = EngineDescription(controller)
        controller.gtp_log = gtp_log
        for command, arguments in spec.startup_gtp_commands:
            controller.do_command(command, *arguments)
    except BaseException:
        controller.abandon()
        raise
    return description


def _resume_kept_engine(engine: engine_pool.KeptEngine, colour: str,
                        stderr: str | Callable[[str], None], gtp_log: TextIO | None) -> bool:
    """Attach a kept engine to this game and send its start-up commands again.

    Returns False (the caller replaces it with a fresh one) if a command fails.
    The game's set-up commands follow as for any engine.
    """
    controller = engine.controller
    controller.log_label = colour
    controller.gtp_log = gtp_log
    controller.channel.set_stderr_sink(None if isinstance(stderr, str) else stderr)
    try:
        for command, arguments in engine.spec.startup_gtp_commands:
            controller.do_command(command, *arguments)
    except (GtpChannelError, BadGtpResponse):
        return False
    return True


def _is_usable(controller: GtpController) -> bool:
    """Whether an engine can be kept for (or used in) another game: no channel fault, still
    running, and nothing it said left unread (its answers would be one behind)."""
    if controller.channel_is_bad or controller.is_closed:
        return False
    return controller.channel.is_idle()


def set_up_engines(controllers: dict[str, GtpController], commands: list[tuple[str, ...]],
                   extra: dict[str, list[tuple[str, ...]]] | None = None
                   ) -> tuple[dict[str, GtpChannelError | BadGtpResponse], dict[str, list]]:
    """The game's set-up commands to each engine, then its own extra commands (its
    clock's), in one write each, all sent before any is read.

    Returns the first failure of each engine whose set-up failed ({} if none did),
    and {colour: the responses to its extra commands, failures included}.
    """
    extra = extra or {}
    failures: dict[str, GtpChannelError | BadGtpResponse] = {}
    answers: dict[str, list] = {}
    sent = {}
    for colour, controller in controllers.items():
        try:
            sent[colour] = controller.send_commands(*commands, *extra.get(colour, ()))
        except GtpChannelError as exc:
            failures[colour] = exc
    for colour, commands_sent in sent.items():
        try:
            responses = controllers[colour].receive_commands(commands_sent)
        except GtpChannelError as exc:
            failures[colour] = exc
            continue
        refused = [r for r in responses[:len(commands)] if isinstance(r, BadGtpResponse)]
        if refused:
            failures[colour] = refused[0]
        answers[colour] = responses[len(commands):]
    return failures, answers


def _cpu_since_kept(engine: engine_pool.KeptEngine, reported: float | None) -> float | None:
    """This game's CPU time for a kept engine, from its running total; updates the total.

    reported is what gomill-cpu_time said (a running total), or None; then
    the process's own CPU time is read.
    """
    total = reported
    if total is None:
        total = engine.controller.channel.process_cpu_time()
    previous, engine.cpu_used = engine.cpu_used, total
    if total is None or previous is None:
        return None
    return max(0.0, total - previous)


MAX_CPU_SECONDS = 1e9
"""The most CPU time an engine's gomill-cpu_time may claim (31 years); more is an error."""


def parse_cpu_time(text: str) -> float:
    """A gomill-cpu_time answer as seconds. Raises ValueError unless it is a finite
    number from 0 to MAX_CPU_SECONDS (an engine is untrusted: no nan, inf or negative
    time may reach the state, the reports or their plots)."""
    value = float(text)
    if not 0.0 <= value <= MAX_CPU_SECONDS:   # also false for nan
        raise ValueError(f"not a time in seconds: {text.strip()[:40]!r}")
    return value


def _cpu_time(controller: GtpController, late_errors: list[str]) -> float | None:
    if controller.channel_is_bad:
        return None
    try:
        if controller.known_command("gomill-cpu_time"):
            return parse_cpu_time(controller.do_command("gomill-cpu_time"))
    except (BadGtpResponse, GtpChannelError, ValueError) as exc:
        late_errors.append(f"error getting cpu time from {controller.name}: {exc}")
    return None


class GameEngines:
    """The two engines of one game: each taken from the worker's pool (reuse) or started, then kept or closed.

    Made inside the game's ExitStack: it opens the job's GTP log and stderr sink
    there, and kills whatever engine is still attached when the stack unwinds
    (after an error). start() attaches or starts both engines (raising
    GtpChannelError or BadGtpResponse); finish() reads each engine's CPU time for
    this game, keeps a healthy engine whose player has reuse for the worker's next
    game, and closes the others. A worker whose threads outlive the run (Dask)
    is made with keep_engines false: it keeps no engine, whatever the players say.
    """

    def __init__(self, job: GameJob, factory: ChannelFactory, stack: ExitStack,
                 keep_engines: bool = True) -> None:
        self.job = job
        self.factory = factory
        self.gtp_log: TextIO | None = None
        if job.gtp_log_pathname:
            os.makedirs(os.path.dirname(job.gtp_log_pathname), exist_ok=True)
            self.gtp_log = stack.enter_context(open(job.gtp_log_pathname, "w", encoding="utf-8"))
        self.sink: StderrSink | None = None
        if job.stderr_pathname:
            self.sink = StderrSink(job.stderr_pathname)
            stack.callback(self.sink.close)
        self.specs = {"b": job.player_b, "w": job.player_w}
        self.reuse = {c: keep_engines and spec.reuse for c, spec in self.specs.items()}
        self.controllers: dict[str, GtpController] = {}
        self.descriptions: dict[str, EngineDescription] = {}
        self.kept: dict[str, engine_pool.KeptEngine | None] = {"b": None, "w": None}
        stack.callback(self.close_all)   # unwinds first: engines go before their log and sink

    def start(self, setup: list[tuple[str, ...]],
              extra_for: Callable[[dict[str, GtpController]], dict[str, list[tuple[str, ...]]]]
              | None = None) -> dict[str, list]:
        """Attach or start both engines and send each the game's set-up commands, and the
        extra commands extra_for(controllers) gives each (its clock's) in the same write.

        A kept engine is used only if it is still running and has said nothing
        since its last answer; if it fails its start-up commands or the set-up,
        it is replaced by a fresh engine (a kept engine's fault never voids a
        game). Returns {colour: the responses to its extra commands}. Raises
        GtpChannelError or BadGtpResponse if a fresh engine fails.
        """
        pool = engine_pool.current_pool()
        for colour in ("b", "w"):
            spec = self.specs[colour]
            self.kept[colour] = pool.take(spec) if self.reuse[colour] else None
        pool.close_all()   # the last game's engines that this game doesn't use
        for colour in ("b", "w"):
            engine = self.kept[colour]
            if engine is not None:
                self.controllers[colour] = engine.controller
                self.descriptions[colour] = engine.description
                if not (_is_usable(engine.controller)
                        and _resume_kept_engine(engine, colour, self._stderr(colour), self.gtp_log)):
                    self._drop_kept(colour)
        self._start_missing()
        extra = extra_for(self.controllers) if extra_for is not None else {}
        failures, answers = set_up_engines(self.controllers, setup, extra)
        for colour in failures:
            if self.kept[colour] is None:
                raise failures[colour]
        for colour in failures:
            self._drop_kept(colour)
        if failures:
            self._start_missing()
            extra = extra_for(self.controllers) if extra_for is not None else {}
            fresh = {colour: self.controllers[colour] for colour in failures}
            failures, again = set_up_engines(fresh, setup, {c: extra.get(c, []) for c in fresh})
            for failure in failures.values():
                raise failure
            answers.update(again)
        return answers

    def _stderr(self, colour: str) -> str | Callable[[str], None]:
        spec = self.specs[colour] if colour in self.specs else self.job.referee
        assert spec is not None
        if spec.discard_stderr or self.sink is None:
            return "discard"
        return self.sink.for_player(f"{self.job.game_id} {spec.code}")

    def launch_referee(self) -> GtpController:
        """Start and greet the job's referee engine (never kept between games); its caller
        closes it. Raises GtpChannelError or BadGtpResponse as for a player."""
        spec = self.job.referee
        assert spec is not None
        controller = launch_player(spec, game_id=self.job.game_id, slot=self.job.slot,
                                   colour="referee", factory=self.factory,
                                   stderr=self._stderr("referee"),
                                   service_token=self.job.service_token)
        greet_player(controller, spec, self.gtp_log)
        return controller

    def _drop_kept(self, colour: str) -> None:
        """Give up on a kept engine: killed, and no longer this game's."""
        self.controllers.pop(colour).abandon()
        del self.descriptions[colour]
        self.kept[colour] = None

    def _start_missing(self) -> None:
        """Launch both missing engines, then greet them (the second starts while the first answers)."""
        missing = [colour for colour in ("b", "w") if colour not in self.controllers]
        for colour in missing:
            # Attached at once, so that close_all kills it if the other fails to start.
            self.controllers[colour] = launch_player(
                self.specs[colour], game_id=self.job.game_id, slot=self.job.slot, colour=colour,
                factory=self.factory, stderr=self._stderr(colour),
                service_token=self.job.service_token)
        for colour in missing:
            self.descriptions[colour] = greet_player(
                self.controllers[colour], self.specs[colour], self.gtp_log)

    def finish(self, healthy: bool, late_errors: list[str]) -> dict[str, float | None]:
        """Each engine's CPU time in this game (None if unknown); keeps or closes the engines.

        healthy: the game ended without a forfeit or a late error, so its
        engines may be kept.
        """
        cpu_times = {c: _cpu_time(self.controllers[c], late_errors) for c in ("b", "w")}
        closing = []
        for colour in ("b", "w"):
            controller = self.controllers[colour]
            kept = self.kept[colour]
            if self.reuse[colour] and healthy and _is_usable(controller):
                engine = kept or engine_pool.KeptEngine(
                    self.specs[colour], controller, self.descriptions[colour])
                cpu_times[colour] = _cpu_since_kept(engine, cpu_times[colour])
                engine.games += 1
                del self.controllers[colour]   # not closed on leaving
                engine_pool.current_pool().keep(engine)
            else:
                closing.append(colour)
        for colour in closing:   # both quit at once, then each is waited for
            self.controllers[colour].send_quit()
        for colour in closing:
            controller = self.controllers[colour]
            kept = self.kept[colour]
            try:
                controller.close()
            except GtpChannelError as exc:
                late_errors.append(f"error closing {controller.name}: {exc}")
            total = cpu_times[colour]
            if total is None:
                total = controller.cpu_time_from_close
            if kept is not None and total is not None:
                # A kept engine's figures are running totals: less what earlier games used.
                total = None if kept.cpu_used is None else max(0.0, total - kept.cpu_used)
            cpu_times[colour] = total
        return cpu_times

    def close_all(self) -> None:
        for controller in self.controllers.values():
            controller.abandon()
