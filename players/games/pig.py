"""Pig, the dice game: roll to build a turn total, hold to bank it; a 1 loses the turn total."""

from __future__ import annotations

import random
from typing import NamedTuple

from players.games.base import Game

HOLD = 0
ROLL = 1
DIE_FACES = 6


def die_action(face: int) -> int:
    """The chance outcome (an action past the decisions) of a die face 1..6."""
    return ROLL + face


class PigState(NamedTuple):
    """A position: banked scores, the mover's turn total, whose turn, turns ended, and a die in the air.

    rolling is True between a roll and its die (the chance state).
    """

    scores: tuple[int, int]
    turn_total: int
    to_play: int
    turns: int
    rolling: bool = False


class Pig(Game):
    """Two players race to `target` banked points; the game is void (a draw here) after max_turns turns.

    Decisions are HOLD (0; only with a turn total above 0, so every turn
    starts with a roll) and ROLL (1). After ROLL the state is a chance state
    whose outcomes are the die faces (actions die_action(1..6), each 1/6): a
    1 ends the turn with nothing banked, any other face adds to the turn
    total. HOLD banks the turn total and ends the turn; a player who banks
    `target` points wins at once. A turn ends on a hold or a 1.
    """

    num_actions = 2
    has_chance = True  # the training pipeline's arena throws the dice, as the ringmaster does

    def __init__(self, target: int = 50, max_turns: int = 200) -> None:
        if target < 1 or max_turns < 1:
            raise ValueError("pig needs a target and a turn limit of at least 1")
        self.target = target
        self.max_turns = max_turns
        self.name = f"pig{target}"
        self.kind = "pig"

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, 0, False)

    def to_play(self, state: PigState) -> int:
        return state.to_play

    def legal_actions(self, state: PigState) -> list[int]:
        return [HOLD, ROLL] if state.turn_total > 0 else [ROLL]

    def is_chance(self, state: PigState) -> bool:
        return state.rolling

    def chance_outcomes(self, state: PigState) -> list[tuple[int, float]]:
        return [(die_action(face), 1.0 / DIE_FACES) for face in range(1, DIE_FACES + 1)]

    def apply(self, state: PigState, action: int) -> PigState:
        scores, total, player, turns, rolling = state
        if rolling:
            face = action - ROLL
            if face == 1:
                return PigState(scores, 0, 1 - player, turns + 1, False)
            return PigState(scores, total + face, player, turns, False)
        if action == ROLL:
            return PigState(scores, total, player, turns, True)
        banked = (scores[0] + total, scores[1]) if player == 0 else (scores[0], scores[1] + total)
        return PigState(banked, 0, 1 - player, turns + 1, False)

    def is_terminal(self, state: PigState) -> bool:
        return (state.scores[0] >= self.target or state.scores[1] >= self.target
                or state.turns >= self.max_turns)

    def terminal_value(self, state: PigState) -> float:
        """+1 if the player to move has reached the target, -1 if the other has, 0 at the turn limit."""
        mine, theirs = state.scores[state.to_play], state.scores[1 - state.to_play]
        if theirs >= self.target:
            return -1.0
        if mine >= self.target:
            return 1.0
        return 0.0

    def format_action(self, action: int) -> str:
        """A decision as GTP words: 'roll' or 'hold'."""
        return "hold" if action == HOLD else "roll"

    def parse_move(self, words: list[str]) -> list[int]:
        """The actions of a move told over GTP: ['roll', D] -> [ROLL, die_action(D)], ['hold'] -> [HOLD].

        Raises ValueError if the words are not a move.
        """
        lowered = [w.lower() for w in words]
        if lowered == ["hold"]:
            return [HOLD]
        if len(lowered) == 2 and lowered[0] == "roll" and lowered[1] in ("1", "2", "3", "4", "5", "6"):
            return [ROLL, die_action(int(lowered[1]))]
        raise ValueError("expected 'roll D' (D 1 to 6) or 'hold'")

    def describe(self, state: PigState) -> str:
        """The position as text: both scores, whose turn and the turn total."""
        return (f"black {state.scores[0]}  white {state.scores[1]}  "
                f"{'bw'[state.to_play]} to play, turn total {state.turn_total}, "
                f"turn {state.turns + 1}, target {self.target}")

    def winner(self, state: PigState) -> int | None:
        """The player (0 or 1) who reached the target, None if nobody has."""
        for player in (0, 1):
            if state.scores[player] >= self.target:
                return player
        return None


