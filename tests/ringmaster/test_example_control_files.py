"""Every control file shipped in control_files/ loads, builds its competition and names real files."""

from __future__ import annotations

import glob
import os

import pytest

from ringmaster.control_file import load_control_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTROL_FILES = sorted(glob.glob(os.path.join(ROOT, "control_files", "*.ctl")))


def test_there_are_examples_of_each_kind():
    kinds = {load_control_file(path).competition_type for path in CONTROL_FILES}
    assert kinds == {"playoff", "allplayall", "mc_tuner", "ce_tuner"}


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
