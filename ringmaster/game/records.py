"""Game records, played or void, written atomically: SGF (built with sgfmill) and Pig's JSON with its dice."""

from __future__ import annotations

import datetime
import json
import os
import uuid
from dataclasses import dataclass, field

from sgfmill import sgf

from ringmaster import __version__
from ringmaster.files import TEMP_SUFFIX, temp_prefix, write_atomically
from ringmaster.game.clock import TimeControl, sgf_main_time, sgf_overtime
from ringmaster.game.job import GameJob
from ringmaster.game.pig_referee import Dice, PigGame
from ringmaster.game.result import GameResult
from ringmaster.rules import get_rules_class
from ringmaster.rules.pig import HOLD, ROLL, PigRules


@dataclass
class EngineNames:
    """What an engine said about itself: 'name:version' and a longer description (None: unknown)."""

    short: str | None = None
    long: str | None = None


@dataclass
class PlayedGame:
    """What the SGF of a game needs beyond its job.

    Public attributes:
      moves           -- [(colour, move, comment or None)], move (row, col) or None
      result          -- GameResult, or None for a void game
      void_reason     -- why a void game could not be played, or None
      notes           -- extra lines for the last comment (scorers' claims, final messages)
      late_errors     -- errors after the result was settled
      engines         -- {'b' / 'w': EngineNames}
      handicap_points -- the black stones placed before the first move
      clock_marks     -- {index in moves: (seconds, stones or periods, or None)} after
                         each timed move (see referee.GameRecord)
    """

    moves: list = field(default_factory=list)
    result: GameResult | None = None
    void_reason: str | None = None
    notes: list[str] = field(default_factory=list)
    late_errors: list[str] = field(default_factory=list)
    engines: dict[str, EngineNames] = field(default_factory=dict)
    handicap_points: list = field(default_factory=list)
    clock_marks: dict[int, tuple[float, int | None]] = field(default_factory=dict)


def _sgf_seconds(seconds: float) -> float:
    """Seconds for BL/WL: to the millisecond, rounded down (never more than was left, but
    for the last digit of a float's error)."""
    return int(max(0.0, seconds) * 1000 + 1e-6) / 1000


def build_sgf(*, board_size: int, sgf_game_number: int, komi: float,
              moves: list, result: str | None, event: str | None, game_name: str | None,
              player_names: dict[str, str], root_comment: str, last_comment: str | None,
              handicap_points: list | None = None,
              time_control: TimeControl | None = None,
              clock_marks: dict[int, tuple[float, int | None]] | None = None,
              opening: str | None = None) -> bytes:
    """Serialise one game as SGF (UTF-8).

    moves is [(colour, move, comment or None)] with move (row, col) or None.
    time_control (both sides') gives TM and OT; clock_marks ({index in moves:
    (seconds, count or None)}) give BL/WL, and OB/OW in overtime; opening, the
    name of the opening the game started from, gives ON (SGF's "opening played").
    """
    game = sgf.Sgf_game(board_size)
    root = game.get_root()
    root.set("AP", ("ringmaster", __version__))
    root.set("CA", "UTF-8")
    root.set("DT", datetime.date.today().isoformat())
    if sgf_game_number != 1:
        root.set_raw("GM", str(sgf_game_number).encode())
    root.set("KM", komi)
    if event:
        root.set("EV", event)
    if opening:
        root.set("ON", opening)
    if game_name:
        root.set("GN", game_name)
    for colour, name in player_names.items():
        root.set("PB" if colour == "b" else "PW", name)
    if result is not None:
        root.set("RE", result)
    if handicap_points:
        root.set("HA", len(handicap_points))
        root.set_setup_stones(handicap_points, [])
    if time_control is not None:
        root.set("TM", sgf_main_time(time_control))
        overtime = sgf_overtime(time_control)
        if overtime is not None:
            root.set("OT", overtime)
    root.set("C", root_comment)
    node = root
    marks = clock_marks or {}
    for index, (colour, move, comment) in enumerate(moves):
        node = node.new_child()
        node.set_move(colour, move)
        mark = marks.get(index)
        if mark is not None:
            seconds, count = mark
            node.set("BL" if colour == "b" else "WL", _sgf_seconds(seconds))
            if count is not None:
                node.set("OB" if colour == "b" else "OW", count)
        if comment:
            node.set("C", comment)
    if last_comment:
        previous = node.get("C") if node.has_property("C") else None
        node.set("C", f"{previous}\n\n{last_comment}" if previous else last_comment)
    return game.serialise()


