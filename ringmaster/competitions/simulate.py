"""Simulated games for tuners: a known win-rate landscape stands in for engines (tests and benchmarks)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ringmaster.competitions.base import NO_GAME, Competition
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.result import GameResult
from ringmaster.settings import Player

SIM_COMMAND = "simulated-candidate"

Landscape = Callable[[list[float]], float]   # engine parameters -> the candidate's win probability


def make_simulated_candidate(*engine_parameters: Any) -> Player:
    """A make_candidate for simulations: the parameters travel in the command line."""
    return Player([SIM_COMMAND, *(repr(p) for p in engine_parameters)])


def job_parameters(job: GameJob) -> tuple[str, list[float]]:
    """(candidate colour, engine parameters) of a job made by make_simulated_candidate."""
    for colour, player in (("b", job.player_b), ("w", job.player_w)):
        if player.command[0] == SIM_COMMAND:
            return colour, [float(word) for word in player.command[1:]]
    raise ValueError("no simulated candidate in this job")


def make_result(job: GameJob, winning_colour: str | None, sgf_result: str | None = None) -> GameJobResult:
    """A GameJobResult for a job, won by the given colour (None: no result)."""
    if sgf_result is None:
        sgf_result = "?" if winning_colour is None else f"{winning_colour.upper()}+R"
    result = GameResult(job.game_id, job.player_b.code, job.player_w.code, winning_colour,
                        sgf_result)
    return GameJobResult(job.game_id, job.game_data, result)


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1.0 - 1e-12)
    return math.log(p / (1.0 - p))


def head_to_head_probability(landscape: Landscape, black: list[float], white: list[float]) -> float:
    """P(black wins) when two candidates meet: logistic of the difference of their strengths.

    A candidate's strength is the logit of its win rate against the landscape's
    opponent (the Bradley-Terry model, as in CLOP's artificial problems).
    """
    return 1.0 / (1.0 + math.exp(_logit(landscape(white)) - _logit(landscape(black))))


def play_simulated(job: GameJob, landscape: Landscape, rng: random.Random) -> GameJobResult:
    """Decide a job's game by the landscape: a candidate's win probability against the opponent,
    or, when both players are simulated candidates, head_to_head_probability."""
    if all(player.command[0] == SIM_COMMAND for player in (job.player_b, job.player_w)):
        black, white = ([float(word) for word in player.command[1:]]
                        for player in (job.player_b, job.player_w))
        black_wins = rng.random() < head_to_head_probability(landscape, black, white)
        return make_result(job, "b" if black_wins else "w")
    colour, parameters = job_parameters(job)
    candidate_wins = rng.random() < landscape(parameters)
    other = "w" if colour == "b" else "b"
    return make_result(job, colour if candidate_wins else other)


def run_simulation(competition: Competition, landscape: Landscape, games: int,
                   rng: random.Random, parallel: int = 1,
                   on_result: Callable[[int], None] | None = None) -> int:
    """Drive a competition through simulated games, `parallel` of them in flight at once.

    With parallel > 1 a random game in flight finishes next (games take varying
    times). on_result(results_so_far) is called after each result. Returns the
    number of results processed.
    """
    in_flight: list[GameJob] = []
    done = 0
    while done < games:
        while len(in_flight) < parallel and done + len(in_flight) < games:
            job = competition.get_game()
            if job is NO_GAME:
                break
            in_flight.append(job)  # type: ignore[arg-type]
        if not in_flight:
            break
        job = in_flight.pop(rng.randrange(len(in_flight)) if parallel > 1 else 0)
        competition.process_game_result(play_simulated(job, landscape, rng))
        done += 1
        if on_result is not None:
            on_result(done)
    return done
