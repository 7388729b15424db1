"""Each player's thinking time per move, from the BL/WL clocks of a run's SGF games (mcts_vs_pachi.md)."""

from __future__ import annotations

import argparse
import glob
import os
import statistics

from sgfmill import sgf


def move_times(path: str) -> dict[str, list[float]]:
    """Seconds each named player spent on each move: the drop of its clock from its previous move."""
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    root = game.get_root()
    start = float(root.get("TM"))
    names = {"b": root.get("PB"), "w": root.get("PW")}
    left = {"b": start, "w": start}
    times: dict[str, list[float]] = {names["b"]: [], names["w"]: []}
    for node in game.get_main_sequence()[1:]:
        colour, _ = node.get_move()
        prop = "BL" if colour == "b" else "WL"
        if colour is None or not node.has_property(prop):
            continue
        now = float(node.get(prop))
        times[names[colour]].append(left[colour] - now)
        left[colour] = now
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", help="a run's .games folder")
    options = parser.parse_args()
    per_player: dict[str, list[float]] = {}
    for path in sorted(glob.glob(os.path.join(options.games, "*.sgf"))):
        for name, times in move_times(path).items():
            key = name.rsplit("(", 1)[-1].rstrip(")")
            per_player.setdefault(key, []).extend(times)
    for key, times in sorted(per_player.items()):
        times.sort()
        print(f"{key:12s} {len(times):5d} moves  mean {statistics.mean(times):.3f} s  "
              f"median {statistics.median(times):.3f} s  90th {times[int(0.9 * len(times))]:.3f} s  "
              f"max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
