"""Control-file settings: value interpreters, setting tables, and the names every control file sees."""

from __future__ import annotations

import math
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ringmaster.errors import ControlFileError
from ringmaster.files import clipped

Interpreter = Callable[[Any], Any]

_IDENTIFIER = re.compile(r"\A[-!$%&*+.:;<=>?^_~a-zA-Z0-9]+\Z")

_NO_DEFAULT = object()


def caller_line(depth: int = 2) -> int | None:
    """Line number in the control file of the call that built a recorder object."""
    frame = sys._getframe(depth)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<control file"):
            return frame.f_lineno
        if frame.f_globals.get("__ringmaster_control_file__"):
            return frame.f_lineno
        frame = frame.f_back
    return None


# Interpreters: each returns the cleaned value or raises ValueError with a short reason.

def interpret_any(value: Any) -> Any:
    return value


def interpret_bool(value: Any) -> bool:
    if value is True or value is False:
        return value
    raise ValueError("invalid True/False value")


def interpret_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("invalid integer")
    return value


def interpret_positive_int(value: Any) -> int:
    value = interpret_int(value)
    if value <= 0:
        raise ValueError("must be positive")
    return value


def interpret_nonnegative_int(value: Any) -> int:
    value = interpret_int(value)
    if value < 0:
        raise ValueError("must not be negative")
    return value


def interpret_float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("invalid float")
    if not math.isfinite(value):
        raise ValueError("must be finite")
    return float(value)


def interpret_positive_float(value: Any) -> float:
    value = interpret_float(value)
    if value <= 0:
        raise ValueError("must be positive")
    return value


def interpret_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def interpret_one_line(value: Any) -> str:
    """A string for a one-line message: no newline or other control character."""
    text = interpret_str(value)
    if not text.isprintable():
        raise ValueError("must be one line of printable text")
    return text


# Identifiers name files (a matchup id is the start of its games' SGF names): they must fit
# in a file name with a game number and an extension, and must not be hidden or special.
MAX_IDENTIFIER_LENGTH = 100


