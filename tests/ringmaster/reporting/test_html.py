"""FILE.html rendered for every competition type from hand-built states, and opened in Chromium."""

from __future__ import annotations

import io
import math
import os
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest
from markupsafe import escape

from ringmaster.competitions.ce_tuner import CeTuner
from ringmaster.competitions.mc_tuner import McTuner
from ringmaster.competitions.simulate import make_result, make_simulated_candidate, play_simulated
from ringmaster.control_file import load_control_file
from ringmaster.reporting.html import describe_game, engine_limits, render_html
from ringmaster.reporting.tournaments import cross_table
from ringmaster.run.game_index import GameEntry, entry_for_result
from ringmaster.settings import Player
from ringmaster.stats.timing import RunClock, progress
from ringmaster.tuning.parameters import CeParameter, McParameter
from ringmaster.tuning.scales import LINEAR, LOG

PLAYOFF = """
competition_type = 'playoff'
description = 'Two engines, one with an SPRT.'
players = {'a': Player('engine-a'), 'b': Player('engine-b'), 'c': Player('engine-c')}
board_size = 9
komi = 7.5
matchups = [
    Matchup('a', 'b', alternating=True, number_of_games=200,
            sprt={'elo0': 0, 'elo1': 100, 'alpha': 0.05, 'beta': 0.05}),
    Matchup('b', 'c', number_of_games=10),
]
"""

ALLPLAYALL = """
competition_type = 'allplayall'
players = {'a': Player('engine-a'), 'b': Player('engine-b'), 'c': Player('engine-c')}
board_size = 9
komi = 7.5
competitors = ['a', 'b', 'c']
rounds = 6
"""


def full_report(competition, entries, voids=0):
    """What Ringmaster.json_report() adds to the competition's own report."""
    clock = RunClock(started="2026-11-22 10:00:00", elapsed_before=3600.0)
    report = competition.get_json_report()
    report.update({"void_games": voids, "ringmaster_version": "test",
                   "progress": progress(competition.games_played(), competition.games_wanted(),
                                        clock),
                   "games": [{**e.to_json(), "record": f"comp.{'void' if e.is_void else 'games'}/"
                                                        f"{e.game_id}.sgf"} for e in entries],
                   "games_directory": "comp.games"})
    return report


def entry(response, rng):
    result = response.game_result
    result.cpu_times = {result.player_b: rng.uniform(1, 3), result.player_w: rng.uniform(1, 3)}
    return entry_for_result(result, rng.randint(20, 80), rng.uniform(1, 5),
                            "2026-11-22 10:30:00", response.game_data)


