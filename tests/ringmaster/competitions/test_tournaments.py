"""Playoff and all-play-all: scheduling, colours, ids, results, reports, state and control-file changes."""

from __future__ import annotations

import io
import json
import re

import pytest

from ringmaster.competitions.base import NO_GAME
from ringmaster.competitions.matchup_stats import compute_stats
from ringmaster.competitions.scheduling import GroupScheduler, SimpleScheduler
from ringmaster.control_file import load_control_file
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJobResult
from ringmaster.game.result import GameResult
from ringmaster.state.state_file import dumps_state

PLAYOFF = """
competition_type = 'playoff'
players = {'a': Player('ea'), 'b': Player('eb'), 'c': Player('ec')}
board_size = 9
komi = 7.5
matchups = [
    %s
]
"""


def competition(write_ctl, text, name="comp.ctl"):
    comp = load_control_file(write_ctl(text, name)).make_competition()
    comp.set_clean_status()
    return comp


def playoff(write_ctl, matchups="Matchup('a', 'b', alternating=True, number_of_games=4),"):
    return competition(write_ctl, PLAYOFF % matchups)


def respond(comp, job, winner="b", sgf_result=None, forfeit=False, cpu=(1.0, 2.0)):
    b, w = job.player_b.code, job.player_w.code
    if winner is None:
        result = GameResult(job.game_id, b, w, None, sgf_result or "0")
    else:
        result = GameResult(job.game_id, b, w, winner,
                            sgf_result or f"{winner.upper()}+5", is_forfeit=forfeit,
                            detail="forfeit by x: y" if forfeit else None,
                            cpu_times={b: cpu[0], w: cpu[1]})
    comp.process_game_result(GameJobResult(job.game_id, job.game_data, result,
                                           {b: "E:1", w: "E:1"}, {b: f"E {b}", w: f"E {w}"}))


def test_game_ids_and_alternating_colours(write_ctl):
    comp = playoff(write_ctl)
    jobs = [comp.get_game() for _ in range(4)]
    assert [j.game_id for j in jobs] == ["0_0", "0_1", "0_2", "0_3"]
    assert [(j.player_b.code, j.player_w.code) for j in jobs] == [
        ("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")]
    assert comp.get_game() is NO_GAME
    assert jobs[0].board_size == 9 and jobs[0].komi == 7.5 and jobs[0].move_limit == 1000


def test_ids_are_padded_to_number_of_games_and_unpadded_when_unlimited(write_ctl):
    comp = playoff(write_ctl, "Matchup('a', 'b', number_of_games=400), Matchup('a', 'c'),")
    ids = [comp.get_game().game_id for _ in range(4)]
    assert ids == ["0_000", "1_0", "0_001", "1_1"]


def test_non_alternating_keeps_player_1_black(write_ctl):
    comp = playoff(write_ctl, "Matchup('a', 'b', number_of_games=3),")
    assert {comp.get_game().player_b.code for _ in range(3)} == {"a"}


def test_self_play_clones_the_player(write_ctl):
    comp = playoff(write_ctl, "Matchup('a', 'a', number_of_games=2, alternating=True),")
    job = comp.get_game()
    assert (job.player_b.code, job.player_w.code) == ("a", "a#2")
    assert job.player_w.command == job.player_b.command


def test_group_scheduler_rollback_reissues_in_flight_games_first():
    scheduler = GroupScheduler()
    scheduler.set_groups([("mz", 4), ("my", None)])
    assert [scheduler.issue() for _ in range(3)] == [("mz", 0), ("my", 0), ("mz", 1)]
    scheduler.fix("mz", 1)
    restored = GroupScheduler.from_json(json.loads(json.dumps(scheduler.to_json())))
    restored.set_groups([("mz", 4), ("my", None)])
    issued = [restored.issue() for _ in range(8)]
    assert issued == [("my", 0), ("mz", 0), ("my", 1), ("mz", 2), ("my", 2), ("mz", 3),
                      ("my", 3), ("my", 4)]


