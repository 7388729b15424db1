"""The refusals of a tuner's resume whose control file changed what its games so far were played with."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.tuner_values import short_value
from ringmaster.errors import CompetitionError

RESET_REMEDY = "start afresh with `ringmaster reset`"


def changed_since_state(what: str, now: Any, before: Any) -> CompetitionError:
    """The refusal of a resume whose control file changed what the games so far were played with:
    "'opponent' is opp2 in the control file but was opp for the games so far; put it back, or ..."."""
    return CompetitionError(f"{what} is {now} in the control file but was {before} for the games so "
                            f"far; put it back, or {RESET_REMEDY}")


def shown_apart(now: list[Any], before: list[Any]) -> tuple[list[str], list[str]]:
    """Engine values for a refusal: short (short_value), or exact (repr) where the short ones would
    read the same."""
    show = short_value if [short_value(v) for v in now] != [short_value(v) for v in before] else repr
    return [show(v) for v in now], [show(v) for v in before]


def parameters_changed(codes: list[str], before: list[str] | int) -> CompetitionError:
    """The refusal of a resume whose parameter list changed: before is the codes the state holds, or
    (a state that holds none) how many parameters it had."""
    now = ", ".join(codes)
    if isinstance(before, int):
        what = (f"the control file has {len(codes)} parameters ({now}) but the games so far had "
                f"{before}")
    else:
        what = (f"the parameters are {now} in the control file but were {', '.join(before)} for the "
                f"games so far")
    return CompetitionError(f"{what}; put them back, or {RESET_REMEDY}")


def tree_shape_changed(codes: list[str], either: bool) -> CompetitionError:
    """The refusal of an mc_tuner resume whose tree of candidates fits no shape the control file's scales
    give: codes, the parameters whose 'scale' would have split it so (either: one of them, not all)."""
    names = ", ".join(codes[:-1]) + (" or " if either else " and ") + codes[-1] if codes[1:] else codes[0]
    who = f"parameter {names}" if len(codes) == 1 or either else f"parameters {names}"
    return CompetitionError(f"{who}: 'scale' splits the tree of candidates below the first level otherwise "
                            f"than it did for the games so far (the state's tree fits no shape the "
                            f"control file gives); put it back, or {RESET_REMEDY}")
