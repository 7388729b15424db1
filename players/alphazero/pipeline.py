"""`python -m players train`: self-play, replay, training, checkpoint, evaluation; resumable."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Collection
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from players.alphazero import metrics as metrics_io
from players.alphazero.arena import RandomAgent, SearchAgent, play_match
from players.alphazero.elo import fit_elo
from players.alphazero.replay import ReplayBuffer
from players.alphazero.selfplay import SelfPlayConfig, play_games
from players.errors import CheckpointError, PlayersError, RunDirError, UsageError, nonfinite_refusal, refuse
from players.games import GAMES, SIZED, Game, is_game_name, make_game
from players.mcts.chance import chance_rule, game_for_mode
from players.mcts.evaluators import AfterstateEvaluator
from players.nets.board_encoder import Encoder
from players.nets.checkpoint import load_checkpoint, load_trainer, save_checkpoint, save_trainer
from players.nets.encoding import ENCODERS, encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device, set_threads
from players.nets.model import NetConfig, PolicyValueNet, default_config, make_net, seed_weights
from players.nets.train import TrainConfig, make_optimizer, make_schedule, train_steps


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; written to config.json when the run starts."""

    game: str = "othello6"
    channels: int = 0                 # 0: the game's default net
    blocks: int = 0
    games_per_iteration: int = 64
    concurrent_games: int = 64
    simulations: int = 64
    temperature_moves: int = 8
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    dirichlet_epsilon: float = 0.25
    buffer_positions: int = 40000
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    sample_reuse: float = 4.0         # train steps = reuse * new positions / batch size
    min_train_steps: int = 20
    eval_every: int = 5
    eval_games: int = 40
    eval_simulations: int = 32
    eval_opening_plies: int = 2       # random plies before net-vs-net games (varied games)
    seed: int = 0
    chance_mode: str = "hidden"       # games with chance (pig50): hidden, sampling, progressive, expectimax
    progressive_widening_alpha: float = 0.5
    prior_virtual_visits: float = 1.0
    afterstate_values: bool = False   # value chance states through their outcomes (AfterstateEvaluator)
    chance_targets: bool = True       # train the value head on the chance states self-play passes
    optimizer: str = "adamw"          # or cyclic-nesterov (seed 001), learning_rate to max_learning_rate
    max_learning_rate: float = 1e-2


class RunDirectory:
    """Paths inside a run directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.config = root / "config.json"
        self.state = root / "state.json"
        self.trainer = root / "trainer.pt"
        self.checkpoints = root / "checkpoints"
        self.replay = root / "replay"
        self.metrics_csv = root / "metrics.csv"
        self.metrics_json = root / "metrics.json"
        self.elo = root / "elo.json"
        self.plot = root / "metrics.svg"

    def checkpoint(self, iteration: int) -> Path:
        return self.checkpoints / f"iter_{iteration:04d}.pt"

    def check_usable(self) -> None:
        """Raises RunDirError unless root is a run (state.json there), or a place for a new one:
        not a file, and holding no run's files without its state.json, which a new run would
        overwrite (trainer.pt, checkpoints...)."""
        if self.root.exists() and not self.root.is_dir():
            raise RunDirError(f"--run-dir {self.root}: a file, not a directory; give a directory "
                              "for the run")
        if self.state.exists():
            return
        held = [path.name for path in (self.config, self.trainer, self.checkpoints, self.replay,
                                       self.metrics_json, self.elo) if path.exists()]
        if held:
            raise RunDirError(f"{self.state}: missing, where {self.root} holds a run's "
                              f"{', '.join(held)}; {RESTORE}")


def _write_json(path: Path, data) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


# What to do about a run file that is missing or corrupt.
RESTORE = "restore it from a copy, or start a new run in another --run-dir"

# What state.json holds.
STATE_KEYS = ("iteration", "train_steps", "positions", "games", "seconds", "evaluated")


def _read_json(path: Path) -> dict:
    """A run file's JSON object. Raises RunDirError, naming the file, if it is missing or corrupt."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise RunDirError(f"{path}: can't read it ({exc.strerror or exc}); {RESTORE}") from None
    except ValueError as exc:   # JSONDecodeError, UnicodeDecodeError
        where = f" at line {exc.lineno} column {exc.colno}" if hasattr(exc, "lineno") else ""
        raise RunDirError(f"{path}: corrupt, not JSON{where}; {RESTORE}") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{path}: corrupt, not a JSON object; {RESTORE}")
    return data


