"""The sequential probability ratio test that stops a matchup once it is decided.

The test is the generalized SPRT (GSPRT) of fishtest and fastchess with the
"logistic" Elo model (fishtest server/fishtest/stats/LLRcalc.py: LLR_logistic;
fastchess app/src/matchmaking/sprt/sprt.cpp: getLLR_logistic):

- Results are an empirical distribution over score values a_i: per game
  (game-level, "trinomial") a = 0, 1/2, 1; per colour-swapped pair of games
  ("pentanomial") a = 0, 1/4, 1/2, 3/4, 1. Empty bins are given 1e-3 of a
  count, as fishtest does, so that the distribution has full support.
- For each hypothesis score s_j = 1 / (1 + 10^(-elo_j/400)) the
  maximum-likelihood distribution with mean s_j is p_i = p^_i / (1 + theta (a_i - s_j)),
  theta solving sum_i p^_i (a_i - s_j) / (1 + theta (a_i - s_j)) = 0.
- LLR = N sum_i p^_i ln(p_i(s_1) / p_i(s_0)), N = games (or pairs).
- Wald's bounds: accept H0 when LLR <= ln(beta / (1 - alpha)), H1 when
  LLR >= ln((1 - beta) / alpha).

With only wins and losses (Go with fractional komi, game-level model) this is
Wald's classical binomial SPRT: LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ringmaster.stats.win_rates import rate_from_elo

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
EMPTY_BIN = 1e-3
# The state of a test whose matchup played all its games before either bound was crossed.
UNDECIDED_TEXT = "undecided: number_of_games played"

SPRT_METHOD = ("GSPRT with the logistic Elo model (fishtest LLR_logistic, fastchess "
               "getLLR_logistic): per game when colours don't alternate, per colour-swapped pair of "
               "games (pentanomial) when they do; Wald's bounds ln(beta/(1-alpha)) and "
               "ln((1-beta)/alpha).")


@dataclass(frozen=True)
class SprtSpec:
    """The control file's sprt setting: H0 elo <= elo0 against H1 elo >= elo1 (logistic Elo)."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def to_json(self) -> dict[str, float]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


def interpret_sprt(value: Any) -> SprtSpec:
    """A control file's sprt dict as an SprtSpec.

    Raises ValueError, with a message naming the key, if it isn't
    {'elo0': x, 'elo1': y, 'alpha': a, 'beta': b} with elo0 < elo1 and 0 < a, b < 0.5.
    """
    if not isinstance(value, dict):
        raise ValueError("must be a dict like {'elo0': 0, 'elo1': 20, 'alpha': 0.05, 'beta': 0.05}")
    unknown = set(value) - {"elo0", "elo1", "alpha", "beta"}
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r} (keys: elo0, elo1, alpha, beta)")
    numbers = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key not in value:
            raise ValueError(f"missing key {key!r}")
        x = value[key]
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ValueError(f"{key!r}: not a number")
        numbers[key] = float(x)
    if numbers["elo0"] >= numbers["elo1"]:
        raise ValueError("'elo0' must be less than 'elo1'")
    for key in ("alpha", "beta"):
        if not 0.0 < numbers[key] < 0.5:
            raise ValueError(f"{key!r}: must be between 0 and 0.5 (exclusive)")
    return SprtSpec(**numbers)


def mle_distribution(frequencies: Sequence[float], scores: Sequence[float],
                     mean: float) -> list[float]:
    """The distribution nearest (in likelihood) to frequencies whose mean score is `mean`.

    frequencies must be positive and sum to 1; min(scores) < mean < max(scores).
    """
    offsets = [a - mean for a in scores]
    # theta keeps every 1 + theta * offset positive: between -1/max and -1/min.
    low, high = -1.0 / max(offsets), -1.0 / min(offsets)

    def secular(theta: float) -> float:
        return sum(p * d / (1.0 + theta * d) for p, d in zip(frequencies, offsets))

    for _ in range(100):   # secular() falls steadily from +inf to -inf on (low, high)
        middle = 0.5 * (low + high)
        if secular(middle) > 0.0:
            low = middle
        else:
            high = middle
    theta = 0.5 * (low + high)
    return [p / (1.0 + theta * d) for p, d in zip(frequencies, offsets)]


