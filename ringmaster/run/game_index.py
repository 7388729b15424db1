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
      opening     -- the opening it started from (its name in the suite), or None
      fingerprint -- its moves from its start, hashed the same under the board's symmetries
                     (rules.symmetry): equal for duplicate games; None if unknown
      adjudicated -- True if the referee engine's score ended it
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
    opening: str | None = None
    fingerprint: str | None = None
    adjudicated: bool = False

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
        for name in ("winner", "finished", "detail", "host", "note", "opening", "fingerprint"):
            check_field(data, name, (str,), what, optional=True)
        check_field(data, "moves", (int,), what, optional=True)
        for name in ("seconds", "cpu_black", "cpu_white"):
            check_field(data, name, NUMBER, what, optional=True)
        for name in ("forfeit", "time_loss", "adjudicated"):
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
                     clock_use: dict[str, ClockUse] | None = None,
                     opening: str | None = None, fingerprint: str | None = None) -> GameEntry:
    """The entry for a finished game; clock_use: {player code: ClockUse} of its timed sides."""
    clocks = [None if (use := (clock_use or {}).get(code)) is None
              else [use.moves, use.total, use.longest, use.left]
              for code in (result.player_b, result.player_w)]
    return GameEntry(result.game_id, result.player_b, result.player_w, result.sgf_result,
                     result.winning_player, moves, seconds, result.cpu_times.get(result.player_b),
                     result.cpu_times.get(result.player_w), finished, result.is_forfeit,
                     result.detail, data, time_loss=result.is_time_loss,
                     clock_black=clocks[0], clock_white=clocks[1], opening=opening,
                     fingerprint=fingerprint, adjudicated=result.is_adjudicated)


DUPLICATE_HINT = ("deterministic engines replay the same game: play an opening suite "
                  "(openings = Openings(...)) with an opening for each pair of games, or an "
                  "engine option that varies its play (sampling, a seed drawn per game)")


def duplicate_games(entries: list[GameEntry]) -> dict[str, str]:
    """{game id: the id of the first earlier game it repeats}: the same players in the same
    colours, the same moves from the same start (under the board's symmetries)."""
    return duplicates_in_order(by_game_id(entries))


def duplicates_in_order(ordered: list[GameEntry]) -> dict[str, str]:
    """duplicate_games for entries already in game id order (by_game_id), not sorted again."""
    first: dict[tuple[str, str, str], str] = {}
    duplicates = {}
    for entry in ordered:
        if entry.fingerprint is None or entry.is_void:
            continue
        key = (entry.black, entry.white, entry.fingerprint)
        if key in first:
            duplicates[entry.game_id] = first[key]
        else:
            first[key] = entry.game_id
    return duplicates


def duplicates_report(entries: list[GameEntry]) -> str:
    """The text report's lines on duplicate games: how many, examples, and the hint; '' if none."""
    duplicates = duplicate_games(entries)
    if not duplicates:
        return ""
    played = sum(1 for e in entries if not e.is_void and e.fingerprint is not None)
    examples = ", ".join(f"{game} = {earlier}" for game, earlier in list(duplicates.items())[:3])
    return (f"duplicate games: {len(duplicates)} of {played} games repeat an earlier game move "
            f"for move (e.g. {examples}); {DUPLICATE_HINT}\n")


_FIELD_NAMES = [f.name for f in fields(GameEntry)]
CLOCK_COLUMNS = ("moves", "used", "longest", "left")
"""The CSV's columns for each side's clock: clock_moves_black... (see GameEntry.clock_black)."""
CSV_COLUMNS = [f.name for f in fields(GameEntry)
               if f.name not in ("data", "host", "clock_black", "clock_white", "fingerprint")] + [
    f"clock_{part}_{side}" for side in ("black", "white") for part in CLOCK_COLUMNS] + [
    "duplicate_of"]


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
    return tuple(int(part) if i % 2 else part for i, part in enumerate(_NUMBERS.split(game_id)))


_NUMBERS = re.compile(r"(\d+)")


def by_game_id(entries: list[GameEntry]) -> list[GameEntry]:
    """The entries in game id order (a void game before its replay: the sort is stable)."""
    return sorted(entries, key=lambda entry: game_id_order(entry.game_id))


def games_csv(entries: list[GameEntry]) -> str:
    """One row per game, in game id order, with a header row; empty cells for unknown values."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    ordered = by_game_id(entries)
    duplicates = duplicates_in_order(ordered)
    for entry in ordered:
        row = entry.to_json()
        row["duplicate_of"] = duplicates.get(entry.game_id)
        for side in ("black", "white"):
            clock = row[f"clock_{side}"] or [None] * len(CLOCK_COLUMNS)
            row.update({f"clock_{part}_{side}": value for part, value in zip(CLOCK_COLUMNS, clock)})
        writer.writerow([_csv_cell(row[c]) for c in CSV_COLUMNS])
    return out.getvalue()
