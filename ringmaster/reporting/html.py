"""FILE.html: a self-contained page (inline CSS and SVG) rendered from the JSON report with jinja2."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import Any

import jinja2

from ringmaster.reporting import continuous_tuners, svg
from ringmaster.rules import get_rules_class
from ringmaster.stats.timing import format_duration
from ringmaster.stats.win_rates import elo_interval, format_elo, likelihood_of_superiority, wilson_interval


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


def _signed(x: float | None) -> str:
    if x is None:
        return "inf"
    return f"{x:+.0f}"


def _percent(x: float | None) -> str:
    return "--" if x is None else f"{100 * x:.1f}%"


_ENVIRONMENT.filters["signed"] = _signed
_ENVIRONMENT.filters["percent"] = _percent
_ENVIRONMENT.filters["duration"] = format_duration


def render_html(report: dict[str, Any]) -> str:
    """The HTML page for a competition's JSON report (Ringmaster.json_report()).

    Everything is inline: the page needs no server, no script and no network.
    """
    kind = report["competition_type"]
    context: dict[str, Any] = {"r": report, "kind": kind, "plots": [],
                               "games": game_rows(report), "faults": faults(report),
                               "header": header_rows(report)}
    if kind in ("playoff", "allplayall"):
        context.update(tournament_context(report))
    elif kind == "mc_tuner":
        context.update(mc_tuner_context(report))
    elif kind == "ce_tuner":
        context.update(ce_tuner_context(report))
    elif kind == "spsa_tuner":
        context.update(continuous_tuners.spsa_tuner_context(report))
    elif kind == "bayes_tuner":
        context.update(continuous_tuners.bayes_tuner_context(report))
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
    wanted = progress.get("games_wanted")
    rows += [
        ("started", progress.get("started") or "--"),
        ("elapsed", format_duration(progress.get("elapsed"))),
        ("games", f"{played} played" + (f" of at most {wanted}" if wanted is not None else "")
         + f", {report.get('void_games', 0)} void"),
        ("games per hour", "--" if progress.get("games_per_hour") is None
         else f"{progress['games_per_hour']:.0f}"),
        ("ETA", format_duration(progress.get("eta")) if wanted is not None else "no game limit"),
        ("time limits", "none sent by the ringmaster: each engine thinks as its own options say "
         "(the limits column under Engines)"),
        ("ringmaster", str(report.get("ringmaster_version", "?"))),
    ]
    return rows


def describe_game(settings: dict[str, Any]) -> str:
    """'go 9x9, komi 7.5, handicap 2, scored by the referee, move limit 1000 (simple ko, ...)'."""
    game = settings.get("game", "go")
    rules = get_rules_class(game)
    if not rules.uses_board:
        words = [game] + [f"{name.removeprefix(game + '_').replace('_', ' ')} {value}"
                          for name, value in sorted(settings.items())
                          if name.startswith(game + "_")]
    else:
        size = settings["board_size"]
        words = [f"{game} {size}x{size}", f"komi {settings['komi']}"]
        if settings.get("handicap"):
            words.append(f"handicap {settings['handicap']} ({settings.get('handicap_style')})")
        if rules.players_may_score:
            words.append("scored by the referee" if settings.get("scorer") == "internal"
                         else "scored by the players (the referee when they disagree)")
        else:
            words.append("scored by the referee")
        words.append(f"move limit {settings.get('move_limit')}")
    return ", ".join(words) + (f" ({rules.rules_summary})" if rules.rules_summary else "")


LIMIT_WORDS = ("playout", "simulation", "second", "time", "level", "visit", "node", "depth")


def engine_limits(command: list[str]) -> str:
    """The options of an engine's command that look like limits on its thinking.

    The ringmaster sends no time controls: each engine thinks as its own
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


def game_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The game index, with each SGF's relative link."""
    directory = report.get("games_directory") or ""
    void_directory = directory[:-len(".games")] + ".void" if directory.endswith(".games") else ""
    rows = []
    for g in report.get("games") or []:
        void = g["result"] == "void"
        folder = void_directory if void else directory
        rows.append({**g, "link": f"{folder}/{g['game_id']}.sgf" if folder else None})
    return rows


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
    """Void games, and forfeits counted by engine and reason (with one game as an example)."""
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
    return {"void": void,
            "forfeits": [{"engine": e, "reason": r, "count": n, "example": example[(e, r)]}
                         for (e, r), n in sorted(forfeits.items())]}


def common_plots(report: dict[str, Any]) -> list[str]:
    """Game length, and CPU (or wall-clock) time per move per engine."""
    games = [g for g in report.get("games") or [] if g["result"] != "void"]
    plots = []
    lengths = [g["moves"] for g in games if g.get("moves")]
    if lengths:
        plots.append(svg.histogram("Game length", lengths, "moves (passes included)",
                                   bins=min(20, max(5, len(set(lengths))))))
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


