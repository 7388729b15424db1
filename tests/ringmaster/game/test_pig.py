"""Pig in the ringmaster: the referee's dice, the GTP dialogue, forfeits, the turn limit, records, replay."""

import json
import os

import pytest

from players.engines.pig_hold import HoldAt, make_pig_engine
from ringmaster.cli import EXIT_CHECKS_FAILED
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, PlayerSpec
from ringmaster.game.pig_referee import dice_seed
from ringmaster.game.play import REFEREES, PigGameReferee, play_game_job
from ringmaster.game.records import replay_record
from ringmaster.gtp.engine import GtpEngine
from ringmaster.rules import get_rules_class
from ringmaster.rules.pig import PigRules
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.run.startup_checks import run_player_checks, startup_failures
from tests.fakes import cli
from tests.fakes.channels import EngineChannel


def hold_engine(hold_at):
    return make_pig_engine(HoldAt(hold_at), f"hold{hold_at}")[0]


def stubborn_engine(answer, refuse_target=False):
    """Answers every reg_genmove with answer; accepts everything else (or refuses pig-target)."""
    engine = GtpEngine("stubborn", "1")
    for command in ("clear_board", "play"):
        engine.add_command(command, lambda args: None)
    if not refuse_target:
        engine.add_command("pig-target", lambda args: None)
    engine.add_command("reg_genmove", lambda args: answer)
    return engine


def factory_for(engines, channels=None):
    def factory(spec, env, stderr):
        channel = EngineChannel(engines[spec.code]())
        if channels is not None:
            channels[spec.code] = channel
        return channel
    return factory


def job(tmp_path, b="b", w="w", **options):
    return GameJob(game_id="0_0", player_b=PlayerSpec(b, ("x",)), player_w=PlayerSpec(w, ("x",)),
                   board_size=0, komi=0.0, game="pig", sgf_event="test",
                   sgf_dirname=str(tmp_path / "games"), void_sgf_dirname=str(tmp_path / "void"),
                   rules_options=options)


def test_the_rules_registry_names_pig_and_its_referee():
    assert get_rules_class("pig") is PigRules
    assert REFEREES["pig"] is PigGameReferee
    assert PigRules.setup_commands(0, 0.0, {"pig_target": 30}) == [("pig-target", "30"), ("clear_board",)]


def test_pig_rules_roll_hold_and_win():
    rules = PigRules(target=10)
    assert rules.check_move("b", "hold") is not None
    rules.throw(6)
    rules.throw(5)
    assert rules.check_move("w", "roll") == "moved out of turn" and rules.check_move("b", "hold") is None
    rules.play("b", "hold")
    assert rules.is_over() and rules.winner() == "b" and rules.scores == {"b": 11, "w": 0}
    rules = PigRules(max_turns=1)
    rules.throw(1)
    assert rules.hit_turn_limit() and rules.winner() is None


def test_a_game_between_two_engines_is_refereed_recorded_and_replays_exactly(tmp_path):
    channels = {}
    the_job = job(tmp_path, pig_target=30)
    result = play_game_job(the_job, factory_for({"b": lambda: hold_engine(20), "w": lambda: hold_engine(10)},
                                               channels))
    record = json.loads((tmp_path / "games" / "0_0.json").read_text())
    assert record["dice_seed"] == dice_seed(the_job) and record["pig_target"] == 30
    assert record["result"] == result.game_result.sgf_result
    assert result.moves == len(record["moves"]) > 0
    final = replay_record(record)
    winner = final.winner()
    assert winner == result.game_result.winning_colour
    assert record["final_scores"] == {"black": final.scores["b"], "white": final.scores["w"]}
    # Both engines got the target, every move, and only the mover was asked to move.
    sent = channels["b"].log
    assert sent[sent.index("pig-target 30") + 1] == "clear_board"
    assert [line for line in sent if line.startswith("play")] == \
        [f"play {m}" for m in record["moves"]] == \
        [line for line in channels["w"].log if line.startswith("play")]
    assert "reg_genmove w" not in sent
    # The same game id throws the same dice.
    again = play_game_job(the_job, factory_for({"b": lambda: hold_engine(20), "w": lambda: hold_engine(10)}))
    assert again.game_result.sgf_result == result.game_result.sgf_result


