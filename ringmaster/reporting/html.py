"""FILE.html: a self-contained page (inline CSS and SVG) rendered from the JSON report with jinja2."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from ringmaster.default_game import DEFAULT_GAME, game_of
from ringmaster.reporting import continuous_tuners, svg, tournaments, tuners
from ringmaster.rules import get_rules_class
from ringmaster.stats.ratings import reference_words
from ringmaster.stats.timing import format_duration


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """jinja2's cache of compiled templates, which a run can't break.

    Compiling the templates took 58-68 ms of every run (1.2 ms loaded from
    the cache, on this project's 2-core machine); the cache (by default
    in jinja2's own private directory under the temporary directory) keeps
    them compiled, recompiling a template whose source changed. A cache
    that can't be read or written is passed over.
    """

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _template_cache() -> TemplateCache | None:
    try:
        return TemplateCache()
    except (OSError, RuntimeError):   # no private temporary directory to be had
        return None


_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("ringmaster.reporting", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"]),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True, lstrip_blocks=True,
    bytecode_cache=_template_cache())


def _signed(x: float | str | None) -> str:
    """'+35'; an infinity as the JSON report gives it ('+inf', '-inf'); '--' for none."""
    if x is None:
        return "--"
    if isinstance(x, str):
        return x
    return f"{x:+.0f}"


def _percent(x: float | None) -> str:
    return "--" if x is None else f"{100 * x:.1f}%"


def _games(n: float) -> str:
    """'1 game', '3 games'."""
    return f"{n:g} game" + ("" if n == 1 else "s")


def _event_state(reason: str) -> Markup:
    """A tuner's stop_reason as the page says it, its own word once: 'The event <b>stopped:
    number_of_games (200) played</b>', 'The event is <b>still running</b>'."""
    if reason == "running":
        return Markup("The event is <b>still running</b>")
    if reason.startswith("stopped"):
        return Markup("The event <b>{}</b>").format(reason)
    return Markup("The event's state: <b>{}</b>").format(reason)


_ENVIRONMENT.filters["signed"] = _signed
_ENVIRONMENT.filters["event_state"] = _event_state
_ENVIRONMENT.filters["games"] = _games
_ENVIRONMENT.filters["percent"] = _percent
_ENVIRONMENT.filters["duration"] = format_duration
_ENVIRONMENT.filters["reference"] = reference_words


PAGES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "playoff": tournaments.playoff_context,
    "allplayall": tournaments.allplayall_context,
    "mc_tuner": tuners.mc_tuner_context,
    "ce_tuner": tuners.ce_tuner_context,
    "spsa_tuner": continuous_tuners.spsa_tuner_context,
    "bayes_tuner": continuous_tuners.bayes_tuner_context,
}
"""Each competition type's own part of the page: its template context (plots, tables)."""


GAMES_LISTED = 500
"""The most games FILE.html lists: the ones that came in last. A long run's page would list
every game (24 MB, and 10 s to build, at 100,000 games); its figures count every game."""

VOID_LISTED = 100
"""The most void games the page's faults list (the last to come in); the rest are counted."""


def render_html(report: dict[str, Any], listed: Collection[int] | None = None) -> str:
    """The HTML page for a competition's JSON report (Ringmaster.json_report()).

    listed: the places in report["games"] of the games the game index lists (RunReports.page
    gives the GAMES_LISTED that came in last); None: the last GAMES_LISTED there. Everything
    else on the page counts every game. Everything is inline: the page needs no server, no
    script and no network.
    """
    kind = report["competition_type"]
    context: dict[str, Any] = {"r": report, "kind": kind, "plots": [],
                               "games": game_rows(report, listed), "faults": faults(report),
                               "header": header_rows(report), "unlisted": unlisted(report, listed)}
    context.update(PAGES[kind](report))
    context["plots"] += common_plots(report)
    return _ENVIRONMENT.get_template("report.html.j2").render(**context)


# Header, games, faults: every competition type


