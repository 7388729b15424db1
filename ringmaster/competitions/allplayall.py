"""All-play-all: every competitor plays every other, colours alternating and balanced."""

from __future__ import annotations

from typing import Any, TextIO

from ringmaster.competitions.colour_stats import ColourCounts, colour_counts, colour_table
from ringmaster.competitions.game_settings import GAME_SETTINGS, check_game_settings
from ringmaster.competitions.matchup_stats import render_table
from ringmaster.competitions.openings import load_suite
from ringmaster.competitions.time_settings import check_player_clocks
from ringmaster.competitions.tournament import MatchupSpec, Tournament
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.result import format_float
from ringmaster.settings import (
    ControlFileObject,
    Setting,
    interpret_nonnegative_int,
    interpret_optional,
    interpret_sequence,
    load_settings,
)

NO_HANDICAP = ("handicap", "handicap_style")
ALLPLAYALL_SETTINGS = [s for s in GAME_SETTINGS if s.name not in NO_HANDICAP]


class Competitor(ControlFileObject):
    """A control file's Competitor(player_code); a bare code string works as well."""

    kind = "Competitor"
    positional = ("player",)
    allowed_arguments = ("player",)


def competitor_letters(index: int) -> str:
    """'A'..'Z', then 'AA', 'AB'... (up to 702 competitors)."""
    if index < 26:
        return chr(ord("A") + index)
    index -= 26
    return chr(ord("A") + index // 26) + chr(ord("A") + index % 26)


def pairing_black_first(i: int, j: int) -> int:
    """Which of the competitors at list positions i < j takes Black in game 0 of their pairing
    (and so in every even-numbered game): i when i + j is even, j otherwise.

    Each competitor then takes Black first against half its opponents (n - 1 of them
    among n competitors: (n - 1) / 2 when n is odd; n / 2 or n / 2 - 1 when n is even), so
    when every pairing has played the same number of games, each competitor's games as Black
    and as White differ by at most one (none when n is odd or the games are even), where
    giving player 1 Black first in every pairing gave the first listed (n - 1) more games as
    Black than as White at odd rounds. The choice of a pairing depends on i and j alone, so
    competitors appended to the list leave it be.
    """
    return i if (i + j) % 2 == 0 else j


def resumed_black_first(rule: dict[str, str], players: dict[str, tuple[str, str]],
                        stored: Any, started: set[str]) -> dict[str, str]:
    """Who takes Black in game 0 of each pairing (by matchup id) of a resumed event.

    rule: the choice of pairing_black_first; players: each pairing's (player 1, player 2);
    stored: the state's record of the pairings that had issued a game ({id: code}), or None
    for a state from before it was kept; started: the pairings whose games had begun.

    A pairing keeps the choice its games were played under, so that a game played, in
    flight or void keeps its colours when played again: the state's, or player 1 for a
    started pairing of an older state (its rule then). Others take the rule's.

    Raises CompetitionError if the state's record is malformed.
    """
    if stored is not None and not (isinstance(stored, dict) and all(
            mid not in players or code in players[mid] for mid, code in stored.items())):
        raise CompetitionError(f"state is malformed: black_first is {stored!r}"[:200])
    chosen = {}
    for mid, first in rule.items():
        if stored is not None and mid in stored:
            first = stored[mid]
        elif stored is None and mid in started:
            first = players[mid][0]
        chosen[mid] = first
    return chosen


def refuse_handicap(config: dict[str, Any]) -> None:
    """Raise ControlFileError if the control file gives an all-play-all a handicap setting
    (its games have none: ignoring it would play games the user didn't ask for)."""
    for name in NO_HANDICAP:
        if config.get(name) is not None:
            raise ControlFileError(f"'{name}': not supported by allplayall: its games have no "
                                   f"handicap (use a playoff's Matchup for handicap games)",
                                   setting=name)


class AllPlayAll(Tournament):
    """Every pairing of the competitors plays `rounds` games."""

    competition_type = "allplayall"

    def __init__(self, competition_code: str, base_directory: str = ".") -> None:
        super().__init__(competition_code, base_directory)
        self.competitors: list[str] = []
        self.rule_black_first: dict[str, str] = {}   # pairing_black_first's, by matchup id

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        return {**super().control_file_globals(), "Competitor": Competitor}

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {"competitors", "rounds"}

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        refuse_handicap(config)
        self.load_common_settings(config)
        self.load_rating_anchor(config)
        settings = load_settings(ALLPLAYALL_SETTINGS + [
            Setting("rounds", interpret_optional(interpret_nonnegative_int), default=None)],
            config)
        check_game_settings(settings)
        self.check_referee(settings)
        suite = None
        if settings["openings"] is not None:
            suite = load_suite(settings["openings"], self.base_directory, settings["game"],
                               settings["board_size"])
        if config.get("competitors") is None:
            raise ControlFileError("'competitors' not specified", setting="competitors")
        try:
            items = interpret_sequence(config["competitors"])
        except ValueError as exc:
            raise ControlFileError(f"'competitors': {exc}", setting="competitors") from None
        codes = []
        for i, item in enumerate(items):
            code = item.settings.get("player") if isinstance(item, Competitor) else item
            if not isinstance(code, str):
                raise ControlFileError(f"'competitors': item {i}: not a player code",
                                       setting="competitors")
            self.player(code, "'competitors'")
            if code in codes:
                raise ControlFileError(f"'competitors': duplicate competitor {code}",
                                       setting="competitors")
            codes.append(code)
        if len(codes) < 2:
            raise ControlFileError("'competitors': need at least two", setting="competitors")
        if len(codes) > 702:
            raise ControlFileError("'competitors': too many (at most 702)", setting="competitors")
        self.competitors = codes
        check_player_clocks(settings, tuple(self.players[c] for c in codes))
        game_settings = {s.name: settings[s.name] for s in ALLPLAYALL_SETTINGS}
        game_settings["handicap"] = None
        game_settings["openings"] = None if suite is None else suite.describe()
        self.matchups = {}
        self.rule_black_first = {}
        for i, c1 in enumerate(codes):
            for j in range(i + 1, len(codes)):
                mid = f"{competitor_letters(i)}v{competitor_letters(j)}"
                self.matchups[mid] = MatchupSpec(
                    mid, c1, codes[j], f"{c1} v {codes[j]}", game_settings,
                    alternating=True, number_of_games=settings["rounds"], suite=suite)
                self.rule_black_first[mid] = codes[pairing_black_first(i, j)]
        self._set_black_first(self.rule_black_first)

    def _set_black_first(self, firsts: dict[str, str]) -> None:
        """Black in each pairing's game 0 to the player firsts names ({matchup id: code})."""
        for mid, code in firsts.items():
            m = self.matchups[mid]
            m.player_2_black_first = code == m.player_2

    def set_clean_status(self) -> None:
        self._set_black_first(self.rule_black_first)
        super().set_clean_status()

    def get_status(self) -> dict[str, Any]:
        # Who took Black in game 0 of each pairing that has issued a game, kept for its
        # games to come (resumed_black_first).
        black_first = {mid: m.colours(0)[0] for mid, m in self.matchups.items()
                       if self.scheduler.has_issued(mid)}
        return {**super().get_status(), "competitors": self.competitors,
                "black_first": black_first}

    def set_status(self, status: dict[str, Any]) -> None:
        old = status.get("competitors", [])
        if old != self.competitors[:len(old)]:
            missing = [c for c in old if c not in self.competitors]
            if missing:
                raise CompetitionError(
                    f"competitor has been removed from control file: {', '.join(missing)}")
            raise CompetitionError("competitors have changed in the control file "
                                   "(new competitors may only be added at the end)")
        super().set_status(status)
        players = {mid: (m.player_1, m.player_2) for mid, m in self.matchups.items()}
        started = {mid for mid in self.matchups
                   if self.scheduler.has_issued(mid) or self.results.get(mid)}
        self._set_black_first(resumed_black_first(
            self.rule_black_first, players, status.get("black_first"), started))

    def write_grid(self, out: TextIO) -> None:
        """Wins-losses of each row competitor against each column one (jigos count half)."""
        n = len(self.competitors)
        letters = [competitor_letters(i) for i in range(n)]
        rows = [["", ""] + letters]
        for i, code in enumerate(self.competitors):
            row = [letters[i], code]
            for j, other in enumerate(self.competitors):
                if i == j:
                    row.append("")
                    continue
                mid = f"{letters[min(i, j)]}v{letters[max(i, j)]}"
                s = self.tally(mid, code, other).stats()
                row.append(f"{format_float(s.wins_1)}-{format_float(s.wins_2)}")
            rows.append(row)
        out.write("\n".join(render_table(rows, right_align_from=2)) + "\n")

    def write_screen_report(self, out: TextIO) -> None:
        total = sum(len(r) for r in self.results.values())
        rounds = next(iter(self.matchups.values())).number_of_games
        if rounds is None:
            out.write(f"{total} games played\n\n")
        else:
            out.write(f"{total}/{rounds * len(self.matchups)} games played\n\n")
        self.write_grid(out)

    def colour_counts(self) -> list[ColourCounts]:
        return colour_counts((r for rs in self.results.values() for r in rs), self.competitors)

    def write_colours(self, out: TextIO) -> None:
        """Each competitor's games as Black and as White, and its score with each colour."""
        out.write("Colours: each competitor's games as Black and as White, and its score with "
                  "each\n(jigos count half; % of the games with a result)\n")
        letters = [competitor_letters(i) for i in range(len(self.competitors))]
        out.write("\n".join(colour_table(self.colour_counts(), letters)) + "\n")

    def get_json_report(self) -> dict[str, Any]:
        return {**super().get_json_report(), "competitors": self.competitors,
                "colours": [c.to_json() for c in self.colour_counts()]}

    def write_report_lead(self, out: TextIO) -> None:
        """Before the matchups: the grid (the screen report), the colours and the ratings, always."""
        for part in (self.write_screen_report, self.write_colours, self.write_ratings):
            part(out)
            out.write("\n")