@pytest.mark.parametrize("coordinator_syncs", [False, True])
def test_a_pig_record_is_synced_by_its_worker_or_left_to_the_coordinator(
        tmp_path, fsync_targets, coordinator_syncs):
    synced = fsync_targets
    the_job = job(tmp_path, pig_target=30)
    the_job.coordinator_syncs_record = coordinator_syncs
    result = play_game_job(the_job, factory_for({"b": lambda: hold_engine(20),
                                                "w": lambda: hold_engine(10)}))
    record = str(tmp_path / "games" / "0_0.json")
    assert json.loads(open(record).read())["result"] == result.game_result.sgf_result
    assert result.record == record and result.record_synced is not coordinator_syncs
    if coordinator_syncs:
        assert synced == []
    else:
        assert synced[-1] == str(tmp_path / "games")


def test_a_tampered_record_does_not_replay(tmp_path):
    play_game_job(job(tmp_path), factory_for({"b": lambda: hold_engine(20), "w": lambda: hold_engine(20)}))
    record = json.loads((tmp_path / "games" / "0_0.json").read_text())
    first_roll = next(i for i, m in enumerate(record["moves"]) if " roll " in m)
    colour, _, face = record["moves"][first_roll].split()
    record["moves"][first_roll] = f"{colour} roll {int(face) % 6 + 1}"
    with pytest.raises(ValueError, match="the seed throws"):
        replay_record(record)


@pytest.mark.parametrize("answer, reason", [("pass", "ill-formed move pass"),
                                            ("", "ill-formed move (an empty response)"),
                                            ("hold", "held with a turn total of 0")])
def test_anything_but_a_legal_roll_or_hold_forfeits(tmp_path, answer, reason):
    result = play_game_job(job(tmp_path), factory_for({"b": lambda: stubborn_engine(answer),
                                                      "w": lambda: hold_engine(20)}))
    assert result.game_result.sgf_result == "W+F" and reason in result.game_result.detail


def test_the_turn_limit_gives_no_result(tmp_path):
    # Two engines that always roll never bank a point: the game runs into the limit.
    result = play_game_job(job(tmp_path, pig_max_turns=6),
                          factory_for({"b": lambda: stubborn_engine("roll"),
                                       "w": lambda: stubborn_engine("roll")}))
    assert result.game_result.sgf_result == "Void" and result.game_result.winning_colour is None
    assert result.game_result.detail == "hit turn limit"


def test_an_engine_refusing_pig_target_voids_the_game_with_a_record(tmp_path):
    from ringmaster.errors import JobFailed
    with pytest.raises(JobFailed, match="pig-target"):
        play_game_job(job(tmp_path), factory_for({"b": lambda: stubborn_engine("roll", refuse_target=True),
                                                 "w": lambda: hold_engine(20)}))
    assert os.listdir(tmp_path / "void") == ["0_0.json"]


CONTROL = """competition_type = 'playoff'
game = 'pig'
{extra}
players = {{'h20': Player('h20'), 'h10': Player('h10'), 'deaf': Player('deaf')}}
matchups = [Matchup('h20', 'h10', alternating=True, number_of_games=4)]
"""


def make_ringmaster(tmp_path, extra=""):
    ctl = tmp_path / "pig.ctl"
    ctl.write_text(CONTROL.format(extra=extra))
    engines = {"h20": lambda: hold_engine(20), "h10": lambda: hold_engine(10),
               "deaf": lambda: stubborn_engine("roll", refuse_target=True)}
    return Ringmaster(str(ctl), channel_factory=factory_for(engines))