class TagChecker(HTMLParser):
    """Checks that every non-void element is closed in order."""

    VOID = {"meta", "br", "img", "input", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def check_page(page):
    """Well-formed HTML, every SVG well-formed XML, no Python syntax, no stray None/nan."""
    checker = TagChecker()
    checker.feed(page)
    assert checker.stack == []
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    for text in svgs:
        ElementTree.fromstring(text)
    visible = re.sub(r"<[^>]+>", " ", page)
    for bad in ("None", "nan", "[(", "(0,)", "Undefined"):
        assert bad not in visible, bad
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    return svgs


def play_playoff(write_ctl, games, a_wins):
    """PLAYOFF's first games: a wins its games with probability a_wins; b v c is even."""
    competition = load_control_file(write_ctl(PLAYOFF)).make_competition()
    competition.set_clean_status()
    rng = random.Random(1)
    entries = []
    for _ in range(games):
        job = competition.get_game()
        if not hasattr(job, "game_id"):
            break
        if "a" in (job.player_b.code, job.player_w.code):
            a_colour = "b" if job.player_b.code == "a" else "w"
            winner = a_colour if rng.random() < a_wins else ("w" if a_colour == "b" else "b")
        else:
            winner = rng.choice("bw")
        response = make_result(job, winner)
        competition.process_game_result(response)
        entries.append(entry(response, rng))
    return competition, entries


def playoff_report(write_ctl):
    competition, entries = play_playoff(write_ctl, 60, a_wins=0.85)
    entries.append(GameEntry("0_99", "a", "b", "void", detail="aborting game due to error: x"))
    return full_report(competition, entries, voids=1)


def test_playoff_page_has_the_headline_the_sprt_and_its_plots(write_ctl):
    report = playoff_report(write_ctl)
    assert report["matchups"][0]["sprt"]["decision"] == "H1"
    page = render_html(report)
    svgs = check_page(page)
    # Accepting H1 shows elo > elo0 at alpha, not that elo reaches elo1.
    assert ('<span class="pass">H1 accepted: elo &gt; 0</span> after' in page
            and "(elo ≤ 0 rejected at alpha 0.05; not a finding that elo ≥ 100)" in page)
    assert "elo ≥ 100)" not in page.replace("finding that elo ≥ 100)", "")
    assert "biased away from zero" in page
    sprt = report["matchups"][0]["sprt"]
    assert f"after {sprt['decided_at_games']} games, at LLR {sprt['llr_at_decision']:.2f}" in page
    assert sprt["llr_at_decision"] >= sprt["upper_bound"]
    assert "Elo a − b: <b>+" in page and "LOS" in page
    assert "SPRT log-likelihood ratio" in page and "Elo of a over games" in page
    assert "Game length" in page and "Pairs (pair score 0" in page
    # Three players over two matchups: joint ratings and a cross table, which leave out b v c: b
    # had Black in every game (alternating False), and its own lines name the colours.
    assert "Ratings" in page and "Cross table" in page
    assert ("Ratings leave out the matchups whose colours don&#39;t alternate (Black&#39;s advantage "
            "is not separated from the players&#39; difference): 1 (b Black in every game).") in page
    assert "Elo b as Black − c as White: <b>" in page
    assert "Colours don't alternate: b had Black in every game" in page
    assert report["ratings_excluded"] == ["1"] and report["matchups"][1]["fixed_black"] == "b"
    assert report["matchups"][0]["fixed_black"] is None
    assert '<a href="comp.games/0_000.sgf">0_000</a>' in page
    assert '<a href="comp.void/0_99.sgf">0_99</a>' in page
    assert "aborting game due to error" in page
    assert len(svgs) >= 4
    assert "go 9x9, komi 7.5, scored by the players, move limit" in page
    assert "the players&#39; final_score when they agree, else no result" in page
    assert "<code>engine-a</code>" in page
    assert "simple ko, no superko" in page and "none sent by the ringmaster" in page


def test_forfeits_are_counted_by_engine_and_reason(write_ctl):
    report = playoff_report(write_ctl)
    report["games"] += [
        GameEntry("0_90", "a", "b", "W+F", winner="b", forfeit=True,
                  detail="forfeit by a: attempted move to occupied point E5"),
        GameEntry("0_91", "b", "a", "B+F", winner="b", forfeit=True,
                  detail="forfeit by a: attempted move to occupied point D4"),
        GameEntry("0_92", "b", "a", "W+F", winner="a", forfeit=True,
                  detail="forfeit by b: attempted ill-formed move 'xyzzy'"),
    ]
    report["games"] = [g.to_json() if isinstance(g, GameEntry) else g for g in report["games"]]
    page = render_html(report)
    check_page(page)
    rows = re.findall(r"<tr><td class=\"l\">(\w+)</td><td class=\"l\">([^<]+)</td><td>(\d+)</td>"
                      r"<td class=\"l\">([\w_]+)</td></tr>", page)
    assert rows == [("a", "attempted move to occupied point &lt;move&gt;", "2", "0_90"),
                    ("b", "attempted ill-formed move &#39;...&#39;", "1", "0_92")]


def test_engine_limits_are_read_from_the_command():
    assert engine_limits(["python", "-m", "players", "mcts", "--playouts", "1000", "--threads", "1",
                          "--seconds=4.5"]) == "--playouts 1000, --seconds 4.5"
    assert engine_limits(["/usr/games/gnugo", "--mode", "gtp", "--level", "10"]) == "--level 10"
    assert engine_limits(["engine", "--simulations", "--fast"]) == "--simulations"
    assert engine_limits(["engine-a"]) == ""


def test_pig_and_othello_games_are_described_by_their_own_rules():
    assert describe_game({"game": "pig", "board_size": 0, "komi": 0.0, "pig_target": 50,
                          "pig_max_turns": 200}).startswith("pig, max turns 200, target 50 (")
    othello = describe_game({"game": "othello", "board_size": 8, "komi": 0.0, "move_limit": 1000})
    assert othello.startswith("othello 8x8") and "players" not in othello and "simple ko" not in othello


PIG_PLAYOFF = """
competition_type = 'playoff'
game = 'pig'
players = {'h1': Player('pig-a'), 'h2': Player('pig-b')}
matchups = [Matchup('h1', 'h2', alternating=True, number_of_games=2)]
"""


def test_a_pig_playoff_without_its_own_settings_reports_the_defaults_it_plays_under(write_ctl):
    """No pig_target, no pig_max_turns: the games play to 50 in 200 turns, as the text says;
    the page and show --json say so too, not None."""
    competition = load_control_file(write_ctl(PIG_PLAYOFF)).make_competition()
    competition.set_clean_status()
    report = full_report(competition, [])
    settings = report["matchups"][0]["game_settings"]
    assert (settings["pig_target"], settings["pig_max_turns"]) == (50, 200)
    page = render_html(report)
    assert "pig, max turns 200, target 50 (" in page
    check_page(page)
    assert describe_game({"game": "pig", "pig_target": None, "pig_max_turns": 30}).startswith(
        "pig, max turns 30, target 50 (")


@pytest.mark.parametrize("game, extra", [("pig", ""), ("othello", "board_size = 8\nkomi = 0\n")])
def test_a_game_no_engine_scores_is_said_to_be_scored_by_the_ringmaster_in_every_report(
        write_ctl, game, extra):
    """Pig's and Othello's reports said 'scored by the referee' with no referee engine, and the
    JSON said "scorer": "players"; the ringmaster decides them itself, whatever scorer says."""
    ctl = write_ctl(PIG_PLAYOFF.replace("game = 'pig'", f"game = {game!r}\n{extra}scorer = 'players'"))
    competition = load_control_file(ctl).make_competition()
    competition.set_clean_status()
    report = full_report(competition, [])
    matchup = report["matchups"][0]
    assert matchup["game_settings"]["scorer"] == "internal"
    assert "ringmaster itself" in matchup["scoring"] and "referee" not in matchup["scoring"]
    page = render_html(report)
    assert "by the referee" not in page and "the referee throws" not in page
    if game == "othello":
        assert "othello 8x8, komi 0.0, scored by the ringmaster, move limit" in page
    text = io.StringIO()
    competition.write_short_report(text)
    assert "by the referee" not in text.getvalue() and "scoring: " in text.getvalue()


PIG_TUNER = """
competition_type = 'ce_tuner'
game = 'pig'
players = {'h1': Player('pig-a')}
opponent = 'h1'
candidate_colour = 'b'
parameters = [Parameter('hold', initial_mean=20.0, initial_variance=4.0)]
def make_candidate(hold):
    return Player('pig-b')
number_of_generations = 1
samples_per_generation = 2
batch_size = 1
elite_proportion = 0.5
step_size = 0.5
"""


def test_a_pig_tuner_without_its_own_settings_reports_the_defaults_it_plays_under(write_ctl):
    """A tuner's show --json gave pig_target and pig_max_turns as None (a playoff's gave 50, 200)."""
    competition = load_control_file(write_ctl(PIG_TUNER)).make_competition()
    competition.set_clean_status()
    settings = competition.get_json_report()["game_settings"]
    assert (settings["game"], settings["pig_target"], settings["pig_max_turns"]) == ("pig", 50, 200)


def test_a_pig_page_counts_its_moves_as_rolls_and_holds_and_a_game_as_one(write_ctl):
    """The game length plot said 'moves (passes included)' for Pig, ticked 8.5 and 9.5 for
    whole moves; one game was '1 games of 1'."""
    competition = load_control_file(write_ctl(PIG_PLAYOFF.replace("number_of_games=2",
                                                                  "number_of_games=1"))).make_competition()
    competition.set_clean_status()
    job = competition.get_game()
    response = make_result(job, "b")
    competition.process_game_result(response)
    entries = [entry_for_result(response.game_result, 9, 1.0, "2026-11-22 10:30:00"),
               GameEntry("0_8", "h1", "h2", "B+", winner="h1", moves=8),
               GameEntry("0_9", "h1", "h2", "B+", winner="h1", moves=10)]
    page = render_html(full_report(competition, entries))
    check_page(page)
    plot = next(p for p in re.findall(r"<svg .*?</svg>", page, flags=re.S) if "Game length" in p)
    assert "moves (each roll and each hold)" in plot and "passes" not in plot
    ticks = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="middle">([^<]+)</text>', plot)
    assert ticks == ["8", "9", "10"]
    assert "1 game of 1;" in page and "over 1 game with a result" in page


def test_allplayall_page_has_the_ratings_table(write_ctl):
    competition = load_control_file(write_ctl(ALLPLAYALL)).make_competition()
    competition.set_clean_status()
    rng = random.Random(2)
    entries = []
    strength = {"a": 0.8, "b": 0.5, "c": 0.2}
    while True:
        job = competition.get_game()
        if not hasattr(job, "game_id"):
            break
        b, w = job.player_b.code, job.player_w.code
        p_black = strength[b] / (strength[b] + strength[w])
        response = make_result(job, "b" if rng.random() < p_black else "w")
        competition.process_game_result(response)
        entries.append(entry(response, rng))
    report = full_report(competition, entries)
    page = render_html(report)
    check_page(page)
    ratings = report["ratings"]["ratings"]
    assert [r["player"] for r in ratings][0] == "a"
    assert "Likelihood of superiority" in page
    assert page.lower().count("relative to") == 1 and "Relative to the mean. " in page
    assert page.count("<svg") >= 1


HANDICAP_PLAYOFF = """
competition_type = 'playoff'
players = {'g0': Player('engine-0'), 'g1': Player('engine-1'), 'g2': Player('engine-2')}
board_size = 9
komi = 7.5
matchups = [
    Matchup('g2', 'g0', alternating=True, number_of_games=8),
    Matchup('g0', 'g2', id='hcap', handicap=4, komi=0.5, number_of_games=8),
    Matchup('g1', 'g2', alternating=True, number_of_games=4),
]
"""


def test_playoff_page_names_the_handicap_matchup_its_ratings_leave_out(write_ctl):
    # The reviewer's case: g2 beat g0 6-2 in even games, g0 won all 8 with 4 stones (komi 0.5).
    competition = load_control_file(write_ctl(HANDICAP_PLAYOFF)).make_competition()
    competition.set_clean_status()
    winners = {"0": list("bwbwbwwb"), "hcap": ["b"] * 8, "2": list("bbww")}   # g2 Black in even games
    while hasattr(job := competition.get_game(), "game_id"):
        competition.process_game_result(make_result(job, winners[job.game_data[0]].pop(0)))
    report = full_report(competition, [])
    assert report["ratings_excluded"] == ["hcap"]
    page = render_html(report)
    check_page(page)
    assert ('<p class="warn">Ratings leave out the matchups whose games are not even: '
            "hcap (4 handicap stones, komi 0.5).</p>") in page
    assert "Elo g0 as Black − g2 as White (4 handicap stones, komi 0.5): <b>+inf" in page
    ranked = [r["player"] for r in report["ratings"]["ratings"]]
    assert ranked.index("g2") < ranked.index("g0")
    # The cross table counts the even games only: g0 scored 2 of 8 against g2.
    rows = dict(cross_table(report)["rows"])
    g2_column = cross_table(report)["players"].index("g2")
    assert rows["g0"][g2_column]["won"] == 2 and rows["g0"][g2_column]["games"] == 8


def mc_tuner(depth, parameters):
    tuner = McTuner("tune")
    tuner.initialise_from_control_file({
        "board_size": 7, "komi": 8.5, "players": {"opp": Player("opp")},
        "candidate_colour": "random", "opponent": "opp", "exploration_coefficient": 0.45,
        "initial_visits": 10, "initial_wins": 5, "max_depth": depth, "number_of_games": 300,
        "stop_when_confident": 0.95, "confirm_games": 10,
        "parameters": parameters, "make_candidate": make_simulated_candidate})
    tuner.set_clean_status()
    tuner.rng = random.Random(3)
    return tuner


def drive(tuner, landscape, games, seed=4):
    rng = random.Random(seed)
    entries = []
    for _ in range(games):
        job = tuner.get_game()
        if not hasattr(job, "game_id"):
            break
        response = play_simulated(job, landscape, rng)
        tuner.process_game_result(response)
        entries.append(entry(response, rng))
    return entries


def test_mc_tuner_depth_1_page_says_which_value_how_sure_and_why_it_stopped():
    tuner = mc_tuner(1, [McParameter("c", scale=LOG(0.05, 5.0), split=8, format="c: %.3f")])
    # The best value is the lowest: the page must warn that the range should be widened.
    entries = drive(tuner, lambda p: 0.75 if p[0] < 0.1 else 0.35, 400)
    report = full_report(tuner, entries)
    page = render_html(report)
    check_page(page)
    assert report["best"]["path"] == [0]
    # The lowest cell won 209 of 259, but with a cell still on 1 game it is the best with
    # probability 0.74 only: no "Use" (the old page said "Use c: 0.067"), the leaders instead.
    assert report["probability_best"] < 0.95 and "Use " not in page
    assert '<div class="big">No clear winner yet</div>' in page
    assert "Leading: <b>c: 0.067 [cell 0] 209/259 0.807 [0.755, 0.850]</b>; <b>c: 2.108" in page
    # Wins are counted in halves (a jigo half) but shown as counts: not "won 209.0".
    assert "The leader won 209 of its 259 tuning games" in page
    assert "What would settle it: more tuning games (a larger number_of_games)." in page
    assert "the probability that it is better than every other candidate is" in page
    assert f"The event <b>{report['stop_reason']}</b>;" in page and "stopped: <b>stopped" not in page
    assert "lies at the lowest end of its range" in page
    assert "Win rate by c" in page and "The leader: win rate over its games" in page
    assert "Confirmation (fresh games" in page
    # The header names the engines with their commands, and the game's rules.
    assert "Engines" in page and "simulated-candidate" in page
    assert "is <b>" in page and "</b> (the event stops at 95.0%" in page
    # CPU time per move: the opponent, and every candidate together.
    cpu_plot = next(p for p in re.findall(r"<svg .*?</svg>", page, flags=re.S) if "CPU time" in p)
    assert re.findall(r'text-anchor="middle">([^<]+)</text>', cpu_plot)[-2:] == ["candidates", "opp"]
    assert "go 7x7, komi 8.5, scored by the players" in page


def test_an_mc_tuner_whose_leader_passes_the_bar_says_use_it():
    tuner = mc_tuner(1, [McParameter("c", scale=LOG(0.05, 5.0), split=8, format="c: %.3f")])
    report = full_report(tuner, drive(tuner, lambda p: 0.95 if p[0] < 0.1 else 0.05, 400))
    page = render_html(report)
    check_page(page)
    assert report["probability_best"] >= 0.95 and report["verdict"]["settled"]
    assert f'<div class="big">Use {report["best"]["parameters"]}</div>' in page
    assert "Leading:" not in page and "What would settle it" not in page
    report["stop_when_confident"] = None   # no bar: the sentence ends at the probability
    page = render_html(report)
    assert re.search(r"every other candidate is <b>[\d.]+%</b>\.</p>", page)


def test_a_running_mc_tuner_leads_and_names_the_candidates_never_tried():
    tuner = mc_tuner(1, [McParameter("c", scale=LOG(0.05, 5.0), split=8, format="c: %.3f")])
    entries = drive(tuner, lambda p: 0.75 if p[0] < 0.1 else 0.35, 5)   # 8 candidates
    report = full_report(tuner, entries)
    assert report["stop_reason"] == "running"
    untried = [c for c in report["candidates"] if not c["games"]]
    assert untried
    page = render_html(report)
    check_page(page)
    assert '<div class="big">No clear winner yet</div>' in page and "Use " not in page
    assert f"Leading: <b>{report['verdict']['leaders'][0]}</b>" in page
    assert f"{len(untried)} of the 8 candidates were never tried" in page
    assert all(c["parameter_labels"][0] in page for c in untried)


def test_a_perfect_score_still_has_its_elo_plot(write_ctl):
    competition, entries = play_playoff(write_ctl, 12, a_wins=1.0)
    assert {e.winner for e in entries if "a" in (e.black, e.white)} == {"a"}
    page = render_html(full_report(competition, entries))
    check_page(page)
    assert "Elo of a over games (95% band; ±inf drawn at ±800)" in page


def test_mc_tuner_depth_2_page_has_the_tree_and_a_heat_map():
    parameters = [McParameter("x", scale=LINEAR(0, 1), split=3, format="x: %.2f"),
                  McParameter("y", scale=LINEAR(0, 10), split=3, format="y: %.1f")]
    tuner = mc_tuner(2, parameters)
    entries = drive(tuner, lambda p: 0.3 + 0.4 * p[0] * (p[1] / 10), 150)
    report = full_report(tuner, entries)
    page = render_html(report)
    check_page(page)
    assert "Candidate tree" in page and "<details" in page
    assert "Win rate over x and y" in page
    assert "depth 2" in page


def test_ce_tuner_page_plots_each_parameter_by_generation():
    tuner = CeTuner("ce")
    tuner.rng = random.Random(5)
    tuner.initialise_from_control_file({
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
        "candidate_colour": "w", "opponent": "opp",
        "parameters": [CeParameter("a", initial_mean=0.5, initial_variance=1.0, format="a %.3f")],
        "batch_size": 3, "samples_per_generation": 4, "number_of_generations": 3,
        "elite_proportion": 0.25, "step_size": 0.5, "make_candidate": make_simulated_candidate})
    tuner.set_clean_status()
    entries = drive(tuner, lambda p: 1 / (1 + math.exp(-p[0])), 100)
    report = full_report(tuner, entries)
    page = render_html(report)
    check_page(page)
    verdict = report["verdict"]
    assert "a: mean by generation" in page and f'<div class="big">{verdict["headline"]}</div>' in page
    assert "the answer beat the start (a 0.500) in" in verdict["evidence"]
    assert str(escape(verdict["evidence"])) in page
    assert "The event <b>stopped: all generations played</b> (generation 3 of 3)." in page


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (.ci/run installs it: apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return path


@pytest.mark.integration
def test_page_renders_in_headless_chromium(write_ctl, tmp_path):
    browser = chromium()
    page = tmp_path / "comp.html"
    page.write_text(render_html(playoff_report(write_ctl)), encoding="utf-8")
    shot = tmp_path / "shot.png"
    completed = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1100,1600", f"--screenshot={shot}", "--enable-logging=stderr",
         "--v=0", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 10_000
    # No script or page errors reported by the renderer.
    errors = [line for line in completed.stderr.splitlines()
              if "CONSOLE" in line or "Uncaught" in line]
    assert errors == []
    # The DOM as Chromium parsed it has the headline and every plot.
    dumped = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                             "--dump-dom", page.as_uri()], capture_output=True, text=True,
                            timeout=120)
    assert dumped.returncode == 0
    assert "H1 accepted" in dumped.stdout
    assert dumped.stdout.count("<svg") == page.read_text().count("<svg")


