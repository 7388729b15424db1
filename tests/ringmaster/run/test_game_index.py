"""The game index: entries from results, JSON round trip, CSV."""

from __future__ import annotations

import csv
import io

from ringmaster.game.result import GameResult
from ringmaster.run.game_index import CSV_COLUMNS, GameEntry, entry_for_result, games_csv


def test_entry_from_result_and_csv():
    result = GameResult("0_1", "a", "b", "w", "W+R", detail="forfeit by a: timeout",
                        is_forfeit=True, cpu_times={"a": 1.5, "b": None})
    entry = entry_for_result(result, 42, 3.25, "2026-11-22 10:00:00", ["0", 1])
    entry.note = "Candidate parameters: c: 0.375"
    assert entry.winner == "b" and entry.cpu_black == 1.5 and entry.cpu_white is None
    assert GameEntry.from_json(entry.to_json()) == entry
    void = GameEntry("0_2", "a", "b", "void", detail="aborting game, with a comma")
    rows = list(csv.reader(io.StringIO(games_csv([entry, void]))))
    assert rows[0] == CSV_COLUMNS and "data" not in rows[0]
    assert rows[1][:8] == ["0_1", "a", "b", "W+R", "b", "42", "3.250", "1.500"]
    row = dict(zip(CSV_COLUMNS, rows[1]))
    assert row["forfeit"] == "1" and row["note"] == "Candidate parameters: c: 0.375"
    assert rows[2][3] == "void" and rows[2][CSV_COLUMNS.index("detail")] == \
        "aborting game, with a comma"
    assert rows[2][CSV_COLUMNS.index("forfeit")] == "0"
    assert rows[2][4] == ""   # unknown values are empty cells
    assert GameEntry.from_json({**void.to_json(), "future_field": 1}) == void


def test_csv_rows_come_in_game_id_order_not_finish_order():
    finished = ["0_10", "c1", "0_9", "0_2", "1_0", "0_2", "c0", "12a", "2a"]   # 0_2: void, then replayed
    entries = [GameEntry(i, "a", "b", "void" if n == 3 else "B+R") for n, i in enumerate(finished)]
    rows = list(csv.reader(io.StringIO(games_csv(entries))))[1:]
    assert [(r[0], r[3]) for r in rows] == [
        ("0_2", "void"), ("0_2", "B+R"), ("0_9", "B+R"), ("0_10", "B+R"), ("1_0", "B+R"),
        ("2a", "B+R"), ("12a", "B+R"), ("c0", "B+R"), ("c1", "B+R")]
