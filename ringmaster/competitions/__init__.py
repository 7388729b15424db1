"""Every competition_type and what they share; the registry imports a type's module only when it is used."""

from __future__ import annotations

from collections.abc import Callable

from ringmaster.competitions.base import Competition


def _playoff() -> type[Competition]:
    from ringmaster.competitions.playoff import Playoff
    return Playoff


def _allplayall() -> type[Competition]:
    from ringmaster.competitions.allplayall import AllPlayAll
    return AllPlayAll


def _mc_tuner() -> type[Competition]:
    from ringmaster.competitions.mc_tuner import McTuner
    return McTuner


def _ce_tuner() -> type[Competition]:
    from ringmaster.competitions.ce_tuner import CeTuner
    return CeTuner


def _spsa_tuner() -> type[Competition]:
    from ringmaster.competitions.spsa_tuner import SpsaTuner
    return SpsaTuner


def _bayes_tuner() -> type[Competition]:
    from ringmaster.competitions.bayes_tuner import BayesTuner
    return BayesTuner


# A tuner's module brings numpy and its numerics: a playoff's run doesn't pay for them.
_TYPES: dict[str, Callable[[], type[Competition]]] = {
    "playoff": _playoff,
    "allplayall": _allplayall,
    "mc_tuner": _mc_tuner,
    "ce_tuner": _ce_tuner,
    "spsa_tuner": _spsa_tuner,
    "bayes_tuner": _bayes_tuner,
}

COMPETITION_TYPES = tuple(_TYPES)


def get_competition_class(competition_type: str) -> type[Competition]:
    """Raises KeyError for an unknown type."""
    return _TYPES[competition_type]()
