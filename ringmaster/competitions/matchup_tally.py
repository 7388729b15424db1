"""What a matchup's report counts over its results, kept up to date as results arrive."""

from __future__ import annotations

from ringmaster.competitions.matchup_stats import MatchupStats, StatsTally
from ringmaster.competitions.opening_stats import OpeningTally
from ringmaster.competitions.openings import OpeningSuite
from ringmaster.game.result import GameResult, UnknownReasons


class MatchupTally:
    """A matchup's statistics, its unknown results' reasons, the players who had Black and (with a
    suite) its openings, over one results list, brought up to date (catch_up) by adding only the
    results appended since: a redraw of the live display with no new result counts nothing.

    The list is followed by identity: a tournament only appends to it (process_game_result), and
    a reload (set_status) makes a new one, which needs a new tally (follows() is then False).

    Public attributes:
      results -- the list followed; counted -- how many of its results are added
    """

    def __init__(self, results: list[GameResult], player_1: str, player_2: str,
                 suite: OpeningSuite | None = None) -> None:
        self.results = results
        self.counted = 0
        self._stats = StatsTally(player_1, player_2)
        self._unknown = UnknownReasons()
        self._openings = None if suite is None else OpeningTally(suite, player_1)
        self.blacks: set[str] = set()

    def follows(self, results: list[GameResult]) -> bool:
        """Whether this tally counts this list (appended to, never cut, since)."""
        return results is self.results and len(results) >= self.counted

    def catch_up(self) -> None:
        """Add the results appended since the last call."""
        if len(self.results) == self.counted:
            return
        for r in self.results[self.counted:]:
            self._stats.add(r)
            self._unknown.add(r)
            self.blacks.add(r.player_b)
            if self._openings is not None:
                self._openings.add(r)
        self.counted = len(self.results)

    def stats(self) -> MatchupStats:
        """The statistics (see StatsTally.stats)."""
        return self._stats.stats()

    def unknown_reasons(self) -> list[str]:
        """Why games have no result (see unknown_reasons)."""
        return self._unknown.lines()

    def openings(self) -> OpeningTally:
        """The openings' tally; only for a tally made with a suite."""
        assert self._openings is not None
        return self._openings