def header_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    progress = report.get("progress") or {}
    games = report.get("games") or []
    played = sum(1 for g in games if g["result"] != "void")
    rows = [("competition", f"{report['competition_code']} ({report['competition_type']})")]
    all_settings = [m.get("game_settings") for m in report.get("matchups") or []]
    all_settings.append(report.get("game_settings"))
    boards = sorted({describe_game(settings) for settings in all_settings if settings})
    if boards:
        rows.append(("game", "; ".join(boards)))
    scoring = sorted({m["scoring"] for m in report.get("matchups") or [] if m.get("scoring")}
                     | ({report["scoring"]} if report.get("scoring") else set()))
    if scoring:
        rows.append(("scoring", "; ".join(scoring)))
    openings = sorted({s["openings"] for s in all_settings if s and s.get("openings")})
    if openings:
        rows.append(("openings", "; ".join(openings) + " (games 2k and 2k+1 of a matchup play "
                     "opening k, colours swapped)"))
    wanted = progress.get("games_wanted")
    rows += [
        ("started", progress.get("started") or "--"),
        ("elapsed", format_duration(progress.get("elapsed"))),
        ("games", f"{played} played" + (f" of at most {wanted}" if wanted is not None else "")
         + f", {report.get('void_games', 0)} void"),
        ("games per hour", "--" if progress.get("games_per_hour") is None
         else f"{progress['games_per_hour']:.0f}"),
        ("ETA", "no game limit" if wanted is None else "estimating (from the games after each "
         "worker's first)" if progress.get("estimating") else format_duration(progress.get("eta"))),
        ("time limits", time_limits(all_settings, report.get("player_time_controls") or {})),
        ("ringmaster", str(report.get("ringmaster_version", "?"))),
    ]
    return rows


def time_limits(all_settings: list[dict[str, Any] | None], own: dict[str, str]) -> str:
    """The header's line on time: the time controls the ringmaster keeps, or that it keeps none."""
    controls = sorted({f"{s['time_control']} (margin {s.get('time_margin', 0):g}s)"
                       for s in all_settings if s and s.get("time_control", "none") != "none"})
    controls += [f"{code}: {control}" for code, control in sorted(own.items())]
    if not controls:
        return ("none sent by the ringmaster: each engine thinks as its own options say "
                "(the limits column under Engines)")
    return ("clocks kept by the ringmaster, sent over GTP and enforced: " + "; ".join(controls)
            + " (a side without one thinks as its own options say)")


def describe_game(settings: dict[str, Any]) -> str:
    """'go 9x9, komi 7.5, handicap 2, scored by the ringmaster, move limit 1000 (simple ko, ...)'."""
    game = game_of(settings)
    rules = get_rules_class(game)
    if not rules.uses_board:   # its own settings, at their defaults where not given
        given = {name: value for name, value in settings.items() if value is not None}
        words = [game] + [f"{name.removeprefix(game + '_').replace('_', ' ')} {value}"
                          for name, value in sorted({**rules.default_options, **given}.items())
                          if name.startswith(game + "_")]
    else:
        size = settings["board_size"]
        words = [f"{game} {size}x{size}", f"komi {settings['komi']}"]
        if settings.get("handicap"):
            words.append(f"handicap {settings['handicap']} ({settings.get('handicap_style')})")
        if rules.players_may_score and settings.get("scorer") != "internal":
            words.append("scored by the players")
        else:
            words.append("scored by the ringmaster")
        words.append(f"move limit {settings.get('move_limit')}")
    return ", ".join(words) + (f" ({rules.rules_summary})" if rules.rules_summary else "")


LIMIT_WORDS = ("playout", "simulation", "second", "time", "level", "visit", "node", "depth")


def engine_limits(command: list[str]) -> str:
    """The options of an engine's command that look like limits on its thinking.

    Without a time_control, each engine thinks as its own
    options say. '--playouts 1000 --threads 1' gives '--playouts 1000'.
    """
    found = []
    for i, word in enumerate(command):
        name, equals, value = word.partition("=")
        if not name.startswith("-") or not any(w in name.lower() for w in LIMIT_WORDS):
            continue
        if not equals and i + 1 < len(command) and not command[i + 1].startswith("--"):
            value = command[i + 1]
        found.append(f"{name} {value}".strip())
    return ", ".join(found)


_ENVIRONMENT.filters["limits"] = engine_limits


def game_rows(report: dict[str, Any], listed: Collection[int] | None = None) -> list[dict[str, Any]]:
    """The games the page lists (see render_html), in game id order, with a relative link to
    each game's record where there is one (RunReports.json found it on disk: no link without
    record_games)."""
    games = report.get("games") or []
    places = _listed(games, listed)
    return [{**games[i], "link": _url_path(games[i]["record"]) if games[i].get("record") else None}
            for i in places]


def _listed(games: list[dict[str, Any]], listed: Collection[int] | None) -> list[int]:
    """The places of the games listed, in order: listed, or the last GAMES_LISTED."""
    if listed is None:
        return list(range(max(0, len(games) - GAMES_LISTED), len(games)))
    return sorted(listed)


def _stem(report: dict[str, Any]) -> str:
    """The competition's files' common stem, as the page names them ('tune' for tune.ctl, tune.hist)."""
    return (report.get("games_directory") or report["competition_code"]).removesuffix(".games")


