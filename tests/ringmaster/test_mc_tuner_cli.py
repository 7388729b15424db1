"""A whole small tuning event through the ringmaster command line, with subprocess fake engines."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner
from fake_commands import fake_engine_command

from ringmaster.cli import cli

MC_TUNER = """
competition_type = 'mc_tuner'
description = 'tiny tuning event'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
candidate_colour = 'random'
number_of_games = {games}
confirm_games = 2
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
summary_spec = [3]
log_tree_to_history_period = 2

def make_candidate(name):
    return Player({candidate!r} + ['--name', name])

parameters = [Parameter('name', scale=EXPLICIT(['cand-a', 'cand-b', 'cand-c']), split=3,
                        format='n: %s')]
"""

CE_TUNER = """
competition_type = 'ce_tuner'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
candidate_colour = 'w'
number_of_generations = 2
samples_per_generation = 2
batch_size = 1
elite_proportion = 0.5
step_size = 0.5

def make_candidate(x):
    return Player({candidate!r} + ['--name', 'x%d' % x])

parameters = [Parameter('x', initial_mean=5.0, initial_variance=4.0, transform=round)]
"""


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(write_ctl, template, **kwargs):
    return write_ctl(template.format(opponent=fake_engine_command("--name", "opp"),
                                     candidate=fake_engine_command(), **kwargs))


def test_mc_tuner_event_runs_resumes_and_reports(write_ctl):
    ctl = write(write_ctl, MC_TUNER, games=3)
    base = ctl[:-4]
    result = invoke("run", ctl, "-q", "-g", "2")
    assert result.exit_code == 0, result.output
    state = json.loads(Path(base + ".status").read_text())
    assert "tree" in json.dumps(state)
    # Resume: the remaining tuning game and then the confirmation games, two at a time.
    result = invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(base + ".games")) == ["0.sgf", "1.sgf", "2.sgf", "c0.sgf", "c1.sgf"]
    sgf = Path(base + ".games/0.sgf").read_text()
    assert "Candidate parameters: n: cand-" in sgf
    history = Path(base + ".hist").read_text().splitlines()
    assert sum(line.endswith((" won", " lost")) and line.startswith("n: ")
               for line in history) == 3
    assert "Win rate" in "\n".join(history)
    assert sum(line.startswith("confirm n: cand-") for line in history) == 2
    report = Path(base + ".report").read_text()
    assert report.startswith("MCTS tuning event: comp\ntiny tuning event\n")
    assert "3/3 games played" in report
    assert "Best parameters: n: cand-" in report
    assert "confirmation games (2/2)" in report
    assert "opponent (opp): opp:1.0" in report
    shown = invoke("show", ctl)
    assert shown.exit_code == 0 and "most visited at depth 1" in shown.output
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["games_played"] == 3 and data["confirmation"]["played"] == 2


def test_changed_control_file_is_refused_on_resume(write_ctl):
    ctl = write(write_ctl, MC_TUNER, games=1)
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    text = Path(ctl).read_text().replace("split=3", "split=2")
    Path(ctl).write_text(text)
    result = CliRunner().invoke(cli, ["run", ctl, "-q"])
    assert result.exit_code != 0
    assert "status file is inconsistent with control file" in result.output


def test_ce_tuner_event_runs(write_ctl):
    ctl = write(write_ctl, CE_TUNER)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["g0#0r0.sgf", "g0#1r0.sgf", "g1#0r0.sgf",
                                                   "g1#1r0.sgf"]
    report = Path(base + ".report").read_text()
    assert report.startswith("CEM tuning event: comp\n")
    assert "final distribution:" in report
    assert "Generation 1" in Path(base + ".hist").read_text()
    log = Path(base + ".log").read_text()
    assert log.count("starting generation 1") == 1 and "starting generation 2" not in log


def test_example_tuning_control_files_load(tmp_path):
    import glob
    import shutil

    from ringmaster.competitions import get_competition_class
    from ringmaster.control_file import load_control_file

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mine = [p for p in glob.glob(os.path.join(root, "control_files", "tune_*.ctl"))
            if os.path.basename(p) != "tune_mcts.ctl"]
    assert len(mine) >= 3
    for path in mine:
        copy = shutil.copy(path, tmp_path)
        control_file = load_control_file(copy)
        assert control_file.warnings == []
        competition = get_competition_class(control_file.competition_type)(
            control_file.competition_code)
        competition.initialise_from_control_file(control_file.config)
        competition.set_clean_status()
        job = competition.get_game()
        assert job.game_id in ("0", "g0#0r0")
