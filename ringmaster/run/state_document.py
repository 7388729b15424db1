"""Checks that a state document read back is whole and fits the control file it is run with."""

from __future__ import annotations

import os
from typing import Any

from ringmaster.errors import CompetitionError, StateFileDamaged
from ringmaster.files import TEMP_SUFFIX


def check_state_fields(document: dict[str, Any], name: str) -> None:
    """Check the ringmaster's own fields of a state document.

    Raises StateFileDamaged naming the file and the field if one is missing or
    of the wrong type, or a count is negative.
    """
    for field, kind in (("void_game_count", int), ("history_size", int),
                        ("history_tail", str), ("competition", dict)):
        if field not in document:
            raise StateFileDamaged(f"state file {name} is malformed: no {field}")
        value = document[field]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StateFileDamaged(f"state file {name} is malformed: {field} should be "
                                 f"{'an integer' if kind is int else 'a ' + kind.__name__}, "
                                 f"not {type(value).__name__}")
        if kind is int and value < 0:
            raise StateFileDamaged(f"state file {name} is malformed: {field} is negative")
    pending = document.get("pending_records", {})   # absent in states before it
    if not isinstance(pending, dict) or not all(
            _record_name(record) and _record_name(attempt) and attempt.endswith(TEMP_SUFFIX)
            for record, attempt in pending.items()):
        raise StateFileDamaged(f"state file {name} is malformed: pending_records should map "
                             "record names to their attempts' in the games folder")


def _record_name(value: Any) -> bool:
    """Whether value is a name of a file in the games folder (no folder of its own)."""
    return (isinstance(value, str) and value not in ("", ".", "..")
            and "/" not in value and os.sep not in value and "\0" not in value)


UNSAVED_MEANT = {"time_control": "none", "openings": "none", "referee": "none"}
"""What a saved setting missing from an older state file was: no clock before time_control,
no openings and no referee engine before those."""


def check_game_settings(saved: Any, current: dict[str, dict[str, Any]], name: str) -> None:
    """Refuse a control file whose komi, board size, handicap, clock, openings or referee engine
    changed since the state.

    saved and current are {matchup id (or '' for a tuner): {setting: value}}.
    Raises CompetitionError naming the matchup and setting.
    """
    if not isinstance(saved, dict):
        return
    for key, settings in current.items():
        before = saved.get(key)
        if not isinstance(before, dict):
            continue
        before = {**UNSAVED_MEANT, **before}
        for setting, value in settings.items():
            if setting in before and before[setting] != value:
                where = f"matchup {key}" if key else "the competition"
                raise CompetitionError(
                    f"{setting} of {where} is {value} in the control file but was "
                    f"{before[setting]} for the games in {name}; put it back, or use "
                    f"a new matchup (or reset) for games at {value}")
