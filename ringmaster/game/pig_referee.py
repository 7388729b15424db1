"""Pig's referee: it throws the dice from a generator seeded by the game, and asks the engines roll or hold.

Over GTP each engine gets `pig-target N` and `clear_board` before a game;
the player to move is asked `reg_genmove b|w` and answers `roll` or `hold`;
both engines are then told `play b roll D` (D the die thrown) or
`play b hold`. Anything else from an engine forfeits the game.
"""

from __future__ import annotations

import hashlib
import random

from sgfmill.common import opponent_of

from ringmaster.game.job import GameJob
from ringmaster.game.result import ill_formed_move
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules.base import Colour
from ringmaster.rules.pig import HOLD, ROLL, PigRules


def dice_seed(job: GameJob) -> int:
    """The seed of a game's dice: a hash of its competition and game id (a replay gets the same dice)."""
    digest = hashlib.sha256(f"{job.sgf_event}|{job.game_id}".encode()).hexdigest()
    return int(digest[:15], 16)


class Dice:
    """The referee's die: random.Random(seed).randint(1, 6), one call per roll, in order."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def throw(self) -> int:
        return self._rng.randint(1, 6)


class PigGame:
    """What happened in a game of Pig.

    Public attributes:
      moves          -- ['b roll 4', 'b hold', ...] in order, as sent to the engines
      winning_colour -- 'b', 'w' or None
      sgf_result     -- 'B+', 'W+', 'B+F', 'W+F' or 'Void' (turn limit)
      detail, is_forfeit, late_errors
      is_adjudicated -- always False: no referee engine decides a game of Pig
      warnings       -- always empty: the Pig referee has none to give
    """

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.winning_colour: Colour | None = None
        self.sgf_result = "?"
        self.detail: str | None = None
        self.is_forfeit = False
        self.late_errors: list[str] = []
        self.is_adjudicated = False
        self.warnings: list[str] = []


class PigReferee:
    """Plays one game of Pig between two controllers, throwing the dice itself."""

    def __init__(self, rules: PigRules, controllers: dict[Colour, GtpController],
                 codes: dict[Colour, str], dice: Dice) -> None:
        self.rules = rules
        self.controllers = controllers
        self.codes = codes
        self.dice = dice
        self.game = PigGame()

    def _forfeit(self, colour: Colour, reason: str) -> None:
        game = self.game
        game.winning_colour = opponent_of(colour)
        game.sgf_result = f"{game.winning_colour.upper()}+F"
        game.is_forfeit = True
        game.detail = f"forfeit by {self.codes[colour]}: {reason}"

    def play(self) -> PigGame:
        """Play to a win, a forfeit or the turn limit; returns the game."""
        rules, game = self.rules, self.game
        while not rules.is_over():
            colour = rules.to_move
            try:
                response = self.controllers[colour].do_command("reg_genmove", colour)
            except (BadGtpResponse, GtpChannelError) as exc:
                self._forfeit(colour, str(exc))
                return game
            try:
                move = rules.parse_move(response)
            except ValueError:
                self._forfeit(colour, ill_formed_move(response))
                return game
            reason = rules.check_move(colour, move)
            if reason is not None:
                self._forfeit(colour, reason)
                return game
            if move == ROLL:
                face = self.dice.throw()
                words = [colour, ROLL, str(face)]
                rules.throw(face)
            else:
                words = [colour, HOLD]
                rules.play(colour, HOLD)
            game.moves.append(" ".join(words))
            if not self._tell_both(words):
                return game
        if rules.hit_turn_limit():
            game.sgf_result, game.detail = "Void", "hit turn limit"
        else:
            game.winning_colour = rules.winner()
            game.sgf_result = f"{game.winning_colour.upper()}+"
        return game

    def _tell_both(self, words: list[str]) -> bool:
        """Send the move to both engines; False if one refused it (a forfeit by that engine)."""
        for colour in ("b", "w"):
            try:
                self.controllers[colour].do_command("play", *words)
            except (BadGtpResponse, GtpChannelError) as exc:
                if self.rules.is_over():
                    self.game.late_errors.append(str(exc))
                    continue
                self._forfeit(colour, f"refused {' '.join(['play'] + words)}: {exc}")
                return False
        return True
