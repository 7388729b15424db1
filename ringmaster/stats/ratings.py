"""Joint ratings of many players: a Bradley-Terry (logistic Elo) maximum-likelihood fit.

Model (Bradley-Terry, as BayesElo and Ordo use it): player i scores against
player j with probability 1 / (1 + 10^(-(R_i - R_j)/400)); a jigo is half a win
each. The ratings maximise the likelihood of every game's score; the fit is
Newton's method on the log-likelihood with one player's rating held fixed.

Prior: as BayesElo does (its `prior`, default 2), each player adds `prior`
virtual drawn games, spread over its opponents in proportion to the games it
played with each, so that a player who won (or lost) every game still gets a
finite rating. prior=0 gives the plain maximum-likelihood fit.

Intervals: standard errors from the inverse of the log-likelihood's Hessian
(BayesElo's `covariance`), 95% = +-1.96 standard errors. Ratings are relative
to the anchor player (rating 0 unless the anchor's rating is given), or to the
players' mean when there is no anchor; the errors are those of that difference.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ringmaster.stats.win_rates import Z_95

if TYPE_CHECKING:   # numpy is imported where ratings are fitted: a two-player run never needs it
    import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)
DEFAULT_PRIOR = 2.0

RATING_METHOD = ("Bradley-Terry maximum-likelihood ratings (logistic Elo, as BayesElo and Ordo), "
                 f"with BayesElo's prior of {DEFAULT_PRIOR:g} virtual draws per player; 95% intervals "
                 "from the inverse Hessian; relative to the anchor (or to the mean when there is none).")


@dataclass(frozen=True)
class Rating:
    """One player's rating, its 95% interval, and its record."""

    player: str
    elo: float
    error: float      # 1.96 standard errors (Elo)
    games: float
    score: float      # points won (jigos count half)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "elo": self.elo, "elo_95": [self.elo - self.error,
                                                                   self.elo + self.error],
                "error_95": self.error, "games": self.games, "score": self.score}


@dataclass(frozen=True)
class RatingTable:
    """Every player's rating, strongest first, and what they are relative to."""

    ratings: list[Rating]
    reference: str   # 'anchor X' or 'mean'
    covariance: np.ndarray
    order: list[str]  # players in the covariance's order

    def superiority(self, a: str, b: str) -> float:
        """P(a is stronger than b) under the fit's normal approximation."""
        i, j = self.order.index(a), self.order.index(b)
        by_player = {r.player: r for r in self.ratings}
        var = (self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j])
        diff = (by_player[a].elo - by_player[b].elo) / ELO_PER_NAT
        if var <= 0:
            return 0.5 if diff == 0 else float(diff > 0)
        return 0.5 * (1.0 + math.erf(diff / math.sqrt(2.0 * var)))

    def to_json(self) -> dict[str, Any]:
        return {"method": RATING_METHOD, "relative_to": self.reference,
                "ratings": [r.to_json() for r in self.ratings]}


def _connected(n: int, games: np.ndarray) -> bool:
    seen, stack = {0}, [0]
    while stack:
        i = stack.pop()
        for j in range(n):
            if games[i, j] > 0 and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == n


def fit_ratings(results: Iterable[tuple[str, str, float]], players: Sequence[str] | None = None,
                anchor: str | None = None, anchor_rating: float = 0.0,
                prior: float = DEFAULT_PRIOR) -> RatingTable | None:
    """Fit ratings to game results (a, b, a's score: 1, 0.5 or 0).

    Returns None if fewer than two players have games, or if they don't form one
    connected group (some players never met anyone linked to the others).
    Raises ValueError if the anchor isn't one of the players.
    """
    import numpy as np
    results = list(results)
    names = list(players) if players is not None else []
    for a, b, _ in results:
        for p in (a, b):
            if p not in names:
                names.append(p)
    index = {p: i for i, p in enumerate(names)}
    n = len(names)
    games = np.zeros((n, n))
    wins = np.zeros((n, n))   # wins[i, j]: points i scored against j
    for a, b, score in results:
        i, j = index[a], index[b]
        games[i, j] += 1
        games[j, i] += 1
        wins[i, j] += score
        wins[j, i] += 1.0 - score
    played = games.sum(axis=1)
    keep = [i for i in range(n) if played[i] > 0]
    if anchor is not None and (anchor not in index or played[index[anchor]] == 0):
        raise ValueError(f"anchor {anchor} has played no games")
    if len(keep) < 2:
        return None
    names = [names[i] for i in keep]
    games, wins, played = games[np.ix_(keep, keep)], wins[np.ix_(keep, keep)], played[keep]
    n = len(names)
    if not _connected(n, games):
        return None
    virtual = np.zeros((n, n))
    if prior > 0:
        share = prior * games / played[:, None]
        virtual = share + share.T
    total_games = games + virtual
    total_wins = wins + virtual / 2.0
    fixed = names.index(anchor) if anchor is not None else 0
    free = [i for i in range(n) if i != fixed]
    r = np.zeros(n)
    for _ in range(100):
        diff = r[:, None] - r[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        gradient = (total_wins - total_games * p).sum(axis=1)
        weight = total_games * p * (1.0 - p)
        information = np.diag(weight.sum(axis=1)) - weight
        reduced = information[np.ix_(free, free)]
        try:
            step = np.linalg.solve(reduced, gradient[free])
        except np.linalg.LinAlgError:
            return None
        step = np.clip(step, -2.0, 2.0)   # damp the first steps of a lopsided fit
        r[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    diff = r[:, None] - r[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    weight = total_games * p * (1.0 - p)
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.zeros((n, n))
    covariance[np.ix_(free, free)] = np.linalg.inv(information[np.ix_(free, free)])
    if anchor is None:
        centre = np.eye(n) - np.full((n, n), 1.0 / n)
        covariance = centre @ covariance @ centre.T
        r = r - r.mean()
        offset, reference = 0.0, "mean"
    else:
        offset, reference = anchor_rating, f"anchor {anchor}"
    score = wins.sum(axis=1)
    ratings = [Rating(names[i], float(r[i] * ELO_PER_NAT + offset),
                      float(Z_95 * math.sqrt(max(covariance[i, i], 0.0)) * ELO_PER_NAT),
                      float(played[i]), float(score[i])) for i in range(n)]
    ratings.sort(key=lambda x: (-x.elo, x.player))
    return RatingTable(ratings, reference, covariance, names)


def rating_lines(table: RatingTable) -> list[list[str]]:
    """Rows for a text table: header, then one per player, strongest first."""
    rows = [["rank", "player", "Elo", "95% interval", "games", "score", "score %"]]
    for rank, r in enumerate(table.ratings, start=1):
        rows.append([str(rank), r.player, f"{r.elo:+.0f}",
                     f"[{r.elo - r.error:+.0f}, {r.elo + r.error:+.0f}]",
                     f"{r.games:g}", f"{r.score:g}",
                     f"{100 * r.score / r.games:.1f}%" if r.games else "--"])
    return rows