def test_compiled_templates_are_kept_in_the_cache_and_loaded_from_it(tmp_path):
    from ringmaster.reporting import html
    cache = html.TemplateCache(str(tmp_path))
    html._ENVIRONMENT.overlay(bytecode_cache=cache).get_template("report.html.j2")
    assert len(os.listdir(tmp_path)) == 1

    def compile_again(*args, **kwargs):
        raise AssertionError("a cached template was compiled again")
    second = html._ENVIRONMENT.overlay(bytecode_cache=cache)   # as in the next run
    second.compile = compile_again
    assert second.get_template("report.html.j2").name == "report.html.j2"
    fresh = html._ENVIRONMENT.overlay(bytecode_cache=html.TemplateCache(str(tmp_path)))
    fresh.compile = compile_again
    with pytest.raises(AssertionError, match="compiled again"):
        fresh.get_template("tournament.html.j2")   # not in the cache: compiled


@pytest.mark.parametrize("broken", ["missing directory", "garbage in the cache"])
def test_a_cache_that_cant_be_used_is_passed_over(tmp_path, broken):
    from ringmaster.reporting import html
    directory = tmp_path / "cache"
    directory.mkdir()
    if broken == "missing directory":
        directory.rmdir()
    else:
        html._ENVIRONMENT.overlay(bytecode_cache=html.TemplateCache(str(directory))) \
            .get_template("report.html.j2")
        for name in os.listdir(directory):
            (directory / name).write_bytes(b"not bytecode")
    environment = html._ENVIRONMENT.overlay(bytecode_cache=html.TemplateCache(str(directory)))
    assert environment.get_template("report.html.j2").name == "report.html.j2"