def test_simple_scheduler_retry_and_rollback():
    scheduler = SimpleScheduler()
    assert [scheduler.issue() for _ in range(4)] == [0, 1, 2, 3]
    scheduler.fix(1)
    scheduler.retry(2)
    assert scheduler.issue() == 2          # a void game's number comes back first
    assert scheduler.issue() == 4
    scheduler.rollback()                   # 0, 2, 3 and 4 were in flight
    assert [scheduler.issue() for _ in range(5)] == [0, 2, 3, 4, 5]
    assert scheduler.issue(limit=6) is None and scheduler.issue() == 6


def test_simple_scheduler_saves_only_the_numbers_not_fixed_and_reads_the_old_form():
    scheduler = SimpleScheduler()
    for _ in range(1000):
        scheduler.fix(scheduler.issue())
    in_flight = [scheduler.issue() for _ in range(3)]
    scheduler.retry(in_flight[1])
    saved = scheduler.to_json()
    # What a save writes doesn't grow with the games fixed.
    assert saved == {"next_new": 1003, "unfixed": [1000, 1001, 1002]}
    for data in (saved, {"next_new": 1003, "fixed": list(range(1000))}):
        restored = SimpleScheduler.from_json(json.loads(json.dumps(data)))
        assert [restored.issue() for _ in range(4)] == [1000, 1001, 1002, 1003]
    # A number fixed while waiting to be issued again: saved in full, not as a gap.
    scheduler.fix(in_flight[1])
    assert scheduler.to_json() == {"next_new": 1003, "fixed": list(range(1000)) + [1001]}


def test_results_state_round_trip_replays_games_in_flight(write_ctl):
    comp = playoff(write_ctl)
    jobs = [comp.get_game() for _ in range(3)]
    respond(comp, jobs[1], "w")
    status = saved_status(comp)
    again = playoff(write_ctl)
    again.set_status(status)
    assert [again.get_game().game_id for _ in range(2)] == ["0_0", "0_2"]
    assert again.get_game().game_id == "0_3"
    assert again.get_game() is NO_GAME
    assert [r.game_id for r in again.results["0"]] == ["0_1"]


def saved_status(comp) -> dict:
    """The competition's status as the state file holds it."""
    return json.loads(dumps_state(comp.get_status()))


def test_changed_players_are_refused_swapped_order_accepted(write_ctl):
    comp = playoff(write_ctl)
    respond(comp, comp.get_game())
    status = saved_status(comp)
    changed = playoff(write_ctl, "Matchup('a', 'c', alternating=True, number_of_games=4),")
    with pytest.raises(CompetitionError) as info:
        changed.set_status(status)
    assert str(info.value) == ("existing results for matchup 0 are inconsistent with control "
                               "file: result players are a,b; control file players are a,c")
    swapped = playoff(write_ctl, "Matchup('b', 'a', alternating=True, number_of_games=4),")
    swapped.set_status(status)


def test_changed_board_size_is_refused(write_ctl):
    comp = playoff(write_ctl)
    respond(comp, comp.get_game())
    status = saved_status(comp)
    changed = competition(write_ctl, (PLAYOFF % "Matchup('a', 'b', alternating=True, "
                                      "number_of_games=4),").replace("board_size = 9",
                                                                     "board_size = 13"))
    with pytest.raises(CompetitionError) as info:
        changed.set_status(status)
    assert str(info.value) == ("existing results for matchup 0 are inconsistent with control "
                               "file: they were played on go 9x9; control file says go 13x13")
    more_games = playoff(write_ctl, "Matchup('a', 'b', alternating=True, number_of_games=8),"
                                    "Matchup('a', 'c', board_size=13),")
    more_games.set_status(status)
    assert len(more_games.results["0"]) == 1


def test_removed_matchup_becomes_a_ghost_in_reports(write_ctl):
    comp = playoff(write_ctl, "Matchup('a', 'b', number_of_games=2), "
                              "Matchup('a', 'c', number_of_games=2),")
    for _ in range(2):
        respond(comp, comp.get_game())
    fewer = playoff(write_ctl, "Matchup('a', 'b', number_of_games=2),")
    fewer.set_status(saved_status(comp))
    out = io.StringIO()
    fewer.write_short_report(out)
    assert "a v c (1 games)\n?? (missing from control file)" in out.getvalue()
    screen = io.StringIO()
    fewer.write_screen_report(screen)
    assert "a v c" not in screen.getvalue()


