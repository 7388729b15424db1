"""The random Othello engine plays whole legal games and refuses moves after the end."""

from players.engines import random_othello
from ringmaster.rules.othello import OthelloRules


def ok(engine, command: str, *args: str) -> str:
    is_failure, text, _ = engine.run_command(command, list(args))
    assert not is_failure, f"{command} {args}: {text}"
    return text


def fails(engine, command: str, *args: str) -> str:
    is_failure, text, _ = engine.run_command(command, list(args))
    assert is_failure, f"{command} {args} should fail"
    return text


def test_random_othello_engine():
    engine = random_othello.make_engine(random_othello.RandomOthello(3), "random-othello")
    ok(engine, "boardsize", "4")
    fails(engine, "boardsize", "5")
    rules = OthelloRules(4)
    colour = "b"
    while not rules.is_over():
        move = rules.parse_move(ok(engine, "genmove", colour))
        assert rules.check_move(colour, move) is None
        rules.play(colour, move)
        colour = "w" if colour == "b" else "b"
    fails(engine, "play", "b", "A1")