def test_every_competition_type_has_its_page():
    from ringmaster.competitions import COMPETITION_TYPES
    from ringmaster.reporting import html
    assert set(html.PAGES) == set(COMPETITION_TYPES)


SWEEP_PLAYOFF = """
competition_type = 'playoff'
players = {'strong': Player('engine-s'), 'weak': Player('engine-w'), 'random': Player('engine-r')}
board_size = 9
komi = 7.5
matchups = [
    Matchup('strong', 'random', alternating=True, number_of_games=4),
    Matchup('strong', 'weak', alternating=True, number_of_games=4),
]
"""


def test_a_playoff_that_rates_no_player_says_so_in_words(write_ctl):
    # The sweep's mcts_vs_random: one player won every game, so no group is rated; the page
    # read "Ratings None: no two players are linked both ways", as if a value had leaked.
    competition = load_control_file(write_ctl(SWEEP_PLAYOFF)).make_competition()
    competition.set_clean_status()
    while hasattr(job := competition.get_game(), "game_id"):
        competition.process_game_result(make_result(job, "b" if job.player_b.code == "strong" else "w"))
    report = full_report(competition, [])
    assert report["ratings"]["groups"] == []
    page = render_html(report)
    check_page(page)
    visible = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "None" not in visible
    assert "Ratings No player is rated: no two players are linked both ways" in visible


