"""time_control and time_margin: top level, per matchup, per player (time odds); refused for Pig,
and refused when changed between runs, as komi is."""

from __future__ import annotations

import pytest

from ringmaster.control_file import load_control_file
from ringmaster.errors import ControlFileError
from ringmaster.game.clock import DEFAULT_TIME_MARGIN, FORMS, parse_time_control
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import fake_engine_command

CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}{p_options}), 'q': Player({q!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
{top}
matchups = [{matchups}]
"""

PIG = """
competition_type = 'playoff'
game = 'pig'
players = {{'p': Player({p!r}{p_options}), 'q': Player({q!r})}}
{top}
matchups = [Matchup('p', 'q', number_of_games=2)]
"""


def write(write_ctl, top="", matchups="Matchup('p', 'q', number_of_games=2)", p_options="",
          template=CTL):
    return write_ctl(template.format(p=fake_engine_command("--name", "p"),
                                     q=fake_engine_command("--name", "q"), p_options=p_options,
                                     top=top, matchups=matchups))


def competition(path):
    return load_control_file(path).make_competition()


def first_job(path):
    comp = competition(path)
    comp.set_clean_status()
    return comp.get_game()


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def test_without_a_time_control_no_side_is_timed(write_ctl):
    job = first_job(write(write_ctl))
    assert job.time_control_b is None and job.time_control_w is None
    assert job.time_margin == DEFAULT_TIME_MARGIN
    assert not competition(write(write_ctl)).uses_clock()


def test_a_top_level_time_control_times_both_sides(write_ctl):
    path = write(write_ctl, top="time_control = 'byoyomi 60 10 5'\ntime_margin = 0.5")
    job = first_job(path)
    assert job.time_control_b == job.time_control_w == parse_time_control("byoyomi 60 10 5")
    assert job.time_margin == 0.5
    assert competition(path).uses_clock()


def test_a_matchup_has_its_own_time_control_and_margin(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'",
                 matchups="Matchup('p', 'q', time_control='fischer 10 0.5', time_margin=0, "
                          "number_of_games=2)")
    job = first_job(path)
    assert job.time_control_b == parse_time_control("fischer 10 0.5") and job.time_margin == 0


def test_a_players_own_time_control_gives_time_odds(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'", p_options=", time_control='absolute 20'")
    job = first_job(path)
    assert (job.player_b.code, job.time_control_b) == ("p", parse_time_control("absolute 20"))
    assert job.time_control_w == parse_time_control("absolute 60")


def test_a_player_of_none_plays_untimed_against_a_timed_one(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'", p_options=", time_control='none'")
    job = first_job(path)
    assert job.time_control_b is None and job.time_control_w is not None


@pytest.mark.parametrize("top, message", [
    ("time_control = 'absolute'", "'time_control': 'absolute': absolute takes MAIN"),
    ("time_control = 'blitz 5'", "'time_control': 'blitz 5' is not a time control"),
    ("time_control = 60", "'time_control': must be a string"),
    ("time_margin = -0.1", "'time_margin': must not be negative"),
    ("time_margin = 'x'", "'time_margin': invalid float"),
])
def test_a_bad_setting_is_a_one_line_error_naming_it(write_ctl, top, message):
    with pytest.raises(ControlFileError) as info:
        competition(write(write_ctl, top=top))
    assert message in str(info.value) and "\n" not in str(info.value)
    if top.startswith("time_control") and "must be a string" not in message:
        assert FORMS in str(info.value)


def test_a_bad_matchup_or_player_time_control_names_it(write_ctl):
    with pytest.raises(ControlFileError, match="matchup 0: 'time_control': 'canadian 1 2'"):
        competition(write(write_ctl, matchups="Matchup('p', 'q', time_control='canadian 1 2')"))
    with pytest.raises(ControlFileError, match="player p: 'time_control': 'per_move 0'"):
        competition(write(write_ctl, p_options=", time_control='per_move 0'"))


def test_pig_has_no_clock(write_ctl):
    with pytest.raises(ControlFileError, match="'time_control': pig has no clock"):
        competition(write(write_ctl, top="time_control = 'absolute 60'", template=PIG))
    with pytest.raises(ControlFileError,
                       match="matchup 0: player p: 'time_control': pig has no clock"):
        competition(write(write_ctl, p_options=", time_control='absolute 5'", template=PIG))
    competition(write(write_ctl, top="time_control = 'none'", template=PIG))   # fine


def test_a_time_control_for_pig_in_an_all_play_all_is_refused(write_ctl):
    path = write_ctl("""
competition_type = 'allplayall'
game = 'pig'
players = {'p': Player('x', time_control='absolute 5'), 'q': Player('y')}
competitors = ['p', 'q']
""")
    with pytest.raises(ControlFileError, match="player p: 'time_control': pig has no clock"):
        competition(path)


# Changed between runs

def run(path, *options):
    result = invoke("run", path, "-q", *options)
    return result


def rewrite(path, **changes):
    text = open(path).read()
    for old, new in changes.items():
        text = text.replace(old, new, 1)
    with open(path, "w") as f:
        f.write(text)


def test_changing_the_time_control_between_runs_is_refused_as_komi_is(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'",
                 matchups="Matchup('p', 'q', number_of_games=4)")
    assert run(path, "-g", "1").exit_code == 0
    rewrite(path, **{"'absolute 60'": "'absolute 30'"})
    result = run(path)
    assert result.exit_code != 0
    assert ("time_control of matchup 0 is absolute 30 in the control file but was absolute 60"
            in result.output)
    rewrite(path, **{"'absolute 30'": "'absolute  60'"})   # the same control, written otherwise
    assert run(path, "-g", "1").exit_code == 0


def test_changing_the_margin_of_a_timed_competition_is_refused(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'",
                 matchups="Matchup('p', 'q', number_of_games=4)")
    assert run(path, "-g", "1").exit_code == 0
    rewrite(path, **{"time_control = 'absolute 60'":
                     "time_control = 'absolute 60'\ntime_margin = 1"})
    result = run(path)
    assert result.exit_code != 0 and "time_margin of matchup 0 is 1.0" in result.output


def test_the_margin_of_an_untimed_competition_means_nothing_and_may_change(write_ctl):
    path = write(write_ctl, matchups="Matchup('p', 'q', number_of_games=4)")
    assert run(path, "-g", "1").exit_code == 0
    rewrite(path, **{"scorer = 'internal'": "scorer = 'internal'\ntime_margin = 3"})
    assert run(path, "-g", "1").exit_code == 0


def test_time_odds_changed_between_runs_are_refused(write_ctl):
    path = write(write_ctl, top="time_control = 'absolute 60'",
                 matchups="Matchup('p', 'q', number_of_games=4)")
    assert run(path, "-g", "1").exit_code == 0
    rewrite(path, **{"Player([": "Player(time_control='absolute 10', command=["})
    result = run(path)
    assert result.exit_code != 0
    assert "is p: absolute 10, q: absolute 60 in the control file but was absolute 60" in result.output


def test_a_clock_added_to_a_competition_from_before_clocks_is_refused(write_ctl):
    import json
    path = write(write_ctl, matchups="Matchup('p', 'q', number_of_games=4)")
    assert run(path, "-g", "1").exit_code == 0
    status = path[:-4] + ".status"
    state = json.load(open(status))
    for settings in state["game_settings"].values():   # as a state file written before clocks
        settings.pop("time_control")
    json.dump(state, open(status, "w"))
    assert run(path, "-g", "1").exit_code == 0          # still no clock: fine
    state = json.load(open(status))
    state["game_settings"]["0"].pop("time_control")
    json.dump(state, open(status, "w"))
    rewrite(path, **{"scorer = 'internal'": "scorer = 'internal'\ntime_control = 'absolute 9'"})
    result = run(path)
    assert result.exit_code != 0 and "but was none for the games" in result.output


TUNER = """
competition_type = 'spsa_tuner'
players = {{'opp': Player({opponent!r}{opponent_options})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
number_of_games = 4
{top}

def make_candidate(n):
    return Player({candidate!r} + ['--name', 'n%d' % n]{candidate_options})

parameters = [Parameter('n', scale=LINEAR(0, 10, integer=True), format='n: %d')]
"""


def tuner(write_ctl, top="", opponent_options="", candidate_options=""):
    return write_ctl(TUNER.format(opponent=fake_engine_command("--name", "opp"),
                                  candidate=fake_engine_command(), top=top,
                                  opponent_options=opponent_options,
                                  candidate_options=candidate_options))


def test_a_tuners_games_are_timed_by_its_time_control_and_the_players_own(write_ctl):
    path = tuner(write_ctl, top="time_control = 'fischer 30 1'",
                 opponent_options=", time_control='absolute 10'")
    comp = competition(path)
    comp.set_clean_status()
    job = comp.get_game()
    # SPSA's games pit two perturbed candidates against each other: the game's clock.
    assert job.time_control_b == job.time_control_w == parse_time_control("fischer 30 1")
    assert comp.make_game_job("x", comp.opponent, comp.opponent, comp.game_settings) \
        .time_control_b == parse_time_control("absolute 10")
    assert comp.game_settings_by_key()[""]["time_control"] == "opp: absolute 10"
    assert comp.uses_clock()


def test_a_tuners_candidate_with_a_clock_in_pig_is_refused(write_ctl):
    path = write_ctl(TUNER.format(opponent=fake_engine_command("--name", "opp"),
                                  candidate=fake_engine_command(), top="game = 'pig'",
                                  opponent_options="", candidate_options=", time_control='absolute 5'")
                     .replace("board_size = 5\nkomi = 0.5\n", ""))
    with pytest.raises(ControlFileError, match="player candidate: 'time_control': pig has no clock"):
        competition(path)
