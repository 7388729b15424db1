"""Engines kept between games: reused for the same player, discarded after any fault, never left behind."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from ringmaster import reaper
from ringmaster.game import engine_pool
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.play import play_game_job
from ringmaster.gtp.channel import Channel
from ringmaster.gtp.controller import GtpController
from tests.conftest import processes_mentioning
from tests.fakes.channels import ScriptedChannel, fake_engine_channel
from tests.fakes.cli import invoke
from tests.fakes.fake_commands import fake_engine_command

CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}{p_options}), 'q': Player({q!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
skip_player_checks = True
{extra}
matchups = [Matchup('p', 'q', alternating=True, number_of_games={games})]
"""


class CountingFactory:
    """A channel factory onto in-process fake engines that counts the engines started per player."""

    def __init__(self) -> None:
        self.starts: dict[str, int] = {}

    def __call__(self, spec, env, stderr):
        self.starts[spec.code] = self.starts.get(spec.code, 0) + 1
        return fake_engine_channel(spec, env, stderr)


def run_counting(write_ctl, p_command, *, games=4, reuse="reuse_engines = True", p_options=""):
    ctl = write_ctl(CTL.format(p=p_command, q=fake_engine_command("--name", "q"), games=games,
                               extra=reuse, p_options=p_options))
    factory = CountingFactory()
    result = invoke("run", ctl, "-q", channel_factory=factory)
    assert result.exit_code == 0, result.output
    state = json.load(open(ctl[:-4] + ".status"))
    return factory.starts, state["competition"]["results"]["0"], ctl


def test_reuse_keeps_both_engines_across_games_inline(write_ctl):
    starts, results, _ = run_counting(write_ctl, fake_engine_command())
    assert starts == {"p": 1, "q": 1}
    assert len(results) == 4 and not any(r["is_forfeit"] for r in results)
    assert len(engine_pool.current_pool()) == 0, "the run's end closes the kept engines"


def test_a_worker_that_keeps_no_engines_starts_fresh_ones_whatever_the_players_say(tmp_path):
    # What a Dask worker is told (its threads outlive the run): the player's reuse stands,
    # and no engine is kept.
    factory = CountingFactory()
    players = [PlayerSpec(code, tuple(fake_engine_command()), reuse=True) for code in ("p", "q")]
    for n in range(2):
        job = GameJob(game_id=f"g{n}", player_b=players[0], player_w=players[1], board_size=5,
                      komi=0.5, use_internal_scorer=True)
        play_game_job(job, factory, keep_engines=False)
        assert len(engine_pool.current_pool()) == 0
    assert factory.starts == {"p": 2, "q": 2}
    assert all(p.reuse for p in players)


def test_without_reuse_every_game_starts_fresh_engines(write_ctl):
    starts, results, _ = run_counting(write_ctl, fake_engine_command(), reuse="")
    assert starts == {"p": 4, "q": 4}


def test_player_setting_overrides_the_top_level_default(write_ctl):
    starts, _, _ = run_counting(write_ctl, fake_engine_command(), p_options=", reuse=False")
    assert starts == {"p": 4, "q": 1}


def test_a_reused_engine_gets_clear_board_and_its_startup_commands_each_game(write_ctl, tmp_path):
    record = tmp_path / "commands"
    starts, _, _ = run_counting(
        write_ctl, fake_engine_command("--record", str(record)), games=3,
        p_options=", startup_gtp_commands=['name']")
    assert starts["p"] == 1
    commands = record.read_text().splitlines()
    assert commands.count("clear_board") == 3
    assert commands.count("boardsize 5") == 3
    assert commands.count("komi 0.5") == 3
    assert commands.count("name") >= 3