def test_report_table_with_forfeits_cpu_and_elo(write_ctl):
    comp = playoff(write_ctl)
    jobs = [comp.get_game() for _ in range(4)]
    respond(comp, jobs[0], "b")                 # a wins as black
    respond(comp, jobs[1], "w", forfeit=True)   # a wins as white, b forfeits
    respond(comp, jobs[2], "w")                 # b wins as white
    respond(comp, jobs[3], "b")                 # b wins as black
    out = io.StringIO()
    comp.write_short_report(out)
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["playoff: comp", ""]
    assert lines[2] == "a v b (4/4 games)"
    assert lines[3] == "board size: 9   komi: 7.5"
    assert lines[4] == "scoring: the players' final_score when they agree, else no result"
    assert lines[5].split() == ["player", "wins", "%", "as", "black", "%", "as", "white", "%",
                                "forfeits", "avg", "cpu", "(s)"]
    assert lines[6].split() == ["a", "2", "50.00%", "1", "50.00%", "1", "50.00%", "0", "1.50"]
    assert lines[7].split() == ["b", "2", "50.00%", "1", "50.00%", "1", "50.00%", "1", "1.50"]
    assert lines[8].split() == ["both", "2", "50.00%", "2", "50.00%"]
    # Wilson for 2/4: [0.150, 0.850] -> Elo -400 log10(1/0.15 - 1) = -301; LOS = (1 + erf(0))/2.
    assert lines[9] == ("Elo a - b: +0 [-301, +301] (95%), LOS 50.0%, "
                        "score 50.0% [15.0%, 85.0%] over 4 games with a result")
    assert "player a: E a" in lines and not any(line.startswith("player c") for line in lines)


def test_jigo_counts_half_in_the_colour_actually_played():
    results = [GameResult("0", "x", "y", None, "0"), GameResult("1", "y", "x", "b", "B+1")]
    s = compute_stats(results, "x", "y")
    assert (s.wins_1, s.wins_2, s.jigos) == (0.5, 1.5, 1)
    assert (s.wins_1b, s.wins_1w, s.wins_2b, s.wins_2w) == (0.5, 0, 1, 0.5)
    assert s.wins_1b + s.wins_1w == s.wins_1 and s.wins_b + s.wins_w == s.total


def test_unknown_results_are_reported_and_left_out_of_the_rate(write_ctl):
    comp = playoff(write_ctl)
    jobs = [comp.get_game() for _ in range(2)]
    respond(comp, jobs[0], None, sgf_result="?")
    respond(comp, jobs[1], "b")
    out = io.StringIO()
    comp.write_screen_report(out)
    text = out.getvalue()
    assert "unknown results: 1 of 2 games (50.00%), left out of every percentage" in text
    # The table's percentages and the Elo line agree: no win in the 1 game with a result.
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.strip()}
    assert rows["a"][1:3] == ["0", "0.00%"] and rows["b"][1:3] == ["1", "100.00%"]
    assert "score 0.0% [" in text and "over 1 game with a result" in text
    assert comp.get_json_report()["matchups"][0]["stats"]["win_rate_1"] == 0.0


def test_void_game_rule(write_ctl):
    comp = playoff(write_ctl)
    job = comp.get_game()
    assert comp.process_game_error(job, 0) == (True, True)   # no game finished yet this run
    comp = playoff(write_ctl)
    respond(comp, comp.get_game())
    job = comp.get_game()
    assert comp.process_game_error(job, 0) == (False, True)
    assert comp.get_game().game_id == job.game_id            # replayed under the same id
    assert comp.process_game_error(job, 1) == (True, True)   # void twice in a row


ALLPLAYALL = """
competition_type = 'allplayall'
players = {'a': Player('ea'), 'b': Player('eb'), 'c': Player('ec'), 'd': Player('ed')}
board_size = 9
komi = 7.5
rounds = 2
competitors = %s
"""


