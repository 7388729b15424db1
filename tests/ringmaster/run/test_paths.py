"""CompetitionPaths: the files beside the control file, and telling when output is sent into one."""

from __future__ import annotations

import os

from ringmaster.run.paths import CompetitionPaths


def test_a_descriptor_writing_to_the_log_or_the_report_is_named(tmp_path):
    paths = CompetitionPaths(str(tmp_path), "comp")
    for own in (paths.log, paths.report):
        with open(own, "w") as f:
            assert paths.own_file_written_by(f.fileno()) == own
    with open(tmp_path / "comp.out", "w") as f:
        assert paths.own_file_written_by(f.fileno()) is None
    read, write = os.pipe()
    try:
        assert paths.own_file_written_by(write) is None
    finally:
        os.close(read)
        os.close(write)
