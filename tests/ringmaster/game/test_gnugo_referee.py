"""GNU Go as the referee engine: dead stones settled as GNU Go scores them, and games adjudicated."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from sgfmill import sgf

from tests.fakes.cli import invoke

pytestmark = pytest.mark.integration


def gnugo_final_score(gnugo: str, path: Path) -> str:
    """GNU Go's own final_score of a record (Chinese rules, the record's komi)."""
    commands = f"loadsgf {path}\nfinal_score\nquit\n"
    out = subprocess.run([gnugo, "--mode", "gtp", "--chinese-rules"], input=commands, text=True,
                         capture_output=True, timeout=120, check=True).stdout
    return [line for line in out.split("\n") if line.startswith("=")][1][2:].strip()


def test_games_left_with_dead_stones_are_scored_as_gnu_go_scores_them(write_ctl, gnugo):
    # Our random player passes when GNU Go does; it lists no dead stone, GNU Go lists its own:
    # the referee engine settles, and the winner is the one GNU Go's final_score gives. Both
    # players are seeded (GNU Go's own seed is the time), so that these games have disputes.
    ctl = write_ctl(f"""
        competition_type = 'playoff'
        players = {{
            'gnugo': Player('{gnugo} --mode gtp --level 0 --chinese-rules --seed 1'),
            'random': Player([PYTHON, '-m', 'players', 'random', '--seed', '3']),
        }}
        referee = Player('{gnugo} --mode gtp --chinese-rules')
        board_size = 9
        komi = 7.5
        scorer = 'internal'
        matchups = [Matchup('gnugo', 'random', alternating=True, number_of_games=2)]
        """)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    settled = 0
    for record in sorted(Path(ctl[:-4] + ".games").iterdir()):
        root = sgf.Sgf_game.from_bytes(record.read_bytes()).get_root()
        ours = root.get("RE")
        assert ours[0] in "BW", ours
        assert gnugo_final_score(gnugo, record)[0] == ours[0], record.name
        settled += "dead stones taken off (the referee engine)" in record.read_text()
    assert settled


def test_a_game_is_adjudicated_on_gnu_gos_score(write_ctl, gnugo):
    ctl = write_ctl(f"""
        competition_type = 'playoff'
        players = {{
            'gnugo': Player('{gnugo} --mode gtp --level 0 --chinese-rules'),
            'random': Player([PYTHON, '-m', 'players', 'random', '--seed', '5']),
        }}
        referee = Player('{gnugo} --mode gtp --chinese-rules')
        board_size = 9
        komi = 7.5
        scorer = 'internal'
        adjudication = {{'margin': 15, 'after_move': 20, 'every': 4, 'checks': 2}}
        matchups = [Matchup('gnugo', 'random', number_of_games=1)]
        """)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    report = json.loads(invoke("show", ctl, "--json").output)
    (game,) = report["matchups"][0]["results"]
    assert game["is_adjudicated"] and game["winning_colour"] == "b", game
    assert game["detail"].startswith("adjudicated: the referee engine's score B+")
    assert report["games"][0]["adjudicated"] and report["matchups"][0]["stats"]["adjudicated"] == 1
    text = Path(ctl[:-4] + ".report").read_text()
    assert "adjudicated (the referee engine's score ended the game): 1 of 1 games" in text
    moves = len(sgf.Sgf_game.from_bytes(Path(ctl[:-4] + ".games/0_0.sgf").read_bytes())
                .get_main_sequence()) - 1
    assert moves >= 24 and (moves - 20) % 4 == 0
