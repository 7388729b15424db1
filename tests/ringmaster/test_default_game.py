"""game_of: the one place the default game applies."""

from __future__ import annotations

from ringmaster.competitions.game_settings import GAME_SETTINGS
from ringmaster.default_game import DEFAULT_GAME, game_of
from ringmaster.game.job import GameJob


def test_settings_that_name_no_game_play_the_default():
    assert game_of({}) == game_of({"game": None}) == DEFAULT_GAME == "go"
    assert game_of({"game": "othello"}) == "othello"


def test_the_control_file_setting_and_a_game_job_default_to_the_same_game():
    assert next(s for s in GAME_SETTINGS if s.name == "game").default == DEFAULT_GAME
    assert GameJob.__dataclass_fields__["game"].default == DEFAULT_GAME
