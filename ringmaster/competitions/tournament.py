"""What playoffs and all-play-alls share: matchups, their scheduling, SPRTs, state and results."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ringmaster.competitions.base import (
    NO_GAME,
    Competition,
    NoGameAvailable,
    PlayerCheck,
    Setup,
    handicap_needs,
)
from ringmaster.competitions.game_settings import saved_game_settings
from ringmaster.competitions.matchup_stats import game_number, score_for
from ringmaster.competitions.matchup_tally import MatchupTally
from ringmaster.competitions.openings import OpeningSuite
from ringmaster.competitions.referee_settings import (
    REFEREE_CODE,
    player_scoring_needs,
    referee_needs,
)
from ringmaster.competitions.scheduling import GroupScheduler
from ringmaster.competitions.time_settings import player_time_control
from ringmaster.competitions.tournament_reports import TournamentReports
from ringmaster.competitions.tournament_state import check_boards_match, check_state_matches
from ringmaster.default_game import game_of
from ringmaster.errors import CompetitionError, ControlFileError, UsageError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.result import GameResult
from ringmaster.state.encoding import EncodedList
from ringmaster.stats.sprt import SprtSpec, SprtState, run_sprt


@dataclass
class MatchupSpec:
    """One pairing of players and the games they play.

    Public attributes:
      id, player_1, player_2 -- player codes; player_2 may be 'x#2', a clone of x
      name                   -- for reports ('p1 v p2' unless given)
      game_settings          -- board_size, komi, handicap...
      alternating            -- swap colours on odd-numbered games
      player_2_black_first   -- player_2, not player_1, takes Black in game 0 (and so, when
                                alternating, in every even-numbered game)
      number_of_games        -- None: no limit
      sprt                   -- SprtSpec: stop once the test accepts a hypothesis, or None
      suite                  -- the OpeningSuite its games start from (games 2k and 2k+1 play
                                opening k, colours swapped: alternating), or None
    """

    id: str
    player_1: str
    player_2: str
    name: str
    game_settings: dict[str, Any]
    alternating: bool
    number_of_games: int | None
    explicit_name: bool = False
    sprt: SprtSpec | None = None
    suite: OpeningSuite | None = None
    player_2_black_first: bool = False

    def colours(self, number: int) -> tuple[str, str]:
        """(Black, White): the player codes of game `number`."""
        swapped = (self.alternating and number % 2 == 1) != self.player_2_black_first
        return (self.player_2, self.player_1) if swapped else (self.player_1, self.player_2)

    def game_id(self, number: int) -> str:
        if self.number_of_games is None or self.number_of_games <= 1:
            return f"{self.id}_{number}"
        width = len(str(self.number_of_games - 1))
        return f"{self.id}_{number:0{width}d}"


class Tournament(TournamentReports, Competition):
    """A competition made of matchups between fixed players.

    Subclasses build self.matchups (ordered) in initialise_from_control_file.
    """

    def __init__(self, competition_code: str, base_directory: str = ".") -> None:
        super().__init__(competition_code, base_directory)
        self.matchups: dict[str, MatchupSpec] = {}
        self.working_matchups: set[str] = set()
        self.probationary_matchups: set[str] = set()
        self.sprt_states: dict[str, SprtState] = {}
        self.rating_anchor: str | None = None
        self._results_json: dict[str, EncodedList] = {}   # each matchup's results as saved
        self.chosen_matchups: set[str] | None = None        # run --matchup: only these get games
        self._tallies: dict[tuple[str, str, str], MatchupTally] = {}   # see tally()

    def load_code(self) -> None:
        import numpy  # noqa: F401 (the joint ratings' fit of three players or more)

    def choose_matchups(self, chosen: list[str]) -> None:
        """In this run, start games of these matchups only (each an id or a name).

        Raises UsageError naming an unknown one, with the matchups there are.
        """
        by_name = {m.name: mid for mid, m in self.matchups.items()}
        ids = set()
        for word in chosen:
            mid = word if word in self.matchups else by_name.get(word)
            if mid is None:
                known = ", ".join(self.matchups) or "none"
                raise UsageError(f"--matchup {word}: no such matchup in {self.competition_code} "
                                 f"(its matchup ids: {known})")
            ids.add(mid)
        self.chosen_matchups = ids
        self._set_scheduler_groups()

    def game_settings_by_key(self) -> dict[str, dict[str, Any]]:
        return {str(key): saved_game_settings(m.game_settings, self._matchup_specs(m), self.referee)
                for key, m in self.matchups.items()}

    def _matchup_specs(self, m: MatchupSpec) -> tuple:
        return self._player_spec(m.player_1), self._player_spec(m.player_2)

    def uses_clock(self) -> bool:
        return any(player_time_control(m.game_settings, spec) != "none"
                   for m in self.matchups.values() if m.number_of_games != 0
                   for spec in self._matchup_specs(m))

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {"rating_anchor"}

    def load_rating_anchor(self, config: dict[str, Any]) -> None:
        """The rating_anchor setting: a player code, or None (ratings relative to the mean).

        Raises ControlFileError if it names no player.
        """
        anchor = config.get("rating_anchor")
        if anchor is not None and anchor not in self.players:
            raise ControlFileError(f"'rating_anchor': unknown player {anchor!r}",
                                   setting="rating_anchor")
        self.rating_anchor = anchor

    # SPRT

    def _rebuild_sprt_states(self) -> None:
        self.sprt_states = {
            mid: run_sprt(m.sprt, [(game_number(r.game_id), score_for(r, m.player_1))
                                   for r in self.results.get(mid, [])], m.alternating)
            for mid, m in self.matchups.items() if m.sprt is not None}

    def sprt_decided(self, mid: str) -> bool:
        state = self.sprt_states.get(mid)
        return state is not None and state.decision is not None

    def all_games_played(self, mid: str) -> bool:
        """Whether matchup `mid` has played its number_of_games (never, for an open-ended one)."""
        m = self.matchups.get(mid)
        return (m is not None and m.number_of_games is not None
                and len(self.results.get(mid, [])) >= m.number_of_games)

    # State

    def set_clean_status(self) -> None:
        self.results: dict[str, list[GameResult]] = {m: [] for m in self.matchups}
        self._tallies = {}
        self.engine_names: dict[str, str] = {}
        self.engine_descriptions: dict[str, str] = {}
        self.ghost_matchups: dict[str, tuple[str, str]] = {}
        self.stored_boards: dict[str, list] = {}
        self.scheduler = GroupScheduler()
        self._rebuild_sprt_states()
        self._set_scheduler_groups()

    def _set_scheduler_groups(self) -> None:
        """Matchups an SPRT has decided get no more games, nor those --matchup left out."""
        self.scheduler.set_groups([(m.id, m.number_of_games) for m in self.matchups.values()
                                   if not self.sprt_decided(m.id) and (
                                       self.chosen_matchups is None or m.id in self.chosen_matchups)])

    def get_status(self) -> dict[str, Any]:
        players = {mid: list(self.ghost_matchups[mid]) for mid in self.ghost_matchups}
        players.update({mid: [m.player_1, m.player_2] for mid, m in self.matchups.items()})
        boards = dict(self.stored_boards)
        boards.update({mid: [game_of(m.game_settings), m.game_settings["board_size"]]
                       for mid, m in self.matchups.items()})
        return {
            "results": {mid: self._results_json.setdefault(mid, EncodedList()).encode(rs)
                        for mid, rs in self.results.items()},
            "matchup_players": players,
            "matchup_boards": boards,
            "scheduler": self.scheduler.to_json(),
            "engine_names": self.engine_names,
            "engine_descriptions": self.engine_descriptions,
        }

    def set_status(self, status: dict[str, Any]) -> None:
        try:
            results = {mid: [GameResult.from_json(r) for r in rs]
                       for mid, rs in status["results"].items()}
            stored_players = status["matchup_players"]
            stored_boards = status["matchup_boards"]
            scheduler = GroupScheduler.from_json(status["scheduler"])
            engine_names = dict(status["engine_names"])
            engine_descriptions = dict(status["engine_descriptions"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"state is malformed: {type(exc).__name__}: {exc}") from None
        check_state_matches(self.matchups, stored_players, results)
        check_boards_match(self.matchups, stored_boards, results)
        self.stored_boards = stored_boards
        self.results = results
        self._tallies = {}   # those of the lists replaced
        self.ghost_matchups = {}
        for mid, players in stored_players.items():
            if mid not in self.matchups:
                self.ghost_matchups[mid] = (players[0], players[1])
        for mid in self.matchups:
            self.results.setdefault(mid, [])
        self.engine_names = engine_names
        self.engine_descriptions = engine_descriptions
        self.scheduler = scheduler
        self._rebuild_sprt_states()
        self._set_scheduler_groups()
        self.scheduler.rollback()

    # Games

    def get_player_checks(self) -> list[PlayerCheck]:
        """One check a player, on the board of its first matchup and each other board its
        matchups use, with the commands they all need (handicap, openings' set-up stones,
        scoring) and whether any of them is timed; and one for the referee engine, if any,
        with what it needs. Matchups this run won't play (run --matchup) ask for nothing."""
        checks: dict[str, PlayerCheck] = {}
        for m in self.matchups.values():
            if m.number_of_games == 0 or \
                    (self.chosen_matchups is not None and m.id not in self.chosen_matchups):
                continue
            for index, code in enumerate((m.player_1, m.player_2)):
                base = code.split("#")[0]
                black_first = index == int(m.player_2_black_first)
                needs = handicap_needs(m.game_settings, as_black=black_first or m.alternating,
                                       as_white=not black_first or m.alternating)
                needs += player_scoring_needs(m.game_settings, self.referee)
                if m.suite is not None and m.suite.needs_setup:
                    needs += (("set_free_handicap", "the openings' set-up stones"),)
                timed = player_time_control(m.game_settings, self._player_spec(code)) != "none"
                self._add_check(checks, base, self.players[base], m, needs, timed)
            if self.referee is not None:
                self._add_check(checks, REFEREE_CODE + " ", self.referee, m,
                                referee_needs(m.game_settings))
        return list(checks.values())

    @staticmethod
    def _add_check(checks: dict[str, PlayerCheck], key: str, player, m: MatchupSpec,
                   needs: tuple[tuple[str, str], ...], timed: bool = False) -> None:
        """Add what matchup m asks of player to its check: the first matchup's board is the
        check's own, another matchup's different board is one more to set up."""
        setup = Setup.of(m.game_settings)
        check = checks.get(key) or PlayerCheck(player, setup, matchup=m.id)
        boards = [check.setup] + [board for _, board in check.more_boards]
        more = check.more_boards + (((m.id, setup),) if setup not in boards else ())
        checks[key] = replace(check, needs=tuple(dict.fromkeys(check.needs + needs)),
                              timed=check.timed or timed, more_boards=more)

    def _player_spec(self, code: str):
        base = code.split("#")[0]
        return self.players[base].with_code(code)

    def get_game(self) -> GameJob | NoGameAvailable:
        issued = self.scheduler.issue()
        if issued is None:
            return NO_GAME
        mid, number = issued
        m = self.matchups[mid]
        b, w = m.colours(number)
        event = (f"{self.competition_code} ({m.name})" if m.explicit_name
                 else self.competition_code)
        job = self.make_game_job(m.game_id(number), self._player_spec(b),
                                 self._player_spec(w), m.game_settings,
                                 game_data=[mid, number], sgf_event=event)
        if m.suite is not None:
            job.opening = m.suite.opening_for_game(number)
        return job

    def process_game_result(self, response: GameJobResult) -> str | None:
        mid, number = response.game_data
        self.working_matchups.add(mid)
        self.probationary_matchups.discard(mid)
        self.scheduler.fix(mid, number)
        self.results[mid].append(response.game_result)
        self.engine_names.update(response.engine_names)
        self.engine_descriptions.update(response.engine_descriptions)
        self.log_history(f"{response.game_id:>7} {response.game_result.describe()}")
        state = self.sprt_states.get(mid)
        if state is not None:
            decided = state.decision is not None
            state.add(number, score_for(response.game_result, self.matchups[mid].player_1))
            if not decided and state.decision is not None:
                self.log_history(f"matchup {mid} stopped by the SPRT: {state.describe()}")
                self._set_scheduler_groups()
        return None

    def process_game_error(self, job: GameJob, previous_error_count: int) -> tuple[bool, bool]:
        """Gomill's rule: stop if the matchup has no game this run, or twice void in a row."""
        mid, number = job.game_data
        self.scheduler.retry(mid, number)
        if mid not in self.working_matchups or mid in self.probationary_matchups:
            return True, True
        self.probationary_matchups.add(mid)
        return False, True

    def is_complete(self) -> bool:
        return all(self.sprt_decided(mid) or (
                   m.number_of_games is not None
                   and len(self.results.get(mid, [])) >= m.number_of_games)
                   for mid, m in self.matchups.items())

    def games_played(self) -> int:
        return sum(len(rs) for rs in self.results.values())

    def games_wanted(self) -> int | None:
        total = sum(len(rs) for mid, rs in self.results.items() if mid not in self.matchups)
        for mid, m in self.matchups.items():
            if self.sprt_decided(mid):
                total += len(self.results.get(mid, []))
            elif m.number_of_games is None:
                return None
            else:
                total += max(m.number_of_games, len(self.results.get(mid, [])))
        return total
