"""A tournament's saved results checked against its control file: each matchup's players and board."""

from __future__ import annotations

from typing import Any

from ringmaster.default_game import game_of
from ringmaster.errors import CompetitionError
from ringmaster.game.result import GameResult


def check_state_matches(matchups: dict[str, Any], stored_players: dict[str, list[str]],
                        results: dict[str, list[GameResult]]) -> None:
    """Raise CompetitionError if a matchup (MatchupSpec) with results changed its players."""
    for mid, matchup in matchups.items():
        old = stored_players.get(mid)
        if old is None or not results.get(mid):
            continue
        if sorted(old) != sorted([matchup.player_1, matchup.player_2]):
            raise CompetitionError(
                f"existing results for matchup {mid} are inconsistent with control file: "
                f"result players are {','.join(old)}; control file players are "
                f"{matchup.player_1},{matchup.player_2}")


def check_boards_match(matchups: dict[str, Any], stored_boards: dict[str, list],
                       results: dict[str, list[GameResult]]) -> None:
    """Raise CompetitionError if a matchup with results changed its game or board size."""
    for mid, matchup in matchups.items():
        old = stored_boards.get(mid)
        if old is None or not results.get(mid):
            continue
        new = [game_of(matchup.game_settings), matchup.game_settings["board_size"]]
        if old != new:
            raise CompetitionError(
                f"existing results for matchup {mid} are inconsistent with control file: "
                f"they were played on {old[0]} {old[1]}x{old[1]}; control file says "
                f"{new[0]} {new[1]}x{new[1]}")
