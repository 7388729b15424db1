"""Playoff: an explicit list of matchups, each a series of games between two players."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.game_settings import GAME_SETTINGS, check_game_settings
from ringmaster.competitions.openings import OpeningSuite, load_suite
from ringmaster.competitions.time_settings import check_player_clocks
from ringmaster.competitions.tournament import MatchupSpec, Tournament
from ringmaster.errors import ControlFileError
from ringmaster.settings import (
    ControlFileObject,
    Setting,
    interpret_bool,
    interpret_identifier,
    interpret_nonnegative_int,
    interpret_optional,
    interpret_sequence,
    interpret_str,
    load_settings,
)
from ringmaster.stats.sprt import interpret_sprt

MATCHUP_SETTINGS = GAME_SETTINGS + [
    Setting("alternating", interpret_bool, default=False),
    Setting("number_of_games", interpret_optional(interpret_nonnegative_int), default=None),
    Setting("sprt", interpret_optional(interpret_sprt), default=None),
]

# Settings whose None is a value ("no openings", "no handicap", "no limit"): a Matchup's
# None replaces the control file's default, as in Gomill; for the others it leaves it.
NONE_OVERRIDES = frozenset({"handicap", "adjudication", "openings", "number_of_games", "sprt"})


class Matchup(ControlFileObject):
    """A control file's Matchup(player_1, player_2, ...)."""

    kind = "Matchup"
    positional = ("player_1", "player_2")
    allowed_arguments = ("player_1", "player_2", "id", "name") + tuple(
        s.name for s in MATCHUP_SETTINGS)


class Playoff(Tournament):
    """Plays the control file's matchups, keeping them level."""

    competition_type = "playoff"

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        return {**super().control_file_globals(), "Matchup": Matchup}

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {"matchups", "alternating", "number_of_games", "sprt"}

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        self.load_common_settings(config)
        self.load_rating_anchor(config)
        defaults = {s.name: config.get(s.name) for s in MATCHUP_SETTINGS}
        given = [s for s in MATCHUP_SETTINGS if defaults[s.name] is not None]
        top = load_settings([Setting(s.name, s.interpreter, None) for s in given], defaults)
        if top.get("board_size") is not None:
            check_game_settings(top)
        self.check_referee(top)
        self._suites: dict[tuple, OpeningSuite] = {}
        if config.get("matchups") is None:
            raise ControlFileError("'matchups' not specified", setting="matchups")
        try:
            matchups = interpret_sequence(config["matchups"])
        except ValueError as exc:
            raise ControlFileError(f"'matchups': {exc}", setting="matchups") from None
        if not matchups:
            raise ControlFileError("'matchups': empty list", setting="matchups")
        self.matchups = {}
        for i, matchup in enumerate(matchups):
            if not isinstance(matchup, Matchup):
                raise ControlFileError(f"'matchups': item {i}: not a Matchup", setting="matchups")
            spec = self._matchup_spec(i, matchup, defaults)
            if spec.id in self.matchups:
                raise ControlFileError(f"matchup {spec.id}: duplicate matchup id",
                                       matchup.line)
            self.matchups[spec.id] = spec

    def _matchup_spec(self, index: int, matchup: Matchup,
                      defaults: dict[str, Any]) -> MatchupSpec:
        args = matchup.settings
        mid = args.get("id", str(index))
        try:
            mid = interpret_identifier(mid if isinstance(mid, str) else str(mid))
        except ValueError as exc:
            raise ControlFileError(f"matchup {index}: 'id': {exc}", matchup.line) from None
        context = f"matchup {mid}"
        try:
            for key in ("player_1", "player_2"):
                if key not in args:
                    raise ControlFileError(f"{context}: '{key}' not specified")
            p1, p2 = args["player_1"], args["player_2"]
            for code in (p1, p2):
                self.player(code, context)
            merged = {**defaults, **{k: v for k, v in args.items()
                                     if v is not None or k in NONE_OVERRIDES}}
            settings = load_settings(MATCHUP_SETTINGS, merged, context)
            check_game_settings(settings, f"{context}: ")
            self.check_referee(settings, f"{context}: ")
            check_player_clocks(settings, (self.players[p1], self.players[p2]), f"{context}: ")
            if settings["openings"] is not None and merged.get("alternating") is False:
                raise ControlFileError(f"{context}: openings are played in colour-swapped pairs: "
                                       "remove alternating = False")
            name = args.get("name")
            if name is not None:
                name = interpret_str(name)
        except ValueError as exc:
            raise ControlFileError(f"{context}: {exc}", matchup.line) from None
        except ControlFileError as exc:
            raise ControlFileError(str(exc), matchup.line) from None
        suite = None
        if settings["openings"] is not None:   # its errors name the Openings' own line
            suite = load_suite(settings["openings"], self.base_directory, settings["game"],
                               settings["board_size"], f"{context}: ", self._suites)
        if p1 == p2:
            p2 = f"{p2}#2"
        game_settings = {s.name: settings[s.name] for s in GAME_SETTINGS}
        game_settings["openings"] = None if suite is None else suite.describe()
        return MatchupSpec(mid, p1, p2, name or f"{p1} v {p2}", game_settings,
                           settings["alternating"] or suite is not None,
                           settings["number_of_games"], explicit_name=name is not None,
                           sprt=settings["sprt"], suite=suite)