def test_allplayall_pairings_ids_and_grid(write_ctl):
    comp = competition(write_ctl, ALLPLAYALL % "['a', 'b', 'c']")
    jobs = [comp.get_game() for _ in range(6)]
    assert [j.game_id for j in jobs] == ["AvB_0", "AvC_0", "BvC_0", "AvB_1", "AvC_1", "BvC_1"]
    # a and b (list positions 0 + 1: odd): b takes Black first; a and c (0 + 2): a does.
    assert [(j.player_b.code, j.player_w.code) for j in jobs] == [
        ("b", "a"), ("a", "c"), ("c", "b"), ("a", "b"), ("c", "a"), ("b", "c")]
    assert comp.get_game() is NO_GAME
    for job in jobs:
        respond(comp, job, "b")
    out = io.StringIO()
    comp.write_screen_report(out)
    text = out.getvalue()
    assert text.startswith("6/6 games played\n")
    assert [line.split() for line in text.splitlines()[2:6]] == [
        ["A", "B", "C"], ["A", "a", "1-1", "1-1"], ["B", "b", "1-1", "1-1"],
        ["C", "c", "1-1", "1-1"]]
    # Every pairing split 1-1: equal joint ratings, relative to the mean.
    out = io.StringIO()
    comp.write_short_report(out)
    report = out.getvalue()
    assert "Ratings (Bradley-Terry, joint over the games within each group" in report
    rows = [line.split() for line in report.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert sorted(row[1] for row in rows) == ["a", "b", "c"] and {row[2] for row in rows} == {"+0"}
    # Said once, and as English ("relative to mean." twice: here and in the method's note).
    assert report.count("relative to") == 1 and "Ratings are relative to the mean. " in report
    assert "Elo: logistic" in report
    assert comp.get_json_report()["ratings"]["relative_to"] == "mean"


def win_for(job, player):
    """The winning colour that makes `player` win this game."""
    return "b" if job.player_b.code == player else "w"


def test_a_star_playoff_rates_no_player_against_one_it_never_met_nor_scored_against(write_ctl):
    # The README's first playoff: a (mcts-1000) beat c (random) in every game and split with b
    # (mcts-200). c never met b: it is not rated, nor ranked above or below b.
    comp = playoff(write_ctl, "Matchup('a', 'c', alternating=True, number_of_games=4), "
                              "Matchup('a', 'b', alternating=True, number_of_games=8),")
    jobs = [comp.get_game() for _ in range(12)]
    a_v_b = [j for j in jobs if j.game_data[0] == "1"]
    for job in jobs:
        respond(comp, job, win_for(job, "a" if job.game_data[0] == "0" or job in a_v_b[:6] else "b"))
    out = io.StringIO()
    comp.write_short_report(out)
    report = out.getvalue()
    # c stands below the table, by its record; no rank number puts b or a above a player apart.
    lines = report.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("player ") and "Elo" in line))
    assert [line.split()[0] for line in lines[header + 1:header + 3]] == ["a", "b"]
    assert lines[header + 3] == ("Lost every game it played (no finite rating, so not rated; below each "
                                 "opponent by its record):")
    assert lines[header + 4] == "  c: lost every game against a (4 games)"
    assert "rank" not in report
    ratings = comp.get_json_report()["ratings"]
    assert [r["player"] for r in ratings["ratings"]] == ["a", "b"]
    assert "c" not in ratings["superiority"] and ratings["unrated"][0]["player"] == "c"
    assert ratings["unrated"][0]["lost_every_game"] and not ratings["unrated"][0]["won_every_game"]
    from ringmaster.reporting.html import render_html
    page = render_html({**comp.get_json_report(), "games": [], "progress": {}})
    assert ("Lost every game played, so not rated (no finite rating), and below each opponent by its "
            "record: <b>c</b> lost every game against a (4 games).") in page
    assert "<th>rank</th>" not in page


def test_two_players_of_one_engine_are_named_with_the_options_that_tell_them_apart(write_ctl):
    comp = competition(write_ctl, """
competition_type = 'playoff'
players = {'l1': Player('gnugo --mode gtp --level 1'), 'l10': Player('gnugo --mode gtp --level 10')}
board_size = 9
komi = 7.5
matchups = [Matchup('l1', 'l10', number_of_games=1)]
""")
    job = comp.get_game()
    result = GameResult(job.game_id, "l1", "l10", "b", "B+5")
    comp.process_game_result(GameJobResult(job.game_id, job.game_data, result,
                                           {"l1": "GNU Go:3.8", "l10": "GNU Go:3.8"},
                                           {"l1": "GNU Go:3.8", "l10": "GNU Go:3.8"}))
    out = io.StringIO()
    comp.write_short_report(out)
    assert out.getvalue().endswith("player l1: GNU Go:3.8 (--level 1)\n"
                                   "player l10: GNU Go:3.8 (--level 10)\n")


