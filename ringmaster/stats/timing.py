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
    """

    started: str | None = None
    elapsed_before: float = 0.0
    run_started: float | None = None
    games_this_run: int = 0
    clock: Any = field(default=time.monotonic, repr=False)

    def start_run(self) -> None:
        if self.started is None:
            self.started = local_now()
        self.run_started = self.clock()
        self.games_this_run = 0

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
    """Seconds to play the remaining games at this rate; None if either is unknown."""
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

    The rate is this run's if it has finished a game, else the whole event's.
    """
    elapsed = clock.elapsed()
    rate = games_per_hour(clock.games_this_run, clock.run_seconds())
    if rate is None:
        rate = games_per_hour(played, elapsed)
    remaining = None if wanted is None else max(0, wanted - played)
    return {"started": clock.started, "elapsed": elapsed, "games_played": played,
            "games_wanted": wanted, "games_per_hour": rate,
            "eta": eta_seconds(remaining, rate)}


def progress_line(info: dict[str, Any]) -> str:
    """'elapsed 1h 02m, 120 games per hour, 30/400 games, ETA 2h 20m'."""
    rate = info["games_per_hour"]
    wanted = info["games_wanted"]
    played = f"{info['games_played']}/{wanted}" if wanted is not None else str(info["games_played"])
    return (f"elapsed {format_duration(info['elapsed'])}, "
            f"{'--' if rate is None else f'{rate:.0f}'} games per hour, {played} games, "
            f"ETA {format_duration(info['eta']) if wanted is not None else 'none (no game limit)'}")