class Pipeline:
    """One training run; construct, then run(). Resumes when the directory holds a run.

    Construction raises a PlayersError for a bad setting (UsageError) or a run
    directory that can't be used (RunDirError), before a new run writes anything.
    """

    def __init__(self, run_dir: Path, config: RunConfig, device: str = "auto",
                 log=print, given: Collection[str] = ()) -> None:
        self.paths = RunDirectory(run_dir)
        self.paths.check_usable()
        self.device = resolve_device(device)
        self.log = log
        if self.paths.state.exists():
            saved = _read_json(self.paths.config)
            saved.setdefault("chance_targets", False)  # runs from before it recorded decisions only
            saved_config = RunConfig(**{f.name: saved[f.name] for f in fields(RunConfig) if f.name in saved})
            for name in given:   # options the command line named: a resumed run keeps its own
                if getattr(config, name) != getattr(saved_config, name):
                    raise UsageError(f"--{name.replace('_', '-')} {getattr(config, name)}: the run in "
                                     f"{run_dir} has {getattr(saved_config, name)}; leave it out to "
                                     "resume, or give a new --run-dir for a new run")
            config = saved_config
        self.config = config
        self.game, self.encoder = trained_game(config.game)
        try:
            self.chance = chance_rule(config.chance_mode, alpha=config.progressive_widening_alpha,
                                      virtual_visits=config.prior_virtual_visits)
        except ValueError as exc:   # an unknown mode, or a parameter out of its range
            raise UsageError(str(exc)) from None
        self.search_game = game_for_mode(self.game, config.chance_mode, config.seed)
        self.train_config = TrainConfig(batch_size=config.batch_size,
                                        learning_rate=config.learning_rate,
                                        weight_decay=config.weight_decay, optimizer=config.optimizer,
                                        max_learning_rate=config.max_learning_rate)
        if self.paths.state.exists():
            self._resume()
        else:
            self._start()

    def _net_config(self) -> NetConfig:
        c = self.config
        if self.encoder.net_kind == "mlp":
            return NetConfig(c.game, 1, self.encoder.num_planes, self.game.num_actions,
                             channels=c.channels or 64, blocks=c.blocks or 4, kind="mlp")
        net = default_config(c.game, self.encoder.size, self.encoder.num_planes, self.game.num_actions)
        if c.channels or c.blocks:
            net = NetConfig(c.game, net.board_size, net.in_planes, net.num_actions,
                            channels=c.channels or net.channels, blocks=c.blocks or net.blocks)
        return net

    def _start(self) -> None:
        """A new run: the directory is made only now that every setting has been checked."""
        seed_weights(self.config.seed)
        self.model = make_net(self._net_config()).to(self.device)
        self.optimizer = make_optimizer(self.model, self.train_config)
        self.iteration = 0
        self.state = {"iteration": 0, "train_steps": 0, "positions": 0, "games": 0,
                      "seconds": 0.0, "evaluated": []}
        self.pair_results: list = []
        self.rng = np.random.default_rng(self.config.seed)
        self.buffer = ReplayBuffer(self.config.buffer_positions)
        try:
            self.paths.root.mkdir(parents=True, exist_ok=True)
            _write_json(self.paths.config, asdict(self.config))
            save_checkpoint(self.paths.checkpoint(0), self.model, self._meta())
            self._save_state()
        except OSError as exc:   # a directory we may not write in, a full disk
            raise RunDirError(f"{exc.filename or self.paths.root}: can't write the new run's files "
                              f"({exc.strerror or exc}); give a --run-dir where it can") from None
        self.log(f"new run in {self.paths.root}: {self.model.config}")

    def _resume(self) -> None:
        """Raises RunDirError, naming the file, for a run file that is missing or corrupt."""
        self.state = _read_json(self.paths.state)
        missing = [key for key in STATE_KEYS if key not in self.state]
        if missing or not isinstance(self.state["iteration"], int):
            lacks = f"it lacks {', '.join(missing)}" if missing else "its iteration isn't a count"
            raise RunDirError(f"{self.paths.state}: not a run's state ({lacks}); {RESTORE}")
        self.iteration = self.state["iteration"]
        self._load_trainer()
        elo = self.paths.elo
        self.pair_results = _read_json(elo).get("results", []) if elo.exists() else []
        self.buffer = ReplayBuffer.load(self.paths.replay, self.config.buffer_positions, self.iteration,
                                        sizes=self._shard_sizes())
        for path, positions in self.buffer.missing:
            lost = f"{positions} positions" if positions is not None else "its positions"
            self.log(f"warning: {path} is missing: the replay buffer resumes without {lost} "
                     "(self-play refills it)")
        self.log(f"resumed {self.paths.root} at iteration {self.iteration} "
                 f"({len(self.buffer)} positions in the buffer)")

    def _load_trainer(self) -> None:
        """The model, optimiser and random state from trainer.pt. Raises RunDirError naming it."""
        path = self.paths.trainer
        if not path.is_file():
            raise RunDirError(f"{path}: missing, and the run can't resume without it; {RESTORE}")
        try:
            self.model, self.optimizer, self.rng = load_trainer(path, self.train_config, self.device)
        except CheckpointError as exc:
            raise RunDirError(f"{exc}; {RESTORE}") from None

    def _shard_sizes(self) -> dict[int, int]:
        """Positions each iteration's self-play added, as metrics.json counts them (what it has)."""
        try:
            rows = json.loads(self.paths.metrics_json.read_text())
            totals = {int(row["iteration"]): int(row["positions"]) for row in rows}
        except (OSError, ValueError, TypeError, KeyError):
            return {}
        return {i: total - totals[i - 1] if i > 1 else total
                for i, total in totals.items() if i == 1 or i - 1 in totals}

    def _meta(self) -> dict:
        return {"game": self.config.game, "iteration": self.iteration,
                "train_steps": self.state["train_steps"], "positions": self.state["positions"]}

    def _save_state(self) -> None:
        """The commit point of an iteration: trainer state first, then state.json."""
        save_trainer(self.paths.trainer, self.model, self.optimizer, self.rng)
        _write_json(self.paths.elo, {"results": self.pair_results})
        _write_json(self.paths.state, self.state)

    def evaluator(self, model: PolicyValueNet) -> StateEvaluator:
        return StateEvaluator(self.game, LocalPredictor(model, self.device))

    def _search_evaluate(self, evaluator: StateEvaluator):
        """What a search of this run values its leaves with: the net's, and for chance states
        with afterstate_values, the net's over their outcomes (it sees only decision states in
        training)."""
        if self.config.afterstate_values and self.game.has_chance:
            return AfterstateEvaluator(self.game, evaluator.evaluate)
        return evaluator.evaluate

    def _search_agent(self, model: PolicyValueNet, name: str) -> SearchAgent:
        """An arena player searching as self-play does (the chance mode's game and rule)."""
        c = self.config
        return SearchAgent(self.search_game, self._search_evaluate(self.evaluator(model)),
                           c.eval_simulations, self.rng, c.c_puct, name=name, chance=self.chance)

    def run(self, iterations: int | None = None, minutes: float | None = None) -> None:
        """Run until `iterations` in total are done or `minutes` of this call have passed."""
        deadline = time.monotonic() + 60 * minutes if minutes else None
        while iterations is None or self.iteration < iterations:
            if deadline and time.monotonic() >= deadline:
                self.log("time budget reached")
                break
            self.run_iteration()

    def run_iteration(self) -> dict:
        c = self.config
        started = time.perf_counter()
        iteration = self.iteration + 1
        evaluator = self.evaluator(self.model)
        sp_config = SelfPlayConfig(num_simulations=c.simulations, concurrent_games=c.concurrent_games,
                                   temperature_moves=c.temperature_moves, c_puct=c.c_puct,
                                   dirichlet_alpha=c.dirichlet_alpha,
                                   dirichlet_epsilon=c.dirichlet_epsilon,
                                   chance_targets=c.chance_targets)
        evaluate = self._search_evaluate(evaluator)
        examples, sp = play_games(self.search_game, evaluate, c.games_per_iteration,
                                  sp_config, self.rng, progress=self._progress(iteration),
                                  chance=self.chance)
        ReplayBuffer.save_shard(self.paths.replay, iteration, examples)
        self.buffer.add(iteration, examples)

        train_started = time.perf_counter()
        steps = max(c.min_train_steps, math.ceil(c.sample_reuse * len(examples) / c.batch_size))
        terms = train_steps(self.model, self.optimizer, self.buffer.sampler(self.rng),
                            steps=steps, batch_size=c.batch_size, device=self.device,
                            schedule=make_schedule(self.optimizer, self.train_config, steps))
        train_seconds = time.perf_counter() - train_started

        self.iteration = iteration
        self.state["iteration"] = iteration
        self.state["train_steps"] += steps
        self.state["positions"] += sp.positions
        self.state["games"] += sp.games
        save_checkpoint(self.paths.checkpoint(iteration), self.model, self._meta())

        row = {"iteration": iteration, "games": self.state["games"],
               "positions": self.state["positions"], "train_steps": self.state["train_steps"],
               "buffer": len(self.buffer), **{k: round(v, 5) for k, v in terms.items()},
               "selfplay_positions_per_s": round(sp.positions_per_second, 2),
               "net_positions_per_s": round(evaluator.positions / sp.seconds, 1) if sp.seconds else 0.0,
               "mean_game_length": round(float(np.mean(sp.game_lengths)), 2),
               "black_wins": sp.black_wins, "white_wins": sp.white_wins, "draws": sp.draws,
               "selfplay_s": round(sp.seconds, 2), "train_s": round(train_seconds, 2)}
        if c.eval_every and iteration % c.eval_every == 0:
            row.update(self._evaluate(iteration))
        self.state["seconds"] += time.perf_counter() - started
        row["elapsed_s"] = round(self.state["seconds"], 1)
        self._save_state()
        metrics_io.append_row(self.paths.metrics_csv, self.paths.metrics_json, row)
        metrics_io.write_plot(self.paths.plot, self.paths.metrics_json)
        self.log(metrics_io.summary_line(row))
        return row

    def _evaluate(self, iteration: int) -> dict:
        """Current net vs random and vs the previously evaluated checkpoint; refit Elo."""
        c = self.config
        me = f"iter_{iteration:04d}"
        agent = self._search_agent(self.model, me)
        vs_random = play_match(self.game, agent, RandomAgent(self.game, self.rng), c.eval_games,
                               rng=self.rng)
        self.pair_results.append([me, "random", vs_random.wins + 0.5 * vs_random.draws, vs_random.games])
        out = {"vs_random_score": round(vs_random.score, 4), "vs_random_games": vs_random.games}
        previous = self.state["evaluated"][-1] if self.state["evaluated"] else "iter_0000"
        prev_model, _ = load_checkpoint(self.paths.checkpoint(int(previous.split("_")[1])), self.device)
        prev_agent = self._search_agent(prev_model, previous)
        vs_prev = play_match(self.game, agent, prev_agent, c.eval_games,
                             opening_plies=c.eval_opening_plies, rng=self.rng)
        self.pair_results.append([me, previous, vs_prev.wins + 0.5 * vs_prev.draws, vs_prev.games])
        self.state["evaluated"].append(me)
        ratings = fit_elo([tuple(r) for r in self.pair_results], anchor="random")
        out.update({"vs_previous_score": round(vs_prev.score, 4), "previous": previous,
                    "elo": round(ratings[me], 1)})
        return out

    def _progress(self, iteration: int):
        if not sys.stderr.isatty():
            return None

        def show(done: int, total: int) -> None:
            sys.stderr.write(f"\riteration {iteration}: self-play {done}/{total} games")
            sys.stderr.flush()
            if done == total:
                sys.stderr.write("\n")
        return show


