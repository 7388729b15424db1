"""Confirmation games: the tuner's chosen candidate in fresh games, their state, verdict and report."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.scheduling import SimpleScheduler
from ringmaster.competitions.tuner_values import describe_record, plain_value
from ringmaster.competitions.verdict import Verdict
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.stats.win_rates import format_elo, likelihood_of_superiority, wilson_interval

CONFIRM_PREFIX = "c"
CONFIRM_PLAYER_CODE = "best"
START_PLAYER_CODE = "start"

CONFIRM_LOS_BAR = 0.975
"""ce_tuner, spsa_tuner and bayes_tuner recommend their answer once it beat the start in
confirmation games with this likelihood of superiority, and the 95% interval of its score
against the start lies above even: their searches have no measure of their own that tells an
answer on a peak from one on a plateau (reports/ has the simulations). 0.975 one-sided is what a
two-sided 95% interval above 0 asks; at 0.95, 'Use' stood beside an Elo interval reaching below
0 (reports/tuner_verdicts.md)."""


def default_confirm_games(tuning_games: int) -> int:
    """The continuous tuners' confirm_games when the control file sets none: a tenth of the
    tuning games, at least 20, even (so that each side has each colour as often)."""
    games = max(20, round(tuning_games / 10))
    return games + games % 2


class ConfirmationGames:
    """Confirmation games: the chosen candidate plays fresh games once tuning is over, against the
    opponent, or (confirms_against_start: the continuous tuners) against the start of the search.

    A mixin of Tuner, whose settings (confirm_games, confirm_games_given, game_settings) and
    methods (convert, make_candidate, make_tuning_job, make_game_job, candidate_won, count_error,
    log_history, the formatting of parameters) it uses.
    """

    confirm_games: int
    confirm_games_given: bool
    game_settings: dict[str, Any]

    confirms_against_start = False

    def start_parameters(self) -> list[float]:
        """Where the search started (optimiser parameters): what confirmation games test the answer
        against when confirms_against_start."""
        raise NotImplementedError

    def state_plays_start(self, confirmation: dict[str, Any] | None) -> bool:
        """Whether a state's confirmation games (its 'confirmation'; None where it kept none) test the
        answer against the start, with some played or (this control file's confirm_games) to play:
        then a changed start would play them, or report them, against another."""
        if confirmation is None:
            return self.confirms_against_start and self.confirm_games > 0
        # 'against' as confirmation_from_json reads it
        return confirmation.get("against", "opponent") == "start" and (
            self.confirm_games > 0 or confirmation["played"] > 0)

    def clean_confirmation(self) -> None:
        self.confirm_parameters: list[float] | None = None
        self.confirm_label = ""
        self.confirm_scheduler = SimpleScheduler()
        self.confirm_won = 0       # outright wins
        self.confirm_jigos = 0
        self.confirm_unknown = 0   # games with no result (not void: those are replayed)
        self.confirm_played = 0    # every confirmation game with a response, these included
        self.confirm_against = "start" if self.confirms_against_start else "opponent"

    def confirmation_to_json(self) -> dict[str, Any]:
        return {"parameters": self.confirm_parameters, "label": self.confirm_label,
                "scheduler": self.confirm_scheduler.to_json(),
                "won": self.confirm_won, "jigos": self.confirm_jigos, "unknown": self.confirm_unknown,
                "played": self.confirm_played, "against": self.confirm_against}

    def confirmation_from_json(self, data: dict[str, Any]) -> None:
        self.confirm_parameters = data["parameters"]
        self.confirm_label = data["label"]
        self.confirm_scheduler = SimpleScheduler.from_json(data["scheduler"])
        self.confirm_won = data["won"]
        self.confirm_jigos = data.get("jigos", 0)       # a state from before they were kept apart
        self.confirm_unknown = data.get("unknown", 0)   # counted them as losses
        self.confirm_played = data["played"]
        # A run from before confirmation against the start goes on against the opponent, with the
        # confirm_games it had (0 unless the control file sets it): ce_tuner's and spsa_tuner's
        # before they had 'against', bayes_tuner's before it confirmed against the start.
        self.confirm_against = data.get("against", "opponent")
        if self.confirm_against != ("start" if self.confirms_against_start else "opponent") \
                and not self.confirm_games_given:
            self.confirm_games = 0
        if self.confirm_against not in ("start", "opponent"):
            raise ValueError("confirmation against")

    def start_confirmation(self, optimiser_parameters: list[float], label: str) -> None:
        self.confirm_parameters = list(optimiser_parameters)
        self.confirm_label = label

    def confirmation_note(self) -> str:
        """Why the confirmation games are for their candidate, where the reports would not say: ''."""
        return ""

    def confirmation_complete(self) -> bool:
        return self.confirm_games <= 0 or self.confirm_played >= self.confirm_games

    def get_confirmation_game(self) -> GameJob | None:
        """The next confirmation game, or None if none is due now."""
        if self.confirm_parameters is None:
            return None
        s = self.confirm_scheduler
        if not s.can_issue(self.confirm_games):
            return None
        number = s.issue(self.confirm_games)
        engine_parameters = self.convert(self.confirm_parameters)
        candidate = self.make_candidate(CONFIRM_PLAYER_CODE, engine_parameters)
        game_id, game_data = f"{CONFIRM_PREFIX}{number}", ["confirm", number]
        if self.confirm_against == "opponent":
            return self.make_tuning_job(game_id, game_data, candidate, engine_parameters)
        start_parameters = self.convert(self.start_parameters())
        start = self.make_candidate(START_PLAYER_CODE, start_parameters)
        black, white = (candidate, start) if number % 2 == 0 else (start, candidate)
        return self.make_game_job(
            game_id, black, white, self.game_settings, game_data=game_data,
            sgf_note=(f"Confirmation: the answer, {self.format_engine_parameters(engine_parameters)}, "
                      f"against the start, {self.format_engine_parameters(start_parameters)}"))

    @staticmethod
    def is_confirmation(game_data: Any) -> bool:
        return isinstance(game_data, (list, tuple)) and len(game_data) == 2 \
            and game_data[0] == "confirm"

    def process_confirmation_error(self, job: GameJob, halt: bool) -> tuple[bool, bool]:
        """A void confirmation game is replayed once (by this tuner: it is issued again)."""
        stop = halt or self.count_error(job.game_id) > 0
        if not stop:
            self.confirm_scheduler.retry(job.game_data[1])
        return stop, False

    def process_confirmation_result(self, response: GameJobResult) -> str:
        number = response.game_data[1]
        self.confirm_scheduler.fix(number)
        result = response.game_result
        if result.sgf_result == "0":
            outcome = "drew"
            self.confirm_jigos += 1
        elif result.winning_player is None:
            outcome = "had no result"
            self.confirm_unknown += 1
        else:
            won = (result.winning_player == CONFIRM_PLAYER_CODE if self.confirm_against == "start"
                   else self.candidate_won(response))
            outcome = "won" if won else "lost"
            self.confirm_won += int(won)
        self.confirm_played += 1
        self.log_history(f"confirm {self.confirm_label} {outcome}")
        return f"confirmation {self.confirm_label} {outcome} {result.sgf_result}"

    def confirmation_score(self) -> tuple[float, int]:
        """(the answer's score, games with a result) in confirmation games: a jigo counts half."""
        return self.confirm_won + self.confirm_jigos / 2, self.confirm_played - self.confirm_unknown

    def confirmation_los(self) -> float | None:
        """The likelihood that the answer is stronger than what it played in confirmation games
        (jigos left out, as cutechess's LOS leaves draws out)."""
        _, scored = self.confirmation_score()
        return likelihood_of_superiority(self.confirm_won, scored - self.confirm_won - self.confirm_jigos)

    def confirmation_verdict(self, answer: str, tuning_over: bool, settle: str, uncertainty: str = "",
                             warnings: list[str] | None = None) -> Verdict:
        """The verdict of a tuner whose bar is its answer beating the start in confirmation games."""
        start = self.format_optimiser_parameters(self.start_parameters())
        los = self.confirmation_los() if self.confirm_against == "start" else None
        if self.confirm_games <= 0:
            evidence = "none: no confirmation games (confirm_games is 0) test the answer against the start"
        elif self.confirm_against != "start":
            evidence = ("none that compares: this run's confirmation games play the opponent (it started "
                        "before they played the start)")
        elif los is None:
            evidence = (f"not yet: {self.confirm_games} confirmation games against the start "
                        f"({start}) once tuning ends")
        else:
            score, scored = self.confirmation_score()
            evidence = (f"the answer beat the start ({start}) in {score:g} of {scored} confirmation games"
                        + (" with a result" if self.confirm_unknown else "")
                        + (" (a jigo counts half)" if self.confirm_jigos else "") + f": LOS {los:.3f}")
            if not self.confirmation_complete():
                evidence += f" ({self.confirm_played} of {self.confirm_games} played)"
        # 'Use' only once every confirmation game is in: the ones to come may overturn it. The
        # interval too, since LOS leaves jigos out and the interval of the score counts them half.
        above = los is not None and wilson_interval(*self.confirmation_score())[0] > 0.5
        return Verdict(answer, los is not None and los >= CONFIRM_LOS_BAR and above, tuning_over,
                       evidence, f"a recommendation needs LOS {CONFIRM_LOS_BAR:g} over the start, and "
                       "the 95% interval of its score above even",
                       [answer], settle, uncertainty, warnings or [],
                       evidence_complete=self.confirmation_complete())

    def write_confirmation_report(self, out: Any) -> None:
        if self.confirm_games <= 0:
            return
        against = " against the start" if self.confirm_against == "start" else ""
        if self.confirm_parameters is None:
            out.write(f"confirmation: {self.confirm_games} fresh games for the best candidate{against} "
                      "once tuning ends\n")
            return
        note = self.confirmation_note()
        out.write(f"confirmation games ({self.confirm_played}/{self.confirm_games}) for "
                  f"{self.confirm_label}{against}{f' ({note})' if note else ''}:\n")
        score, scored = self.confirmation_score()
        if scored:
            out.write(f"  record {describe_record(score, scored)}  "
                      f"Elo vs {'start' if against else 'opponent'} {format_elo(score, scored)}"
                      + (f"  ({self.confirm_unknown} with no result)" if self.confirm_unknown else "")
                      + "\n")
        elif self.confirm_played:
            out.write(f"  {self.confirm_played} with no result\n")

    def confirmation_json(self) -> dict[str, Any] | None:
        if self.confirm_games <= 0:
            return None
        result: dict[str, Any] = {"games_wanted": self.confirm_games,
                                  "candidate": self.confirm_label,
                                  "candidate_note": self.confirmation_note() or None,
                                  "optimiser_parameters": self.confirm_parameters,
                                  "parameter_values": None, "won": self.confirm_won,
                                  "jigos": self.confirm_jigos, "unknown": self.confirm_unknown,
                                  "played": self.confirm_played, "against": self.confirm_against}
        if self.confirm_against == "start":
            result["start"] = self.format_optimiser_parameters(self.start_parameters())
        if self.confirm_parameters is not None:
            result["parameter_values"] = [plain_value(v) for v in self.convert(self.confirm_parameters)]
        # score and scored: what win_rate is of; the rates are None while no game has a result
        score, scored = self.confirmation_score()
        result.update({"score": score, "scored": scored, "win_rate": None, "win_rate_95": None,
                       "los": None})
        if scored:
            low, high = wilson_interval(score, scored)
            result["win_rate"] = score / scored
            result["win_rate_95"] = [low, high]
            result["los"] = self.confirmation_los()
        return result
