"""ce_tuner: the cross-entropy method; generations of Gaussian samples, each playing a batch of games."""

from __future__ import annotations

from typing import Any, TextIO

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.confirmation import default_confirm_games
from ringmaster.competitions.matchup_stats import render_table
from ringmaster.competitions.scheduling import GroupScheduler
from ringmaster.competitions.state_changes import changed_since_state, parameters_changed, shown_apart
from ringmaster.competitions.tuner import Tuner
from ringmaster.competitions.tuner_values import describe_record, plain_value, short_value
from ringmaster.competitions.verdict import Verdict, selection_bias_warning
from ringmaster.errors import CallbackError, CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.result import format_float
from ringmaster.settings import (
    Setting,
    interpret_float,
    interpret_positive_int,
    load_settings,
)
from ringmaster.stats.win_rates import ELO_METHOD, format_elo
from ringmaster.tuning.cross_entropy import (
    Distribution,
    elite_count,
    format_distribution,
    rank_candidates,
    sample,
    update_distribution,
)
from ringmaster.tuning.parameters import (
    CE_PARAMETER_SETTINGS,
    CeParameter,
    apply_scale,
    ce_parameter_spec,
    load_parameters,
)

CE_SETTINGS = [
    Setting("number_of_generations", interpret_positive_int),
    Setting("samples_per_generation", interpret_positive_int),
    Setting("batch_size", interpret_positive_int),
    Setting("elite_proportion", interpret_float),
    Setting("step_size", interpret_float),
]

INCONSISTENT = "status file is inconsistent with control file"


def candidate_code(generation: int, number: int) -> str:
    return f"g{generation}#{number}"