@pytest.mark.parametrize("fault", [
    ["--crash-on", "2"], ["--hang-on", "2"], ["--garbage-on", "1"], ["--illegal-on", "2"],
    ["--fail-genmove-on", "1"],
])
def test_an_engine_is_discarded_after_a_fault(write_ctl, fault):
    starts, results, _ = run_counting(write_ctl, fake_engine_command(*fault), games=3)
    assert all(r["is_forfeit"] for r in results)
    assert starts["p"] == 3, "each game after a fault starts a fresh engine"


class RefusesNameAfterTwice(Channel):
    """A channel whose engine refuses 'name' from the third time on (once kept for a second game)."""

    def __init__(self, channel) -> None:
        self.channel = channel
        self.names = 0
        self.refusing = False

    def send_command(self, command, arguments):
        self.names += command == "name"
        self.refusing = command == "name" and self.names > 2
        if not self.refusing:
            self.channel.send_command(command, arguments)

    def get_response(self, timeout):
        return (True, "refused") if self.refusing else self.channel.get_response(timeout)

    def close(self, timeout):
        return self.channel.close(timeout)

    def kill(self):
        self.channel.kill()


def test_a_failed_startup_command_on_a_kept_engine_starts_a_fresh_one(write_ctl):
    # 'name' is asked once for the description, then once as the start-up command.
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=3, extra="reuse_engines = True",
                               p_options=", startup_gtp_commands=['name']"))
    counting = CountingFactory()

    def factory(spec, env, stderr):
        channel = counting(spec, env, stderr)
        return RefusesNameAfterTwice(channel) if spec.code == "p" else channel
    result = invoke("run", ctl, "-q", channel_factory=factory)
    assert result.exit_code == 0, result.output
    results = json.load(open(ctl[:-4] + ".status"))["competition"]["results"]["0"]
    assert len(results) == 3 and not any(r["is_forfeit"] for r in results)
    assert counting.starts == {"p": 3, "q": 1}


def _kept(spec: PlayerSpec, script) -> engine_pool.KeptEngine:
    return engine_pool.KeptEngine(spec, GtpController(ScriptedChannel(script), "player x"), None)


def test_pool_gives_an_engine_only_for_an_equal_spec_and_only_once():
    pool = engine_pool.EnginePool()
    spec = PlayerSpec("x", ("engine",))
    engine = _kept(spec, [])
    pool.keep(engine)
    assert pool.take(PlayerSpec("x", ("engine", "--other"))) is None
    assert pool.take(spec) is engine
    assert pool.take(spec) is None, "a kept engine is never handed to two games"


def test_pool_close_all_quits_the_engines():
    pool = engine_pool.EnginePool()
    engine = _kept(PlayerSpec("x", ("engine",)), [("quit", (False, ""))])
    pool.keep(engine)
    pool.close_all()
    assert engine.controller.is_closed and engine.controller.channel.closed
    assert len(pool) == 0


def test_kept_engines_are_spared_by_the_reaper_until_taken():
    class ProcessChannel(ScriptedChannel):
        def pid(self) -> int:
            return 999_999_1
    pool = engine_pool.EnginePool()
    spec = PlayerSpec("x", ("engine",))
    pool.keep(engine_pool.KeptEngine(spec, GtpController(ProcessChannel([]), "player x"), None))
    assert 999_999_1 in reaper._spared
    pool.take(spec)
    assert 999_999_1 not in reaper._spared


# Integration: real engine processes.

