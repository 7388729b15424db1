"""An SPSA run's games against its opponent: the candidates' score by stretch, the informative pairs.

Usage (from the run's folder, with the checkout on PYTHONPATH):
    python tuning_games.py [CONTROL_FILE OPPONENT]
reads `ringmaster show CONTROL_FILE --json` (default: tune_mcts_priors_vs_gnugo.ctl, whose
opponent is gnugo-l10; reports/mcts_pachi_spsa's run: tune_best_vs_pachi.ctl pachi).
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
    control_file, opponent = sys.argv[1:3] if len(sys.argv) == 3 else \
        ("tune_mcts_priors_vs_gnugo.ctl", "gnugo-l10")
    shown = subprocess.run([sys.executable, "-m", "ringmaster.cli", "show", control_file, "--json"],
                           capture_output=True, text=True, check=True)
    every = json.loads(shown.stdout)["games"]
    games = [g for g in every if g["winner"] is not None]
    won = {g["game_id"]: g["winner"] != opponent for g in games}
    print(f"candidates against {opponent}, by tuning game")
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
