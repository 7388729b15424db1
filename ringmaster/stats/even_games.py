"""Which matchups play even games (no handicap stones, the komi of the rest), the games joint ratings pool."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ringmaster.default_game import game_of


def board_of(settings: dict[str, Any]) -> tuple[str, Any]:
    """The game and board size: komis compare only between matchups on the same board."""
    return game_of(settings), settings.get("board_size")


def even_komis(settings_by_matchup: dict[str, dict[str, Any]]) -> dict[tuple[str, Any], Any]:
    """Per board, the komi most matchups without handicap stones play at (the first listed on a tie)."""
    counts: dict[tuple[str, Any], Counter] = {}
    for settings in settings_by_matchup.values():
        if not settings.get("handicap"):
            counts.setdefault(board_of(settings), Counter())[settings.get("komi")] += 1
    return {board: komis.most_common(1)[0][0] for board, komis in counts.items()}


def format_komi(komi: Any) -> str:
    return f"{komi:g}" if isinstance(komi, (int, float)) else str(komi)


def uneven_terms(settings: dict[str, Any], even_komi: Any) -> str | None:
    """What makes a matchup's games uneven ('4 handicap stones, komi 0.5'), or None if they are even."""
    if settings.get("handicap"):
        return f"{settings['handicap']} handicap stones, komi {format_komi(settings.get('komi'))}"
    if settings.get("komi") != even_komi:
        komi = format_komi(settings.get("komi"))
        return f"komi {komi}, where the even games play at {format_komi(even_komi)}"
    return None


def uneven_matchups(settings_by_matchup: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each matchup whose games are not even, with what makes them so, in the matchups' order."""
    komis = even_komis(settings_by_matchup)
    terms = {mid: uneven_terms(s, komis.get(board_of(s))) for mid, s in settings_by_matchup.items()}
    return {mid: t for mid, t in terms.items() if t is not None}


def leave_out_line(uneven: dict[str, str], any_rated: bool,
                   fixed_black: dict[str, str] | None = None) -> str | None:
    """The report's one line on the matchups the joint ratings leave out; None if none is.

    uneven: the matchups whose games are not even, with their terms; fixed_black:
    those (even ones) whose colours don't alternate, with the player who had Black
    in every game; any_rated: some matchup is rated.
    """
    fixed_black = {mid: black for mid, black in (fixed_black or {}).items() if mid not in uneven}
    parts = []
    if uneven:
        parts.append("the matchups whose games are not even: "
                     + ", ".join(f"{mid} ({terms})" for mid, terms in uneven.items()))
    if fixed_black:
        parts.append("the matchups whose colours don't alternate (Black's advantage is not "
                     "separated from the players' difference): "
                     + ", ".join(f"{mid} ({black} Black in every game)"
                                 for mid, black in fixed_black.items()))
    if not parts:
        return None
    if not any_rated:
        named = [f"{mid} ({terms})" for mid, terms in uneven.items()]
        named += [f"{mid} ({black} Black in every game)" for mid, black in fixed_black.items()]
        return ("no player is rated: joint ratings pool only even games (no handicap stones, one komi) with "
                f"colours alternating, and no matchup's games are: {', '.join(named)}")
    return "ratings leave out " + "; and ".join(parts)