def test_an_mc_tuner_page_says_whose_confirmation_games_they_are_without_a_leader():
    tuner = McTuner("tune")
    tuner.initialise_from_control_file({
        "board_size": 7, "komi": 8.5, "players": {"opp": Player("opp")},
        "candidate_colour": "b", "opponent": "opp", "exploration_coefficient": 0.45,
        "initial_visits": 2, "initial_wins": 1, "number_of_games": 4, "confirm_games": 2,
        "parameters": [McParameter("c", scale=LOG(0.05, 5), split=8, format="c: %.3f")],
        "make_candidate": make_simulated_candidate})
    tuner.set_clean_status()
    tuner.rng = random.Random(3)
    rng = random.Random(4)
    entries = []
    while hasattr(job := tuner.get_game(), "game_id"):
        # Every tuning game lost, every confirmation game won: the sweep's tune_mcts_c_7x7.
        response = make_result(job, "b" if job.game_data[0] == "confirm" else "w")
        tuner.process_game_result(response)
        entries.append(entry(response, rng))
    assert tuner.is_complete() and not tuner.tree.best_path()
    page = render_html(full_report(tuner, entries))
    check_page(page)
    why = "the most-played candidate, as no candidate leads"
    assert f"(fresh games, not used to choose, for {tuner.confirm_label}, {why}): 2/2 won" in page
    assert f"the confirmation games are for {tuner.confirm_label}, {why}: it scored 2 of 2" in page


