"""Scoring a finished game: dead stones settled by the engines or the referee engine; final_score."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from ringmaster.game.result import (
    DEAD_STONES_DISPUTED,
    DEAD_STONES_UNKNOWN,
    DISAGREED,
    REFEREE_FAILED,
    format_float,
    result_from_score,
)
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules.base import Colour, Rules

_SCORE = re.compile(r"\A([BW])\+(\d+(?:\.\d*)?)?\Z", re.IGNORECASE)

MAX_SCORE = 10_000.0
"""The largest margin a final_score may give: more than any board holds (25x25 and a komi)."""


@dataclass
class EnginePlayer:
    """One side of a game: a controller and what the referee may ask of it."""

    code: str
    controller: GtpController
    allow_claim: bool = False
    is_reliable_scorer: bool = True


@dataclass
class Scored:
    """What scoring decided: the result, and lines for the record."""

    winning_colour: Colour | None = None
    sgf_result: str = "?"
    detail: str | None = None
    notes: list[str] = field(default_factory=list)
    late_errors: list[str] = field(default_factory=list)


class FinalScorer(Protocol):
    """An engine asked for its final_score (the referee engine, referee_engine.RefereeEngine)."""

    def final_score(self) -> tuple[Colour | None, float | None, str] | str:
        """Its final_score: (winner, margin, its text), or why it can't say."""


class ScoringReferee(FinalScorer, Protocol):
    """What scoring asks of the referee engine, which has followed the game."""

    def dead_stones(self, rules: Rules) -> set[tuple[int, int]] | str:
        """Its final_status_list dead, checked on rules' board, or why it can't say."""


def parse_score(text: str) -> tuple[Colour | None, float | None] | None:
    """Parse a final_score response: ('b', 3.5), ('w', None) for 'W+', (None, 0) for '0'.

    Returns None if it can't be parsed, or gives a margin over MAX_SCORE.
    """
    text = text.strip()
    if text == "0":
        return None, 0.0
    match = _SCORE.match(text)
    if not match:
        return None
    margin = float(match.group(2)) if match.group(2) else None
    if margin is not None and not 0.0 < margin <= MAX_SCORE:   # 'W+0' names a winner of a jigo
        return None
    return match.group(1).lower(), margin


@dataclass(frozen=True)
class ScoreBounds:
    """What a finished Go game's score can be. Every count (area, territory, prisoners,
    handicap compensation) is of whole points, so Black's score less White's is a whole
    number less komi; and it is at most the board's points, plus a prisoner for each stone
    placed, plus komi, in size."""

    board_points: int
    komi: float
    stones_placed: int

    def impossible(self, winner: Colour | None, margin: float | None,
                   finished: bool = True) -> str | None:
        """Why (winner, margin), as parse_score gives it, can't be this game's score; or None.
        An estimate of an unfinished game (finished=False) is held to the size only."""
        if margin is None:
            return None
        signed = margin if winner == "b" else -margin
        whole = signed + self.komi
        if finished and abs(whole - round(whole)) > 1e-6:
            return (f"{sgf_result(winner, margin)} is no whole number of points less komi "
                    f"{format_float(self.komi)}")
        limit = self.board_points + self.stones_placed + abs(self.komi)
        if margin > limit:
            return f"{sgf_result(winner, margin)} is more than the board allows ({format_float(limit)})"
        return None


def sgf_result(winner: Colour | None, margin: float | None) -> str:
    """'B+3.5', 'W+' (margin unknown), '0' (jigo)."""
    if winner is None:
        return "0"
    return f"{winner.upper()}+" + (format_float(margin) if margin is not None else "")


def parse_dead_stones(text: str, rules: Rules) -> set[tuple[int, int]]:
    """The points of a 'final_status_list dead' answer (vertices, any whitespace between).

    Raises ValueError naming a word that isn't a point of the board, or a point
    with no stone on the referee's board.
    """
    rows = rules.board_rows()
    points = set()
    for word in text.split():
        move = rules.parse_move(word)   # ValueError if it isn't a vertex of this board
        if move is None:
            raise ValueError("'pass' is not a stone")
        if rows[move[0]][move[1]] is None:
            raise ValueError(f"{word[:10]} has no stone")
        points.add(move)
    return points


