"""How long a competition has run over all its runs, its games per hour, and its ETA."""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field
from typing import Any


def local_now() -> str:
    """The time now, ISO 8601 to the second."""
    return datetime.datetime.now().replace(microsecond=0).isoformat(sep=" ")


@dataclass
class RunClock:
    """Elapsed playing time, saved with the state so that it adds up over runs.

    Public attributes:
      started          -- when the first run started (ISO), or None
      elapsed_before   -- seconds spent by earlier runs
      run_started      -- time.monotonic() when this run started, or None (not running)
      games_this_run   -- results received in this run
      warmup           -- this run's first results, left out of its rate (see note_result)
    """

    started: str | None = None
    elapsed_before: float = 0.0
    run_started: float | None = None
    games_this_run: int = 0
    clock: Any = field(default=time.monotonic, repr=False)
    warmup: int = 1
    warm_at: float | None = None   # when the warmup's last result came in
    warm_games: int = 0

    def start_run(self, warmup: int = 1) -> None:
        """warmup: how many first results to leave out of the rate: one a worker, whose
        first game pays for starting up (our engines compile with numba then)."""
        if self.started is None:
            self.started = local_now()
        self.run_started = self.clock()
        self.games_this_run = 0
        self.warmup = max(1, warmup)
        self.warm_at = None
        self.warm_games = 0

    def note_result(self) -> None:
        """Called once games_this_run counts a result: the rate is measured from the warmup's last."""
        if self.warm_at is None and self.run_started is not None and self.games_this_run >= self.warmup:
            self.warm_at = self.clock()
            self.warm_games = self.games_this_run

    def steady_rate(self) -> float | None:
        """Games per hour of this run after its warmup; None until a result comes in after it."""
        if self.warm_at is None:
            return None
        return games_per_hour(self.games_this_run - self.warm_games, self.clock() - self.warm_at)

    def end_run(self, elapsed: float | None = None) -> None:
        """The run is over: its time joins elapsed_before, which is elapsed if given (the
        state's, as last saved), and the rate is the whole event's again, as between runs."""
        self.elapsed_before = self.elapsed() if elapsed is None else elapsed
        self.run_started = None

    def run_seconds(self) -> float:
        return 0.0 if self.run_started is None else self.clock() - self.run_started

    def elapsed(self) -> float:
        """Seconds spent playing, this run included."""
        return self.elapsed_before + self.run_seconds()

    def to_json(self) -> dict[str, Any]:
        return {"started": self.started, "elapsed": self.elapsed()}

    def load_json(self, data: dict[str, Any] | None) -> None:
        data = data or {}
        self.started = data.get("started")
        self.elapsed_before = float(data.get("elapsed") or 0.0)


def games_per_hour(games: int, seconds: float) -> float | None:
    """The rate, or None before a game has finished or a second has passed."""
    if games <= 0 or seconds <= 0:
        return None
    return games * 3600.0 / seconds


def eta_seconds(remaining: int | None, rate_per_hour: float | None) -> float | None:
    """Seconds to play the remaining games at this rate; None if either is unknown (0 if none remain)."""
    if remaining == 0:
        return 0.0
    if remaining is None or rate_per_hour is None:
        return None
    return max(0, remaining) * 3600.0 / rate_per_hour


def format_duration(seconds: float | None) -> str:
    """'1h 02m', '3m 05s', '12s', or '--' when unknown."""
    if seconds is None:
        return "--"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def progress(played: int, wanted: int | None, clock: RunClock) -> dict[str, Any]:
    """Elapsed, games per hour and ETA as numbers (seconds, games/hour; None when unknown).

    During a run the rate is this run's, from the results after its first ones
    (RunClock.note_result): a first game that compiled the engine ran 5 times
    slower than the next; until then the ETA is being estimated ('estimating'
    is true). Between runs it is the whole event's.
    """
    elapsed = clock.elapsed()
    running = clock.run_started is not None
    rate = clock.steady_rate() if running else games_per_hour(played, elapsed)
    remaining = None if wanted is None else max(0, wanted - played)
    eta = eta_seconds(remaining, rate)
    return {"started": clock.started, "elapsed": elapsed, "games_played": played,
            "games_wanted": wanted, "games_per_hour": rate, "eta": eta,
            "estimating": running and wanted is not None and eta is None}


def progress_line(info: dict[str, Any]) -> str:
    """'elapsed 1h 02m, 120 games per hour, 30/400 games, ETA 2h 20m'."""
    rate = info["games_per_hour"]
    wanted = info["games_wanted"]
    played = f"{info['games_played']}/{wanted}" if wanted is not None else str(info["games_played"])
    if wanted is None:
        eta = "none (no game limit)"
    elif info.get("estimating"):
        eta = "estimating (from the games after each worker's first)"
    else:
        eta = format_duration(info["eta"])
    return (f"elapsed {format_duration(info['elapsed'])}, "
            f"{'--' if rate is None else f'{rate:.0f}'} games per hour, {played} games, ETA {eta}")
