"""Registry: competition_type string -> Competition class (imported only when used)."""

from __future__ import annotations

import importlib

from ringmaster.competitions.base import Competition

_TYPES = {
    "playoff": ("ringmaster.competitions.playoff", "Playoff"),
    "allplayall": ("ringmaster.competitions.allplayall", "AllPlayAll"),
    "mc_tuner": ("ringmaster.competitions.mc_tuner", "McTuner"),
    "ce_tuner": ("ringmaster.competitions.ce_tuner", "CeTuner"),
    "spsa_tuner": ("ringmaster.competitions.spsa_tuner", "SpsaTuner"),
    "bayes_tuner": ("ringmaster.competitions.bayes_tuner", "BayesTuner"),
}

COMPETITION_TYPES = tuple(_TYPES)


def get_competition_class(competition_type: str) -> type[Competition]:
    """Raises KeyError for an unknown type."""
    module_name, class_name = _TYPES[competition_type]
    return getattr(importlib.import_module(module_name), class_name)