def test_allplayall_competitors_may_be_appended_not_removed(write_ctl):
    comp = competition(write_ctl, ALLPLAYALL % "['a', 'b', 'c']")
    respond(comp, comp.get_game())
    status = saved_status(comp)
    more = competition(write_ctl, ALLPLAYALL % "['a', 'b', 'c', 'd']")
    more.set_status(status)
    assert "AvD" in more.matchups
    fewer = competition(write_ctl, ALLPLAYALL % "['a', 'c']")
    with pytest.raises(CompetitionError, match="competitor has been removed from control file: b"):
        fewer.set_status(status)
    reordered = competition(write_ctl, ALLPLAYALL % "['b', 'a', 'c']")
    with pytest.raises(CompetitionError, match="competitors have changed"):
        reordered.set_status(status)


@pytest.mark.parametrize("setting", ["handicap = 2", "handicap_style = 'free'"])
def test_allplayall_refuses_a_handicap_setting_it_would_ignore(write_ctl, setting):
    with pytest.raises(ControlFileError) as info:
        competition(write_ctl, ALLPLAYALL % "['a', 'b']" + setting + "\n")
    name = setting.split()[0]
    assert f"line 7: '{name}': not supported by allplayall: its games have no handicap" \
        in str(info.value)


def play(comp, winners):
    """Play each matchup's games in turn: winners[mid] is the winning colour of each of its games."""
    left = {mid: list(colours) for mid, colours in winners.items()}
    while (job := comp.get_game()) is not NO_GAME:
        respond(comp, job, left[job.game_data[0]].pop(0))


def report_text(comp):
    out = io.StringIO()
    comp.write_short_report(out)
    return out.getvalue()


# The reviewer's case: b beat a 6-2 in even games; with 4 handicap stones (komi 0.5) a, the weaker,
# won all 8. Pooled, a was ranked first; c, split 2-2 with b, makes a third player.
HANDICAP_CASE = ("Matchup('b', 'a', id='even', alternating=True, number_of_games=8), "
                 "Matchup('a', 'b', id='hcap', handicap=4, komi=0.5, number_of_games=8), "
                 "Matchup('c', 'b', id='cb', alternating=True, number_of_games=4),")
HANDICAP_WINNERS = {"even": "bwbwbwwb", "hcap": "b" * 8, "cb": "bbww"}   # even: b Black in games 0, 2...