ELO_PLOT_LIMIT = 800.0


def elo_path(results: list[dict[str, Any]], player: str) -> svg.Series:
    """Elo of `player` after each game with a result, with its 95% interval.

    Infinite values (every game won, or lost, so far) are drawn at +-ELO_PLOT_LIMIT.
    """
    points, lows, highs = [], [], []
    score = decided = 0.0
    for r in results:
        if r["sgf_result"] == "0":
            score += 0.5
        elif r["winning_colour"] is None:
            continue
        elif (r["player_b"] if r["winning_colour"] == "b" else r["player_w"]) == player:
            score += 1
        decided += 1
        point, low, high = (max(-ELO_PLOT_LIMIT, min(ELO_PLOT_LIMIT, v))
                            for v in elo_interval(score, decided))
        points.append((decided, point))
        lows.append(low)
        highs.append(high)
    return svg.Series("Elo", points, lows, highs)


def tournament_context(report: dict[str, Any]) -> dict[str, Any]:
    plots = []
    matchups = []
    for m in report["matchups"]:
        s = m["stats"]
        entry = {"m": m, "s": s, "los": likelihood_of_superiority(
            s["wins_1"] - s["jigos"] / 2, s["wins_2"] - s["jigos"] / 2),
            "elo_text": format_elo(s["wins_1"], s["decided"])}
        matchups.append(entry)
        if report["competition_type"] == "allplayall":
            continue
        series = elo_path(m["results"], s["player_1"])
        if len(series.points) >= 2:
            clipped = any(abs(v) >= ELO_PLOT_LIMIT for _, v in series.points)
            prefix = f"{m['name'] or m['id']}: " if len(report["matchups"]) > 1 else ""
            plots.append(svg.line_chart(
                f"{prefix}Elo of {s['player_1']} over games (95% band"
                + (f"; ±inf drawn at ±{ELO_PLOT_LIMIT:.0f}" if clipped else "") + ")",
                [series], "games with a result", "Elo", hlines=[(0.0, "", "#555")]))
        sprt = m.get("sprt")
        if sprt and sprt["path"]:
            plots.append(svg.line_chart(
                f"{m['name'] or m['id']}: SPRT log-likelihood ratio",
                [svg.Series("LLR", [(0, 0.0)] + [(g, llr) for g, llr in sprt["path"]])],
                "games counted", "LLR",
                hlines=[(sprt["upper_bound"], f"H1 (elo >= {sprt['elo1']:g})", "#2e9d4a"),
                        (sprt["lower_bound"], f"H0 (elo <= {sprt['elo0']:g})", "#c0392b")]))
    cross = None
    if report["competition_type"] == "allplayall" or (report.get("ratings") is not None):
        cross = cross_table(report)
    return {"matchups": matchups, "plots": plots, "cross": cross}


def cross_table(report: dict[str, Any]) -> dict[str, Any]:
    """Player x player: score and games of the row player against the column one."""
    players: list[str] = []
    cells: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for m in report["matchups"]:
        s = m["stats"]
        a, b = s["player_1"], s["player_2"]
        for p in (a, b):
            if p not in players:
                players.append(p)
        cells[(a, b)][0] += s["wins_1"]
        cells[(b, a)][0] += s["wins_2"]
        cells[(a, b)][1] += s["decided"]
        cells[(b, a)][1] += s["decided"]
    rows = []
    for a in players:
        row = []
        for b in players:
            won, games = cells.get((a, b), [0.0, 0.0]) if a != b else (None, None)
            row.append(None if won is None else {"won": won, "games": games,
                                                 "rate": won / games if games else None})
        rows.append((a, row))
    return {"players": players, "rows": rows}


# mc_tuner


