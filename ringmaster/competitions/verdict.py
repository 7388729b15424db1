"""A tuner's verdict, only as strong as its evidence, and the warnings and cautions its reports give."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EDGE_SHARE = 0.05
"""A continuous tuner's answer this close to an end of a parameter's range (a share of it) is warned:
the best value may lie beyond."""


@dataclass
class Verdict:
    """A tuner's headline, only as strong as its evidence.

    It recommends its answer ('Use ...') only when its own confidence measure
    passes a stated bar; otherwise it says there is no clear winner yet, with the
    leading candidates and what would settle it.
    """

    answer: str                 # the parameters it would use: 'c: 0.029'
    settled: bool               # the confidence measure passes the bar
    tuning_over: bool
    evidence: str               # the measure, now: 'better than every other ... with probability 0.31'
    bar: str                    # 'a recommendation needs 0.95'
    leaders: list[str] = field(default_factory=list)
    settle: str = ""            # what would settle it
    uncertainty: str = ""       # how far the answer may be off
    warnings: list[str] = field(default_factory=list)
    evidence_complete: bool = True   # False while games the bar rests on are still to come

    def headline(self) -> str:
        if not self.settled:
            return "No clear winner yet"
        if self.tuning_over and self.evidence_complete:
            return f"Use {self.answer}"
        return f"Clearly leading so far: {self.answer}"

    def lines(self) -> list[str]:
        """The text report's verdict: the headline, then indented details."""
        lines = [f"Verdict: {self.headline()}"]
        if not self.settled:
            lines.append(f"  leading: {'; '.join(self.leaders) if self.leaders else self.answer}")
        lines.append(f"  evidence: {self.evidence} ({self.bar})")
        if self.uncertainty:
            lines.append(f"  uncertainty: {self.uncertainty}")
        if not self.settled and self.settle:
            lines.append(f"  what would settle it: {self.settle}")
        lines += [f"  {warning}" for warning in self.warnings]
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"headline": self.headline(), "answer": self.answer, "settled": self.settled,
                "tuning_over": self.tuning_over, "evidence_complete": self.evidence_complete,
                "evidence": self.evidence, "bar": self.bar,
                "leaders": self.leaders, "settle": self.settle, "uncertainty": self.uncertainty,
                "warnings": self.warnings}


def edge_warning(code: str, end: str) -> str:
    """The warning for an answer at the low or high end of a parameter's range."""
    word, beyond = ("lowest", "below") if end == "low" else ("highest", "above")
    return (f"warning: {code} lies at the {word} end of its range: the best value may be {beyond} "
            f"it; widen the range of {code} and tune again")


def continuous_edge_warnings(codes: list[str], point: list[float]) -> list[str]:
    """Warnings for each coordinate of a point (0 to 1 across each range) within EDGE_SHARE of an end."""
    warnings = []
    for code, x in zip(codes, point):
        if x <= EDGE_SHARE:
            warnings.append(edge_warning(code, "low"))
        elif x >= 1.0 - EDGE_SHARE:
            warnings.append(edge_warning(code, "high"))
    return warnings


def selection_bias_warning(confirm_games: int,
                           what: str = "the tuning games chose this candidate, so its own record flatters it"
                           ) -> str:
    """The caution shown under a record (or a model's estimate) the selection itself produced."""
    advice = ("the confirmation games below are a fair test" if confirm_games > 0
              else "set confirm_games for an unbiased figure")
    return f"({what}; {advice})"