def interpret_identifier(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a string")
    if not _IDENTIFIER.match(value):
        raise ValueError(f"{value!r} is not a valid identifier")
    if len(value) > MAX_IDENTIFIER_LENGTH:
        raise ValueError(f"{value[:20]!r}... is longer than {MAX_IDENTIFIER_LENGTH} characters")
    if value.startswith("."):
        raise ValueError(f"{value!r} starts with '.' (it names files, which would be hidden)")
    return value


def interpret_colour(value: Any) -> str:
    colour = {"b": "b", "black": "b", "w": "w", "white": "w"}.get(
        value.lower() if isinstance(value, str) else None)
    if colour is None:
        raise ValueError(f"invalid colour {value!r}")
    return colour


def interpret_callable(value: Any) -> Callable:
    if not callable(value):
        raise ValueError("invalid callable")
    return value


def interpret_enum(*values: str) -> Interpreter:
    def interpret(value: Any) -> str:
        if value not in values:
            raise ValueError(f"must be one of {', '.join(repr(v) for v in values)}")
        return value
    return interpret


def interpret_optional(interpreter: Interpreter) -> Interpreter:
    def interpret(value: Any) -> Any:
        return None if value is None else interpreter(value)
    return interpret


def interpret_sequence(value: Any) -> list:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError("not a sequence")
    return list(value)


def interpret_sequence_of(item_interpreter: Interpreter) -> Interpreter:
    def interpret(value: Any) -> list:
        result = []
        for i, item in enumerate(interpret_sequence(value)):
            try:
                result.append(item_interpreter(item))
            except ValueError as exc:
                raise ValueError(f"item {i}: {exc}") from None
        return result
    return interpret


def interpret_map(value: Any) -> list[tuple[Any, Any]]:
    """A dictionary's items; a string key or value may not hold a NUL character (a Player's
    environ: no process can be given one)."""
    if not isinstance(value, dict):
        raise ValueError("not a dictionary")
    for key, item in value.items():
        if isinstance(key, str) and "\0" in key:
            raise ValueError(f"the key {clipped(key, 40)!r} holds a NUL character")
        if isinstance(item, str) and "\0" in item:
            raise ValueError(f"the value of {clipped(str(key), 40)!r} holds a NUL character")
    return list(value.items())


def interpret_shlex_sequence(value: Any) -> list[str]:
    """A command line: a string split as the shell would (without running one), or a list."""
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as exc:
            raise ValueError(f"can't parse command line: {exc}") from None
    else:
        words = interpret_sequence(value)
        if not all(isinstance(w, str) for w in words):
            raise ValueError("not a list of strings")
    if not words:
        raise ValueError("empty")
    for i, word in enumerate(words):
        if "\0" in word:   # subprocess would raise ValueError('embedded null byte')
            raise ValueError(f"word {i}, {clipped(word, 40)!r}, holds a NUL character (no "
                             "command line can)")
    return words


MAX_TIMEOUT = 1_000_000.0
"""The longest timeout a control file may set, in seconds (11.6 days); None is no limit."""


def interpret_timeout(value: Any) -> float | None:
    """Seconds, positive and at most MAX_TIMEOUT; None for no limit."""
    if value is None:
        return None
    value = interpret_positive_float(value)
    if value > MAX_TIMEOUT:
        raise ValueError(f"must be at most {MAX_TIMEOUT:.0f} seconds (None for no limit)")
    return value


@dataclass(frozen=True)
class Setting:
    """A control-file setting: its name, how to check its value, and its default.

    explicit_none: a None the control file gives is a value for the interpreter
    (timeout = None: no limit), not the setting left unset.
    """

    name: str
    interpreter: Interpreter
    default: Any = _NO_DEFAULT
    explicit_none: bool = False

    @property
    def required(self) -> bool:
        return self.default is _NO_DEFAULT


def load_settings(settings: list[Setting], config: dict[str, Any],
                  context: str = "") -> dict[str, Any]:
    """Check the named settings in config and return {name: value}.

    A setting given as None is treated as unset, unless it takes an explicit
    None (Setting.explicit_none). Raises ControlFileError
    naming the setting if a required one is missing or a value is invalid
    (with the setting as data too when context is '', a top-level setting).
    """
    prefix = f"{context}: " if context else ""
    result = {}
    top_level = not context
    for setting in settings:
        value = config.get(setting.name)
        if value is None and setting.explicit_none and setting.name in config:
            result[setting.name] = setting.interpreter(None)
            continue
        if value is None:
            if setting.required:
                raise ControlFileError(f"{prefix}'{setting.name}' not specified",
                                       setting=setting.name if top_level else None)
            result[setting.name] = setting.default
            continue
        try:
            result[setting.name] = setting.interpreter(value)
        except ValueError as exc:
            raise ControlFileError(f"{prefix}'{setting.name}': {exc}",
                                   setting=setting.name if top_level else None) from None
    return result


class ControlFileObject:
    """Base for what a control file builds (Player, Matchup, Parameter...).

    It only records its arguments and the control-file line it was built on;
    the competition checks them when it reads the control file.

    Public attributes:
      settings -- {argument name: value}, positional arguments included
      line     -- line number in the control file, or None
    """

    kind = "object"
    positional: tuple[str, ...] = ()
    allowed_arguments: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.positional):
            raise ControlFileError(f"{self.kind}: too many positional arguments")
        for name in kwargs:
            if name not in self.allowed_arguments:
                raise ControlFileError(f"{self.kind}: unknown argument '{name}'")
        settings = dict(kwargs)
        for name, value in zip(self.positional, args):
            if name in kwargs:
                raise ControlFileError(
                    f"{self.kind}: {name} specified as both positional and keyword argument")
            settings[name] = value
        self.settings: dict[str, Any] = settings
        self.line = caller_line()

    def __repr__(self) -> str:
        return f"{self.kind}({self.settings!r})"


class Player(ControlFileObject):
    """A control file's Player(command, ...): the recipe for starting one engine."""

    kind = "Player"
    positional = ("command",)
    allowed_arguments = (
        "command", "cwd", "environ", "is_reliable_scorer", "allow_claim",
        "gtp_aliases", "startup_gtp_commands", "discard_stderr",
        "sgf_player_name_from_gtp", "timeout", "reuse", "shared_services", "time_control",
        "missing_hint", "gtp_ids",
    )


def _option_units(words: Sequence[str]) -> list[str]:
    """A command's words after the program, an option with its value as one unit ('--level 1')."""
    units: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and "=" not in word and i + 1 < len(words) \
                and not words[i + 1].startswith("-"):
            units.append(f"{shlex.quote(word)} {shlex.quote(words[i + 1])}")
            i += 2
        else:
            units.append(shlex.quote(word))
            i += 1
    return units


def distinguishing_options(commands: dict[str, Sequence[str]]) -> dict[str, str]:
    """What tells each player's command from the others' that run the same program.

    {'gnugo-l1': 'gnugo --mode gtp --level 1', 'gnugo-l10': '... --level 10'} gives
    {'gnugo-l1': '--level 1', 'gnugo-l10': '--level 10'}: each command's options
    (an option with its value) that not every command of its program has. A player
    whose program no other runs, or whose command is the same as theirs, gets ''.
    """
    by_program: dict[str, list[str]] = {}
    for code, command in commands.items():
        by_program.setdefault(os.path.basename(command[0]) if command else "", []).append(code)
    result = {}
    for codes in by_program.values():
        units = {code: _option_units(list(commands[code][1:])) for code in codes}
        shared = set.intersection(*(set(u) for u in units.values()))
        for code in codes:
            result[code] = " ".join(u for u in units[code] if u not in shared) if len(codes) > 1 else ""
    return result
