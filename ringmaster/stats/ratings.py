"""Joint ratings of many players: a Bradley-Terry (logistic Elo) maximum-likelihood fit, by group.

Model (Bradley-Terry, as BayesElo and Ordo use it): player i scores against
player j with probability 1 / (1 + 10^(-(R_i - R_j)/400)); a jigo is half a win
each. The ratings maximise the likelihood of every game's score; the fit is
Newton's method on the log-likelihood with one player's rating held fixed.

Which players can be rated against each other: the likelihood has a finite
maximum only among players linked both ways, each having scored (a win or a
jigo) against someone who in turn leads back to it: a strongly connected
component of the graph with an edge i -> j when i scored against j (Zermelo's
condition, Ordo's rule for perfect winners and losers). So the players are split
into such groups, and each group of two or more is rated from the games within
it; a player alone in its group (it won, or lost, every game against each
opponent: random against mcts-1000) is not rated, and the report says what it
did. Players of different groups are not ranked against each other: nothing
in their games measures the difference, whatever a prior would make of it.

Prior: BayesElo's (its `prior`, default 2; CCondensedResults::AddPrior), counted as
BayesElo counts it: each player adds prior/2 virtual drawn games, spread over its
opponents in proportion to the games it played with each, and takes its share of
theirs, so that in a round robin each player is in `prior` virtual draws in all.
A virtual draw is half a win each (BayesElo's is a draw of its draw-Elo model).
prior=0 gives the plain maximum-likelihood fit.

Intervals: standard errors from the inverse of the log-likelihood's Hessian
(BayesElo's `covariance`), 95% = +-1.96 standard errors. Ratings are relative
to the anchor player (rating 0 unless the anchor's rating is given) in its
group, or to the group's mean; the errors are those of that difference.
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
                 "fitted within each group of players linked both ways by games each scored in "
                 "(Ordo's rule: a player who won, or lost, every game is not rated), with BayesElo's "
                 f"prior of {DEFAULT_PRIOR:g} virtual draws (each player spreads {DEFAULT_PRIOR / 2:g} "
                 "over its opponents and takes its share of theirs: "
                 f"{DEFAULT_PRIOR:g} per player in a round robin); 95% intervals from the inverse "
                 "Hessian.")


def reference_words(reference: str) -> str:
    """What ratings are relative to, as the reports say it once: 'the mean' for the kept
    'mean' (the JSON's relative_to), 'anchor X' as it is."""
    return "the mean" if reference == "mean" else reference


@dataclass(frozen=True)
class Rating:
    """One player's rating, its 95% interval, and its record in the games rated."""

    player: str
    elo: float
    error: float      # 1.96 standard errors (Elo)
    games: float
    score: float      # points won (jigos count half)
    group: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "elo": self.elo, "elo_95": [self.elo - self.error,
                                                                   self.elo + self.error],
                "error_95": self.error, "games": self.games, "score": self.score,
                "group": self.group}


@dataclass(frozen=True)
class Unrated:
    """A player whose games don't rate it: it won every game against some, lost every one to others."""

    player: str
    games: float
    score: float
    beat: list[str]      # opponents it won every game against
    lost_to: list[str]   # opponents it lost every game to

    @property
    def won_every_game(self) -> bool:
        """It won every game it played: above each opponent by its record."""
        return not self.lost_to

    @property
    def lost_every_game(self) -> bool:
        """It lost every game it played: below each opponent by its record."""
        return not self.beat

    def note(self) -> str:
        """'won every game against a; lost every game against b, c (6 games)'."""
        parts = []
        if self.beat:
            parts.append(f"won every game against {', '.join(self.beat)}")
        if self.lost_to:
            parts.append(f"lost every game against {', '.join(self.lost_to)}")
        return f"{'; '.join(parts)} ({self.games:g} game{'' if self.games == 1 else 's'})"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "games": self.games, "score": self.score,
                "beat": self.beat, "lost_to": self.lost_to, "note": self.note(),
                "won_every_game": self.won_every_game, "lost_every_game": self.lost_every_game}


@dataclass(frozen=True)
class RatingGroup:
    """Players rated against each other, strongest first, and what they are relative to."""

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


@dataclass(frozen=True)
class RatingTable:
    """Every group's ratings (stronger groups first, where games order them) and the unrated players."""

    groups: list[RatingGroup]
    unrated: list[Unrated]

    @property
    def ratings(self) -> list[Rating]:
        """Every rated player, group by group."""
        return [r for g in self.groups for r in g.ratings]

    @property
    def reference(self) -> str:
        return self.groups[0].reference if len(self.groups) == 1 else "each group's mean or anchor"

    def group_of(self, player: str) -> RatingGroup | None:
        return next((g for g in self.groups if player in g.order), None)

    def superiority(self, a: str, b: str) -> float | None:
        """P(a is stronger than b); None unless both are rated in one group."""
        group = self.group_of(a)
        if group is None or group is not self.group_of(b):
            return None
        return group.superiority(a, b)

    def to_json(self) -> dict[str, Any]:
        return {"method": RATING_METHOD, "relative_to": self.reference,
                "groups": [{"players": [r.player for r in g.ratings], "relative_to": g.reference}
                           for g in self.groups],
                "ratings": [r.to_json() for r in self.ratings],
                "unrated": [u.to_json() for u in self.unrated],
                "superiority": {a.player: {b.player: self.superiority(a.player, b.player)
                                           for b in self.ratings if b.player != a.player
                                           and self.superiority(a.player, b.player) is not None}
                                for a in self.ratings}}


