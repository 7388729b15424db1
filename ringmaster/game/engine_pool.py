"""Engines kept between games: each worker (or thread) keeps its last game's healthy engines."""

from __future__ import annotations

import multiprocessing.util
import os
import threading
from dataclasses import dataclass
from typing import Any

from ringmaster import reaper
from ringmaster.game.job import PlayerSpec
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import GtpController


@dataclass
class KeptEngine:
    """An engine waiting, between games, for the next game with the same player.

    Public attributes:
      spec        -- the PlayerSpec it was started from (reused only for an equal one)
      controller  -- its GtpController, usable
      description -- what it said about itself when it started (engines.EngineDescription)
      cpu_used    -- its CPU seconds so far, as last measured (None: unknown)
      games       -- games it has played
    """

    spec: PlayerSpec
    controller: GtpController
    description: Any
    cpu_used: float | None = 0.0
    games: int = 0


def engine_pid(controller: GtpController) -> int | None:
    """The engine's process id, for a subprocess channel (None for in-process channels)."""
    return controller.channel.pid()


class EnginePool:
    """The engines one worker keeps; never shared between threads, so never by two games at once."""

    def __init__(self) -> None:
        self._kept: list[KeptEngine] = []

    def __len__(self) -> int:
        return len(self._kept)

    def take(self, spec: PlayerSpec) -> KeptEngine | None:
        """Remove and return a kept engine started from an equal spec, or None."""
        for i, engine in enumerate(self._kept):
            if engine.spec == spec:
                del self._kept[i]
                pid = engine_pid(engine.controller)
                if pid is not None:
                    reaper.unspare(pid)
                return engine
        return None

    def keep(self, engine: KeptEngine) -> None:
        """Keep an engine for the next game; the reaper spares it meanwhile."""
        _register_exit_handler()
        pid = engine_pid(engine.controller)
        if pid is not None:
            reaper.spare(pid)
        engine.controller.gtp_log = None
        engine.controller.channel.set_stderr_sink(None)
        self._kept.append(engine)

    def close_all(self) -> None:
        """Quit and close every kept engine (each is killed with its process group)."""
        kept, self._kept = self._kept, []
        for engine in kept:   # all quit at once, then each is waited for
            engine.controller.send_quit()
        for engine in kept:
            pid = engine_pid(engine.controller)
            try:
                engine.controller.close(quit_timeout=1.0)
            except GtpChannelError:
                pass
            if pid is not None:
                reaper.unspare(pid)


_local = threading.local()
_all_pools: list[EnginePool] = []
_pools_lock = threading.Lock()
_exit_handler_pid: int | None = None


def current_pool() -> EnginePool:
    """This thread's pool (a worker process runs its games in one thread)."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = EnginePool()
        with _pools_lock:
            _all_pools.append(pool)
    return pool


def release_engines() -> None:
    """Close the engines every thread of this process keeps (the end of a run, or a worker's exit)."""
    with _pools_lock:
        pools = list(_all_pools)
    for pool in pools:
        pool.close_all()


def _register_exit_handler() -> None:
    # multiprocessing runs its finalizers when a worker process exits normally
    # (and at the interpreter's exit in the main process); a worker killed
    # outright takes its engines with it (they have the parent-death signal).
    global _exit_handler_pid
    if _exit_handler_pid != os.getpid():
        _exit_handler_pid = os.getpid()
        multiprocessing.util.Finalize(None, release_engines, exitpriority=10)