def test_the_leaders_plot_leaves_out_games_with_no_result_and_counts_a_jigo_half(monkeypatch):
    from ringmaster.reporting import svg, tuners
    drawn = []
    monkeypatch.setattr(svg, "line_chart", lambda title, series, *args, **kwargs: drawn.extend(series))
    games = [{"result": result, "winner": winner, "data": [n, [2]]}
             for n, (result, winner) in enumerate([("W+R", "#0"), ("?", None), ("0", None),
                                                   ("B+R", "opp"), ("void", None)])]
    tuners.best_candidate_plot({"best": {"path": [2]}, "opponent": "opp", "games": games})
    assert [rate for _, rate in drawn[0].points] == [1.0, 0.75, 0.5]


def test_no_clock_table_for_a_loss_on_time_with_no_game_timed(write_ctl):
    # A playoff with no time control, one game scored +T: the page had a Clock table of zeros.
    report = playoff_report(write_ctl)
    untimed = {"player": "q", "games": 0, "moves": 0, "seconds": 0.0, "mean_move": None,
               "longest_move": 0.0, "mean_left": None, "time_losses": 1}
    assert "<h2>Clock</h2>" not in render_html({**report, "time_use": [untimed]})
    timed = {**untimed, "games": 1, "moves": 10, "seconds": 5.0, "mean_move": 0.5, "mean_left": 1.0}
    assert "<h2>Clock</h2>" in render_html({**report, "time_use": [timed, untimed]})