NO_DEAD_STONES_COMMAND = "it has no final_status_list command"


def ask_dead_stones(controller: GtpController, rules: Rules) -> set[tuple[int, int]] | str:
    """An engine's dead stones (final_status_list dead), or why it can't say."""
    if controller.channel_is_bad:
        return "its channel is broken"
    try:
        if not controller.known_command("final_status_list"):
            return NO_DEAD_STONES_COMMAND
        text = controller.do_command("final_status_list", "dead")
    except (BadGtpResponse, GtpChannelError) as exc:
        return str(exc)
    try:
        return parse_dead_stones(text, rules)
    except ValueError as exc:
        return f"its final_status_list dead is wrong: {exc}"


def format_points(points: set[tuple[int, int]], rules: Rules, limit: int = 60) -> str:
    """'C3 D4 E5' (sorted), clipped to limit characters; 'none' for no point."""
    if not points:
        return "none"
    text = " ".join(rules.format_move(p) for p in sorted(points))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def area_result(rules: Rules, dead: set[tuple[int, int]], komi: float,
                compensation: float = 0.0) -> Scored:
    """Area scoring with the dead stones off the board, komi and handicap compensation taken."""
    score = rules.area_score_without(dead) - komi - compensation
    winner, result = result_from_score(score)
    return Scored(winner, result)


def score_internally(rules: Rules, players: dict[Colour, EnginePlayer], komi: float,
                     compensation: float = 0.0, referee: ScoringReferee | None = None,
                     bounds: ScoreBounds | None = None) -> Scored:
    """The referee counts by area; in Go, first the dead stones are settled.

    Each player (is_reliable_scorer) is asked final_status_list dead. When both
    name the same stones, those come off. When they disagree, or one can't say,
    the referee engine's dead stones come off (or, if it has no final_status_list,
    its final_score stands, where bounds find it possible); without a referee engine,
    or if it fails, the game has no result, with the reason in its detail.
    """
    if not rules.has_dead_stones:
        return area_result(rules, set(), komi, compensation)
    lists: dict[Colour, set[tuple[int, int]]] = {}
    reasons: dict[Colour, str] = {}
    for colour in ("b", "w"):
        player = players[colour]
        answer: set[tuple[int, int]] | str = ask_dead_stones(player.controller, rules) \
            if player.is_reliable_scorer else "is_reliable_scorer is False"
        if isinstance(answer, set):
            lists[colour] = answer
        else:
            reasons[colour] = answer
    if len(lists) == 2 and lists["b"] == lists["w"]:
        scored = area_result(rules, lists["b"], komi, compensation)
        if lists["b"]:
            scored.notes.append(f"dead stones taken off (both players): "
                                f"{format_points(lists['b'], rules, 2000)}")
        return scored
    said = [f"dead stones by {players[c].code}: {format_points(lists[c], rules, 2000)}"
            for c in lists] + [f"{players[c].code} can't list dead stones: {reasons[c]}"
                               for c in reasons]
    if referee is not None:
        return _settle_by_referee(rules, referee, komi, compensation, said, bounds)
    if reasons:
        colour = next(iter(reasons))
        detail = f"{DEAD_STONES_UNKNOWN}: {players[colour].code}: {reasons[colour]}"
    else:
        detail = f"{DEAD_STONES_DISPUTED}: " + ", ".join(
            f"{players[c].code} said {format_points(lists[c], rules, 30)}" for c in "bw")
    return Scored(detail=detail[:300], notes=said)


