"""Adjudication: a game ended on the referee engine's score, or scored by it at the move limit."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

from ringmaster.game.scoring import ScoreBounds, Scored, checked_final_score, sgf_result
from ringmaster.rules.base import Colour

ADJUDICATED = "adjudicated"
"""The start of an adjudicated game's detail."""

DEFAULTS = {"after_move": 40, "every": 10, "checks": 3}


@dataclass(frozen=True)
class Adjudication:
    """The control file's adjudication setting: from move after_move, every `every` moves,
    the referee engine's final_score is asked; a margin of at least `margin` for the same
    side at `checks` checks in a row ends the game."""

    margin: float
    after_move: int = DEFAULTS["after_move"]
    every: int = DEFAULTS["every"]
    checks: int = DEFAULTS["checks"]

    def to_json(self) -> dict[str, Any]:
        return {"margin": self.margin, "after_move": self.after_move, "every": self.every,
                "checks": self.checks}

    def describe(self) -> str:
        """'margin 30 at 3 checks in a row, every 10 moves from move 40'."""
        return (f"margin {self.margin:g} at {self.checks} checks in a row, every {self.every} "
                f"moves from move {self.after_move}")


def interpret_adjudication(value: Any) -> Adjudication:
    """A control file's adjudication dict as an Adjudication.

    Raises ValueError naming the key unless it is {'margin': x} with x > 0, and
    optionally 'after_move' (0 or more), 'every' and 'checks' (at least 1).
    """
    if not isinstance(value, dict):
        raise ValueError("must be a dict like {'margin': 30, 'after_move': 40, 'every': 10, "
                         "'checks': 3}")
    unknown = set(value) - {"margin", *DEFAULTS}
    if unknown:
        raise ValueError(f"unknown key {sorted(map(str, unknown))[0]!r} "
                         "(keys: margin, after_move, every, checks)")
    if "margin" not in value:
        raise ValueError("missing key 'margin'")
    margin = value["margin"]
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) \
            or not math.isfinite(margin) or margin <= 0:
        raise ValueError("'margin': must be a positive number")
    counts = {}
    for key, default in DEFAULTS.items():
        number = value.get(key, default)
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"{key!r}: not an integer")
        if number < (0 if key == "after_move" else 1):
            raise ValueError(f"{key!r}: must be at least {0 if key == 'after_move' else 1}")
        counts[key] = number
    return Adjudication(float(margin), **counts)


class ScoreEstimator(Protocol):
    """The referee engine, as adjudication asks it (referee_engine.RefereeEngine)."""

    def final_score(self) -> tuple[Colour | None, float | None, str] | str:
        """Its score of the position: (winner, margin, its text), or why it can't say."""


class Adjudicator:
    """Counts the checks in a row that give one side the margin; see Adjudication.

    Public attributes:
      failure -- why the referee engine couldn't score (adjudication then stops), or None
    """

    def __init__(self, spec: Adjudication, engine: ScoreEstimator) -> None:
        self.spec = spec
        self.engine = engine
        self.failure: str | None = None
        self._leader: Colour | None = None
        self._streak = 0

    def is_due(self, moves: int) -> bool:
        """Whether a check follows the move that makes moves moves played (opening included)."""
        spec = self.spec
        return (self.failure is None and moves >= spec.after_move
                and (moves - spec.after_move) % spec.every == 0)

    def check(self, moves: int, bounds: ScoreBounds | None = None) -> Scored | None:
        """Ask the referee engine; the adjudicated result once the margin has held, else None.
        An estimate larger than bounds allow is a failure (adjudication stops)."""
        answer = checked_final_score(self.engine, bounds, finished=False)
        if isinstance(answer, str):
            self.failure = answer
            return None
        winner, margin, text = answer
        if winner is None or margin is None or margin < self.spec.margin:
            self._leader, self._streak = None, 0
            return None
        self._streak = self._streak + 1 if winner == self._leader else 1
        self._leader = winner
        if self._streak < self.spec.checks:
            return None
        return Scored(winner, sgf_result(winner, margin), detail=(
            f"{ADJUDICATED}: the referee engine's score {text[:20]} after move {moves}, "
            f"at least {self.spec.margin:g} at {self.spec.checks} checks in a row"))


def score_at_move_limit(engine: ScoreEstimator, moves: int,
                        bounds: ScoreBounds | None = None) -> Scored | str:
    """The game at its move limit, scored by the referee engine's final_score; or why not."""
    answer = checked_final_score(engine, bounds, finished=False)
    if isinstance(answer, str):
        return answer
    winner, margin, text = answer
    return Scored(winner, sgf_result(winner, margin),
                  detail=f"{ADJUDICATED} at the move limit ({moves} moves): the referee engine's "
                         f"score {text[:20]}")
