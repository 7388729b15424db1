"""Control-file text for tests: a playoff between two fake engines on 5x5."""

from __future__ import annotations

PLAYOFF = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
{top}matchups = [Matchup('p', 'q', alternating=True, number_of_games={games})]
"""


def playoff_ctl(*, p: list[str], q: list[str], games: int, top: str = "") -> str:
    """A playoff of `games` games between players 'p' and 'q' (their command lines), colours
    alternating; top is more top-level settings, one a line, between the scorer and the matchups
    (no line at all when empty, so that the matchups stay on line 6)."""
    return PLAYOFF.format(p=p, q=q, games=games, top=top + "\n" if top else "")