def llr_logistic(counts: Sequence[float], scores: Sequence[float], elo0: float,
                 elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for these counts.

    counts[i] is the number of games (or pairs) that scored scores[i].
    Returns 0.0 when there are none.
    """
    total = sum(counts)
    if total <= 0:
        return 0.0
    regularised = [c if c > 0 else EMPTY_BIN for c in counts]
    norm = sum(regularised)
    frequencies = [c / norm for c in regularised]
    p0 = mle_distribution(frequencies, scores, rate_from_elo(elo0))
    p1 = mle_distribution(frequencies, scores, rate_from_elo(elo1))
    return total * sum(f * math.log(b / a) for f, a, b in zip(frequencies, p0, p1))


def pentanomial_bin(first: float, second: float) -> int:
    """The pentanomial bin (0..4: pair score 0, 1/4, ..., 1) of two game scores."""
    return round(2 * (first + second))


@dataclass
class SprtState:
    """Where the test stands after the results so far.

    Public attributes:
      spec, model ('game' or 'pentanomial'), llr, counts (per bin),
      samples (games or pairs counted), games_counted,
      path -- [(games so far, llr)] after each sample,
      decision -- 'H0', 'H1' or None; decided_at -- games counted when it was made
      (llr_at_decision: the LLR then, which games finished after it can move back
      inside the bounds without undoing the decision)
    """

    spec: SprtSpec
    model: str
    llr: float = 0.0
    counts: list[float] = field(default_factory=list)
    samples: int = 0
    games_counted: int = 0
    path: list[tuple[int, float]] = field(default_factory=list)
    decision: str | None = None
    decided_at: int | None = None
    _waiting: dict[int, float] = field(default_factory=dict, repr=False)

    def state(self, all_played: bool = False) -> str:
        """'H1', 'H0', 'running', or 'undecided' (the matchup played all its games first)."""
        if self.decision is not None:
            return self.decision
        return "undecided" if all_played else "running"

    def conclusion(self) -> str | None:
        """What the decision shows, and no more ('elo > 0'), or None while undecided.

        Wald's test accepting H1 rejects H0 (elo <= elo0) at error rate alpha: the
        evidence is that elo > elo0, not that elo >= elo1 (a true Elo midway between
        the two passes half the time). Accepting H0 likewise rejects H1 at beta.
        """
        if self.decision == "H1":
            return f"elo > {self.spec.elo0:g}"
        if self.decision == "H0":
            return f"elo < {self.spec.elo1:g}"
        return None

    def state_text(self, all_played: bool = False) -> str:
        """The state in words; `all_played`: the matchup has played its number_of_games.

        'H1 accepted: elo > 0 (elo <= 0 rejected at alpha 0.05; not a finding that elo >= 20)'.
        """
        s = self.spec
        if self.decision == "H1":
            return (f"H1 accepted: {self.conclusion()} (elo <= {s.elo0:g} rejected at alpha "
                    f"{s.alpha:g}; not a finding that elo >= {s.elo1:g})")
        if self.decision == "H0":
            return (f"H0 accepted: {self.conclusion()} (elo >= {s.elo1:g} rejected at beta "
                    f"{s.beta:g}; not a finding that elo <= {s.elo0:g})")
        return UNDECIDED_TEXT if all_played else "running"

    @property
    def llr_at_decision(self) -> float | None:
        """The LLR when the decision was made (None while the test runs)."""
        if self.decided_at is None:
            return None
        return next(llr for games, llr in self.path if games == self.decided_at)

    def describe(self, all_played: bool = False) -> str:
        """'LLR 1.23 [-2.94, 2.94] elo0 0 elo1 20 alpha 0.05 beta 0.05 (pentanomial): running'."""
        s = self.spec
        return (f"LLR {self.llr:.2f} [{s.lower:.2f}, {s.upper:.2f}] elo0 {s.elo0:g} "
                f"elo1 {s.elo1:g} alpha {s.alpha:g} beta {s.beta:g} ({self.model}): "
                f"{self.state_text(all_played)}")

    def add(self, number: int, score: float | None) -> None:
        """Count game `number`'s result: player 1's score 1/0.5/0, or None for no result.

        Game-level model: each scored game is a sample. Pentanomial: games 2k
        and 2k+1 (colours swapped) form pair k, a sample once both have a
        score. The decision is the first crossing of a bound; games finished
        after it still count in the LLR shown.
        """
        if score is None:
            return
        if self.model == "pentanomial":
            partner = number ^ 1
            if partner not in self._waiting:
                self._waiting[number] = score
                return
            self.counts[pentanomial_bin(self._waiting.pop(partner), score)] += 1
            self.games_counted += 2
            scores = PENTANOMIAL_SCORES
        else:
            self.counts[round(2 * score)] += 1
            self.games_counted += 1
            scores = TRINOMIAL_SCORES
        self.samples += 1
        self.llr = llr_logistic(self.counts, scores, self.spec.elo0, self.spec.elo1)
        self.path.append((self.games_counted, self.llr))
        if self.decision is None:
            if self.llr >= self.spec.upper:
                self.decision, self.decided_at = "H1", self.games_counted
            elif self.llr <= self.spec.lower:
                self.decision, self.decided_at = "H0", self.games_counted

    def to_json(self, all_played: bool = False) -> dict[str, Any]:
        return {**self.spec.to_json(), "model": self.model, "llr": self.llr,
                "state": self.state(all_played), "state_text": self.state_text(all_played),
                "conclusion": self.conclusion(),
                "lower_bound": self.spec.lower, "upper_bound": self.spec.upper,
                "counts": self.counts, "samples": self.samples,
                "games_counted": self.games_counted, "decision": self.decision,
                "decided_at_games": self.decided_at, "llr_at_decision": self.llr_at_decision,
                "path": [[games, llr] for games, llr in self.path]}


def new_sprt_state(spec: SprtSpec, pentanomial: bool) -> SprtState:
    """A test with no results yet: per colour-swapped pair if pentanomial, else per game."""
    scores = PENTANOMIAL_SCORES if pentanomial else TRINOMIAL_SCORES
    return SprtState(spec, "pentanomial" if pentanomial else "game", counts=[0] * len(scores))


def run_sprt(spec: SprtSpec, outcomes: Sequence[tuple[int, float | None]],
             pentanomial: bool) -> SprtState:
    """Replay the test over a matchup's results in the order they arrived (see SprtState.add)."""
    state = new_sprt_state(spec, pentanomial)
    for number, score in outcomes:
        state.add(number, score)
    return state