def test_a_pig_playoff_runs_reports_each_seat_and_checks_players(tmp_path):
    ringmaster = make_ringmaster(tmp_path, "pig_target = 20")
    assert startup_failures(ringmaster.competition, ringmaster.channel_factory) == []
    ringmaster.load_state()
    ringmaster.open_log()
    ringmaster.run()
    ringmaster.close_log()
    report = ringmaster.report_text()
    assert "game: pig" in report and "target: 20" in report and "as black" in report
    assert len(os.listdir(tmp_path / "pig.games")) == 4
    checks = {c.player.code: c for c in ringmaster.competition.get_player_checks()}
    assert run_player_checks([checks["h20"]], ringmaster.channel_factory) == [None]


@pytest.mark.parametrize("first, then", [("pig_target = 20", "pig_target = 30"),
                                         ("pig_target = 20", ""),
                                         ("", "pig_max_turns = 150")])
def test_a_pig_setting_changed_between_runs_is_refused_as_komi_is(tmp_path, first, then):
    ringmaster = make_ringmaster(tmp_path, first)
    ringmaster.load_state()
    ringmaster.open_log()
    ringmaster.run(max_games=1)
    ringmaster.close_log()
    ringmaster.close_state()
    again = make_ringmaster(tmp_path, then)
    with pytest.raises(CompetitionError, match="in the control file but was .* for the games in pig.status"):
        again.load_state()


def test_an_engine_refusing_pig_target_fails_its_startup_check(tmp_path):
    ctl = tmp_path / "pig.ctl"
    ctl.write_text(CONTROL.format(extra="").replace("Matchup('h20', 'h10'", "Matchup('deaf', 'h10'"))
    engines = {"deaf": lambda: stubborn_engine("roll", refuse_target=True), "h10": lambda: hold_engine(10)}
    ringmaster = Ringmaster(str(ctl), channel_factory=factory_for(engines))
    failures = startup_failures(ringmaster.competition, ringmaster.channel_factory)
    assert len(failures) == 1 and "deaf" in failures[0] and "pig-target" in failures[0]


CE_TUNER = """competition_type = 'ce_tuner'
game = 'pig'
{extra}
players = {{'h10': Player('h10')}}
opponent = 'h10'
candidate_colour = 'b'
parameters = [Parameter('hold', initial_mean=20.0, initial_variance=4.0)]
def make_candidate(hold):
    return Player('net50')
number_of_generations = 1
samples_per_generation = 2
batch_size = 1
elite_proportion = 0.5
step_size = 0.5
"""

# A network trained for target 50 refuses any other (as pig_mcts does), by the engine's command.
NET50_ENGINES = {"net50": lambda: make_pig_engine(HoldAt(20), "net50", only_target=50)[0],
                 "h10": lambda: hold_engine(10)}


def net50_factory(spec, env, stderr):
    return EngineChannel(NET50_ENGINES[spec.command[0]]())


@pytest.mark.parametrize("control", [CE_TUNER, CONTROL.replace("Player('h20')", "Player('net50')")])
def test_a_candidate_refusing_the_games_target_fails_a_tuners_check_as_a_playoffs(tmp_path, control):
    # A tuner's check sets up the board its games use, pig-target 100 included: a check on the
    # default target passed, and then every game was void.
    ctl = tmp_path / "pig.ctl"
    ctl.write_text(control.format(extra="pig_target = 50"))
    assert cli.invoke("check", str(ctl), channel_factory=net50_factory).exit_code == 0
    ctl.write_text(control.format(extra="pig_target = 100"))
    result = cli.invoke("check", str(ctl), channel_factory=net50_factory)
    assert result.exit_code == EXIT_CHECKS_FAILED
    player = "candidate" if control is CE_TUNER else "h20"
    assert (f"player {player} failed startup check: failure response from 'pig-target 100' to player "
            f"{player}: this engine's network plays target 50 only") in result.output


