"""A tournament's joint ratings and its reports: each matchup's text, the short report, the JSON."""

from __future__ import annotations

from typing import Any, TextIO

from ringmaster.competitions.game_settings import describe_game_settings, effective_game_settings
from ringmaster.competitions.matchup_stats import (
    colour_terms,
    elo_line,
    fixed_colour_note,
    format_percent,
    matchup_table,
    render_table,
    score_for,
)
from ringmaster.competitions.matchup_tally import MatchupTally
from ringmaster.competitions.referee_settings import describe_scoring
from ringmaster.settings import distinguishing_options
from ringmaster.stats.even_games import leave_out_line, uneven_matchups
from ringmaster.stats.ratings import (
    RATING_METHOD,
    RatingTable,
    fit_ratings,
    rating_lines,
    reference_words,
)
from ringmaster.stats.sprt import SPRT_METHOD
from ringmaster.stats.win_rates import ELO_METHOD

SPRT_BIAS_NOTE = ("(the SPRT stopped this matchup: an estimate taken where a sequential test stops "
                  "is biased away from zero, so the Elo above overstates the difference)")


class TournamentReports:
    """A mixin of Tournament: the joint ratings of its players and its reports. It uses the
    tournament's matchups, ghost matchups, results, SPRT states, players, referee and engine names.
    """

    # Ratings

    def uneven_matchups(self) -> dict[str, str]:
        """The matchups whose games are not even (handicap stones, another komi), with their terms."""
        return uneven_matchups({mid: m.game_settings for mid, m in self.matchups.items()})

    def fixed_black(self) -> dict[str, str]:
        """The matchups whose colours don't alternate, each with the player who had Black in every game.

        A control file's matchup with alternating False (Gomill's default), whose games so far all
        had one player as Black; a ghost whose games did.
        """
        fixed = {}
        for mid in self.matchup_ids_for_report(include_ghosts=True):
            black = self._black_throughout(mid)
            if black is not None:
                fixed[mid] = black
        return fixed

    def _black_throughout(self, mid: str) -> str | None:
        """The player who had Black in every game of matchup mid (see fixed_black), or None."""
        spec = self.matchups.get(mid)
        if spec is not None and spec.alternating:
            return None
        blacks = set(self.tally(mid).blacks)
        if spec is not None and not blacks:
            blacks = {spec.player_2 if spec.player_2_black_first else spec.player_1}
        return blacks.pop() if len(blacks) == 1 else None

    def tally(self, mid: str, player_1: str | None = None, player_2: str | None = None) -> MatchupTally:
        """Matchup mid's MatchupTally, for player_1 against player_2 (its own players unless given),
        up to date with its results: made once per results list, then given only the new results."""
        if player_1 is None or player_2 is None:
            player_1, player_2 = self._matchup_players(mid)
        results = self.results.get(mid, [])
        key = (mid, player_1, player_2)
        tally = self._tallies.get(key)
        if tally is None or not tally.follows(results):
            spec = self.matchups.get(mid)
            suite = spec.suite if spec is not None and spec.player_1 == player_1 else None
            tally = MatchupTally(results, player_1, player_2, suite)
            self._tallies[key] = tally
        tally.catch_up()
        return tally

    def rated_matchup_ids(self) -> list[str]:
        """The matchups whose games the joint ratings pool: the even ones with colours alternating (a
        ghost's terms are unknown)."""
        left_out = self.uneven_matchups().keys() | self.fixed_black().keys()
        return [mid for mid in self.matchup_ids_for_report(include_ghosts=True) if mid not in left_out]

    def rating_players(self) -> list[str]:
        players: list[str] = []
        for mid in self.matchup_ids_for_report(include_ghosts=True):
            for p in self._matchup_players(mid):
                if p not in players:
                    players.append(p)
        return players

    def _matchup_players(self, mid: str) -> tuple[str, str]:
        if mid in self.matchups:
            return self.matchups[mid].player_1, self.matchups[mid].player_2
        return self.ghost_matchups[mid]

    def wants_ratings(self) -> bool:
        """Joint ratings mean something with three players or more."""
        return len(self.rating_players()) > 2

    def ratings_left_out(self) -> dict[str, str]:
        """The matchups the joint ratings leave out, with why ({} if there are no ratings): their terms,
        or 'a Black in every game'."""
        if not self.wants_ratings():
            return {}
        uneven = self.uneven_matchups()
        fixed = {mid: f"{black} Black in every game" for mid, black in self.fixed_black().items()
                 if mid not in uneven}
        return {mid: uneven.get(mid) or fixed[mid] for mid in self.matchup_ids_for_report(include_ghosts=True)
                if mid in uneven or mid in fixed}

    def ratings_left_out_line(self) -> str | None:
        """The line naming the matchups the joint ratings leave out, and why; None if none is."""
        if not self.wants_ratings():
            return None
        return leave_out_line(self.uneven_matchups(), bool(self.rated_matchup_ids()), self.fixed_black())

    def ratings(self) -> RatingTable | None:
        """The joint Bradley-Terry ratings of every linked group of players, from the even games with
        colours alternating only, or None (see fit_ratings; None too when no matchup's games are such)."""
        if not self.wants_ratings():
            return None
        games = []
        for mid in self.rated_matchup_ids():
            p1, p2 = self._matchup_players(mid)
            for r in self.results.get(mid, []):
                score = score_for(r, p1)
                if score is not None:
                    games.append((p1, p2, score))
        anchor = self.rating_anchor
        if anchor is not None and not any(anchor in (a, b) for a, b, _ in games):
            anchor = None
        return fit_ratings(games, self.rating_players(), anchor=anchor)

    def write_ratings(self, out: TextIO) -> None:
        if not self.wants_ratings():
            return
        out.write("Ratings (Bradley-Terry, joint over the games within each group of players "
                  "linked by wins and losses)\n")
        any_rated = bool(self.rated_matchup_ids())
        left_out = self.ratings_left_out_line()
        if not any_rated:
            out.write(f"  {left_out}\n")
            return
        if left_out:
            out.write(left_out + "\n")
        table = self.ratings()
        if table is None:
            out.write("  none: fewer than two players have results\n")
            return
        if not table.groups:
            out.write("  none: no two players are linked both ways (each won, or lost, every game "
                      "against each opponent)\n")
        winners = [u for u in table.unrated if u.won_every_game]
        losers = [u for u in table.unrated if u.lost_every_game]
        others = [u for u in table.unrated if u not in winners and u not in losers]
        if winners:
            out.write("Won every game it played (no finite rating, so not rated; above each opponent "
                      "by its record):\n")
            out.writelines(f"  {u.player}: {u.note()}\n" for u in winners)
        ranked = not table.unrated   # a rank 1 below a player who won every game would mislead
        for number, group in enumerate(table.groups, start=1):
            if len(table.groups) > 1:
                out.write(f"group {number} (rated against each other only), relative to "
                          f"{reference_words(group.reference)}:\n")
            out.write("\n".join(render_table(rating_lines(group, ranked), right_align_from=2 if ranked
                                              else 1)) + "\n")
        if losers:
            out.write("Lost every game it played (no finite rating, so not rated; below each opponent "
                      "by its record):\n")
            out.writelines(f"  {u.player}: {u.note()}\n" for u in losers)
        if others:
            out.write("Not rated, nor ranked against the others (no game won and lost links them):\n")
            out.writelines(f"  {u.player}: {u.note()}\n" for u in others)
        if len(table.groups) == 1:
            out.write(f"Ratings are relative to {reference_words(table.reference)}. ")
        elif table.groups:
            out.write("Ratings compare players within a group only. ")
        out.write(f"{RATING_METHOD}\n")

    # Reports

    def _matchup_report(self, mid: str, out: TextIO) -> None:
        results = self.results.get(mid, [])
        if mid in self.matchups:
            m = self.matchups[mid]
            p1, p2, name = m.player_1, m.player_2, m.name
            limit = f"{len(results)}/{m.number_of_games}" if m.number_of_games is not None \
                else f"{len(results)}"
            settings = m.game_settings
            details = describe_game_settings(settings)
            if settings.get("handicap"):
                details.insert(-1, f"handicap: {settings['handicap']} ({settings['handicap_style']})")
            detail_line = "   ".join(details) + f"\nscoring: {describe_scoring(settings, self.referee)}"
        else:
            p1, p2 = self.ghost_matchups[mid]
            name, limit, detail_line = f"{p1} v {p2}", f"{len(results)}", \
                "?? (missing from control file)"
        out.write(f"{name} ({limit} games)\n")
        terms = self.uneven_matchups().get(mid)
        black = self._black_throughout(mid)
        tally = self.tally(mid, p1, p2)
        stats = tally.stats()
        if stats.unknown:
            out.write(f"unknown results: {stats.unknown} of {stats.total} games "
                      f"({format_percent(stats.unknown, stats.total)}), left out of every "
                      "percentage and the Elo\n")
            out.write("".join(f"  why: {line}\n" for line in tally.unknown_reasons()))
        out.write(detail_line + "\n")
        if results:
            out.write("\n".join(matchup_table(stats)) + "\n")
            out.write(elo_line(stats, terms, black) + "\n")
            if black is not None:
                out.write(fixed_colour_note(black) + "\n")
        if stats.adjudicated:
            out.write(f"adjudicated (the referee engine's score ended the game): "
                      f"{stats.adjudicated} of {stats.total} games\n")
        suite = self.matchups[mid].suite if mid in self.matchups else None
        if suite is not None:
            out.write("".join(line + "\n" for line in tally.openings().report()))
        state = self.sprt_states.get(mid)
        if state is not None:
            named = "; ".join(t for t in (black and colour_terms(stats, black), terms) if t)
            out.write(f"SPRT{f' ({named})' if named else ''}: "
                      f"{state.describe(self.all_games_played(mid))}\n")
            if state.decision is not None:
                out.write(f"stopped after {state.decided_at} games counted by the test, at LLR "
                          f"{state.llr_at_decision:.2f} (games finished after the stop count "
                          f"in the LLR above); {SPRT_BIAS_NOTE}\n")

    def matchup_ids_for_report(self, include_ghosts: bool) -> list[str]:
        ids = list(self.matchups)
        if include_ghosts:
            ids += [mid for mid in self.ghost_matchups if self.results.get(mid)]
        return ids

    def write_matchup_reports(self, out: TextIO, include_ghosts: bool) -> None:
        first = True
        for mid in self.matchup_ids_for_report(include_ghosts):
            if self.matchups.get(mid) is not None and self.matchups[mid].number_of_games == 0:
                continue
            if not first:
                out.write("\n")
            first = False
            self._matchup_report(mid, out)

    def write_player_descriptions(self, out: TextIO) -> None:
        codes = sorted({c.split("#")[0] for m in self.matchups.values()
                        for c in (m.player_1, m.player_2)})
        options = distinguishing_options({code: self.players[code].command for code in codes})
        for code in codes:
            desc = self.engine_descriptions.get(code) or self.engine_descriptions.get(f"{code}#2")
            told = f" ({options[code]})" if options[code] else ""   # two GNU Go's: their --level
            out.write(f"player {code}: {desc or '[no description available]'}{told}\n")

    def write_screen_report(self, out: TextIO) -> None:
        self.write_matchup_reports(out, include_ghosts=False)

    def write_method_notes(self, out: TextIO) -> None:
        out.write(ELO_METHOD + "\n")
        if self.sprt_states:
            out.write(f"SPRT: {SPRT_METHOD}\n")

    def write_short_report(self, out: TextIO) -> None:
        out.write(f"{self.competition_type}: {self.competition_code}\n")
        if self.description:
            out.write(self.description + "\n")
        out.write("\n")
        self.write_report_lead(out)
        self.write_matchup_reports(out, include_ghosts=True)
        out.write("\n")
        self.write_method_notes(out)
        out.write("\n")
        self.write_player_descriptions(out)

    def write_report_lead(self, out: TextIO) -> None:
        """What the short report gives before the matchups: the joint ratings, where wanted."""
        if self.wants_ratings():
            self.write_ratings(out)
            out.write("\n")

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        matchups = []
        uneven = self.uneven_matchups()
        fixed = self.fixed_black()
        for mid in self.matchup_ids_for_report(include_ghosts=True):
            if mid in self.matchups:
                p1, p2 = self.matchups[mid].player_1, self.matchups[mid].player_2
                name, limit = self.matchups[mid].name, self.matchups[mid].number_of_games
            else:
                (p1, p2), name, limit = self.ghost_matchups[mid], None, None
            results = self.results.get(mid, [])
            tally = self.tally(mid, p1, p2)
            state = self.sprt_states.get(mid)
            spec = self.matchups.get(mid)
            suite = spec.suite if spec else None
            matchups.append({"id": mid, "name": name, "number_of_games": limit,
                             "openings": suite and tally.openings().to_json(),
                             "scoring": describe_scoring(spec.game_settings, self.referee)
                             if spec else None,
                             "in_control_file": mid in self.matchups,
                             "alternating": spec.alternating if spec else None,
                             "game_settings": effective_game_settings(spec.game_settings)
                             if spec else None,
                             "stats": tally.stats().to_json(),
                             "uneven_terms": uneven.get(mid),
                             "fixed_black": fixed.get(mid),
                             "unknown_reasons": tally.unknown_reasons(),
                             "sprt": None if state is None else state.to_json(self.all_games_played(mid)),
                             "results": [r.to_json() for r in results]})
        report["matchups"] = matchups
        report["engine_names"] = self.engine_names
        report["engine_descriptions"] = self.engine_descriptions
        report["players"] = {code: list(p.command) for code, p in self.players.items()}
        report["player_time_controls"] = {code: p.time_control for code, p in self.players.items()
                                          if p.time_control is not None}
        report["elo_method"] = ELO_METHOD
        report["sprt_method"] = SPRT_METHOD if self.sprt_states else None
        table = self.ratings()
        report["ratings"] = None if table is None else table.to_json()
        report["ratings_excluded"] = list(self.ratings_left_out())
        report["ratings_left_out"] = self.ratings_left_out_line()
        return report
