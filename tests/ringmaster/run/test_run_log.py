"""Whether the log's last run ended, or was killed (kill -9, a power cut)."""

from __future__ import annotations

from ringmaster.run.run_log import unfinished_run, unfinished_run_warning


def write(tmp_path, lines):
    path = tmp_path / "comp.log"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_a_run_that_ended_leaves_nothing_to_say(tmp_path):
    assert unfinished_run(str(tmp_path / "none.log")) is None
    assert unfinished_run(write(tmp_path, [])) is None
    assert unfinished_run(write(tmp_path, [
        "2026-01-01 10:00:00 run started at 2026-01-01 10:00:00 with max_games None",
        "2026-01-01 10:00:01 [0_0 b] thinking",
        "2026-01-01 10:05:00 run ended"])) is None


def test_a_run_that_never_said_it_ended_was_killed(tmp_path):
    # Its engines' stderr may follow; a line of theirs can't pass for one of ours.
    path = write(tmp_path, [
        "2026-01-01 09:00:00 run started at 2026-01-01 09:00:00 with max_games None",
        "2026-01-01 09:30:00 run ended",
        "2026-01-01 10:00:00 run started at 2026-01-01 10:00:00 with max_games 4",
        "2026-01-01 10:00:01 [0_0 b] run ended",
        *[f"2026-01-01 10:00:02 [0_0 w] noise {i}" for i in range(5000)]])   # beyond one chunk
    assert unfinished_run(path) == "2026-01-01 10:00:00"
    assert unfinished_run_warning("2026-01-01 10:00:00") == (
        "the previous run (started at 2026-01-01 10:00:00) did not end: it was killed (kill -9, "
        "a power cut or a crash); the games it had in progress will be replayed")


def test_a_log_from_before_run_ended_lines_counts_finished_and_interrupted_runs(tmp_path):
    assert unfinished_run(write(tmp_path, [
        "run started at 2026-01-01 10:00:00 with max_games None",
        "run interrupted at 2026-01-01 10:01:00"])) is None
    assert unfinished_run(write(tmp_path, [
        "run started at 2026-01-01 10:00:00 with max_games None",
        "run finished at 2026-01-01 10:01:00"])) is None
    assert unfinished_run(write(tmp_path, [
        "run started at 2026-01-01 10:00:00 with max_games None", "starting game 0_3"])) \
        == "2026-01-01 10:00:00"
