"""Read a control file: find its competition_type, run it, and report its mistakes by line."""

from __future__ import annotations

import ast
import difflib
import os
import re
import sys
import traceback
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ringmaster.competitions import COMPETITION_TYPES, get_competition_class
from ringmaster.competitions.base import Competition
from ringmaster.errors import ControlFileError, Interrupt, describe_user_exception

FORBIDDEN_EXTENSIONS = (".log", ".status", ".journal", ".cmd", ".hist", ".report", ".html",
                        ".games", ".void", ".gtplogs", ".lock")

_MISSING_SETTING = re.compile(r"'([_a-zA-Z0-9]+)' not specified")

_TYPE_LINE = re.compile(r"""^competition_type\s*=\s*(['"])([_a-zA-Z0-9]+)\1\s*(#.*)?$""")


@dataclass
class ControlFile:
    """A control file that has been run.

    Public attributes:
      path, competition_code, competition_type
      config          -- the names it defined (the settings, and its own helpers)
      setting_lines   -- {top-level name: line of its last assignment}
      definitions     -- the top-level names def, class and import bind (helpers)
      warnings        -- one-line messages about names that look like settings but aren't
    """

    path: str
    competition_code: str
    competition_type: str
    config: dict[str, Any]
    setting_lines: dict[str, int] = field(default_factory=dict)
    definitions: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)

    def error(self, message: str, line: int | None = None,
              setting: str | None = None) -> ControlFileError:
        """A ControlFileError located in this file."""
        return ControlFileError(_locate(self.path, line, message), line, setting=setting)

    def make_competition(self) -> Competition:
        """Build the competition from the settings.

        Raises ControlFileError naming the file, the line where known, and the setting.
        """
        cls = get_competition_class(self.competition_type)
        competition = cls(self.competition_code, os.path.dirname(os.path.abspath(self.path)))
        try:
            competition.initialise_from_control_file(self.config)
        except ControlFileError as exc:
            if exc.located:
                raise
            line = exc.line
            if line is None and exc.setting is not None:
                line = self.setting_lines.get(exc.setting)
            message = str(exc)
            missing = _MISSING_SETTING.search(message)
            if missing:
                guess = self.misspelling_of(missing.group(1), cls.known_settings())
                if guess is not None:
                    message += (f" (line {self.setting_lines[guess]} sets '{guess}': "
                                f"did you mean '{missing.group(1)}'?)")
            raise self.error(message, line, exc.setting) from None
        competition.new_event_refusals = [exc if exc.located else self.error(str(exc), exc.line, exc.setting)
                                          for exc in competition.new_event_refusals]
        where = os.path.basename(self.path)
        self.warnings += [f"{where} line {line}: {message}" if line else f"{where}: {message}"
                          for line, message in competition.control_file_warnings]
        return competition

    def misspelling_of(self, setting: str, known: set[str]) -> str | None:
        """A top-level name of this file that isn't a setting but looks like setting misspelt."""
        names = [n for n in self.setting_lines
                 if n not in known and n in self.config and not n.startswith("_")
                 and n not in self.definitions]
        close = difflib.get_close_matches(setting, names, n=1, cutoff=0.8)
        return close[0] if close else None


def _locate(path: str, line: int | None, message: str) -> str:
    where = os.path.basename(path) + (f" line {line}" if line else "")
    return f"error in control file {where}: {message}"


def competition_code_for(path: str) -> str:
    """The competition code: the control file's name without its extension.

    Raises ControlFileError for a name the output files would collide with.
    """
    base, ext = os.path.splitext(os.path.basename(path))
    if ext in FORBIDDEN_EXTENSIONS:
        raise ControlFileError(f"forbidden control file extension: {ext}")
    return base


def find_competition_type(source: str, path: str) -> str:
    """The type named by the first statement, which must be `competition_type = '...'`."""
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _TYPE_LINE.match(stripped)
        if not match:
            raise ControlFileError(_locate(
                path, number, "the first statement must be competition_type = '...'"), number)
        competition_type = match.group(2)
        if competition_type not in COMPETITION_TYPES:
            raise ControlFileError(_locate(
                path, number, f"unknown competition type: {competition_type} "
                f"(known: {', '.join(COMPETITION_TYPES)})"), number)
        return competition_type
    raise ControlFileError(_locate(path, None, "can't find competition_type"))


_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields of a compound statement (if, for, while, with, try, match) that hold statements."""


def _top_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement run in the module's namespace: those at the top level and, recursively,
    those in its if, for, while, with, try and match blocks; not those in function or class bodies."""
    for node in body:
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in _BLOCK_FIELDS:
            for child in getattr(node, name, ()):
                yield from _top_level_statements(child.body if isinstance(
                    child, (ast.ExceptHandler, ast.match_case)) else [child])