def test_joint_ratings_leave_out_a_handicap_matchup_and_say_so(write_ctl):
    comp = playoff(write_ctl, HANDICAP_CASE)
    play(comp, HANDICAP_WINNERS)
    report = report_text(comp)
    ranked = [line.split()[1] for line in report.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert ranked.index("b") < ranked.index("a")
    assert ("ratings leave out the matchups whose games are not even: "
            "hcap (4 handicap stones, komi 0.5)\n") in report
    # The handicap matchup's own Elo and SPRT-free line names its terms; the even ones don't.
    assert "Elo a as Black - b as White (4 handicap stones, komi 0.5): +inf" in report
    assert "Elo b - a: +" in report
    data = comp.get_json_report()
    assert data["ratings_excluded"] == ["hcap"]
    assert [m["uneven_terms"] for m in data["matchups"]] == [None, "4 handicap stones, komi 0.5", None]
    rated = {r["player"]: r for r in data["ratings"]["ratings"]}
    assert rated["b"]["elo"] > rated["a"]["elo"] and rated["a"]["games"] == 8


def test_no_joint_ratings_when_every_matchup_is_a_handicap_one(write_ctl):
    comp = playoff(write_ctl, "Matchup('a', 'b', handicap=2, number_of_games=2), "
                              "Matchup('b', 'c', handicap=3, number_of_games=2),")
    play(comp, {"0": "bw", "1": "bw"})
    report = report_text(comp)
    assert ("  no player is rated: joint ratings pool only even games (no handicap stones, one komi) "
            "with colours alternating, and no matchup's games are: 0 (2 handicap stones, komi 7.5), "
            "1 (3 handicap stones, komi 7.5)\n" in report)
    assert "rank" not in report
    data = comp.get_json_report()
    assert data["ratings"] is None and data["ratings_excluded"] == ["0", "1"]


def test_a_matchup_at_another_komi_is_left_out_of_the_joint_ratings(write_ctl):
    # Reverse komi, no stones: Black (a, player 1 in every game) is given the points a handicap would.
    comp = playoff(write_ctl, "Matchup('a', 'b', alternating=True, number_of_games=2), "
                              "Matchup('b', 'c', alternating=True, number_of_games=2), "
                              "Matchup('a', 'c', id='rev', komi=-7.5, number_of_games=2),")
    play(comp, {"0": "bw", "1": "bw", "rev": "bb"})
    report = report_text(comp)
    assert ("ratings leave out the matchups whose games are not even: "
            "rev (komi -7.5, where the even games play at 7.5)\n") in report
    assert comp.get_json_report()["ratings_excluded"] == ["rev"]


ROUND_ROBIN = """
competition_type = 'allplayall'
players = {%s}
board_size = 9
komi = 7.5
rounds = %d
competitors = %r
"""


def round_robin(write_ctl, competitors, rounds):
    players = ", ".join(f"'{c}': Player('e{c}')" for c in competitors)
    return competition(write_ctl, ROUND_ROBIN % (players, rounds, competitors))


def play_out(comp, winner="b"):
    """Play every game left; return their jobs."""
    jobs = []
    while (job := comp.get_game()) is not NO_GAME:
        respond(comp, job, winner)
        jobs.append(job)
    return jobs


def black_white(comp):
    """Each competitor's (games as Black, games as White), counted from the results."""
    results = [r for rs in comp.results.values() for r in rs]
    return {c: (sum(r.player_b == c for r in results), sum(r.player_w == c for r in results))
            for c in comp.competitors}


def test_allplayall_at_odd_rounds_gives_each_competitor_black_in_half_its_games(write_ctl):
    # Player 1 took Black first in every pairing: g2 had Black in 4 of 6 games, g0 in 2.
    comp = round_robin(write_ctl, ["g2", "g1", "g0"], 3)
    assert len(play_out(comp)) == 9
    assert black_white(comp) == {"g2": (3, 3), "g1": (3, 3), "g0": (3, 3)}


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("rounds", range(1, 5))
def test_allplayall_colours_differ_by_at_most_one_game_a_competitor(write_ctl, n, rounds):
    comp = round_robin(write_ctl, [f"p{i}" for i in range(n)], rounds)
    play_out(comp)
    counts = black_white(comp)
    assert all(b + w == rounds * (n - 1) for b, w in counts.values())
    if n % 2 == 1 or rounds % 2 == 0:
        assert all(b == w for b, w in counts.values()), counts
    else:
        assert all(abs(b - w) == 1 for b, w in counts.values()), counts
    # Each pairing alternates, so an even number of games splits evenly in every pairing.
    for mid, m in comp.matchups.items():
        s = compute_stats(comp.results[mid], m.player_1, m.player_2)
        assert abs(s.played_1b - s.played_2b) == rounds % 2


def test_allplayall_resumes_an_older_state_keeping_its_colours(write_ctl):
    old = round_robin(write_ctl, ["a", "b", "c"], 3)
    for m in old.matchups.values():   # the rule before: player 1 Black first everywhere
        m.player_2_black_first = False
    jobs = [old.get_game() for _ in range(4)]   # AvB_0, AvC_0, BvC_0, AvB_1
    assert [j.game_id for j in jobs] == ["AvB_0", "AvC_0", "BvC_0", "AvB_1"]
    respond(old, jobs[0])
    respond(old, jobs[3])   # BvC_0 and AvC_0 were in flight at the stop
    status = saved_status(old)
    del status["black_first"]
    resumed = round_robin(write_ctl, ["a", "b", "c"], 3)
    resumed.set_status(status)
    rest = play_out(resumed)
    colours = {j.game_id: (j.player_b.code, j.player_w.code) for j in jobs + rest}
    assert sorted(j.game_id for j in rest) == ["AvB_2", "AvC_0", "AvC_1", "AvC_2", "BvC_0",
                                                "BvC_1", "BvC_2"]
    # Every pairing had begun: each keeps player 1 Black in its even games, the games in
    # flight (AvC_0, BvC_0) replayed as they were started.
    assert colours == {"AvB_0": ("a", "b"), "AvB_1": ("b", "a"), "AvB_2": ("a", "b"),
                       "AvC_0": ("a", "c"), "AvC_1": ("c", "a"), "AvC_2": ("a", "c"),
                       "BvC_0": ("b", "c"), "BvC_1": ("c", "b"), "BvC_2": ("b", "c")}
    assert len(resumed.results["AvB"]) == 3 and resumed.is_complete()


def test_allplayall_resumed_older_state_gives_pairings_not_begun_the_new_rule(write_ctl):
    old = round_robin(write_ctl, ["a", "b", "c"], 3)
    for m in old.matchups.values():
        m.player_2_black_first = False
    respond(old, old.get_game())   # AvB_0 only
    status = saved_status(old)
    del status["black_first"]
    resumed = round_robin(write_ctl, ["a", "b", "c"], 3)
    resumed.set_status(status)
    colours = {j.game_id: (j.player_b.code, j.player_w.code) for j in play_out(resumed)}
    assert colours["AvB_1"] == ("b", "a") and colours["AvB_2"] == ("a", "b")
    assert colours["BvC_0"] == ("c", "b") and colours["BvC_2"] == ("c", "b")   # b + c: odd
    assert black_white(resumed) == {"a": (4, 2), "b": (2, 4), "c": (3, 3)}


def test_allplayall_state_keeps_each_begun_pairings_colours(write_ctl):
    comp = round_robin(write_ctl, ["a", "b", "c"], 4)
    jobs = [comp.get_game() for _ in range(4)]
    respond(comp, jobs[1])
    status = saved_status(comp)
    assert status["black_first"] == {"AvB": "b", "AvC": "a", "BvC": "c"}
    again = round_robin(write_ctl, ["a", "b", "c"], 4)
    again.set_status(status)
    replayed = [again.get_game() for _ in range(3)]
    assert {(j.game_id, j.player_b.code) for j in replayed} == {
        (j.game_id, j.player_b.code) for j in (jobs[0], jobs[2], jobs[3])}
    # A state naming a player of no pairing's is refused.
    with pytest.raises(CompetitionError, match="state is malformed: black_first"):
        round_robin(write_ctl, ["a", "b", "c"], 4).set_status({**status, "black_first": {"AvB": "c"}})


def test_allplayall_report_gives_each_competitors_colours_and_score(write_ctl):
    comp = round_robin(write_ctl, ["g2", "g1", "g0"], 3)
    play_out(comp, winner="b")
    out = io.StringIO()
    comp.write_short_report(out)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Colours:"))
    assert [line.split() for line in lines[start + 2:start + 6]] == [
        ["player", "black", "score", "%", "white", "score", "%"],
        ["A", "g2", "3", "3", "100.00%", "3", "0", "0.00%"],
        ["B", "g1", "3", "3", "100.00%", "3", "0", "0.00%"],
        ["C", "g0", "3", "3", "100.00%", "3", "0", "0.00%"]]
    g2 = comp.get_json_report()["colours"][0]
    assert g2 == {"player": "g2", "games_as_black": 3, "games_as_white": 3,
                  "decided_as_black": 3, "decided_as_white": 3, "score_as_black": 3.0,
                  "score_as_white": 0.0, "rate_as_black": 1.0, "rate_as_white": 0.0}
    from ringmaster.reporting.html import render_html
    page = render_html({**comp.get_json_report(), "games": [], "progress": {}})
    assert "<h2>Colours</h2>" in page
    assert re.search(r"<td class=\"l\">g2</td><td>3</td><td>3/3 100.0%</td>"
                     r"<td>3</td><td>0/3 0.0%</td>", page)


def test_fixed_colour_matchups_name_the_colours_and_stay_out_of_the_joint_ratings(write_ctl):
    # The reviewer's case: three equal players, Gomill's default alternating=False (player 1 Black
    # in every game), Black winning 5 of 8. Pooled, they were rated +64 / +11 / -75.
    comp = playoff(write_ctl, "Matchup('a', 'b', number_of_games=8), Matchup('b', 'c', number_of_games=8), "
                              "Matchup('a', 'c', number_of_games=8),")
    play(comp, {"0": "bbbbbwww", "1": "bbbbbwww", "2": "bbbbbwww"})
    report = report_text(comp)
    assert ("  no player is rated: joint ratings pool only even games (no handicap stones, one komi) "
            "with colours alternating, and no matchup's games are: 0 (a Black in every game), "
            "1 (b Black in every game), 2 (a Black in every game)\n") in report
    assert "Elo a as Black - b as White: +89" in report and "Elo a - b" not in report
    assert ("colours don't alternate: b had Black in every game, so the Elo, LOS and SPRT measure the "
            "players with these colours, Black's advantage not separated") in report
    data = comp.get_json_report()
    assert data["ratings"] is None and data["ratings_excluded"] == ["0", "1", "2"]
    assert [m["fixed_black"] for m in data["matchups"]] == ["a", "b", "a"]
    # Alternate two of them: those are rated, the third is left out and named.
    comp = playoff(write_ctl, "Matchup('a', 'b', alternating=True, number_of_games=8), "
                              "Matchup('b', 'c', alternating=True, number_of_games=8), "
                              "Matchup('a', 'c', number_of_games=8),")
    play(comp, {"0": "bbbbbwww", "1": "bbbbbwww", "2": "bbbbbwww"})
    report = report_text(comp)
    assert ("ratings leave out the matchups whose colours don't alternate (Black's advantage is not "
            "separated from the players' difference): 2 (a Black in every game)\n") in report
    data = comp.get_json_report()
    assert data["ratings_excluded"] == ["2"]
    assert {r["player"]: r["games"] for r in data["ratings"]["ratings"]} == {"a": 8, "b": 16, "c": 8}
    assert "Elo a - b: " in report and "Elo a as Black - c as White: " in report


def test_players_who_won_or_lost_every_game_stand_apart_from_the_ranked_table(write_ctl):
    # The reviewer's case: a won all its games, e lost all; b, c and d split theirs. The table
    # said "1 b", a listed below it as not rated: a rank 1 under a player who won every game.
    comp = round_robin(write_ctl, ["a", "b", "c", "d", "e"], 2)
    order = "abcde"
    while (job := comp.get_game()) is not NO_GAME:
        b, w = job.player_b.code, job.player_w.code
        if {b, w} & {"a", "e"}:
            winner = "b" if order.index(b) < order.index(w) else "w"
        else:
            winner = "b"   # b, c and d: each pairing's two games, colours swapped, split 1-1
        respond(comp, job, winner)
    lines = report_text(comp).splitlines()
    start = lines.index(next(line for line in lines if line.startswith("Ratings (")))
    block = lines[start + 1:start + 9]
    assert block[0] == ("Won every game it played (no finite rating, so not rated; above each opponent "
                        "by its record):")
    assert block[1] == "  a: won every game against b, c, d, e (8 games)"
    assert block[2].split()[:2] == ["player", "Elo"]
    assert sorted(line.split()[0] for line in block[3:6]) == ["b", "c", "d"]
    assert block[6].startswith("Lost every game it played")
    assert block[7] == "  e: lost every game against a, b, c, d (8 games)"
    assert not any(line.split()[:1] == ["rank"] for line in lines)
    unrated = {u["player"]: u for u in comp.get_json_report()["ratings"]["unrated"]}
    assert unrated["a"]["won_every_game"] and unrated["e"]["lost_every_game"]
    from ringmaster.reporting.html import render_html
    page = render_html({**comp.get_json_report(), "games": [], "progress": {}})
    assert page.index("Won every game played") < page.index('<td class="l">b</td>') \
        < page.index("Lost every game played")
    assert "<th>rank</th>" not in page
