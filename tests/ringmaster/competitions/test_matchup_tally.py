"""A tournament's report counts kept as results arrive: the same text as a count from scratch, and a
redraw with no new result counts nothing."""

from __future__ import annotations

import io
import json
import random

from ringmaster.competitions.matchup_stats import StatsTally
from ringmaster.competitions.opening_stats import OpeningTally
from ringmaster.control_file import load_control_file
from ringmaster.game.job import GameJobResult
from ringmaster.game.result import GameResult, UnknownReasons
from ringmaster.state.state_file import dumps_state
from tests.ringmaster.competitions.test_openings import GO5, write_suite

CTL = """
competition_type = 'playoff'
players = {'p': Player('ep'), 'q': Player('eq')}
board_size = 5
komi = 0.5
matchups = [Matchup('p', 'q', id='o', number_of_games=30, openings=Openings('suite')),
            Matchup('p', 'q', id='f', number_of_games=30)]
"""

OUTCOMES = [("b", "B+3", None), ("w", "W+1.5", None), (None, "0", None), ("b", "B+T", None),
            ("w", "W+R", "forfeit by p: attempted ill-formed move zz"),
            (None, "?", "players disagreed: p said B+3, q said W+2"), (None, "?", "no score reported"),
            (None, "?", None)]


def make_playoff(write_ctl, tmp_path):
    write_suite(tmp_path / "suite", GO5)
    comp = load_control_file(write_ctl(CTL)).make_competition()
    comp.set_clean_status()
    return comp


def play_one(comp, rng: random.Random) -> None:
    """One game's result, drawn from every kind the report counts."""
    job = comp.get_game()
    b, w = job.player_b.code, job.player_w.code
    colour, sgf_result, detail = rng.choice(OUTCOMES)
    cpu = {b: round(rng.uniform(0, 3), 2), w: rng.choice([None, round(rng.uniform(0, 3), 2)])}
    result = GameResult(job.game_id, b, w, colour, sgf_result, detail=detail,
                        is_forfeit=detail is not None and detail.startswith("forfeit"),
                        cpu_times=cpu, is_adjudicated=rng.random() < 0.2)
    comp.process_game_result(GameJobResult(job.game_id, job.game_data, result, {b: "E:1", w: "E:1"},
                                           {b: f"E {b}", w: f"E {w}"}))


def screen(comp) -> str:
    out = io.StringIO()
    comp.write_screen_report(out)
    return out.getvalue()


# The screen after the 24 games of play_one(Random(5)), as the report gave it before its counts were
# kept as results arrive (compute_stats and unknown_reasons over every result at each redraw).
EXPECTED_SCREEN = (
    'p v q (12/30 games)\n'
    'unknown results: 5 of 12 games (41.67%), left out of every percentage and the Elo\n'
    '  why: no score reported: 2 games (e.g. o_04)\n'
    '  why: players disagreed: 3 games (e.g. o_06: p said B+3, q said W+2); they may count by '
    'different rules (GNU Go counts Japanese-style unless given --chinese-rules); scorer = '
    "'internal' has the referee count every game\n"
    'board size: 5   komi: 0.5\n'
    "scoring: the players' final_score when they agree, else no result\n"
    'player  wins       %  as black       %  as white       %  forfeits  lost on time  avg cpu (s)\n'
    'p          3  42.86%         1  33.33%         2  50.00%         1             2         1.36\n'
    'q          4  57.14%         2  50.00%         2  66.67%         2             0         1.50\n'
    'both                         3  42.86%         4  57.14%\n'
    'Elo p - q: -50 [-290, +190] (95%), LOS 35.3%, score 42.9% [15.8%, 75.0%] over 7 games with a '
    'result\n'
    "adjudicated (the referee engine's score ended the game): 3 of 12 games\n"
    'openings: suite (3 openings, sequential; digest 56f2adee5d48)\n'
    "pairs (games 2k and 2k+1, one opening, colours swapped), by p's score in both: 0: 1, 1/4: 0, "
    '1/2: 1, 3/4: 0, 1: 0\n'
    'black won 3 of 7 games with a result (42.86%, 95% [15.8%, 75.0%])\n'
    '  opening  games  black won       %  p scored\n'
    '  a.sgf        4        2/3  66.67%       0/3\n'
    '  b.sgf        4        1/3  33.33%       2/3\n'
    '  c.sgf        4        0/1   0.00%       1/1\n'
    '\n'
    'p v q (12/30 games)\n'
    'unknown results: 3 of 12 games (25.00%), left out of every percentage and the Elo\n'
    '  why: players disagreed: 1 game (e.g. f_08: p said B+3, q said W+2); they may count by '
    'different rules (GNU Go counts Japanese-style unless given --chinese-rules); scorer = '
    "'internal' has the referee count every game\n"
    '  why: no result: 1 game (e.g. f_10)\n'
    '  why: no score reported: 1 game (e.g. f_11)\n'
    'board size: 5   komi: 0.5\n'
    "scoring: the players' final_score when they agree, else no result\n"
    'player  wins       %  colour  forfeits  lost on time  avg cpu (s)\n'
    'p        6.5  72.22%   black         2             0         1.70\n'
    'q        2.5  27.78%   white         0             3         1.18\n'
    'Elo p as Black - q as White: +166 [-69, +401] (95%), LOS 92.1%, score 72.2% [40.2%, 91.0%] over '
    '9 games with a result\n'
    "colours don't alternate: p had Black in every game, so the Elo, LOS and SPRT measure the "
    "players with these colours, Black's advantage not separated from the players' difference "
    '(alternating=True separates it)\n'
    "adjudicated (the referee engine's score ended the game): 5 of 12 games\n"
)