def linked_groups(scored: list[list[bool]]) -> list[list[int]]:
    """The strongly connected components of the graph i -> j when scored[i][j], in an order where
    an edge between two groups goes from an earlier to a later one (input order among the rest)."""
    n = len(scored)
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    components: list[list[int]] = []

    def visit(v: int) -> None:   # Tarjan's algorithm (n is the number of players: small)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in range(n):
            if not scored[v][w]:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            components.append(sorted(component))

    for v in range(n):
        if v not in index:
            visit(v)
    # Tarjan finds a component after every component it leads to: reversed, the edges go forward;
    # then among components not ordered by an edge, keep the players' order (Kahn's, smallest first).
    of = {v: c for c, members in enumerate(components) for v in members}
    into = {c: {of[v] for v in range(n) for w in members if scored[v][w] and of[v] != c}
            for c, members in enumerate(components)}
    ordered: list[list[int]] = []
    done: set[int] = set()
    while len(ordered) < len(components):
        ready = [c for c in range(len(components)) if c not in done and into[c] <= done]
        first = min(ready, key=lambda c: components[c][0])
        done.add(first)
        ordered.append(components[first])
    return ordered


def virtual_draws(games: np.ndarray, prior: float) -> np.ndarray:
    """The prior's virtual draws between each two players, from the games between them (see above):
    each player spreads prior/2 over its opponents in proportion to its games with each."""
    import numpy as np
    if prior <= 0:
        return np.zeros_like(games, dtype=float)
    share = (prior / 2.0) * games / games.sum(axis=1)[:, None]
    return share + share.T


def _fit_group(names: list[str], games: np.ndarray, wins: np.ndarray, anchor: str | None,
               anchor_rating: float, prior: float, group: int) -> RatingGroup | None:
    """Bradley-Terry ratings of one linked group from the games within it (None if singular)."""
    import numpy as np
    n = len(names)
    played = games.sum(axis=1)
    virtual = virtual_draws(games, prior)
    total_games = games + virtual
    total_wins = wins + virtual / 2.0
    fixed = names.index(anchor) if anchor in names else 0
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
    if anchor not in names:
        centre = np.eye(n) - np.full((n, n), 1.0 / n)
        covariance = centre @ covariance @ centre.T
        r = r - r.mean()
        offset, reference = 0.0, "mean"
    else:
        offset, reference = anchor_rating, f"anchor {anchor}"
    score = wins.sum(axis=1)
    ratings = [Rating(names[i], float(r[i] * ELO_PER_NAT + offset),
                      float(Z_95 * math.sqrt(max(covariance[i, i], 0.0)) * ELO_PER_NAT),
                      float(played[i]), float(score[i]), group) for i in range(n)]
    ratings.sort(key=lambda x: (-x.elo, x.player))
    return RatingGroup(ratings, reference, covariance, names)


def fit_ratings(results: Iterable[tuple[str, str, float]], players: Sequence[str] | None = None,
                anchor: str | None = None, anchor_rating: float = 0.0,
                prior: float = DEFAULT_PRIOR) -> RatingTable | None:
    """Fit ratings to game results (a, b, a's score: 1, 0.5 or 0), group by linked group.

    Returns None if fewer than two players have games. Raises ValueError if the
    anchor has played no games.
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
    games, wins = games[np.ix_(keep, keep)], wins[np.ix_(keep, keep)]
    groups: list[RatingGroup] = []
    unrated: list[Unrated] = []
    for members in linked_groups((wins > 0).tolist()):
        if len(members) == 1:
            (i,) = members
            opponents = [j for j in range(len(names)) if games[i, j] > 0]
            unrated.append(Unrated(names[i], float(games[i].sum()), float(wins[i].sum()),
                                   [names[j] for j in opponents if wins[i, j] == games[i, j]],
                                   [names[j] for j in opponents if wins[i, j] == 0]))
            continue
        rated = _fit_group([names[i] for i in members], games[np.ix_(members, members)],
                           wins[np.ix_(members, members)], anchor, anchor_rating, prior, len(groups))
        if rated is not None:
            groups.append(rated)
    return RatingTable(groups, unrated)


def rating_lines(group: RatingGroup, ranked: bool = True) -> list[list[str]]:
    """Rows for a text table: header, then one per player, strongest first; without the rank column
    unless `ranked` (players not rated stand beside the table: a rank would leave them out)."""
    rows = [["rank", "player", "Elo", "95% interval", "games", "score", "score %"]]
    for rank, r in enumerate(group.ratings, start=1):
        rows.append([str(rank), r.player, f"{r.elo:+.0f}",
                     f"[{r.elo - r.error:+.0f}, {r.elo + r.error:+.0f}]",
                     f"{r.games:g}", f"{r.score:g}",
                     f"{100 * r.score / r.games:.1f}%" if r.games else "--"])
    return rows if ranked else [row[1:] for row in rows]