def _engine_pids(marker: str) -> set[int]:
    return processes_mentioning(marker)


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [[], ["-j", "2"]])
def test_reuse_with_engine_processes_starts_one_engine_per_player_and_worker(write_ctl, parallel):
    ctl = write_ctl(CTL.format(p=fake_engine_command("--env-to-stderr"),
                               q=fake_engine_command("--name", "q", "--env-to-stderr"), games=8,
                               extra="reuse_engines = True", p_options=""))
    result = invoke("run", ctl, "-q", *parallel)
    assert result.exit_code == 0, result.output
    state = json.load(open(ctl[:-4] + ".status"))
    results = state["competition"]["results"]["0"]
    assert len(results) == 8 and not any(r["is_forfeit"] for r in results)
    starts = open(ctl[:-4] + ".log").read().count("game=")
    workers = 2 if parallel else 1
    assert starts <= 2 * workers, "engines are started once per worker, not once per game"


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [[], ["-j", "2"]])
def test_kill_9_of_the_group_leaves_no_kept_engine(write_ctl, tmp_path, parallel):
    import subprocess
    import sys
    marker = str(tmp_path / "engine-marker")
    ctl = write_ctl(CTL.format(p=fake_engine_command("--name", marker, "--move-delay", "0.01"),
                               q=fake_engine_command("--name", marker + "q"), games=40,
                               extra="reuse_engines = True", p_options=""))
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q", *parallel],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(ctl[:-4] + ".hist") or not open(ctl[:-4] + ".hist").read():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    assert _engine_pids(marker), "engines are running (kept between games)"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while _engine_pids(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _engine_pids(marker), "a kept engine outlived the killed ringmaster"


class FailsOnce:
    """A channel factory whose engines of player p refuse 'komi' once, in the second game."""

    def __init__(self) -> None:
        self.counting = CountingFactory()
        self.komis = 0

    def __call__(self, spec, env, stderr):
        channel = self.counting(spec, env, stderr)
        if spec.code != "p":
            return channel
        send, get = channel.send_command, channel.get_response
        refusing: list[bool] = []   # per command sent and not yet answered: refuse it?

        def send_command(command, arguments):
            self.komis += command == "komi"
            refusing.append(command == "komi" and self.komis == 2)
            send(command, arguments)

        def get_response(timeout):
            response = get(timeout)
            return (True, "komi refused") if refusing.pop(0) else response
        channel.send_command, channel.get_response = send_command, get_response
        return channel


def test_a_kept_engine_that_fails_the_set_up_is_replaced_not_the_game_voided(write_ctl):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=3, extra="reuse_engines = True", p_options=""))
    factory = FailsOnce()
    result = invoke("run", ctl, "-q", channel_factory=factory)
    assert result.exit_code == 0, result.output
    state = json.load(open(ctl[:-4] + ".status"))
    assert state["void_game_count"] == 0 and len(state["competition"]["results"]["0"]) == 3
    assert factory.counting.starts == {"p": 2, "q": 1}


END_OF_GAME = "known_command gomill-cpu_time"   # the last command of an engine's first game


def _play_twice(tmp_path, p_command) -> list:
    """Two games of p (reused) against q, in this process, each job as a worker plays it."""
    players = [PlayerSpec("p", tuple(p_command), reuse=True, timeout=10),
               PlayerSpec("q", tuple(fake_engine_command("--name", "q")), timeout=10)]
    results = []
    try:
        for n in range(2):
            job = GameJob(game_id=f"g{n}", player_b=players[0], player_w=players[1], board_size=5,
                          komi=0.5, use_internal_scorer=True)
            results.append(play_game_job(job))
            time.sleep(0.3)   # the engine waits, kept, between games
    finally:
        engine_pool.release_engines()
    return results


@pytest.mark.integration
def test_a_kept_engine_that_died_while_it_waited_is_replaced(tmp_path):
    # It answers the last command of its first game (whether it can report its CPU time),
    # then exits, before the next game asks anything of it.
    results = _play_twice(tmp_path, fake_engine_command("--exit-after", END_OF_GAME))
    assert not any(r.game_result.is_forfeit for r in results), [r.warnings for r in results]


@pytest.mark.integration
def test_a_kept_engine_that_said_more_than_it_was_asked_is_replaced(tmp_path):
    # An unasked-for response after its first game's last answer: kept, it would answer
    # every command of the next game with the answer to the one before.
    results = _play_twice(tmp_path, fake_engine_command("--extra-after", END_OF_GAME))
    assert not any(r.game_result.is_forfeit for r in results), [r.warnings for r in results]