def _walrus_targets(node: ast.AST) -> Iterator[str]:
    """Names a statement's own expressions bind with ':=' (in a comprehension too, which binds
    in the enclosing scope); not in a lambda, nor in the statements of its blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.Lambda)):
            continue
        if isinstance(child, ast.NamedExpr):
            yield child.target.id
        yield from _walrus_targets(child)


def _bound_names(node: ast.stmt) -> Iterator[str]:
    """The names a statement binds in the namespace it runs in."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        yield from (alias.asname or alias.name.split(".")[0] for alias in node.names)
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    for target in targets:
        yield from (n.id for n in ast.walk(target)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    yield from _walrus_targets(node)


def _definitions(tree: ast.Module) -> set[str]:
    """The names the file's def, class and import statements bind in its namespace."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    return {name for node in _top_level_statements(tree.body) if isinstance(node, kinds)
            for name in _bound_names(node)}


def _assignment_lines(tree: ast.Module) -> dict[str, int]:
    """{name: line of its last binding} for every name the file binds in its own namespace."""
    lines: dict[str, int] = {}
    for node in _top_level_statements(tree.body):
        for name in _bound_names(node):
            lines[name] = node.lineno
    return lines


def _names_read(tree: ast.Module) -> set[str]:
    """Every name the file reads anywhere: at its top level, in comprehensions and in its functions."""
    return {node.id for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _error_line(exc: BaseException, path: str) -> int | None:
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == path:
            line = lineno
    return line


def load_control_file(path: str) -> ControlFile:
    """Read and run a control file.

    Raises ControlFileError (one line, with the file and line) for a missing or
    unreadable file, a missing competition_type, or an error while running it.
    """
    code = competition_code_for(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise ControlFileError(f"control file {path} not found") from None
    except OSError as exc:
        raise ControlFileError(f"can't read control file {path}: {exc.strerror}") from None
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ControlFileError(f"control file {path}: file is not encoded in utf-8") from None
    competition_type = find_competition_type(source, path)
    try:
        tree = ast.parse(source, path)
        compiled = compile(tree, path, "exec")
    except SyntaxError as exc:
        raise ControlFileError(_locate(path, exc.lineno, f"SyntaxError: {exc.msg}"),
                               exc.lineno) from None
    cls = get_competition_class(competition_type)
    provided = dict(cls.control_file_globals())
    provided["PYTHON"] = sys.executable
    namespace: dict[str, Any] = dict(provided)
    namespace.update({"__name__": "__control_file__", "__file__": os.path.abspath(path),
                      "__ringmaster_control_file__": True, "__builtins__": __builtins__})
    try:
        exec(compiled, namespace)
    except ControlFileError as exc:
        line = _error_line(exc, path)
        raise ControlFileError(_locate(path, line, str(exc)), line) from None
    except Interrupt:
        raise   # Ctrl-C or SIGTERM while it ran: the run is interrupted
    except SystemExit as exc:
        line = _error_line(exc, path)
        raise ControlFileError(_locate(
            path, line, f"the control file called sys.exit({exc.code!r}); a control file "
            f"only defines settings"), line) from None
    except BaseException as exc:  # noqa: BLE001 (a control file may raise anything)
        line = _error_line(exc, path)
        raise ControlFileError(_locate(path, line, describe_user_exception(exc)), line) from None
    config = {name: value for name, value in namespace.items()
              if not name.startswith("__") and provided.get(name, _MISSING) is not value}
    lines = _assignment_lines(tree)
    control_file = ControlFile(path, code, competition_type, config, lines, _definitions(tree))
    control_file.warnings = setting_warnings(control_file, cls.known_settings(), _names_read(tree))
    return control_file


_MISSING = object()


CODE_TYPES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type, types.ModuleType)
"""Values that are the file's own code (a lambda, a class, a module): helpers, whatever their name."""

PLAIN_TYPES = (str, int, float, complex, bool, list, tuple, dict, set, frozenset, type(None))
"""Values a setting takes; a name bound to one that nothing reads looks like a setting that isn't."""


def is_helper_name(name: str) -> bool:
    """A name for the file's own use: private (_x) or a constant in UPPER_CASE (PLAYOUTS, MODELS)."""
    return name.startswith("_") or (name.upper() == name and any(c.isalpha() for c in name))


def setting_it_begins(name: str, known: set[str]) -> str | None:
    """The one setting whose name this name begins ('reuse' for 'reuse_engines'), if there is one."""
    longer = sorted(k for k in known if k.startswith(name + "_"))
    return longer[0] if len(longer) == 1 else None


def setting_warnings(control_file: ControlFile, known: set[str], names_read: set[str]) -> list[str]:
    """One warning for each top-level name that isn't a setting and has no effect.

    Helpers are silent: functions, classes, modules and imported names, and
    names the file's own code reads (anywhere: 'matchup = Matchup(...)' then
    'matchups = [matchup]'). Any other name that looks like a setting misspelt
    ('kommi') is warned whatever its value. The rest are warned when bound to a
    plain value (a string, number, bool, list, dict...): a setting this
    competition type doesn't have ('reuse = True', 'openings = ...'), which the
    user may believe is on, unless in UPPER_CASE or starting with '_'.
    """
    warnings = []
    where = os.path.basename(control_file.path)
    kind = control_file.competition_type
    for name in sorted(control_file.setting_lines, key=control_file.setting_lines.get):
        if name in known or name.startswith("_") or name not in control_file.config:
            continue
        if (name in control_file.definitions or name in names_read
                or isinstance(control_file.config[name], CODE_TYPES)):
            continue
        line = control_file.setting_lines[name]
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        if close:
            warnings.append(f"{where} line {line}: '{name}' is not a setting; did you mean '{close[0]}'?")
            continue
        if is_helper_name(name) or not isinstance(control_file.config[name], PLAIN_TYPES):
            continue
        guess = setting_it_begins(name, known)
        hint = f"; did you mean '{guess}'?" if guess else ""
        warnings.append(f"{where} line {line}: '{name}' is not a setting of {kind} and nothing in the "
                        f"file uses it, so it has no effect{hint}")
    return warnings