def test_counts_kept_as_results_arrive_give_the_text_of_a_count_from_scratch(write_ctl, tmp_path):
    comp = make_playoff(write_ctl, tmp_path)
    rng = random.Random(5)
    for _ in range(24):
        play_one(comp, rng)
        screen(comp)                      # a redraw after each result: the tallies grow one at a time
    text, report = screen(comp), comp.get_json_report()
    fresh = make_playoff(write_ctl, tmp_path)
    fresh.set_status(json.loads(dumps_state(comp.get_status())))   # counted from scratch, in one pass
    assert screen(fresh) == text
    assert fresh.get_json_report() == report
    assert text == EXPECTED_SCREEN


def test_a_redraw_with_no_new_result_counts_nothing(write_ctl, tmp_path, monkeypatch):
    comp = make_playoff(write_ctl, tmp_path)
    rng = random.Random(5)
    for _ in range(10):
        play_one(comp, rng)
    added = []
    for tally_class in (StatsTally, OpeningTally, UnknownReasons):
        real = tally_class.add
        monkeypatch.setattr(tally_class, "add",
                            lambda self, r, real=real, name=tally_class.__name__: (
                                added.append(name), real(self, r))[1])
    first = screen(comp)
    assert sorted(set(added)) == ["OpeningTally", "StatsTally", "UnknownReasons"]
    assert added.count("StatsTally") == 10          # each result once, the first time
    added.clear()
    assert screen(comp) == first and added == []     # idle: nothing counted again
    play_one(comp, rng)
    screen(comp)
    assert added.count("StatsTally") == 1            # a new result: counted once
    added.clear()
    comp.set_status(json.loads(dumps_state(comp.get_status())))   # a reload: counted anew
    screen(comp)
    assert added.count("StatsTally") == 11
    added.clear()
    comp.results["f"] = list(comp.results["f"])   # another list, however it came: counted anew
    screen(comp)
    assert added.count("StatsTally") == len(comp.results["f"]) > 0


def test_a_game_number_given_twice_counts_its_last_result_in_the_pairs(write_ctl, tmp_path):
    comp = make_playoff(write_ctl, tmp_path)
    suite = comp.matchups["o"].suite
    tally = OpeningTally(suite, "p")
    tally.add(GameResult("o_0", "p", "q", "b", "B+1"))   # p won game 0
    tally.add(GameResult("o_1", "q", "p", "b", "B+1"))   # p lost game 1
    assert tally.counts == [0, 0, 1, 0, 0]
    tally.add(GameResult("o_1", "q", "p", "w", "W+1"))   # game 1 again: p won it
    assert tally.counts == [0, 0, 0, 0, 1]
    tally.add(GameResult("o_1", "q", "p", None, "?"))    # and again, no result: no pair
    assert tally.counts == [0, 0, 0, 0, 0]
    assert [(row.games, row.decided) for row in tally.opening_rows()] == [(4, 3)]