def unlisted(report: dict[str, Any], listed: Collection[int] | None) -> dict[str, Any] | None:
    """How many games the page's index leaves out, and where every game is: the history, the
    records' directory (if the listed games have records), show --csv and --json; None if none."""
    games = report.get("games") or []
    shown = len(_listed(games, listed))
    if shown == len(games):
        return None
    stem = _stem(report)
    records = any(games[i].get("record") for i in _listed(games, listed))
    return {"listed": shown, "total": len(games), "left_out": len(games) - shown,
            "history": f"{stem}.hist", "control_file": f"{stem}.ctl",
            "records": report.get("games_directory") if records else None}


def _url_path(name: str) -> str:
    """A file name as a relative URL: its bytes percent-encoded where a URL needs it (a space,
    '#', or a byte of a name that isn't UTF-8, which the browser gives back as the same byte)."""
    return quote(name.encode("utf-8", "surrogateescape"))


def forfeit_reason(detail: str | None) -> str:
    """A forfeit's reason with the particulars (moves, numbers, quoted text) taken out.

    'forfeit by p1: attempted move to occupied point E5' and the same at D4 give
    one reason, 'attempted move to occupied point <move>'.
    """
    reason = re.sub(r"^forfeit by \S+: ", "", detail or "forfeit")
    reason = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", reason)
    reason = re.sub(r"\b[A-HJ-Ta-hj-t](1[0-9]|[1-9])\b", "<move>", reason)
    reason = re.sub(r"\d+(\.\d+)?", "N", reason)
    return reason if len(reason) <= 80 else reason[:77] + "..."


def faults(report: dict[str, Any]) -> dict[str, Any]:
    """Void games (the last VOID_LISTED, and how many in all), forfeits counted by engine and
    reason (with one game as an example), and losses on time by engine (no forfeits)."""
    games = report.get("games") or []
    void = [g for g in games if g["result"] == "void"]
    forfeits: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}
    for g in games:
        if g.get("forfeit"):
            loser = g["white"] if g.get("winner") == g["black"] else g["black"]
            key = (loser, forfeit_reason(g.get("detail")))
            forfeits[key] += 1
            example.setdefault(key, g["game_id"])
    time_losses: Counter[str] = Counter()
    for g in games:
        if g.get("time_loss"):
            time_losses[g["white"] if g.get("winner") == g["black"] else g["black"]] += 1
    return {"void": void[-VOID_LISTED:], "void_total": len(void),
            "control_file": f"{_stem(report)}.ctl" if len(void) > VOID_LISTED else None,
            "forfeits": [{"engine": e, "reason": r, "count": n, "example": example[(e, r)]}
                         for (e, r), n in sorted(forfeits.items())],
            "time_losses": sorted(time_losses.items())}


def games_in(report: dict[str, Any]) -> set[str]:
    """The games a report's settings play ('go', 'pig'...)."""
    all_settings = [m.get("game_settings") for m in report.get("matchups") or []]
    all_settings.append(report.get("game_settings"))
    return {game_of(settings) for settings in all_settings if settings} or {DEFAULT_GAME}


def common_plots(report: dict[str, Any]) -> list[str]:
    """Game length, and CPU (or wall-clock) time per move per engine."""
    games = [g for g in report.get("games") or [] if g["result"] != "void"]
    plots = []
    lengths = [g["moves"] for g in games if g.get("moves")]
    if lengths:
        labels = {get_rules_class(game).moves_label for game in games_in(report)}
        plots.append(svg.histogram("Game length", lengths, labels.pop() if len(labels) == 1 else "moves",
                                   bins=min(20, max(5, len(set(lengths)))), integer=True))
    opponent = report.get("opponent")

    def engine(code: str) -> str:
        """Tuners' candidates (one code per game) are shown together."""
        return code if opponent is None or code == opponent else "candidates"
    per_engine: dict[str, list[float]] = defaultdict(list)
    for g in games:
        moves = g.get("moves") or 0
        if moves < 2:
            continue
        for colour, cpu in (("black", g.get("cpu_black")), ("white", g.get("cpu_white"))):
            if cpu is not None:
                per_engine[engine(g[colour])].append(cpu / (moves / 2))
    if per_engine:
        bars = [(engine, sum(v) / len(v), min(v), max(v)) for engine, v in sorted(per_engine.items())]
        plots.append(svg.bar_chart("CPU time per move (mean; whisker: min to max per game)",
                                   bars, "seconds"))
    else:
        seconds = [g["seconds"] / g["moves"] for g in games if g.get("seconds") and g.get("moves")]
        if seconds:
            plots.append(svg.histogram("Wall-clock time per move, both engines (the engines "
                                       "report no CPU time)", seconds, "seconds per move"))
    return plots


# Playoffs and all-play-alls










# mc_tuner














# ce_tuner