def mc_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    plots = []
    codes = report["parameter_codes"]
    splits = report["splits"]
    candidates = [c for c in report["candidates"] if c["games"]]
    best = report.get("best")
    best_path = best["path"] if best else None
    for i, code in enumerate(codes):
        if splits[i] <= 1:
            continue
        groups: dict[tuple[int, float], list[Any]] = {}
        for c in candidates:
            key = (len(c["path"]), round(c["optimiser_parameters"][i], 9))
            entry = groups.setdefault(key, [0, 0, _value_text(c["parameter_labels"][i], code),
                                            False])
            entry[0] += c["wins"]
            entry[1] += c["games"]
            if best_path is not None and c["path"] == best_path:
                entry[3] = True
        estimates, ticks = [], {}
        for (depth, x), (won, games, label, highlight) in sorted(groups.items()):
            low, high = wilson_interval(won, games)
            estimates.append(svg.Estimate(x, won / games, low, high, games, highlight,
                                          group=depth - 1))
            if depth == 1:
                ticks[x] = _short(label)
        if not ticks:
            ticks = {x: "" for (_, x) in groups}
        legend = [f"depth {d}" for d in range(1, report["max_depth"] + 1)] \
            if report["max_depth"] > 1 else []
        title = f"Win rate by {code}" + (" (over the other parameters)" if len(codes) > 1 else "")
        plots.append(svg.error_bar_chart(
            title + "; red: recommended; bars: 95%; size: games", estimates,
            sorted(ticks.items()), code, "win rate against the opponent",
            hlines=[(0.5, "even", "#888")], legend=legend))
    tuned = [i for i, split in enumerate(splits) if split > 1]
    if len(tuned) == 2:
        plots.append(heat_map_plot(report, tuned[0], tuned[1]))
    plots.append(best_candidate_plot(report))
    first_level = [c for c in report["candidates"] if len(c["path"]) == 1]
    return {"plots": [p for p in plots if p], "tree": report["tree"] if report["max_depth"] > 1
            else None, "best_path": best_path,
            "untried": [c for c in first_level if not c["games"]], "first_level": first_level,
            "best_elo": format_elo(best["wins"], best["games"]) if best else ""}


def _value_text(label: str, code: str) -> str:
    """'0.067' from 'c: 0.067' (a format that names its parameter)."""
    for prefix in (f"{code}: ", f"{code}:", f"{code}="):
        if label.startswith(prefix):
            return label[len(prefix):].strip()
    return label


def _short(label: str) -> str:
    return label if len(label) <= 9 else f"{float(label):.3g}" if _is_number(label) else label[:9]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def heat_map_plot(report: dict[str, Any], i: int, j: int) -> str:
    """Win rates of the first generation over two parameters."""
    codes, splits = report["parameter_codes"], report["splits"]
    first = [c for c in report["candidates"] if len(c["path"]) == 1]
    xs = sorted({round(c["optimiser_parameters"][i], 9) for c in first})
    ys = sorted({round(c["optimiser_parameters"][j], 9) for c in first})
    grid: dict[tuple[float, float], list[int]] = defaultdict(lambda: [0, 0])
    labels_x: dict[float, str] = {}
    labels_y: dict[float, str] = {}
    for c in first:
        x, y = round(c["optimiser_parameters"][i], 9), round(c["optimiser_parameters"][j], 9)
        grid[(x, y)][0] += c["wins"]
        grid[(x, y)][1] += c["games"]
        labels_x[x] = _short(_value_text(c["parameter_labels"][i], codes[i]))
        labels_y[y] = _short(_value_text(c["parameter_labels"][j], codes[j]))
    cells = [[((grid[(x, y)][0] / grid[(x, y)][1]) if grid[(x, y)][1] else None, grid[(x, y)][1])
              for x in xs] for y in ys]
    del splits
    return svg.heat_map(f"Win rate over {codes[i]} and {codes[j]} (numbers: games; red is "
                        "better)", cells, [labels_x[x] for x in xs], [labels_y[y] for y in ys],
                        codes[i], codes[j])


def best_candidate_plot(report: dict[str, Any]) -> str:
    """The recommended candidate's win rate over its tuning games, with its 95% band."""
    best = report.get("best")
    if not best:
        return ""
    path = best["path"]
    opponent = report["opponent"]
    points, lows, highs = [], [], []
    won = games = 0
    for g in report.get("games") or []:
        data = g.get("data")
        if g["result"] == "void" or not isinstance(data, list) or len(data) != 2 \
                or data[0] == "confirm" or list(data[1])[:len(path)] != path:
            continue
        games += 1
        won += int(g.get("winner") not in (None, opponent))
        low, high = wilson_interval(won, games)
        points.append((games, won / games))
        lows.append(low)
        highs.append(high)
    if len(points) < 2:
        return ""
    return svg.line_chart("Recommended candidate: win rate over its games (band: 95%)",
                          [svg.Series("win rate", points, lows, highs)],
                          "games of this candidate", "win rate", y_range=(0.0, 1.0),
                          hlines=[(0.5, "even", "#888")])


# ce_tuner


def ce_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    plots = []
    history = report.get("history") or []
    for i, code in enumerate(report["parameter_codes"]):
        generations = [h["generation"] for h in history]
        means = [h["means"][i] for h in history]
        spreads = [math.sqrt(max(h["variances"][i], 0.0)) for h in history]
        if len(generations) < 1:
            continue
        plots.append(svg.line_chart(
            f"{code}: mean by generation (band: +-1 standard deviation), optimiser units",
            [svg.Series(code, list(zip(generations, means)),
                        [m - s for m, s in zip(means, spreads)],
                        [m + s for m, s in zip(means, spreads)])],
            "generation", code))
    return {"plots": plots}