def trained_game(name: str) -> tuple[Game, Encoder]:
    """The game --game names and its network's encoder.

    Raises UsageError for a size the game doesn't play, or naming the games train plays for
    a name that is no game or a game no network plays (go-light).
    """
    if not is_game_name(name):
        raise UsageError(f"--game {name!r}: unknown game; {_games_trained()}")
    try:
        game = make_game(name)
    except ValueError as exc:   # a size the game doesn't play
        raise UsageError(str(exc)) from None
    if game.kind not in ENCODERS:
        raise UsageError(f"--game {name!r}: no network plays {game.kind} games; {_games_trained()}")
    return game, encoder_for(game)


def _games_trained() -> str:
    """'expected a sized name (...) or one of ...': the registry's games listed are those with
    an encoder (each is made to learn its kind, so only on the way to an error)."""
    sized = ", ".join(f"{name}N" for name in SIZED)
    return f"expected a sized name ({sized}: go9, othello6, pig50) or one of {', '.join(_trained_names())}"


def _trained_names() -> list[str]:
    """The registry's games a network plays (those with an encoder; go-light has none)."""
    return [name for name in GAMES if make_game(name).kind in ENCODERS]


def _game_help() -> str:
    sized = ", ".join(f"{name}N" for name in SIZED)
    return (f"the game: a sized name ({sized}: othello6, othello8, go9, pig50) or one of the "
            f"registry's games a network plays ({', '.join(_trained_names())})")


