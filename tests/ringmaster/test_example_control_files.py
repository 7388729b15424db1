"""Every control file shipped in control_files/ loads, builds its competition and names real files."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys

import pytest

from ringmaster.competitions import get_competition_class
from ringmaster.control_file import load_control_file
from ringmaster.game.engines import subprocess_channel
from ringmaster.gtp.channel import GtpChannelError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTROL_FILES = sorted(glob.glob(os.path.join(ROOT, "control_files", "*.ctl")))


def test_there_are_examples_of_each_kind():
    kinds = {load_control_file(path).competition_type for path in CONTROL_FILES}
    assert kinds == {"playoff", "allplayall", "mc_tuner", "ce_tuner", "spsa_tuner"}


@pytest.mark.parametrize("path", CONTROL_FILES, ids=os.path.basename)
def test_example_builds_without_warnings(path):
    control_file = load_control_file(path)
    assert control_file.warnings == []
    competition = control_file.make_competition()
    competition.set_clean_status()
    for check in competition.get_player_checks():
        for word in check.player.command:
            if word.endswith(".pt"):
                assert os.path.exists(word), f"{word} is missing"


def test_example_tuning_control_files_load(tmp_path):
    mine = [p for p in glob.glob(os.path.join(ROOT, "control_files", "tune_*.ctl"))
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
        assert job.game_id in ("0", "0a", "g0#0r0")


@pytest.mark.integration
def test_without_pachi_the_pachi_tuner_says_to_set_pachi(monkeypatch, tmp_path):
    # It names Pachi's binary by the PACHI variable: a missing one is said in those terms,
    # when the engine is started (a check, a game), never as the file loads (show).
    monkeypatch.delenv("PACHI", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    control_file = load_control_file(os.path.join(ROOT, "control_files",
                                                  "tune_mcts_priors_vs_pachi.ctl"))
    competition = control_file.make_competition()
    with pytest.raises(GtpChannelError) as info:
        subprocess_channel(competition.players["pachi"], dict(os.environ), "discard")
    assert str(info.value) == ("can't run 'pachi': No such file or directory (set PACHI to the "
                               "path of Pachi's binary, built from its public source, or put "
                               "pachi on PATH)")


def test_othello8_curve_takes_the_last_checkpoint_of_half_an_hour_then_each_hour_and_the_final(
        tmp_path):
    (tmp_path / "control_files").mkdir()
    ctl = shutil.copy(os.path.join(ROOT, "control_files", "othello8_curve.ctl"), tmp_path / "control_files")
    run = tmp_path / "runs" / "othello8"
    run.mkdir(parents=True)
    times = ((1, 1000), (2, 1900), (3, 3500), (4, 3700), (5, 7100), (6, 7300), (7, 10000))
    rows = [{"iteration": i, "elapsed_s": s} for i, s in times]
    (run / "metrics.json").write_text(json.dumps(rows))
    competition = load_control_file(str(ctl)).make_competition()
    competition.set_clean_status()
    commands = {check.player.code: list(check.player.command) for check in competition.get_player_checks()}
    models = {code: os.path.basename(command[command.index("--model") + 1])
              for code, command in commands.items() if "--model" in command}
    # And the committed network, wherever the control file is.
    assert models == {"min000": "iter_0000.pt", "min030": "iter_0001.pt", "min060": "iter_0003.pt",
                      "min120": "iter_0005.pt", "final": "othello8.pt"}


def _readme_gnugo_example() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    start = readme.index("```python\ncompetition_type = 'playoff'\ndescription = 'Our UCT engine "
                         "against GNU Go.'")
    return readme[start + len("```python\n"):readme.index("```", start + 3)]


@pytest.mark.parametrize("source", ["README", "mcts_vs_gnugo.ctl"])
def test_gnu_go_examples_score_by_area_with_the_referee(source, write_ctl):
    if source == "README":
        path = write_ctl(_readme_gnugo_example())   # as if saved at the repository's root
        shutil.copytree(os.path.join(ROOT, "openings"), os.path.join(os.path.dirname(path),
                                                                     "openings"))
    else:
        path = os.path.join(ROOT, "control_files", source)
    control_file = load_control_file(path)
    competition = control_file.make_competition()
    assert control_file.config["scorer"] == "internal"
    gnugo = [p for p in competition.players.values() if "gnugo" in p.command[0]]
    assert gnugo and all(p.command[0] == "/usr/games/gnugo" and "--chinese-rules" in p.command
                         for p in gnugo)
    # Dead stones the players dispute are settled by a referee engine, GNU Go by area.
    referee = competition.referee
    assert referee.command[0] == "/usr/games/gnugo" and "--chinese-rules" in referee.command
    if source == "README":   # and the games come in pairs from a suite we ship
        suite = competition.matchups["0"].suite
        assert suite is not None and len(suite.openings) >= 10 and competition.matchups["0"].alternating


def _readme_first_command() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme[readme.index("## Two commands"):]
    return section[section.index("```\n") + 4:section.index("\n```", section.index("```\n"))]


def test_the_readme_first_command_installs_and_runs_a_tuning_event_of_our_engine():
    command = _readme_first_command()
    assert "\n" not in command   # one line to paste
    install, run = command.rsplit(" && ", 1)
    assert install == "pip install torch==2.13.0 && pip install -e '.[engines]'"
    assert run == "ringmaster run control_files/tune.ctl -j 2"
    control_file = load_control_file(os.path.join(ROOT, "control_files", "tune.ctl"))
    assert control_file.warnings == [] and control_file.competition_type.endswith("_tuner")
    competition = control_file.make_competition()
    competition.set_clean_status()
    candidate, opponent = (check.player for check in competition.get_player_checks())
    for player in (candidate, opponent):   # our engine, against itself with its default
        assert list(player.command[1:4]) == ["-m", "players", "mcts"]


@pytest.mark.integration
def test_the_readme_tuning_event_sent_to_a_file_prints_a_line_a_game_then_its_verdict(tmp_path):
    ctl = shutil.copy(os.path.join(ROOT, "control_files", "tune.ctl"), tmp_path)
    with open(tmp_path / "tune.out", "w") as out:
        proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-j", "2", "-g", "4"],
                              stdout=out, stderr=subprocess.PIPE, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = (tmp_path / "tune.out").read_text().splitlines()
    assert lines[0] == "running startup checks on all players"
    assert sorted(line.split(":")[0] for line in lines[1:5]) == [f"game {n}" for n in range(4)]
    assert "Verdict: No clear winner yet" in lines and (tmp_path / "tune.html").exists()
    assert len(lines) < 40   # not the report after every game
