"""`python -m players NAME [options]`: start one of our engines or tools by name."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

from players.errors import EXIT_MISSING_PACKAGE

# Each command's module is imported only when it is run (torch and numba are heavy).


def _random() -> ModuleType:
    from players.engines import random_go
    return random_go


def _mcts() -> ModuleType:
    from players.engines.go_uct import engine
    return engine


def _alphazero() -> ModuleType:
    from players.engines import alphazero
    return alphazero


def _train() -> ModuleType:
    from players.alphazero import pipeline
    return pipeline


def _random_othello() -> ModuleType:
    from players.engines import random_othello
    return random_othello


def _othello_mcts() -> ModuleType:
    from players.engines import othello_mcts
    return othello_mcts


def _pig_hold() -> ModuleType:
    from players.engines import pig_hold
    return pig_hold


def _pig_mcts() -> ModuleType:
    from players.engines import pig_mcts
    return pig_mcts


# name -> (its module, one-line description). Each module has main(argv) -> int | None.
COMMANDS: dict[str, tuple[Callable[[], ModuleType], str]] = {
    "random": (_random, "GTP engine playing uniformly random legal moves"),
    "mcts": (_mcts, "GTP engine: UCT search with random rollouts"),
    "alphazero": (_alphazero, "GTP engine: PUCT search with a policy/value network"),
    "train": (_train, "self-play training pipeline for the network engine"),
    "random-othello": (_random_othello, "GTP engine playing random legal Othello moves"),
    "othello-mcts": (_othello_mcts, "GTP Othello engine: UCT with random rollouts"),
    "pig-hold": (_pig_hold, "GTP Pig engine: hold at N (Hold20: --hold-at 20)"),
    "pig-mcts": (_pig_mcts, "GTP Pig engine: MCTS in a chance mode, rollouts or a network"),
}


# Packages of the 'engines' extra, and how to install each.
OPTIONAL_PACKAGES = {
    "numba": "pip install -e '.[engines]' (or pip install numba)",
    "torch": "pip install torch (the CPU build: pip install torch==2.13.0, "
             "then pip install -e '.[engines]')",
}


def usage() -> str:
    lines = ["usage: python -m players NAME [options]", "", "names:"]
    lines += [f"  {name:15} {desc}" for name, (_, desc) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"players: unknown name {name!r}\n{usage()}", file=sys.stderr)
        return 2
    # An engine may import a package only when an option asks for it (alphazero and
    # pig-mcts --model import torch as they load the network): the same hint then.
    try:
        module = COMMANDS[name][0]()
        return module.main(rest) or 0
    except ModuleNotFoundError as exc:
        package = (exc.name or "").partition(".")[0]
        if package not in OPTIONAL_PACKAGES:
            raise
        print(f"players {name}: needs {package}, which isn't installed: "
              f"{OPTIONAL_PACKAGES[package]}", file=sys.stderr)
        return EXIT_MISSING_PACKAGE


if __name__ == "__main__":
    sys.exit(main())