def hold_at_policy(game: Pig, state: PigState, hold_at: int) -> int:
    """'Hold at N': hold once the turn total reaches hold_at, or when holding wins; else roll."""
    total = state.turn_total
    if total > 0 and (total >= hold_at or state.scores[state.to_play] + total >= game.target):
        return HOLD
    return ROLL


class ThresholdPolicy(NamedTuple):
    """A hold-at rule with two refinements ("keep pace and end race", after Neller and Presser).

    Hold at hold_at + round((their score - my score) / pace) (pace None: at
    hold_at), and always when holding wins; once either score reaches race
    (None: never), roll on until holding wins. Hold20 is
    ThresholdPolicy(20); RACE50 is the one for target 50.
    """

    hold_at: int
    pace: int | None = None
    race: int | None = None

    def rolls(self, mine: int, theirs: int, total: int, target: int) -> bool:
        """True to roll with banked score mine, the other's theirs and turn total total."""
        if total == 0:
            return True
        if mine + total >= target:
            return False
        if self.race is not None and (mine >= self.race or theirs >= self.race):
            return True
        limit = self.hold_at if self.pace is None else self.hold_at + round((theirs - mine) / self.pace)
        return total < limit


HOLD20 = ThresholdPolicy(20)
# Keep pace and end race, its parameters chosen for target 50 by exact evaluation against
# Hold20 (players.games.pig_exact): race from 38, hold at 20 + (their - my score) / 4.
RACE50 = ThresholdPolicy(20, 4, 38)


def threshold_rollout(game: Pig, state: PigState, rng: random.Random,
                      policies: tuple[ThresholdPolicy, ThresholdPolicy]) -> float:
    """Play player 0 by policies[0] and player 1 by policies[1] to the end, throwing the dice with rng.

    Returns the result for the player to move in state (+1, -1, 0 at the turn limit).
    """
    scores = list(state.scores)
    total, player, turns = state.turn_total, state.to_play, state.turns
    me = player
    target, limit = game.target, game.max_turns
    rnd = rng.random
    rolling = state.rolling
    while turns < limit:
        if not rolling and not policies[player].rolls(scores[player], scores[1 - player], total, target):
            scores[player] += total
            if scores[player] >= target:
                return 1.0 if player == me else -1.0
            total, player, turns = 0, 1 - player, turns + 1
            continue
        rolling = False
        face = int(rnd() * 6) + 1
        if face == 1:
            total, player, turns = 0, 1 - player, turns + 1
        else:
            total += face
    return 0.0


def hold_at_rollout(game: Pig, state: PigState, rng: random.Random, hold_at: int = 20) -> float:
    """Play both sides by 'hold at hold_at' to the end, throwing the dice with rng.

    Returns the result for the player to move in state (+1, -1, 0 at the turn limit).
    """
    scores = list(state.scores)
    total, player, turns = state.turn_total, state.to_play, state.turns
    me = player
    target, limit = game.target, game.max_turns
    rnd = rng.random
    if state.rolling:
        face = int(rnd() * 6) + 1
        if face == 1:
            total, player, turns = 0, 1 - player, turns + 1
        else:
            total += face
    while turns < limit:
        banked = scores[player]
        if total > 0 and (total >= hold_at or banked + total >= target):
            scores[player] = banked + total
            if banked + total >= target:
                return 1.0 if player == me else -1.0
            total, player, turns = 0, 1 - player, turns + 1
            continue
        face = int(rnd() * 6) + 1
        if face == 1:
            total, player, turns = 0, 1 - player, turns + 1
        else:
            total += face
    return 0.0


def random_pig_rollout(game: Pig, state: PigState, rng: random.Random) -> float:
    """Both sides roll or hold with equal chance (hold only with a turn total) to the end.

    Returns the result for the player to move in state.
    """
    scores = list(state.scores)
    total, player, turns = state.turn_total, state.to_play, state.turns
    me = player
    target, limit = game.target, game.max_turns
    rnd = rng.random
    rolling = state.rolling
    while turns < limit:
        if not rolling and total > 0 and rnd() < 0.5:
            scores[player] += total
            if scores[player] >= target:
                return 1.0 if player == me else -1.0
            total, player, turns = 0, 1 - player, turns + 1
            continue
        rolling = False
        face = int(rnd() * 6) + 1
        if face == 1:
            total, player, turns = 0, 1 - player, turns + 1
        else:
            total += face
    return 0.0
