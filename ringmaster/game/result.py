"""The result of one game, as competitions store and report it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ringmaster.state.encoding import EncodedOnce


def check_field(data: dict[str, Any], name: str, kinds: tuple[type, ...], what: str,
                optional: bool = False) -> None:
    """Raise ValueError unless data[name] is one of kinds (a bool is no number), or None if optional.

    For state read back from disk, where a wrong type would fail much later.
    """
    value = data.get(name)
    if value is None:
        if optional:
            return
        raise ValueError(f"{what}: '{name}' is {'missing' if name not in data else 'null'}")
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise ValueError(f"{what}: '{name}' is {value!r}"[:120])


NUMBER = (int, float)

# The start of the detail of a result whose scorers disputed it, and what may cause it.
DISAGREED = "players disagreed"
DISAGREEMENT_CAUSE = ("they may count by different rules (GNU Go counts Japanese-style unless "
                      "given --chinese-rules); scorer = 'internal' has the referee count every game")


# The start of the detail of a game left without a result over its dead stones, and what to do.
DEAD_STONES_DISPUTED = "dead stones disputed"
DEAD_STONES_UNKNOWN = "dead stones unknown"
NAME_A_REFEREE = ("the internal scorer takes dead stones off only where both players list the "
                  "same; name a referee engine to settle the others (referee = "
                  "Player('/usr/games/gnugo --mode gtp --chinese-rules'))")
REFEREE_FAILED = "the referee engine failed"


def ill_formed_move(response: str) -> str:
    """The forfeit reason for a genmove answer that is no move: the answer, clipped, or
    '(an empty response)' (a second answer to an earlier command is caught by its id, never
    read as this one's, unless the engine echoes no ids: gtp.channel)."""
    return "attempted ill-formed move " + (response.strip()[:40] or "(an empty response)")


def format_float(value: float) -> str:
    """'2' for 2.0, '2.5' for 2.5."""
    return str(int(value)) if value == int(value) else f"{value:g}"


@dataclass
class GameResult(EncodedOnce):
    """The outcome of a game between two players.

    Public attributes:
      game_id
      player_b, player_w -- player codes
      winning_colour     -- 'b', 'w' or None (jigo, or no result)
      sgf_result         -- as in SGF RE[]: 'B+3.5', 'W+R', 'B+F', 'W+T' (on time), '0', '?', 'Void'
      detail             -- extra words ('forfeit by x: ...', 'lost on time by x: ...',
                            'hit move limit'), or None
      is_forfeit         -- (a loss on time is no forfeit: see is_time_loss)
      cpu_times          -- {player code: seconds or None}
      is_adjudicated     -- the referee engine's score decided it before the game's end
                            (game.adjudication)
    """

    game_id: str
    player_b: str
    player_w: str
    winning_colour: str | None
    sgf_result: str
    detail: str | None = None
    is_forfeit: bool = False
    cpu_times: dict[str, float | None] = field(default_factory=dict)
    is_adjudicated: bool = False

    @property
    def players(self) -> dict[str, str]:
        return {"b": self.player_b, "w": self.player_w}

    @property
    def winning_player(self) -> str | None:
        return None if self.winning_colour is None else self.players[self.winning_colour]

    @property
    def losing_player(self) -> str | None:
        if self.winning_colour is None:
            return None
        return self.players["w" if self.winning_colour == "b" else "b"]

    @property
    def is_time_loss(self) -> bool:
        """The loser lost on time (SGF 'B+T', 'W+T')."""
        return self.winning_colour is not None and self.sgf_result.endswith("+T")

    @property
    def is_jigo(self) -> bool:
        return self.sgf_result == "0"

    @property
    def is_unknown(self) -> bool:
        return self.winning_colour is None and not self.is_jigo

    def describe(self) -> str:
        """One line: 'a beat b B+3.5', 'a vs b jigo', 'a vs b ? (players disagreed)'."""
        if self.winning_colour is not None:
            text = f"{self.winning_player} beat {self.losing_player} {self.sgf_result}"
        elif self.is_jigo:
            text = f"{self.player_b} vs {self.player_w} jigo"
        else:
            text = f"{self.player_b} vs {self.player_w} {self.sgf_result}"
        if self.detail:
            text += f" ({self.detail})"
        return text

    def to_json(self) -> dict[str, Any]:
        # Not dataclasses.asdict(): its generic deep copy took 14.8 us a result against
        # 1.3 us for this (and 5.4 us for encoding it), and the state holds every result.
        data = {name: getattr(self, name) for name in _RESULT_FIELDS}
        data["cpu_times"] = dict(self.cpu_times)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """The result saved by to_json(). Raises ValueError if a field has the wrong type."""
        if not isinstance(data, dict):
            raise ValueError(f"a game result is {data!r}")
        what = f"result of game {data.get('game_id')!r}"
        for name in ("game_id", "player_b", "player_w", "sgf_result"):
            check_field(data, name, (str,), what)
        check_field(data, "detail", (str,), what, optional=True)
        check_field(data, "is_forfeit", (bool,), what, optional=True)
        check_field(data, "is_adjudicated", (bool,), what, optional=True)
        if data.get("winning_colour") not in ("b", "w", None):
            raise ValueError(f"{what}: 'winning_colour' is {data['winning_colour']!r}")
        cpu_times = data.get("cpu_times", {})
        if not isinstance(cpu_times, dict):
            raise ValueError(f"{what}: 'cpu_times' is {cpu_times!r}")
        for code in cpu_times:
            check_field(cpu_times, code, NUMBER, what + " cpu_times", optional=True)
        if data.get("is_adjudicated") is None:
            data = {k: v for k, v in data.items() if k != "is_adjudicated"}
        return cls(**data)


def result_from_score(score: float) -> tuple[str | None, str]:
    """(winning colour, SGF result) for a score of Black minus White, komi included."""
    if score > 0:
        return "b", f"B+{format_float(score)}"
    if score < 0:
        return "w", f"W+{format_float(-score)}"
    return None, "0"


class UnknownReasons:
    """The games with no result grouped by kind of reason, each kind with its count and first game,
    kept up to date one result at a time (add); lines() as unknown_reasons() gives them."""

    def __init__(self) -> None:
        self.groups: dict[str, list[Any]] = {}   # kind: [count, the first such result]
        self._lines: list[str] | None = None

    def add(self, result: GameResult) -> None:
        if result.is_unknown:
            kind = (result.detail or "no result").split(": ", 1)[0]
            group = self.groups.setdefault(kind, [0, result])
            group[0] += 1
            self._lines = None

    def lines(self) -> list[str]:
        """One line per kind of reason, with a game as an example (see unknown_reasons)."""
        if self._lines is None:
            self._lines = [reason_line(kind, count, example)
                           for kind, (count, example) in self.groups.items()]
        return list(self._lines)


def reason_line(kind: str, count: int, example: GameResult) -> str:
    """'players disagreed: 2 games (e.g. 0_3: p1 said B+3, p2 said W+12); they may ...'."""
    particulars = (example.detail or "").partition(": ")[2]
    line = (f"{kind}: {count} game{'s' if count > 1 else ''} "
            f"(e.g. {example.game_id}{': ' + particulars if particulars else ''})")
    if kind == DISAGREED:
        line += "; " + DISAGREEMENT_CAUSE
    elif kind in (DEAD_STONES_DISPUTED, DEAD_STONES_UNKNOWN):
        line += "; " + NAME_A_REFEREE
    return line


def unknown_reasons(results: list[GameResult]) -> list[str]:
    """Why games have no result, one line per kind of reason, with a game as an example.

    'players disagreed: 2 games (e.g. 0_3: p1 said B+3, p2 said W+12); they may count
    by different rules ...'.
    """
    reasons = UnknownReasons()
    for result in results:
        reasons.add(result)
    return reasons.lines()


_RESULT_FIELDS = [f.name for f in fields(GameResult)]