def _settle_by_referee(rules: Rules, referee: ScoringReferee, komi: float, compensation: float,
                       said: list[str], bounds: ScoreBounds | None) -> Scored:
    """The referee engine's dead stones; its final_score only if it has no final_status_list
    (one that answers wrongly, or fails, leaves the game without a result)."""
    dead = referee.dead_stones(rules)
    if isinstance(dead, set):
        scored = area_result(rules, dead, komi, compensation)
        scored.notes = said + [f"dead stones taken off (the referee engine): "
                               f"{format_points(dead, rules, 2000)}"]
        return scored
    failed = Scored(detail=f"{REFEREE_FAILED}: {dead}"[:300], notes=said + [
        f"the referee engine can't list dead stones: {dead}"])
    if dead != NO_DEAD_STONES_COMMAND:
        return failed
    score = checked_final_score(referee, bounds)
    if isinstance(score, str):
        return Scored(detail=f"{REFEREE_FAILED}: {score}"[:300], notes=failed.notes)
    winner, margin, text = score
    return Scored(winner, sgf_result(winner, margin), notes=said + [
        f"the referee engine can't list dead stones ({dead}); its final_score: {text}"])


def checked_final_score(referee: FinalScorer, bounds: ScoreBounds | None, finished: bool = True
                        ) -> tuple[Colour | None, float | None, str] | str:
    """The referee engine's final_score (of the finished game, or an estimate of an unfinished
    one: finished=False, as ScoreBounds.impossible takes it), or why it gives none."""
    answer = referee.final_score()
    if isinstance(answer, str) or bounds is None:
        return answer
    reason = bounds.impossible(answer[0], answer[1], finished)
    return answer if reason is None else f"its final_score is impossible: {reason}"


def score_by_players(players: dict[Colour, EnginePlayer],
                     referee: ScoringReferee | None = None, bounds: ScoreBounds | None = None) -> Scored:
    """Gomill's rules: each reliable scorer's final_score; the result they agree on, the
    winner alone when only the margins differ, else the referee engine's final_score, else
    no result. A final_score that bounds find impossible counts as none."""
    claims: dict[Colour, tuple[Colour | None, float | None]] = {}
    texts: dict[Colour, str] = {}
    late_errors = []
    for colour in ("b", "w"):
        player = players[colour]
        if not player.is_reliable_scorer or player.controller.channel_is_bad:
            continue
        try:
            if not player.controller.known_command("final_score"):
                continue
            text = player.controller.do_command("final_score")
        except (BadGtpResponse, GtpChannelError) as exc:
            late_errors.append(str(exc))
            continue
        parsed = parse_score(text)
        if parsed is None:
            late_errors.append(f"player {player.code} gave an unparsable final_score: {text[:40]}")
            continue
        reason = None if bounds is None else bounds.impossible(*parsed)
        if reason is not None:
            late_errors.append(f"player {player.code} gave an impossible final_score: {reason}")
            continue
        claims[colour] = parsed
        texts[colour] = text.strip()
    scored = _agreed(claims)
    scored.late_errors = late_errors
    if scored.sgf_result != "?":
        return scored
    if claims:
        scored.detail = DISAGREED + ": " + ", ".join(
            f"{players[colour].code} said {texts[colour][:20]}" for colour in "bw"
            if colour in texts)
    scored.notes = [f"final_score from {players[c].code}: {texts[c]}" for c in texts]
    if referee is None:
        return scored
    answer = checked_final_score(referee, bounds)
    if isinstance(answer, str):
        scored.detail = f"{REFEREE_FAILED}: {answer}"[:300]
        return scored
    winner, margin, text = answer
    return Scored(winner, sgf_result(winner, margin), notes=scored.notes + [
        f"final_score from the referee engine: {text}"], late_errors=late_errors)


def _agreed(claims: dict[Colour, tuple[Colour | None, float | None]]) -> Scored:
    """The result both claims give (or the one claim), the winner alone if only the margins
    differ, else '?' (no detail: the caller's)."""
    if not claims:
        return Scored(detail="no score reported")
    values = set(claims.values())
    if len(values) == 1:
        winner, margin = values.pop()
        return Scored(winner, sgf_result(winner, margin))
    winners = {winner for winner, _ in claims.values()}
    if len(winners) == 1:
        winner = winners.pop()
        return Scored(winner, f"{winner.upper()}+", detail="unknown margin")
    return Scored()