OPTION_HELP = {
    "channels": "the network's width: convolution channels (an MLP's width for Pig); 0: the game's "
                "default, 32 channels for boards up to 6x6, 64 above (64 for Pig)",
    "blocks": "the network's depth: residual blocks (an MLP's layers for Pig); 0: the game's default, "
              "3 blocks for boards up to 6x6, 4 above (4 for Pig)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m players train", description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", required=True, type=Path)
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many in total")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long (this call)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    defaults = RunConfig()
    for f in fields(RunConfig):
        kind = type(getattr(defaults, f.name))
        meaning = _game_help() if f.name == "game" else OPTION_HELP.get(f.name)
        parser.add_argument("--" + f.name.replace("_", "-"), type=_flag if kind is bool else kind,
                            default=None,
                            help=(f"{meaning} " if meaning else "")
                            + f"(new runs only; default {getattr(defaults, f.name)})")
    return parser


def _flag(text: str) -> bool:
    """A yes/no option's value: 1/0, true/false, yes/no, on/off."""
    words = {"1": True, "true": True, "yes": True, "on": True,
             "0": False, "false": False, "no": False, "off": False}
    if text.lower() not in words:
        raise argparse.ArgumentTypeError(f"expected 1 or 0 (true/false, yes/no), not {text!r}")
    return words[text.lower()]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    given = {f.name: getattr(options, f.name) for f in fields(RunConfig)
             if getattr(options, f.name) is not None}
    config = RunConfig(**given)
    try:
        refusal = nonfinite_refusal(parser, options)
        if options.iterations is not None and options.iterations < 1:
            refusal = f"--iterations must be at least 1, not {options.iterations}"
        if not refusal and options.minutes is not None and not options.minutes > 0:
            refusal = f"--minutes must be a positive number, not {options.minutes:g}"
        if refusal:
            raise UsageError(refusal)
        if options.threads is not None and options.threads < 0:
            raise UsageError(f"--threads {options.threads}: expected a count of threads "
                             "(0: torch's default)")
        if options.threads:
            set_threads(options.threads)
        pipeline = Pipeline(options.run_dir, config, device=options.device, given=given)
    except PlayersError as exc:
        return refuse("train", exc)
    try:
        pipeline.run(options.iterations, options.minutes)
    except KeyboardInterrupt:
        print(f"\nstopped; resume with the same --run-dir (at iteration {pipeline.iteration})")
    return 0
