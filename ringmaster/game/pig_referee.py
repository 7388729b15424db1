"""Referee and records for Pig: the referee throws the dice from a seeded generator and writes a JSON record.

Over GTP each engine gets `pig-target N` and `clear_board` before a game;
the player to move is asked `reg_genmove b|w` and answers `roll` or `hold`;
both engines are then told `play b roll D` (D the die thrown) or
`play b hold`. Anything else from an engine forfeits the game.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
from contextlib import ExitStack

from ringmaster import __version__
from ringmaster.errors import JobFailed
from ringmaster.files import write_atomically
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.play import ChannelFactory, GameEngines
from ringmaster.game.result import GameResult
from ringmaster.gtp.controller import BadGtpResponse, GtpChannelError, GtpController
from ringmaster.rules.base import Colour, opponent_of
from ringmaster.rules.pig import HOLD, ROLL, PigRules

RECORD_FORMAT = "ringmaster-pig-record"


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
    """

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.winning_colour: Colour | None = None
        self.sgf_result = "?"
        self.detail: str | None = None
        self.is_forfeit = False
        self.late_errors: list[str] = []


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
                self._forfeit(colour, f"attempted ill-formed move {response.strip()[:40]}")
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


def play_pig_job(job: GameJob, factory: ChannelFactory) -> GameJobResult:
    """Play a Pig game job and write its record (FILE.games/ID.json).

    Raises JobFailed (a void game, recorded in the void directory) if the game can't start.
    """
    seed = dice_seed(job)
    try:
        return _play(job, factory, seed)
    except JobFailed as exc:
        write_pig_record(job, seed, None, {}, void_reason=str(exc))
        raise


def _play(job: GameJob, factory: ChannelFactory, seed: int) -> GameJobResult:
    specs = {"b": job.player_b, "w": job.player_w}
    codes = {c: specs[c].code for c in ("b", "w")}
    with ExitStack() as stack:
        engines = GameEngines(job, factory, stack)
        controllers = engines.controllers
        rules = PigRules.from_options(dict(job.rules_options))
        try:
            engines.start()
            for colour in ("b", "w"):
                for command, args in PigRules.setup_commands(dict(job.rules_options)):
                    controllers[colour].do_command(command, *args)
        except (GtpChannelError, BadGtpResponse) as exc:
            raise JobFailed(f"aborting game due to error: {exc}") from None

        game = PigReferee(rules, controllers, codes, Dice(seed)).play()
        descriptions = engines.descriptions
        cpu_times = engines.finish(not game.is_forfeit and not game.late_errors, game.late_errors)

    result = GameResult(
        game_id=job.game_id, player_b=codes["b"], player_w=codes["w"],
        winning_colour=game.winning_colour, sgf_result=game.sgf_result, detail=game.detail,
        is_forfeit=game.is_forfeit, cpu_times={codes[c]: cpu_times[c] for c in ("b", "w")})
    names = {c: descriptions[c].short or "" for c in ("b", "w")}
    pathname = write_pig_record(job, seed, result, names, game=game, rules=rules,
                                durable=not job.coordinator_syncs_record)
    warnings = [f"game {job.game_id}: {game.detail}"] if game.is_forfeit else []
    warnings += [f"game {job.game_id}: late error: {e}" for e in game.late_errors]
    return GameJobResult(
        game_id=job.game_id, game_data=job.game_data, game_result=result,
        engine_names={codes[c]: names[c] for c in ("b", "w")},
        engine_descriptions={codes[c]: descriptions[c].long or "" for c in ("b", "w")},
        warnings=warnings, moves=len(game.moves),
        unsynced_record=pathname if job.coordinator_syncs_record else None)


def pig_record(job: GameJob, seed: int, result: GameResult | None, engine_names: dict[str, str], *,
               game: PigGame | None = None, rules: PigRules | None = None,
               void_reason: str | None = None) -> dict:
    """The JSON record of a game: who played, the settings, the dice seed, every move, the result."""
    options = {**PigRules.default_options, **dict(job.rules_options)}
    record = {
        "format": RECORD_FORMAT, "version": 1, "application": f"ringmaster {__version__}",
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "event": job.sgf_event, "game_id": job.game_id,
        "black": job.player_b.code, "white": job.player_w.code,
        "engines": {"black": engine_names.get("b", ""), "white": engine_names.get("w", "")},
        "pig_target": options["pig_target"], "pig_max_turns": options["pig_max_turns"],
        "dice": "random.Random(dice_seed).randint(1, 6), one per roll, in order",
        "dice_seed": seed,
    }
    if void_reason is not None:
        record["void"] = void_reason
        return record
    assert result is not None and game is not None and rules is not None
    record.update({
        "result": result.sgf_result, "winner": game.winning_colour, "detail": game.detail,
        "description": result.describe(),
        "final_scores": {"black": rules.scores["b"], "white": rules.scores["w"]},
        "turns": rules.turns, "late_errors": game.late_errors, "moves": game.moves,
    })
    return record


def format_record(record: dict) -> str:
    """The record as JSON, one move per line."""
    moves = record.get("moves")
    head = {k: v for k, v in record.items() if k != "moves"}
    text = json.dumps(head, indent=1)
    if moves is None:
        return text + "\n"
    lines = ",\n".join("  " + json.dumps(m) for m in moves)
    return text[:-2] + ',\n "moves": [\n' + lines + "\n ]\n}\n"


def write_pig_record(job: GameJob, seed: int, result: GameResult | None,
                     engine_names: dict[str, str], durable: bool = True,
                     **kwargs) -> str | None:
    """Write the record to the games directory (a void game's to the void directory),
    with its fsyncs unless durable is false (the coordinator's, then).

    Returns the pathname, or None if the job records no games.
    """
    directory = job.sgf_dirname if result is not None else job.void_sgf_dirname
    if not directory:
        return None
    pathname = os.path.join(directory, job.game_id + ".json")
    n = 1
    while result is None and os.path.exists(pathname):
        n += 1
        pathname = os.path.join(directory, f"{job.game_id}_{n}.json")
    record = pig_record(job, seed, result, engine_names, **kwargs)
    write_atomically(pathname, format_record(record).encode("utf-8"), durable=durable)
    return pathname


def replay_record(record: dict) -> PigRules:
    """Replay a record's moves with its dice seed; returns the final position.

    Raises ValueError if a recorded die differs from the seed's, or a move is illegal.
    """
    if record.get("format") != RECORD_FORMAT:
        raise ValueError("not a ringmaster Pig record")
    rules = PigRules(target=record["pig_target"], max_turns=record["pig_max_turns"])
    dice = Dice(record["dice_seed"])
    for number, move in enumerate(record.get("moves", []), 1):
        words = move.split()
        colour, word = words[0], words[1]
        if rules.check_move(colour, word) is not None or rules.is_over():
            raise ValueError(f"move {number} ({move}) is illegal")
        if word == ROLL:
            face = dice.throw()
            if words[2:] != [str(face)]:
                raise ValueError(f"move {number} ({move}): the seed throws {face}")
            rules.throw(face)
        else:
            rules.play(colour, HOLD)
    return rules
