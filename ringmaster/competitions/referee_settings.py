"""The referee and adjudication settings: what the referee engine needs, and how games are scored."""

from __future__ import annotations

from typing import Any

from ringmaster.default_game import game_of
from ringmaster.errors import ControlFileError
from ringmaster.game.adjudication import Adjudication, interpret_adjudication
from ringmaster.game.job import PlayerSpec
from ringmaster.rules import get_rules_class

REFEREE_CODE = "referee"
"""The referee engine's code: in its errors, the log and the GTP transcripts."""


def interpret_adjudication_setting(value: Any) -> dict[str, Any]:
    """The adjudication setting, checked, as plain data (the settings are kept as JSON)."""
    return interpret_adjudication(value).to_json()


def adjudication_of(settings: dict[str, Any]) -> Adjudication | None:
    """A game's Adjudication from its settings, or None."""
    value = settings.get("adjudication")
    return None if value is None else Adjudication(**value)


def check_referee_settings(settings: dict[str, Any], referee: PlayerSpec | None,
                           context: str = "") -> None:
    """Raise ControlFileError if adjudication is asked for without a referee engine, or a
    game without a board (Pig) has either. context is '' or 'matchup 0: '..."""
    game = game_of(settings)
    where = None if context else "adjudication"
    if settings.get("adjudication") is not None and referee is None:
        raise ControlFileError(f"{context}'adjudication' needs a referee engine: "
                               "referee = Player(...) at the top level", setting=where)
    if not get_rules_class(game).uses_board:
        if referee is not None:
            raise ControlFileError(f"{context}{game} has no use for a referee engine; remove "
                                   "'referee'", setting=None if context else REFEREE_CODE)


def saved_referee(referee: PlayerSpec | None) -> str:
    """What the state keeps of the referee engine, so that a later run can't change it:
    its command, or 'none'."""
    return "none" if referee is None else " ".join(referee.command)


def referee_needs(settings: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The commands the referee engine needs for a game's settings ((command, why), ...):
    final_score to adjudicate; for the dead stones of an internally scored Go game,
    final_status_list (its final_score would do, but is asked only if that is missing)."""
    needs = []
    if settings.get("adjudication") is not None:
        needs.append(("final_score", "adjudication"))
    rules = get_rules_class(game_of(settings))
    if rules.has_dead_stones and settings.get("scorer") == "internal":
        needs.append(("final_status_list", "settling dead stones (scorer = 'internal')"))
    elif rules.players_may_score:
        needs.append(("final_score", "settling the players' disagreements (scorer = 'players')"))
    return tuple(needs)


def player_scoring_needs(settings: dict[str, Any],
                         referee: PlayerSpec | None) -> tuple[tuple[str, str], ...]:
    """What a player needs for scoring: with scorer = 'internal' in Go and no referee
    engine, final_status_list (an engine that can't list its dead stones leaves every game
    it finishes without a result)."""
    rules = get_rules_class(game_of(settings))
    if referee is None and rules.has_dead_stones and settings.get("scorer") == "internal":
        return (("final_status_list", "scorer = 'internal' without a referee engine (to list "
                 "dead stones; or name one: referee = Player(...))"),)
    return ()


def describe_scoring(settings: dict[str, Any], referee: PlayerSpec | None) -> str:
    """How a game is scored, for the reports' headers: by the ringmaster itself, by the
    players' final_score, or by the referee engine, as the games are played."""
    rules = get_rules_class(game_of(settings))
    if not rules.uses_board:
        return "decided by the ringmaster itself under the game's rules (no engine is asked)"
    settle = "else the referee engine" if referee is not None else "else no result"
    if rules.has_dead_stones and settings.get("scorer") == "internal":
        text = (f"area counted by the ringmaster itself, dead stones off as both players list "
                f"them (final_status_list), {settle}")
    elif rules.players_may_score and settings.get("scorer") != "internal":
        text = f"the players' final_score when they agree, {settle}"
    else:
        text = "counted by the ringmaster itself (no engine is asked)"
    adjudication = adjudication_of(settings)
    if adjudication is not None:
        text += f"; adjudicated on the referee engine's score ({adjudication.describe()})"
    if referee is not None:
        text += "; the move limit scored by the referee engine"
    return text
