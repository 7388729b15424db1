"""Check every Go record's winner (RE) against GNU Go's own final_score of the record.

    python reports/fair_pairs/check_winners.py GAMES_DIRECTORY

GNU Go (--chinese-rules, area scoring as the referee's) loads each record with
loadsgf and scores its last position with final_score, which settles dead
stones by its own reading. Prints one line a record and a summary, with the winner
an area count that takes every stone as alive would have given (the internal
scorer before issue 31).
"""

from __future__ import annotations

import os
import subprocess
import sys

from sgfmill import sgf

from ringmaster.rules import get_rules

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"]


def winner(result: str) -> str | None:
    """'B', 'W' or None (jigo, void, no result) from an RE value or a final_score answer."""
    result = result.strip().upper()
    return result[0] if result[:2] in ("B+", "W+") else None


def all_alive_winner(game: sgf.Sgf_game) -> str | None:
    """The winner by area with every stone on the board counted alive, and the record's komi."""
    rules = get_rules("go", game.get_size())
    black, _, _ = game.get_root().get_setup_stones()
    if black:
        rules.set_handicap(sorted(black))
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is not None:
            rules.play(colour, move)
    margin = rules.area_score() - game.get_komi()
    return "B" if margin > 0 else "W" if margin < 0 else None


def main() -> None:
    directory = sys.argv[1]
    names = sorted(n for n in os.listdir(directory) if n.endswith(".sgf"))
    commands = "".join(f"loadsgf {os.path.join(directory, n)}\nfinal_score\n" for n in names)
    out = subprocess.run(GNUGO, input=commands + "quit\n", capture_output=True, text=True,
                         check=True).stdout
    answers = [a.strip() for a in out.split("\n\n") if a.strip()]
    scores = [a[1:].strip() for a in answers if a.lstrip("=").strip() not in ("black", "white")]
    agree = disagree = unscored = naive_wrong = 0
    for name, score in zip(names, scores):
        with open(os.path.join(directory, name), "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        root = game.get_root()
        re = root.get("RE") if root.has_property("RE") else ""
        ours, theirs = winner(re), winner(score)
        naive = all_alive_winner(game)
        naive_wrong += theirs is not None and naive != theirs
        if ours is None:
            unscored += 1
            verdict = "no result"
        elif ours == theirs:
            agree += 1
            verdict = "agree"
        else:
            disagree += 1
            verdict = "DISAGREE"
        print(f"{name}  RE[{re}]  gnugo final_score {score}  {verdict}  "
              f"(all stones alive: {naive or 'jigo'})")
    print(f"{len(names)} records: {agree} winners GNU Go's final_score confirms, "
          f"{disagree} it contradicts, {unscored} without a winner; counting every stone "
          f"alive would have given {naive_wrong} wrong winners")


if __name__ == "__main__":
    main()
