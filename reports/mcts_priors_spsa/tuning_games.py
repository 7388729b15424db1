"""The SPSA run's games against GNU Go: the candidates' score by stretch of the run, the informative pairs.

Usage (from this folder, with the checkout on PYTHONPATH):
    python tuning_games.py
reads `ringmaster show tune_mcts_priors_vs_gnugo.ctl --json`.
"""

from __future__ import annotations

import json
import subprocess
import sys

from ringmaster.stats.win_rates import format_elo, wilson_interval

STRETCHES = ((0, 100), (100, 200), (200, 300))


def iteration(game_id: str) -> int:
    """'12a' -> 12: the SPSA pair a tuning game belongs to."""
    return int(game_id[:-1])


def line(label: str, wins: int, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return (f"{label:<14} {wins:4d}/{games:<4d} {100 * wins / games:5.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]  Elo {format_elo(wins, games)}")


def main() -> None:
    shown = subprocess.run([sys.executable, "-m", "ringmaster.cli", "show",
                            "tune_mcts_priors_vs_gnugo.ctl", "--json"],
                           capture_output=True, text=True, check=True)
    every = json.loads(shown.stdout)["games"]
    games = [g for g in every if g["winner"] is not None]
    won = {g["game_id"]: g["winner"] != "gnugo-l10" for g in games}
    print("candidates against GNU Go level 10, by tuning game")
    for start, end in STRETCHES:
        part = [g for g in games if start <= 2 * iteration(g["game_id"]) < end]
        if part:
            print(line(f"games {start}-{end - 1}", sum(won[g["game_id"]] for g in part), len(part)))
    print(line("all", sum(won.values()), len(won)))
    pairs = {iteration(game_id) for game_id in won}
    whole = [k for k in pairs if f"{k}a" in won and f"{k}b" in won]
    split = [k for k in whole if won[f"{k}a"] != won[f"{k}b"]]
    print(f"pairs with both games: {len(whole)}; one won and one lost (the only ones that move "
          f"theta): {len(split)}")
    print(f"games with no result: {len(every) - len(games)}")


if __name__ == "__main__":
    main()