def game_sgf(job: GameJob, game: PlayedGame) -> bytes:
    """The SGF of a game job, played (game.result set) or void (game.void_reason set)."""
    specs = {"b": job.player_b, "w": job.player_w}
    engines = {c: game.engines.get(c, EngineNames()) for c in ("b", "w")}
    result = game.result
    lines = [f"Event: {job.sgf_event}", f"Game id {job.game_id}",
             f"Date {datetime.datetime.now():%Y-%m-%d %H:%M}"]
    if result is not None and game.moves:
        lines.append(f"Result {result.describe()}")
    if game.void_reason is not None:
        lines.append(f"Void game: {game.void_reason}")
    if job.sgf_note:
        lines.append(job.sgf_note)
    if job.opening is not None:
        lines.append(f"Opening: {job.opening.name} (the first {len(job.opening.moves)} moves"
                     + (", after Black's set-up stones" if job.opening.setup else "") + ")")
    if job.referee is not None:
        lines.append(f"Referee engine: {' '.join(job.referee.command)}")
    lines += time_control_lines(job)
    if result is not None:
        for colour in ("b", "w"):
            cpu = result.cpu_times.get(specs[colour].code)
            if cpu is not None:
                lines.append(f"{specs[colour].code} cpu time: {cpu:.2f}s")
    for colour, word in (("b", "Black"), ("w", "White")):
        lines.append(f"{word} {specs[colour].code} {engines[colour].long or ''}".rstrip())
    names = {}
    for colour in ("b", "w"):
        # The GTP name with the player's code, since two configurations of one engine
        # (in this game or across the competition's games) report the same name.
        short, code = engines[colour].short, specs[colour].code
        names[colour] = f"{short} ({code})" if (specs[colour].sgf_player_name_from_gtp and short) \
            else code
    last = [result.describe()] if result is not None else []
    last += game.notes + [f"late error: {e}" for e in game.late_errors]
    return build_sgf(
        board_size=job.board_size, sgf_game_number=get_rules_class(job.game).sgf_game_number,
        komi=job.komi, moves=game.moves,
        result=result.sgf_result if result is not None else "Void",
        event=job.sgf_event, game_name=job.sgf_game_name, player_names=names,
        root_comment="\n".join(lines), last_comment="\n".join(last) or None,
        handicap_points=game.handicap_points,
        time_control=job.time_control_b if job.time_control_b == job.time_control_w else None,
        clock_marks=game.clock_marks, opening=None if job.opening is None else job.opening.name)


def time_control_lines(job: GameJob) -> list[str]:
    """The root comment's lines on the clocks: 'Time control: absolute 60 (margin 0.25s)',
    or one line a side when they differ; none when no side is timed."""
    controls = {"Black": job.time_control_b, "White": job.time_control_w}
    if not any(controls.values()):
        return []
    margin = f" (margin {job.time_margin:g}s)"
    if job.time_control_b == job.time_control_w:
        return [f"Time control: {job.time_control_b.describe()}{margin}"]
    return [f"{side} time control: {control.describe() if control else 'none'}{margin}"
            for side, control in controls.items()]


def write_game_record(job: GameJob, game: PlayedGame, durable: bool = True) -> str | None:
    """Write the game's SGF where the job says (a void game to the void directory),
    atomically, and with its fsyncs unless durable is false (files.make_durable
    then does them). A played game's record goes to its attempt's own name if
    the job says so (GameJob.commit_record).

    Returns the pathname written, or None if the job doesn't record games.
    """
    return _write_record(job, game.result is not None, ".sgf", game_sgf(job, game), durable)


def _write_record(job: GameJob, played: bool, extension: str, data: bytes,
                  durable: bool) -> str | None:
    pathname = record_pathname(job, played, extension)
    if pathname is None:
        return None
    if played and job.commit_record:
        pathname = attempt_pathname(pathname)
    write_atomically(pathname, data, durable=durable)
    return pathname


def attempt_pathname(pathname: str) -> str:
    """A name of one attempt's own for a record (a temporary's: a run starting removes
    those it finds), from which the coordinator renames the counted one into place."""
    directory = os.path.dirname(pathname)
    return os.path.join(directory, f"{temp_prefix(pathname)}{uuid.uuid4().hex}.attempt{TEMP_SUFFIX}")


def record_pathname(job: GameJob, played: bool, extension: str) -> str | None:
    """Where a game's record goes: ID.EXT in the games directory, or for a void game
    in the void directory, ID.EXT or ID_2.EXT, ID_3.EXT... if a replayed void game
    has one already. None if the job doesn't record games."""
    directory = job.sgf_dirname if played else job.void_sgf_dirname
    if not directory:
        return None
    pathname = os.path.join(directory, job.game_id + extension)
    n = 1
    while not played and os.path.exists(pathname):
        n += 1
        pathname = os.path.join(directory, f"{job.game_id}_{n}{extension}")
    return pathname


# Pig: a JSON record with the dice seed, from which replay_record plays the game again.

RECORD_FORMAT = "ringmaster-pig-record"


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
    record = pig_record(job, seed, result, engine_names, **kwargs)
    return _write_record(job, result is not None, ".json", format_record(record).encode("utf-8"),
                         durable)


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

