"""The index of every game a competition played or voided: for reports, the HTML game list and CSV."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, fields
from typing import Any

from ringmaster.game.result import NUMBER, GameResult, check_field
from ringmaster.game.timekeeper import ClockUse
from ringmaster.state.encoding import EncodedOnce


@dataclass
class GameEntry(EncodedOnce):
    """One game as the reports list it.

    Public attributes:
      game_id, black, white -- player codes
      result      -- SGF RE[] ('B+3.5', 'W+R', '0', '?'), or 'void'
      winner      -- the winning player's code, or None
      moves       -- moves played (passes included), None if unknown
      seconds     -- wall-clock time of the game, None if unknown
      cpu_black, cpu_white -- CPU seconds the engines reported, None if unknown
      finished    -- when the result arrived (ISO 8601, local time)
      forfeit     -- True if a player forfeited
      detail      -- why (a forfeit's or a void game's reason), or None
      data        -- the competition's own data for the game (a tuner's candidate), or None
      host        -- the Dask worker that played it ('HOSTNAME tcp://...'), None off a cluster
      note        -- the game's note, as in its SGF (a tuner's candidate parameters), or None
      time_loss   -- True if a player lost on time (no forfeit)
      clock_black, clock_white -- [moves timed, seconds charged, longest move, seconds left
                     at the end] of a timed side, or None
    """

    game_id: str
    black: str
    white: str
    result: str
    winner: str | None = None
    moves: int | None = None
    seconds: float | None = None
    cpu_black: float | None = None
    cpu_white: float | None = None
    finished: str | None = None
    forfeit: bool = False
    detail: str | None = None
    data: Any = None
    host: str | None = None
    note: str | None = None
    time_loss: bool = False
    clock_black: list[float] | None = None
    clock_white: list[float] | None = None

    @property
    def is_void(self) -> bool:
        return self.result == "void"

    def to_json(self) -> dict[str, Any]:
        # Not dataclasses.asdict(): its deep copy made saving the state after each
        # result cost a millisecond per game already played.
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameEntry:
        """The entry saved by to_json() (unknown keys ignored). Raises ValueError for a wrong type."""
        if not isinstance(data, dict):
            raise ValueError(f"a game entry is {data!r}")
        what = f"game {data.get('game_id')!r}"
        for name in ("game_id", "black", "white", "result"):
            check_field(data, name, (str,), what)
        for name in ("winner", "finished", "detail", "host", "note"):
            check_field(data, name, (str,), what, optional=True)
        check_field(data, "moves", (int,), what, optional=True)
        for name in ("seconds", "cpu_black", "cpu_white"):
            check_field(data, name, NUMBER, what, optional=True)
        for name in ("forfeit", "time_loss"):
            check_field(data, name, (bool,), what, optional=True)
        for name in ("clock_black", "clock_white"):
            value = data.get(name)
            if value is not None and (not isinstance(value, list) or len(value) != 4 or not all(
                    isinstance(v, NUMBER) and not isinstance(v, bool) for v in value)):
                raise ValueError(f"{what}: {name!r} is {value!r}"[:120])
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def entry_for_result(result: GameResult, moves: int | None, seconds: float | None,
                     finished: str, data: Any = None,
                     clock_use: dict[str, ClockUse] | None = None) -> GameEntry:
    """The entry for a finished game; clock_use: {player code: ClockUse} of its timed sides."""
    clocks = [None if (use := (clock_use or {}).get(code)) is None
              else [use.moves, use.total, use.longest, use.left]
              for code in (result.player_b, result.player_w)]
    return GameEntry(result.game_id, result.player_b, result.player_w, result.sgf_result,
                     result.winning_player, moves, seconds, result.cpu_times.get(result.player_b),
                     result.cpu_times.get(result.player_w), finished, result.is_forfeit,
                     result.detail, data, time_loss=result.is_time_loss,
                     clock_black=clocks[0], clock_white=clocks[1])


_FIELD_NAMES = [f.name for f in fields(GameEntry)]
CLOCK_COLUMNS = ("moves", "used", "longest", "left")
"""The CSV's columns for each side's clock: clock_moves_black... (see GameEntry.clock_black)."""
CSV_COLUMNS = [f.name for f in fields(GameEntry)
               if f.name not in ("data", "host", "clock_black", "clock_white")] + [
    f"clock_{part}_{side}" for side in ("black", "white") for part in CLOCK_COLUMNS]


def _csv_cell(value: Any) -> str | int:
    """Empty for unknown, 1/0 for yes/no, seconds to the millisecond, text as it is."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return value


def game_id_order(game_id: str) -> tuple:
    """A sort key that puts ids in their numbers' order: '0_9' before '0_10', '2a' before '10a'."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", game_id)))


def by_game_id(entries: list[GameEntry]) -> list[GameEntry]:
    """The entries in game id order (a void game before its replay: the sort is stable)."""
    return sorted(entries, key=lambda entry: game_id_order(entry.game_id))


def games_csv(entries: list[GameEntry]) -> str:
    """One row per game, in game id order, with a header row; empty cells for unknown values."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in by_game_id(entries):
        row = entry.to_json()
        for side in ("black", "white"):
            clock = row[f"clock_{side}"] or [None] * len(CLOCK_COLUMNS)
            row.update({f"clock_{part}_{side}": value for part, value in zip(CLOCK_COLUMNS, clock)})
        writer.writerow([_csv_cell(row[c]) for c in CSV_COLUMNS])
    return out.getvalue()