FIXED_COLOUR_PLAYOFF = """
competition_type = 'playoff'
players = {p: Player('gnugo --mode gtp') for p in ('a', 'b', 'c')}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b', number_of_games=6), Matchup('b', 'c', number_of_games=6),
            Matchup('a', 'c', number_of_games=6)]
"""


def test_a_playoff_whose_matchups_all_have_fixed_colours_says_no_player_is_rated(write_ctl):
    # The page read "None: joint ratings pool only even games...", as if a value had leaked.
    competition = load_control_file(write_ctl(FIXED_COLOUR_PLAYOFF)).make_competition()
    competition.set_clean_status()
    while hasattr(job := competition.get_game(), "game_id"):
        competition.process_game_result(make_result(job, "bbwbwb"[int(job.game_id.split("_")[-1])]))
    page = render_html(full_report(competition, []))
    check_page(page)
    visible = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "None" not in visible
    assert "Ratings No player is rated: joint ratings pool only even games" in visible


def test_the_page_lists_the_last_void_games_and_counts_them_all(write_ctl, monkeypatch):
    # A long run with an engine that crashes now and then listed every void game on the page.
    monkeypatch.setattr("ringmaster.reporting.html.VOID_LISTED", 3)
    competition, entries = play_playoff(write_ctl, 10, a_wins=0.5)
    entries += [GameEntry(f"0_{100 + i}", "a", "b", "void", detail=f"aborting game due to error: {i}")
                for i in range(5)]
    page = render_html(full_report(competition, entries, voids=5))
    check_page(page)
    assert ("Void games (not counted; replayed where the competition allows): the 3 that came in "
            "last of 5, every one in <code>ringmaster show comp.ctl --csv</code>:") in page
    assert [i for i in range(5) if f"aborting game due to error: {i}<" in page] == [2, 3, 4]
