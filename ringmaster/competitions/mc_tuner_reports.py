"""mc_tuner's descriptions and reports: candidates named, the tree dumped, the text report, the JSON."""

from __future__ import annotations

from typing import Any, TextIO

from ringmaster.competitions.matchup_stats import render_table
from ringmaster.competitions.tuner_values import describe_record, plain_value
from ringmaster.competitions.verdict import selection_bias_warning
from ringmaster.stats.win_rates import ELO_METHOD, elo_json, format_elo, wilson_interval
from ringmaster.tuning.tree import BEST_RULE, Node, Path


class McTunerReports:
    """A mixin of McTuner: its descriptions of candidates and of the tree, its text reports and its
    JSON report. It uses the tuner's tree, parameters, settings and statistics (stop_reason,
    best_probability, verdict, edge_warnings) and Tuner's reports' head and confirmation games.
    """

    def describe_path(self, path: Path) -> str:
        """'c: 0.123 [cell 3]', or '... [cell 3 > 1]' at depth 2."""
        parameters = self.format_optimiser_parameters(self.tree.parameters_for_path(path))
        return f"{parameters} [cell {self.tree.describe_path(path)}]"

    def _node_line(self, path: Path, node: Node) -> str:
        """The history's tree dump line: 'cell parameters win rate games'."""
        parameters = self.format_optimiser_parameters(self.tree.parameters_for_path(path))
        rate = f"{node.won / node.games:.3f}" if node.games else "--"
        return f"cell {self.tree.describe_step(len(path) - 1, path[-1])}: {parameters}  win rate {rate}  " \
               f"games {node.games}"

    def describe_tree(self) -> str:
        """The history file's tree dump: the first generation, and the second under expanded nodes."""
        root = self.tree.root
        rate = f"{root.won / root.games:.3f}" if root.games else "--"
        lines = [f"{root.count_nodes()} nodes", f"Win rate {root.won:g}/{root.games} = {rate}"]
        for i, node in enumerate(root.children or ()):
            lines.append("  " + self._node_line((i,), node))
            for j, child in enumerate(node.children or ()):
                lines.append("    " + self._node_line((i, j), child))
        return "\n".join(lines)

    def summary_rows(self, depth: int, count: int) -> list[list[str]]:
        """The most-visited candidates at a depth: a header row, then one row each."""
        generation = self.tree.generations(depth)
        shown = sorted(generation, key=lambda item: (-item[1].visits, item[0]))[:max(count, 0)]
        best = self.tree.best_path()
        rows = [["cell", *(spec.code for spec in self.parameter_specs), "wins", "games",
                 "win rate", "95% interval", ""]]
        for path, node in sorted(shown, key=lambda item: item[0]):
            values = self.convert(self.tree.parameters_for_path(path))
            cells = self.format_engine_parameters(values).split("; ")
            if len(cells) != len(self.parameter_specs):
                cells = [repr(v) for v in values]
            row = [self.tree.describe_path(path), *cells, f"{node.won:g}", str(node.games)]
            if node.games:
                low, high = wilson_interval(node.won, node.games)
                row += [f"{node.won / node.games:.3f}", f"[{low:.3f}, {high:.3f}]"]
            else:
                row += ["--", "--"]
            row.append("<- leader" if path == best else "")
            rows.append(row)
        return rows

    def write_summary(self, out: TextIO) -> None:
        for depth, count in enumerate(self.summary_spec, start=1):
            if not self.tree.generations(depth):
                break
            out.write(f"most visited candidates at depth {depth} (win rates are of the "
                      f"candidate against the opponent)\n")
            out.writelines(line + "\n" for line in render_table(self.summary_rows(depth, count)))
            out.write("\n")

    def _write_main_report(self, out: TextIO) -> None:
        played = self.tuning_games_played()
        unscored = (f" ({self.no_result_games} with no result, in no candidate's record)"
                    if self.no_result_games else "")
        if self.number_of_games is None:
            out.write(f"{played} tuning games played{unscored}\n")
        else:
            out.write(f"{played}/{self.number_of_games} tuning games played{unscored}\n")
        out.write(f"state: {self.stop_reason()}\n")
        if self.stop_when_confident is not None:
            out.write(f"stop_when_confident: target {self.stop_when_confident:g}, now "
                      f"{self.best_probability():.3f} (the probability that the recommended "
                      f"candidate is better than every other)\n")
        out.write("\n")
        out.writelines(line + "\n" for line in self.verdict().lines())
        out.write("\n")
        best = self.tree.best_path()
        if not best:
            out.write("Leader: none yet (" + ("the most-played candidate doesn't look better than an "
                      "untried one" if self.tree.root.games else "no tuning game has a result") + ")\n")
            if self.confirmation_note():
                out.write(f"  the confirmation games are for {self.confirm_label}, "
                          f"{self.confirmation_note()}\n")
        else:
            node = self.tree.node_for_path(best)
            out.write(f"Leader: {self.describe_path(best)}\n")
            out.write(f"  record {describe_record(node.won, node.games)}  "
                      f"Elo vs opponent {format_elo(node.won, node.games)}\n")
            out.write(f"  probability it is better than every other candidate: "
                      f"{self.best_probability():.3f}\n")
            out.write(f"  {selection_bias_warning(self.confirm_games)}\n")
        out.write(f"  (how it is chosen: {BEST_RULE})\n")
        out.write("\n")
        self.write_summary(out)
        if self.confirm_games > 0:
            self.write_confirmation_report(out)
            out.write("\n")

    def write_screen_report(self, out: TextIO) -> None:
        self._write_main_report(out)
        if self.outstanding:
            out.write("In progress:\n")
            shown = sorted(self.outstanding.items())[:self.number_of_running_simulations_to_show]
            out.writelines(f"game {number}: {self.describe_path(path)}\n" for number, path in shown)

    def write_short_report(self, out: TextIO) -> None:
        self.write_static_description(out)
        self._write_main_report(out)
        self.write_opponent_line(out)
        out.write(ELO_METHOD + "\n")

    def _candidate_json(self, path: Path, n: Node) -> dict[str, Any]:
        low, high = wilson_interval(n.won, n.games)
        engine = self.convert(self.tree.parameters_for_path(path))
        return {"path": list(path), "cell": self.tree.describe_path(path),
                "parameters": self.format_engine_parameters(engine),
                "parameter_values": [plain_value(v) for v in engine],
                "parameter_labels": [self.format_engine_parameters((v,)) if len(engine) == 1
                                     else _format_one(spec.format, v)
                                     for spec, v in zip(self.parameter_specs, engine)],
                "optimiser_parameters": self.tree.parameters_for_path(path),
                "games": n.games, "wins": n.won,
                "win_rate": n.won / n.games if n.games else None,
                "win_rate_95": [low, high] if n.games else None}

    def _tree_json(self, path: Path, node: Node) -> dict[str, Any]:
        result = self._candidate_json(path, node)
        result["children"] = [self._tree_json(path + (i,), child)
                              for i, child in enumerate(node.children or ())]
        return result

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        best = self.tree.best_path()
        best_json = None
        if best:
            node = self.tree.node_for_path(best)
            best_json = {**self._candidate_json(best, node),
                         "probability_best": self.best_probability(),
                         **elo_json(node.won, node.games),
                         "edge_warnings": self.edge_warnings(best)}
        report.update({
            "games_played": self.tuning_games_played(),
            "no_result_games": self.no_result_games,
            "number_of_games": self.number_of_games,
            "stopped_confident": self.confident,
            "stop_reason": self.stop_reason(),
            "stop_when_confident": self.stop_when_confident,
            "probability_best": self.best_probability(),
            "best_rule": BEST_RULE,
            "verdict": self.verdict().to_json(),
            "max_depth": self.tree.max_depth,
            "splits": self.tree.splits,
            "parameter_codes": [spec.code for spec in self.parameter_specs],
            "best": best_json,
            "candidates": [self._candidate_json(p, n) for d in range(1, self.tree.max_depth + 1)
                           for p, n in self.tree.generations(d)],
            "tree": [self._tree_json((i,), child)
                     for i, child in enumerate(self.tree.root.children or ())],
            "confirmation": self.confirmation_json(),
            "opponent": self.opponent.code,
            "opponent_description": self.opponent_description,
            "board_size": self.game_settings["board_size"],
            "komi": self.game_settings["komi"],
            "elo_method": ELO_METHOD,
        })
        return report


def _format_one(fmt: str, value: Any) -> str:
    """One parameter's value in its own format ('c: 0.067'), or repr() if the format fails."""
    try:
        return fmt % (value,)
    except Exception:  # noqa: BLE001 (user formats may raise anything)
        return repr(value)

