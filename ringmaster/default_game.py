"""The game played where the settings name none, and game_of, the one place that applies it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_GAME = "go"


def game_of(settings: Mapping[str, Any]) -> str:
    """The game a game's settings name: DEFAULT_GAME where 'game' is missing or None."""
    return settings.get("game") or DEFAULT_GAME
