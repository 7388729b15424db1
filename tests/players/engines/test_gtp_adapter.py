"""The GTP adapter over Go and Othello: history, undo, forced passes, scores, board and clock."""

from __future__ import annotations

import random

import pytest

from players.engines import gtp_adapter
from players.engines.clock import Clock
from players.engines.go_uct.engine import new_go
from players.engines.random_othello import new_othello
from players.games.go_light import LightGo
from players.games.othello import Othello


class Recorder(gtp_adapter.MoveGenerator):
    """Plays the first legal action and records what the adapter tells it."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def __call__(self, game, state, *, cleanup, seconds):
        self.events.append(("generate", game.to_play(state), seconds))
        return game.legal_actions(state)[0]

    def set_position(self, game, state, plies):
        self.events.append(("position", plies))

    def played(self, action):
        self.events.append(("played", action))


def adapter_for(new_game, size: int, komi: float = 0.0):
    generator = Recorder()
    engine, adapter = gtp_adapter.make_engine("test", "1", generator, new_game, size=size,
                                              komi=komi)
    return engine, adapter, generator


def ok(engine, line: str) -> str:
    command, *args = line.split()
    failed, text, _ = engine.run_command(command, args)
    assert not failed, f"{line!r} failed: {text}"
    return text


def fails(engine, line: str) -> str:
    command, *args = line.split()
    failed, text, _ = engine.run_command(command, args)
    assert failed, f"{line!r} should fail, got {text!r}"
    return text


def vertex(game, action: int) -> str:
    move = game.action_to_move(action)
    return "pass" if move is None else "ABCDEFGHJ"[move[1]] + str(move[0] + 1)


def othello_with_a_forced_pass(seed: int = 0):
    """The moves of a 4x4 Othello game up to a position whose mover can only pass (not the end)."""
    game = Othello(4)
    rng = random.Random(seed)
    while True:
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            if legal == [game.pass_action]:
                return game, state, moves
            action = rng.choice(legal)
            moves.append(("bw"[game.to_play(state)], action))
            state = game.apply(state, action)


def test_othello_forced_pass_is_played_for_the_side_without_a_move():
    game, stuck, moves = othello_with_a_forced_pass()
    engine, adapter, generator = adapter_for(new_othello, 4)
    for colour, action in moves:
        ok(engine, f"play {colour} {vertex(game, action)}")
    other = "wb"[game.to_play(stuck)]
    generator.events.clear()
    reply = ok(engine, f"genmove {other}")
    assert generator.events[0] == ("played", game.pass_action)       # the pass first
    assert generator.events[1][:2] == ("generate", "bw".index(other))
    after = game.apply(game.apply(stuck, game.pass_action), game.move_to_action(
        None if reply == "pass" else (int(reply[1:]) - 1, "ABCD".index(reply[0]))))
    assert adapter.state == after
    ok(engine, "undo")                                                  # pass and move together
    assert adapter.state == stuck and len(adapter.history) == len(moves) + 1


def test_othello_refuses_a_move_out_of_turn_and_after_the_end():
    engine, adapter, _ = adapter_for(new_othello, 4)
    assert fails(engine, "play w A1") == "illegal move: it is the other colour's turn"
    game = adapter.game
    rng = random.Random(1)
    state = adapter.state
    while not game.is_terminal(state):
        action = rng.choice(game.legal_actions(state))
        ok(engine, f"play {'bw'[game.to_play(state)]} {vertex(game, action)}")
        state = adapter.state
    assert ok(engine, "genmove b") == "pass"
    assert fails(engine, "play b A1") == "illegal move: the game is over"


def test_undo_and_new_games_reposition_the_generator():
    engine, adapter, generator = adapter_for(new_othello, 6)
    assert generator.events == [("position", 0)]
    fails(engine, "undo")
    ok(engine, f"play b {vertex(adapter.game, adapter.game.legal_actions(adapter.state)[0])}")
    ok(engine, "genmove w")
    ok(engine, "undo")
    assert generator.events[-1] == ("position", 1) and len(adapter.history) == 2
    ok(engine, "komi 2")
    assert generator.events[-1] == ("position", 1) and len(adapter.history) == 2
    ok(engine, "boardsize 8")
    assert generator.events[-1] == ("position", 0) and adapter.game.size == 8
    assert fails(engine, "boardsize 5") == "unacceptable size"
    assert fails(engine, "boardsize 10") == "unacceptable size"


@pytest.mark.parametrize("new_game", [new_go, lambda size, komi: LightGo(size, komi)])
def test_go_lets_either_colour_move_and_scores_by_area(new_game):
    engine, adapter, generator = adapter_for(new_game, 5, komi=0.5)
    assert ok(engine, "final_score") == "W+0.5"
    ok(engine, "play w C3")
    ok(engine, "play w B3")                                   # white again: GTP allows it
    assert generator.events[-2] == ("position", 1)            # not a move: a new position
    assert ok(engine, "final_score") == "W+25.5"
    ok(engine, "play b pass")
    ok(engine, "play w pass")
    ok(engine, "play b A1")                                   # play goes on after two passes
    board = ok(engine, "showboard").splitlines()
    assert board[0] == ""
    assert board[3].split() == ["3", ".", "O", "O", ".", "."]
    assert board[-2].split() == ["1", "X", ".", ".", ".", "."]
    assert board[-1].split() == list("ABCDE")
    ok(engine, "komi 30")                                     # A1 makes the empty area neutral
    assert ok(engine, "final_score") == "W+31"


def test_othello_final_score_and_showboard():
    engine, adapter, _ = adapter_for(new_othello, 4, komi=0.5)
    assert ok(engine, "final_score") == "W+0.5"
    game = adapter.game
    ok(engine, f"play b {vertex(game, game.legal_actions(adapter.state)[0])}")
    assert ok(engine, "final_score") == "B+2.5"                # 4 discs to 1
    rows = [line.split() for line in ok(engine, "showboard").splitlines()[1:]]
    assert [row[0] for row in rows[:-1]] == ["4", "3", "2", "1"] and rows[-1] == list("ABCD")
    cells = [cell for row in rows[:-1] for cell in row[1:]]
    assert cells.count("#") == 4 and cells.count("o") == 1 and cells.count(".") == 11


def test_clock_gives_the_generator_its_budget():
    engine, adapter, generator = adapter_for(new_othello, 6)

    def budget() -> float | None:
        return [event for event in generator.events if event[0] == "generate"][-1][2]

    ok(engine, "genmove b")
    assert budget() is None                                    # no clock, no budget
    ok(engine, "time_settings 60 0 0")
    ok(engine, "time_left b 10 4")
    ok(engine, "genmove w")
    empty = adapter.game.empty_points(adapter.history[-2])
    assert budget() == pytest.approx(0.9 * 60 / max(10.0, empty / 2) - 0.1)
    ok(engine, "genmove b")
    assert budget() == pytest.approx(0.9 * 10 / 4 - 0.1)
    for bad in ["time_settings 30 0", "time_settings a b c", "time_settings -1 0 0",
                "time_left b 10", "time_left x 10 0", "time_left b -1 0", "time_left b nan 0"]:
        fails(engine, bad)


def test_resign_leaves_the_game_as_it_was():
    class Resigner(Recorder):
        def __call__(self, game, state, *, cleanup, seconds):
            return gtp_adapter.RESIGN
    generator = Resigner()
    engine, adapter = gtp_adapter.make_engine("test", "1", generator, new_go, size=5)
    assert ok(engine, "genmove b") == "resign"
    assert len(adapter.history) == 1


# The clock's other settings commands, and handicap

def test_kgs_and_kata_time_settings_set_both_clocks():
    engine, adapter, generator = adapter_for(new_othello, 6)
    ok(engine, "kgs-time_settings byoyomi 30 5 3")
    assert adapter.clocks[0].kind == "byoyomi" and adapter.clocks[1].periods == 3
    ok(engine, "time_left w 5 2")                  # overtime: a period, 2 periods left
    ok(engine, "genmove b")
    ok(engine, "genmove w")
    budget = [event for event in generator.events if event[0] == "generate"][-1][2]
    assert budget == pytest.approx(0.9 * 5 - 0.1)
    ok(engine, "kata-time_settings fischer 60 2.5")
    assert (adapter.clocks[0].kind, adapter.clocks[0].increment) == ("fischer", 2.5)
    ok(engine, "kgs-time_settings none")
    ok(engine, "genmove b")
    assert [event for event in generator.events if event[0] == "generate"][-1][2] is None
    for bad in ["kgs-time_settings fischer 60 2", "kgs-time_settings absolute",
                "kgs-time_settings canadian 60 10 2.5", "kgs-time_settings byoyomi 60 -1 3",
                "kata-time_settings sudden 5", "kata-time_settings absolute nan",
                "kgs-time_settings"]:
        fails(engine, bad)


@pytest.mark.parametrize("new_game", [new_go, lambda size, komi: LightGo(size, komi)])
def test_go_engines_place_fixed_handicap(new_game):
    engine, adapter, generator = adapter_for(new_game, 9)
    assert ok(engine, "fixed_handicap 3").split() == ["G7", "C3", "C7"]
    game = adapter.game
    assert [game.colour_at(adapter.state, game.move_to_action(p))
            for p in ((6, 6), (2, 2), (6, 2))] == ["b", "b", "b"]
    assert game.to_play(adapter.state) == 1                    # White moves first
    ok(engine, "genmove w")
    fails(engine, "fixed_handicap 2")                          # the board isn't empty
    ok(engine, "clear_board")
    fails(engine, "fixed_handicap 5 6")
    fails(engine, "fixed_handicap 10")


@pytest.mark.parametrize("new_game", [new_go, lambda size, komi: LightGo(size, komi)])
def test_go_engines_place_and_take_free_handicap(new_game):
    engine, adapter, _ = adapter_for(new_game, 9)
    placed = ok(engine, "place_free_handicap 12").split()
    assert len(set(placed)) == 12
    assert placed[:9] == ok(engine_for(new_game), "fixed_handicap 9").split()
    assert adapter.game.empty_points(adapter.state) == 81 - 12
    ok(engine, "clear_board")
    ok(engine, "set_free_handicap A1 J9 E5")
    assert adapter.game.empty_points(adapter.state) == 78
    assert adapter.game.to_play(adapter.state) == 1
    ok(engine, "clear_board")
    for bad in ["set_free_handicap A1", "set_free_handicap A1 A1", "set_free_handicap A1 Z9",
                "set_free_handicap A1 pass", "place_free_handicap 1", "place_free_handicap 81"]:
        fails(engine, bad)


def engine_for(new_game):
    return adapter_for(new_game, 9)[0]


def test_on_a_small_board_free_handicap_has_no_fixed_layout_to_start_from():
    engine, adapter, _ = adapter_for(new_go, 5)
    assert len(set(ok(engine, "place_free_handicap 4").split())) == 4
    engine, _, _ = adapter_for(new_go, 5)
    fails(engine, "fixed_handicap 2")
    # Off the first line while the second and above have room: on 7x7, 3 stones were D4 A1 G1.
    for size, stones in [(7, 3), (7, 9), (5, 9)]:
        engine, _, _ = adapter_for(new_go, size)
        placed = ok(engine, f"place_free_handicap {stones}").split()
        assert len(set(placed)) == stones
        assert all(vertex[0] not in ("A", "ABCDEFGHJ"[size - 1]) and vertex[1:] not in ("1", str(size))
                   for vertex in placed), placed
    engine, _, _ = adapter_for(new_go, 5)
    assert len(set(ok(engine, "place_free_handicap 12").split())) == 12   # then the first line too


def test_a_vertex_is_a_letter_and_ascii_digits():
    # int() reads other scripts' digits: 'a١' (Arabic-Indic 1) was played as A1.
    from ringmaster.rules.go import GoRules
    engine, adapter, _ = adapter_for(new_go, 5)
    fails(engine, "play b a١")
    fails(engine, "set_free_handicap a١ c٣")
    assert adapter.game.empty_points(adapter.state) == 25
    ok(engine, "play b a1")
    with pytest.raises(ValueError, match="not a vertex"):
        GoRules(5).parse_move("c٣")
    assert GoRules(5).parse_move("c3") == (2, 2) and GoRules(5).parse_move("PASS") is None
    for odd in ["C+3", "A03", "a 1", "+c3", "c-3"]:   # int() took the first two
        fails(engine, f"play w {odd}")
        with pytest.raises(ValueError, match="not a vertex"):
            GoRules(5).parse_move(odd)


def test_othello_engines_have_no_handicap_commands():
    engine, _, _ = adapter_for(new_othello, 6)
    listed = ok(engine, "list_commands").split()
    assert "fixed_handicap" not in listed and "kgs-time_settings" in listed


@pytest.mark.parametrize("new_game", [new_go, lambda size, komi: LightGo(size, komi)])
def test_go_lists_every_stone_alive_as_its_final_score_counts_them(new_game):
    engine, adapter, _ = adapter_for(new_game, 5, komi=0.5)
    assert ok(engine, "final_status_list dead") == ""
    ok(engine, "play b C3")
    ok(engine, "play w A1")          # a lone stone in Black's area: alive by Tromp-Taylor
    assert ok(engine, "final_status_list dead") == ""
    assert ok(engine, "final_status_list seki") == ""
    assert sorted(ok(engine, "final_status_list alive").split()) == ["A1", "C3"]
    assert fails(engine, "final_status_list sleeping") == "invalid status"
    assert ok(engine, "known_command final_status_list") == "true"


def test_othello_has_no_final_status_list():
    engine, _, _ = adapter_for(new_othello, 4)
    assert ok(engine, "known_command final_status_list") == "false"


class CountingGo:
    """A game that counts apply calls, around LightGo."""

    def __init__(self, game) -> None:
        self.game = game
        self.applied = 0

    def __getattr__(self, name):
        return getattr(self.game, name)

    def apply(self, state, action):
        self.applied += 1
        return self.game.apply(state, action)


def test_a_clock_loads_the_games_own_code_before_the_first_timed_genmove():
    engine, adapter, _ = adapter_for(new_go, 9)
    counting = CountingGo(adapter.game)
    adapter.game = counting
    before = adapter.state
    ok(engine, "time_settings 0 1 1")
    assert counting.applied == 1 and adapter.state is before and len(adapter.history) == 1


# Our own clock: what is left when the controller sends no time_left

class FakeTime:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Spender(gtp_adapter.MoveGenerator):
    """Spends all of its budget and overhead seconds more on the fake clock, and plays a
    random legal move other than a pass (a pass when there is none)."""

    def __init__(self, now: FakeTime, overhead: float, seed: int = 0) -> None:
        self.now, self.overhead = now, overhead
        self.rng = random.Random(seed)
        self.budgets: list[float | None] = []

    def __call__(self, game, state, *, cleanup, seconds):
        self.budgets.append(seconds)
        self.now.now += (seconds or 0.0) + self.overhead
        moves = [a for a in game.legal_actions(state) if a != game.pass_action]
        return self.rng.choice(moves) if moves else game.pass_action


def play_timed(settings: str, control: str, moves: int, *, overhead: float,
               told: dict[int, tuple[float, int]] | None = None):
    """Both colours genmove moves times each on 9x9 Go under settings, with no time_left
    (but those in told, sent before the move of that number); the referee's own clock
    (ringmaster's, margin 0) for control judges each move. Returns (the states after
    each colour's last move, or None once lost; each colour's seconds in all; the spender)."""
    from ringmaster.game import clock as referee

    now = FakeTime()
    generator = Spender(now, overhead)
    engine, adapter = gtp_adapter.make_engine("test", "1", generator, new_go, size=9, komi=7.5)
    adapter.now = now
    ok(engine, "boardsize 9")
    ok(engine, "clear_board")
    ok(engine, settings)
    timing = referee.parse_time_control(control)
    states = {colour: referee.start(timing) for colour in "bw"}
    spent = {"b": 0.0, "w": 0.0}
    for number in range(moves):
        for colour in "bw":
            if told and number in told:
                ok(engine, f"time_left {colour} {told[number][0]} {told[number][1]}")
            before = now.now
            ok(engine, f"genmove {colour}")
            elapsed = now.now - before
            spent[colour] += elapsed
            if states[colour] is not None:
                states[colour] = referee.after_move(timing, states[colour], elapsed, 0.0)
    return states, spent, generator


def test_absolute_time_without_time_left_stays_within_the_main_time():
    states, spent, generator = play_timed("time_settings 10 0 0", "absolute 10", 80,
                                          overhead=0.005)
    assert all(state is not None for state in states.values()), spent
    assert max(spent.values()) < 10.0
    assert len([b for b in generator.budgets if b is not None]) == 160   # a long game


def test_fischer_without_time_left_adds_the_increment_and_spends_no_more():
    states, spent, _ = play_timed("kata-time_settings fischer 10 0.5", "fischer 10 0.5", 120,
                                  overhead=0.005)
    assert all(state is not None for state in states.values()), spent
    assert max(spent.values()) < 10.0 + 120 * 0.5
    assert max(spent.values()) > 120 * 0.5 - 1       # the increments were spent, not kept back


@pytest.mark.parametrize("settings, control", [
    ("time_settings 5 10 5", "canadian 5 10 5"),
    ("time_settings 0 3 2", "canadian 0 3 2"),
    ("kgs-time_settings canadian 5 10 5", "canadian 5 10 5"),
    ("kgs-time_settings byoyomi 30 2 3", "byoyomi 30 2 3"),
])
def test_overtime_without_time_left_loses_no_period(settings, control):
    states, spent, generator = play_timed(settings, control, 80, overhead=0.05)
    assert all(state is not None for state in states.values()), spent
    if control.startswith("byoyomi"):
        assert states["b"].in_overtime and states["b"].periods_left == 3   # none lost


def test_time_left_replaces_our_own_account():
    now = FakeTime()
    generator = Spender(now, overhead=0.0)
    engine, adapter = gtp_adapter.make_engine("test", "1", generator, new_go, size=9, komi=7.5)
    adapter.now = now
    ok(engine, "time_settings 100 0 0")
    ok(engine, "genmove b")
    first = generator.budgets[-1]
    assert adapter.clocks[0].time_left == pytest.approx(100 - first)   # what it spent
    assert adapter.clocks[1].time_left == 100                          # white hasn't moved
    ok(engine, "time_left b 20 0")                                     # the controller's word
    assert adapter.clocks[0].time_left == 20
    ok(engine, "genmove b")
    assert generator.budgets[-1] == pytest.approx(0.9 * 20 / 40 - 0.1)    # 80 points empty
    assert adapter.clocks[0].time_left == pytest.approx(20 - generator.budgets[-1])
    ok(engine, "time_left b 50 0")                                     # more than we thought
    ok(engine, "genmove b")
    assert adapter.clocks[0].time_left == pytest.approx(50 - generator.budgets[-1])
    ok(engine, "clear_board")                                          # a new game: full clocks
    assert adapter.clocks[0].time_left == adapter.clocks[1].time_left == 100
    ok(engine, "genmove b")
    ok(engine, "time_settings 60 0 0")                                 # new settings: full
    assert adapter.clocks[0].time_left == 60


def test_our_account_counts_periods_as_the_time_system_does():
    canadian = Clock(1.0, 10.0, 2)
    canadian.restart()
    canadian.spend(0.5)
    assert (canadian.time_left, canadian.stones_left) == (0.5, 0)
    canadian.spend(3.5)                        # main time ends: 3 s of the first period, a stone
    assert (canadian.time_left, canadian.stones_left) == (7.0, 1)
    canadian.spend(6.0)                        # the period's last stone: a new period
    assert (canadian.time_left, canadian.stones_left) == (10.0, 2)
    byoyomi = Clock(1.0, 5.0, kind="byoyomi", periods=3)
    byoyomi.restart()
    byoyomi.spend(1.0)                          # main time spent to the end: in the first period
    assert (byoyomi.time_left, byoyomi.stones_left) == (5.0, 3)
    byoyomi.spend(4.0)                          # within the period: kept
    assert (byoyomi.time_left, byoyomi.stones_left) == (5.0, 3)
    byoyomi.spend(12.0)                         # two periods overrun: lost
    assert (byoyomi.time_left, byoyomi.stones_left) == (5.0, 1)
    byoyomi.spend(60.0)                         # never the last
    assert byoyomi.stones_left == 1
    fischer = Clock(10.0, kind="fischer", increment=2.0)
    fischer.spend(3.0)
    assert fischer.time_left == 9.0
    absolute = Clock(10.0)
    absolute.restart()
    absolute.spend(12.0)
    assert (absolute.time_left, absolute.stones_left) == (0.0, 0)
    assert absolute.budget(40) == 0.001         # nothing left: no floor it can't pay for
    absolute.time_left = 0.4
    assert absolute.budget(40) == pytest.approx(0.9 * 0.4 / 20)
    overtime_only = Clock(0.0, 3.0, 2)
    overtime_only.restart()
    assert (overtime_only.time_left, overtime_only.stones_left) == (3.0, 2)