@pytest.mark.parametrize("extra, message", [
    ("pig_target = 0", "'pig_target': must be positive"),
    ("pig_max_turns = 'many'", "'pig_max_turns': invalid integer"),
])
def test_bad_pig_settings_are_one_line_errors(tmp_path, extra, message):
    with pytest.raises(ControlFileError, match=message) as info:
        make_ringmaster(tmp_path, extra)
    assert "\n" not in str(info.value)


def test_pig_settings_are_refused_for_go(tmp_path):
    ctl = tmp_path / "go.ctl"
    ctl.write_text("competition_type = 'playoff'\nboard_size = 9\nkomi = 7.5\npig_target = 30\n"
                   "players = {'a': Player('a'), 'b': Player('b')}\nmatchups = [Matchup('a', 'b')]\n")
    with pytest.raises(ControlFileError, match="'pig_target' is a setting of game 'pig'"):
        Ringmaster(str(ctl))


def test_go_still_needs_a_board_size(tmp_path):
    ctl = tmp_path / "go.ctl"
    ctl.write_text("competition_type = 'playoff'\nkomi = 7.5\n"
                   "players = {'a': Player('a'), 'b': Player('b')}\nmatchups = [Matchup('a', 'b')]\n")
    with pytest.raises(ControlFileError, match="'board_size' not specified"):
        Ringmaster(str(ctl))


def test_a_stopped_pig_playoff_resumes_and_counts_every_game_once(tmp_path):
    first = make_ringmaster(tmp_path)
    first.load_state()
    first.open_log()
    first.run(max_games=3)
    first.close_log()
    assert first.competition.games_played() == 3
    second = make_ringmaster(tmp_path)
    assert second.load_state()
    second.prepare_history()
    second.open_log()
    second.run()
    second.close_log()
    assert second.competition.games_played() == 4
    assert sorted(os.listdir(tmp_path / "pig.games")) == [f"0_{n}.json" for n in range(4)]
    assert len((tmp_path / "pig.hist").read_text().splitlines()) == 4


def run_pig(tmp_path, extra, engines):
    """A whole Pig playoff in process; returns how many engines each player started, and the records."""
    starts: dict[str, int] = {}
    make = factory_for(engines)

    def factory(spec, env, stderr):
        starts[spec.code] = starts.get(spec.code, 0) + 1
        return make(spec, env, stderr)

    tmp_path.mkdir(exist_ok=True)
    ctl = tmp_path / "pig.ctl"
    ctl.write_text(CONTROL.format(extra=extra))
    ringmaster = Ringmaster(str(ctl), channel_factory=factory)
    ringmaster.load_state()
    ringmaster.open_log()
    ringmaster.run()
    ringmaster.close_log()
    records = {name: json.loads((tmp_path / "pig.games" / name).read_text())
               for name in sorted(os.listdir(tmp_path / "pig.games"))}
    return starts, records


def test_reused_pig_engines_play_the_same_games_as_fresh_ones(tmp_path):
    engines = {"h20": lambda: hold_engine(20), "h10": lambda: hold_engine(10)}
    fresh_starts, fresh = run_pig(tmp_path / "fresh", "", engines)
    kept_starts, kept = run_pig(tmp_path / "kept", "reuse_engines = True", engines)
    assert fresh_starts == {"h20": 4, "h10": 4}
    assert kept_starts == {"h20": 1, "h10": 1}
    assert len(kept) == 4
    for name in fresh:   # same dice, same decisions: nothing of one game leaks into the next
        assert kept[name]["moves"] == fresh[name]["moves"] and kept[name]["result"] == fresh[name]["result"]


def test_a_pig_engine_that_forfeits_is_not_kept(tmp_path):
    engines = {"h20": lambda: hold_engine(20), "h10": lambda: stubborn_engine("fold")}
    starts, records = run_pig(tmp_path, "reuse_engines = True", engines)
    assert len(records) == 4 and all("forfeit" in json.dumps(r).lower() for r in records.values())
    assert starts == {"h20": 4, "h10": 4}   # every game a forfeit: both engines discarded each time