class CeTuner(Tuner):
    """The cross-entropy tuner. Game ids are like 'g0#1r3': generation 0, candidate 1, round 3.

    Confirmation games (confirm_games) have ids 'c0', 'c1', ... and are played by
    the final distribution's mean, with the candidate code 'best'.
    """

    competition_type = "ce_tuner"
    event_name = "CEM"
    status_format_version = 1
    parameter_class = CeParameter
    confirms_against_start = True

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {s.name for s in CE_SETTINGS}

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        self.load_tuner_settings(config, require_fractional_komi=False)
        settings = load_settings(CE_SETTINGS, config)
        for name in ("elite_proportion", "step_size"):
            if not 0.0 < settings[name] < 1.0:
                raise ControlFileError(f"'{name}': out of range (0.0 to 1.0, exclusive)",
                                       setting=name)
        self.number_of_generations: int = settings["number_of_generations"]
        self.samples_per_generation: int = settings["samples_per_generation"]
        self.batch_size: int = settings["batch_size"]
        self.elite_proportion: float = settings["elite_proportion"]
        self.step_size: float = settings["step_size"]
        self.parameter_specs = load_parameters(
            config.get("parameters"), CeParameter, CE_PARAMETER_SETTINGS, ce_parameter_spec)
        self.initial_distribution: Distribution = [
            (spec.initial_mean, spec.initial_variance) for spec in self.parameter_specs]
        self.check_make_candidate(self.sample_engine_parameters())
        self.seen_successful_game = False
        if not self.confirm_games_given:
            self.confirm_games = default_confirm_games(
                self.number_of_generations * self.samples_per_generation * self.batch_size)

    def sample_engine_parameters(self) -> tuple:
        return self.convert(self.start_parameters())

    def start_parameters(self) -> list[float]:
        return [mean for mean, _ in self.initial_distribution]

    # State

    def set_clean_status(self) -> None:
        self.generation = 0
        self.distribution = list(self.initial_distribution)
        self.history: list[Distribution] = [list(self.distribution)]
        self.opponent_description: str | None = None
        self.clean_confirmation()
        self._new_generation()

    def _new_generation(self) -> None:
        self.sample_parameters = [sample(self.distribution, self.rng)
                                  for _ in range(self.samples_per_generation)]
        self.wins: list[float] = [0.0] * self.samples_per_generation   # a jigo counts half
        self.scored: list[int] = [0] * self.samples_per_generation   # games with a result
        self.scheduler = GroupScheduler()
        self._set_groups()

    def _set_groups(self) -> None:
        self.scheduler.set_groups([(str(i), self.batch_size)
                                   for i in range(self.samples_per_generation)])

    def get_status(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "distribution": [list(p) for p in self.distribution],
            "sample_parameters": self.sample_parameters,
            "wins": self.wins,
            "scored": self.scored,
            "scheduler": self.scheduler.to_json(),
            "opponent_description": self.opponent_description,
            "confirmation": self.confirmation_to_json(),
            "history": [[list(p) for p in d] for d in self.history],
            "codes": [spec.code for spec in self.parameter_specs],
            **self.opponent_status(),
            **self.transforms_status(),
        }

    def transforms_status(self) -> dict[str, Any]:
        """The state's record of what maps its distribution (optimiser units) to engine values: each
        parameter's initial mean (the start, which confirmation games play) and its transform's value
        there."""
        means = self.start_parameters()
        return {"start": means, "transforms": [plain_value(v) for v in self.convert(means)]}

    def check_transforms_status(self, status: dict[str, Any]) -> None:
        """Refuse a resume whose transforms changed at the state's initial means (the distribution and
        the samples would be played at other engine values), or whose initial means changed where the
        state's confirmation games play the start (state_plays_start). A state written before these
        were kept has neither, and is accepted. Call once the parameter codes are known to match."""
        start, transforms = status.get("start"), status.get("transforms")
        if start is None or transforms is None:
            return
        start = [float(mean) for mean in start]
        if self.state_plays_start(status.get("confirmation")):
            for spec, old_mean, new_mean in zip(self.parameter_specs, start, self.start_parameters(),
                                                strict=True):
                if old_mean != new_mean:
                    [shown_new], [shown_old] = shown_apart([new_mean], [old_mean])
                    raise changed_since_state(f"parameter {spec.code}: 'initial_mean'", shown_new,
                                              shown_old)
        for spec, mean, now_mean, old in zip(self.parameter_specs, start, self.start_parameters(),
                                             transforms, strict=True):
            try:
                new = plain_value(apply_scale(spec, spec.convert, mean))
            except CallbackError as exc:   # it fails where the games so far had a value
                new = f"an error ({exc})"
            if old != new:
                [shown_new], [shown_old] = shown_apart([new], [old])
                where = "the initial mean" if mean == now_mean else "the earlier initial mean"
                raise changed_since_state(f"parameter {spec.code}: 'transform' at {where} ({mean:g})",
                                          shown_new, shown_old)

    def set_status(self, status: dict[str, Any]) -> None:
        self.check_opponent_status(status)
        try:
            distribution = [(float(m), float(v)) for m, v in status["distribution"]]
            samples = [[float(x) for x in s] for s in status["sample_parameters"]]
            codes = [spec.code for spec in self.parameter_specs]
            before = status.get("codes")   # absent: a state written before the codes were kept
            if (before is not None and before != codes) or len(distribution) != len(codes):
                raise parameters_changed(codes, len(distribution) if before is None else before)
            if len(samples) != self.samples_per_generation:
                raise changed_since_state("'samples_per_generation'", self.samples_per_generation,
                                          len(samples))
            if any(len(s) != len(distribution) for s in samples):
                raise ValueError("a sample's size")
            self.check_transforms_status(status)
            self.generation = int(status["generation"])
            self.distribution = distribution
            self.sample_parameters = samples
            self.wins = [float(w) for w in status["wins"]]
            scored = status.get("scored")
            self.scored = [] if scored is None else [int(n) for n in scored]
            if scored is not None and len(self.scored) != len(self.wins):
                raise ValueError("scored")
            self.scheduler = GroupScheduler.from_json(status["scheduler"])
            self.opponent_description = status["opponent_description"]
            self.clean_confirmation()
            self.confirmation_from_json(status["confirmation"])
            history = status.get("history") or [distribution]   # states before the report
            self.history = [[(float(m), float(v)) for m, v in d] for d in history]
        except (KeyError, ValueError, TypeError):
            raise CompetitionError(INCONSISTENT) from None
        self._set_groups()   # batch_size may have changed
        if not self.scored:
            # A state from before games with no result were left out: they counted half a win,
            # in wins, so every game played is in its record (and stays there).
            self.scored = [self._candidate_games(i) for i in range(len(self.wins))]
        self.scheduler.rollback()

    # Games

    def tuning_over(self) -> bool:
        return self.generation >= self.number_of_generations

    def is_complete(self) -> bool:
        return self.tuning_over() and self.confirmation_complete()

    def _generation_fixed(self) -> bool:
        return all(len(self.scheduler.schedulers[str(i)].fixed) >= self.batch_size
                   for i in range(self.samples_per_generation))

    def get_game(self) -> GameJob | NoGameAvailable:
        if self.tuning_over():
            if self.confirm_games <= 0:
                return NO_GAME
            if self.confirm_parameters is None:
                means = [mean for mean, _ in self.distribution]
                self.start_confirmation(means, self.format_optimiser_parameters(means))
            job = self.get_confirmation_game()
            return NO_GAME if job is None else job
        issued = self.scheduler.issue()
        if issued is None:
            return NO_GAME
        group, round_number = issued
        number = int(group)
        code = candidate_code(self.generation, number)
        engine_parameters = self.convert(self.sample_parameters[number])
        candidate = self.make_candidate(code, engine_parameters)
        return self.make_tuning_job(f"{code}r{round_number}", [number, code, round_number],
                                    candidate, engine_parameters)

    def process_game_result(self, response: GameJobResult) -> str | None:
        self.seen_successful_game = True
        self.note_opponent(response)
        if self.is_confirmation(response.game_data):
            return self.process_confirmation_result(response)
        number, code, round_number = response.game_data
        if code != candidate_code(self.generation, number):
            return None   # a late result from an earlier generation
        self.scheduler.fix(str(number), round_number)
        result = response.game_result
        score = self.candidate_score(response)
        if score is not None:   # a game with no result is in no record (played: not replayed)
            self.wins[number] += score
            self.scored[number] += 1
        outcome = {None: "got no result", 1.0: "won", 0.0: "lost"}.get(score, "drew")
        parameters = self.format_optimiser_parameters(self.sample_parameters[number])
        if self._generation_fixed():
            self._finish_generation()
        return f"{parameters} [sample {code}] {outcome} {result.sgf_result}"

    def process_game_error(self, job: GameJob, previous_error_count: int) -> tuple[bool, bool]:
        """Halt if no game has succeeded in this run; otherwise replay it once, halting on a second failure.

        The replay is issued by this tuner (the same game id comes back from
        get_game), so retry is always False.
        """
        if self.is_confirmation(job.game_data):
            return self.process_confirmation_error(job, not self.seen_successful_game)
        stop = not self.seen_successful_game or self.count_error(job.game_id) > 0
        if not stop:
            number, _, round_number = job.game_data
            self.scheduler.retry(str(number), round_number)
        return stop, False

    def _finish_generation(self) -> None:
        ranking = rank_candidates(self.wins, self.scored)
        count = elite_count(self.elite_proportion, self.samples_per_generation)
        self.log_history(f"Generation {self.generation}")
        self.log_history(f"Distribution\n{self.describe_distribution(self.distribution)}")
        lines = []
        for position, number in enumerate(ranking):
            lines.append(
                f"{candidate_code(self.generation, number)}{'*' if position < count else ' '} "
                f"{self.format_optimiser_parameters(self.sample_parameters[number])} "
                f"{self.wins[number]:3g}/{self.scored[number]}")
        self.log_history("\n".join(lines))
        self.log_history("")
        elites = [self.sample_parameters[number] for number in ranking[:count]]
        self.distribution = update_distribution(self.distribution, elites, self.step_size)
        self.history.append(list(self.distribution))
        self.generation += 1
        if not self.tuning_over():
            self.log_event(f"starting generation {self.generation}")
            self._new_generation()

    # Reports

    def describe_distribution(self, distribution: Distribution) -> str:
        means = [mean for mean, _ in distribution]
        return f"{self.format_optimiser_parameters(means)}\n{format_distribution(distribution)}"

    def samples_generation(self) -> int:
        """The generation the current samples belong to (the last one, once tuning is over)."""
        return min(self.generation, self.number_of_generations - 1)

    def _candidate_games(self, number: int) -> int:
        return len(self.scheduler.schedulers[str(number)].fixed)

    def verdict(self) -> Verdict:
        """The mean, recommended once it beat the start in confirmation games; its spread as the
        uncertainty, and a warning if it left the region the first generation sampled."""
        means = [mean for mean, _ in self.distribution]
        spread = []
        warnings = []
        for i, (spec, (mean, variance)) in enumerate(zip(self.parameter_specs, self.distribution)):
            sd = variance ** 0.5
            ends = []
            for x in (mean - 2 * sd, mean + 2 * sd):
                point = list(means)
                point[i] = x
                ends.append(short_value(self.convert(point)[i]))
            spread.append(f"{spec.code} {ends[0]} to {ends[1]}")
            initial_mean, initial_variance = self.initial_distribution[i]
            if abs(mean - initial_mean) > 2 * initial_variance ** 0.5:
                warnings.append(f"warning: the mean of {spec.code} has moved beyond where the first "
                                "generation sampled (2 sd of its initial distribution): the best value "
                                f"may lie further; centre initial_mean there and tune again")
        settle = "confirmation games against the start (confirm_games)" if self.confirm_games <= 0 \
            else "more confirmation games (confirm_games), or more generations"
        return self.confirmation_verdict(
            self.format_optimiser_parameters(means), self.tuning_over(), settle,
            f"the distribution's mean +- 2 sd: {'; '.join(spread)} (it narrows by selection, on noise "
            "too, so it is no test of the answer)", warnings)

    def write_screen_report(self, out: TextIO) -> None:
        state = "tuning over" if self.tuning_over() else "running"
        out.write(f"generation {min(self.generation + 1, self.number_of_generations)} of "
                  f"{self.number_of_generations} ({state})\n\n")
        out.writelines(line + "\n" for line in self.verdict().lines())
        out.write("\n")
        out.write(f"samples of generation {self.samples_generation()}:\n")
        no_result = [self._candidate_games(i) - self.scored[i] for i in range(len(self.wins))]
        rows = [["sample", "parameters", "wins", "games", "win rate", "95% interval"]
                + (["no result"] if any(no_result) else [])]
        for number, parameters in enumerate(self.sample_parameters):
            games = self.scored[number]
            record = describe_record(self.wins[number], games).split(" ", 2)
            rows.append([candidate_code(self.samples_generation(), number),
                         self.format_optimiser_parameters(parameters),
                         format_float(self.wins[number]), str(games),
                         record[1] if games else "--", record[2] if games else "--"]
                        + ([str(no_result[number])] if any(no_result) else []))
        out.writelines(line + "\n" for line in render_table(rows, right_align_from=2))
        if any(no_result):
            out.write("(wins and games are of the games with a result, a jigo counting half; those with "
                      "no result are left out)\n")
        best = max(range(len(self.wins)), key=lambda i: (
            self.wins[i] / self.scored[i] if self.scored[i] else -1.0, -i))
        best_games = self.scored[best]
        if best_games:
            out.write(f"best current sample {candidate_code(self.samples_generation(), best)}: "
                      f"Elo vs opponent {format_elo(self.wins[best], best_games)}\n")
            out.write(f"  {selection_bias_warning(self.confirm_games)}\n")
        out.write("\n")
        means = [mean for mean, _ in self.distribution]
        if self.tuning_over():
            out.write("final distribution (its mean is the recommended candidate):\n")
        else:
            out.write(f"distribution for generation {self.generation}:\n")
        out.write(f"  mean: {self.format_optimiser_parameters(means)}\n")
        rows = [["parameter", "mean", "variance"]]
        rows += [[spec.code, f"{mean:.4g}", f"{variance:.4g}"]
                 for spec, (mean, variance) in zip(self.parameter_specs, self.distribution)]
        out.writelines("  " + line + "\n" for line in render_table(rows))
        if self.confirm_games > 0:
            out.write("\n")
            self.write_confirmation_report(out)

    def write_short_report(self, out: TextIO) -> None:
        self.write_static_description(out)
        self.write_screen_report(out)
        self.write_opponent_line(out)
        out.write(ELO_METHOD + "\n")

    def games_played(self) -> int:
        per_generation = self.samples_per_generation * self.batch_size
        done = min(self.generation, self.number_of_generations) * per_generation
        if not self.tuning_over():
            done += sum(self._candidate_games(i) for i in range(self.samples_per_generation))
        return done + self.confirm_played

    def games_wanted(self) -> int | None:
        return (self.number_of_generations * self.samples_per_generation * self.batch_size
                + self.confirm_games)

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        means = [mean for mean, _ in self.distribution]
        report.update({
            "generation": self.generation,
            "number_of_generations": self.number_of_generations,
            "distribution": [{"mean": m, "variance": v} for m, v in self.distribution],
            "mean_parameters": self.format_optimiser_parameters(means),
            "samples": [{"code": candidate_code(self.samples_generation(), i),
                         "parameters": self.format_optimiser_parameters(p),
                         "optimiser_parameters": p, "wins": self.wins[i],
                         "games": self.scored[i],   # with a result
                         "no_result": self._candidate_games(i) - self.scored[i]}
                        for i, p in enumerate(self.sample_parameters)],
            "confirmation": self.confirmation_json(),
            "verdict": self.verdict().to_json(),
            "opponent": self.opponent.code,
            "opponent_description": self.opponent_description,
            "parameter_codes": [spec.code for spec in self.parameter_specs],
            "history": [{"generation": g, "means": [m for m, _ in d],
                         "variances": [v for _, v in d],
                         "mean_parameters": self.format_optimiser_parameters([m for m, _ in d])}
                        for g, d in enumerate(self.history)],
            "stop_reason": ("stopped: all generations played" if self.tuning_over()
                            else "running"),
            "board_size": self.game_settings["board_size"],
            "komi": self.game_settings["komi"],
            "elo_method": ELO_METHOD,
        })
        return report

