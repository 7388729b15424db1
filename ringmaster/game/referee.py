"""The referee: plays out one game between two GTP engines, checking every move on its own board."""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfmill.common import opponent_of

from ringmaster.game.adjudication import Adjudicator, score_at_move_limit
from ringmaster.game.referee_engine import RefereeEngine
from ringmaster.game.result import ill_formed_move
from ringmaster.game.scoring import (
    EnginePlayer,
    ScoreBounds,
    Scored,
    score_by_players,
    score_internally,
)
from ringmaster.game.timekeeper import GameClock
from ringmaster.gtp.channel import GtpChannelError, GtpTimeout
from ringmaster.gtp.controller import BadGtpResponse, SentCommands
from ringmaster.rules.base import Colour, Rules

FORCED_PASS_COMMENT = "forced pass (played by the referee)"


@dataclass
class GameRecord:
    """What happened in a game, as the referee saw it.

    Public attributes:
      moves          -- [(colour, move, comment or None)]
      winning_colour -- 'b', 'w' or None
      sgf_result     -- SGF RE[] text
      detail         -- 'forfeit by x: ...', 'lost on time by x: ...', 'claim', 'hit move
                        limit', ... or None
      is_forfeit     -- (a loss on time is no forfeit)
      notes          -- extra lines for the last SGF comment (scorers' claims, final messages)
      late_errors    -- errors after the result was settled; the result stands
      clock_marks    -- {index in moves: (seconds, stones or periods, or None)}: the mover's
                        clock after each timed move, for SGF's BL/WL and OB/OW
      is_adjudicated -- the referee engine's score ended it (adjudication, the move limit)
      warnings       -- what went wrong that changed nothing of the result (the referee
                        engine failing at an adjudication check)
    """

    moves: list[tuple[Colour, object, str | None]] = field(default_factory=list)
    winning_colour: Colour | None = None
    sgf_result: str = "?"
    detail: str | None = None
    is_forfeit: bool = False
    notes: list[str] = field(default_factory=list)
    late_errors: list[str] = field(default_factory=list)
    passed_out: bool = False
    clock_marks: dict[int, tuple[float, int | None]] = field(default_factory=dict)
    is_adjudicated: bool = False
    warnings: list[str] = field(default_factory=list)

    def settle(self, scored: Scored) -> None:
        """Take scoring's result and its lines for the record."""
        self.winning_colour, self.sgf_result = scored.winning_colour, scored.sgf_result
        self.detail = scored.detail
        self.notes += scored.notes
        self.late_errors += scored.late_errors


class Referee:
    """Plays a game between two EnginePlayers under a Rules object.

    Any failure of an engine mid-game, a failure response, a broken channel or
    a timeout, forfeits the game for that engine with the reason recorded.

    A pass the rules force (Othello: no placement) is played by the referee:
    the engine isn't asked for it and its opponent isn't told, since the next
    'play' or 'genmove' names its colour (engines such as GRhino refuse
    'play COLOUR pass'). The record shows it, commented FORCED_PASS_COMMENT.

    A move is sent to the opponent with the opponent's own genmove, in one
    write (GtpController.send_commands), so that each move wakes one engine
    once; a move that ends the game, or that the opponent won't answer with a
    genmove (a forced pass, the move limit), is sent alone. Either way the
    opponent's answer to 'play' is judged before anything else. When the rules
    can tell before play() that the game goes on (Go: any move but a pass), the
    pair is sent as soon as the move is found legal, and the board is updated
    while the opponent thinks.

    With a clock (timekeeper.GameClock), a timed side's time_left goes in the
    same write as its genmove, and the move is charged the time from that
    write to reading the genmove's whole answer; a side over time by more than
    the margin, or with no answer by the clock's deadline, loses on time.

    A referee engine (referee_engine.RefereeEngine), if given, is told every
    move the engines are told; scoring asks it to settle what the players
    don't agree on, a game at the move limit is scored by it instead of
    being void, and an adjudicator (adjudication.Adjudicator) asks it for its
    score as the game goes on. A move after which a check is due is sent to
    the opponent only after the check. opening is the moves already played
    (the opening's, game.opening), which start the record.
    """

    def __init__(self, rules: Rules, players: dict[Colour, EnginePlayer], *, komi: float,
                 move_limit: int, use_internal_scorer: bool, handicap_stones: int = 0,
                 handicap_compensation: str = "full", clock: GameClock | None = None,
                 referee_engine: RefereeEngine | None = None,
                 adjudicator: Adjudicator | None = None, opening: list | None = None) -> None:
        self.rules = rules
        self.players = players
        self.komi = komi
        self.move_limit = move_limit
        self.use_internal_scorer = use_internal_scorer
        self.handicap_stones = handicap_stones
        self.handicap_compensation = handicap_compensation
        self.clock = clock
        self.referee_engine = referee_engine
        self.adjudicator = adjudicator
        self.record = GameRecord(moves=list(opening or []))
        self._untold: tuple[Colour, object] | None = None   # a move its opponent hasn't been sent
        # The opponent's 'play' and genmove, sent before the board was updated:
        # (the mover's colour, the vertex, the commands or the error sending them, when written).
        self._asked: tuple[Colour, str, SentCommands | GtpChannelError, float] | None = None
        self._elapsed = 0.0   # the last genmove's time, from writing it to reading its answer

    def _forfeit(self, colour: Colour, reason: str) -> None:
        winner = opponent_of(colour)
        self.record.winning_colour = winner
        self.record.sgf_result = f"{winner.upper()}+F"
        self.record.is_forfeit = True
        self.record.detail = f"forfeit by {self.players[colour].code}: {reason}"

    def _lose_on_time(self, colour: Colour, reason: str) -> None:
        winner = opponent_of(colour)
        self.record.winning_colour = winner
        self.record.sgf_result = f"{winner.upper()}+T"
        self.record.detail = reason

    def _final_message(self, colour: Colour) -> None:
        """Ask the engine that just lost by its own act for an explanation."""
        comment = self._explain(colour)
        if comment:
            self.record.notes.append(f"final message from {colour}: <<<\n{comment}\n>>>")

    def _explain(self, colour: Colour) -> str | None:
        controller = self.players[colour].controller
        if controller.channel_is_bad:
            return None
        try:
            if controller.known_command("gomill-explain_last_move"):
                return controller.do_command("gomill-explain_last_move").strip() or None
        except (BadGtpResponse, GtpChannelError):
            pass
        return None

    def _ask_about_claims(self) -> bool:
        """Ask each engine allowed to claim whether it knows gomill-genmove_ex, before any
        genmove (the controller keeps the answer). An engine that fails to answer forfeits,
        as for any failure mid-game, never a loss on time whatever its clock (the question
        isn't timed by it). False if one did."""
        for colour in ("b", "w"):
            player = self.players[colour]
            if player.allow_claim:
                try:
                    player.controller.known_command("gomill-genmove_ex")
                except GtpChannelError as exc:
                    self._forfeit(colour, str(exc))
                    return False
        return True

    def _genmove_command(self, colour: Colour) -> tuple[str, ...]:
        player = self.players[colour]
        if player.allow_claim and player.controller.known_command("gomill-genmove_ex"):
            return ("gomill-genmove_ex", colour, "claim")
        return ("genmove", colour)

    def _genmove_commands(self, colour: Colour) -> list[tuple[str, ...]]:
        """colour's genmove, after its time_left if it is timed and has one."""
        if self.clock is None:
            return [self._genmove_command(colour)]
        return [*self.clock.before_genmove(colour), self._genmove_command(colour)]

    def _ask(self, colour: Colour) -> None:
        """Send colour's engine the untold move and its genmove in one write; _genmove reads
        the answers. An error sending is kept for _genmove to raise, so that the move
        is recorded first, as when the pair is sent from _genmove. (Whether an engine
        allowed to claim knows gomill-genmove_ex was asked before the game's first genmove,
        _ask_about_claims: the controller answers from its cache here.)"""
        mover, move = self._untold
        self._untold = None
        vertex = self.rules.format_move(move)
        commands = self._genmove_commands(colour)
        started = 0.0 if self.clock is None else self.clock.now()
        try:
            sent: SentCommands | GtpChannelError = self.players[colour].controller.send_commands(
                ("play", mover, vertex), *commands)
        except GtpChannelError as exc:
            sent = exc
        self._asked = (mover, vertex, sent, started)

    def _genmove(self, colour: Colour) -> str | None:
        """Ask colour's engine for its move, sending it the untold move first, in the same write.

        Returns None if the untold move ended the game (refused: a forfeit).
        Raises BadGtpResponse from the genmove, GtpChannelError from either
        (GtpTimeout past a timed side's deadline). Sets _elapsed.
        """
        controller = self.players[colour].controller
        if self._asked is None:
            if self._untold is None and self.clock is None:
                return controller.do_command(*self._genmove_command(colour))
            if self._untold is None:
                started = self.clock.now()
                self._asked = (colour, "", controller.send_commands(*self._genmove_commands(colour)),
                               started)
            else:
                self._ask(colour)
        mover, vertex, sent, started = self._asked
        self._asked = None
        if isinstance(sent, GtpChannelError):
            raise sent
        # A broken channel forfeits this engine whichever response it broke on (as
        # when the move is sent alone); the error names the command.
        if self.clock is None:
            responses = controller.receive_commands(sent)
        else:
            responses = controller.receive_commands(sent, self.clock.deadline(colour, started))
            self._elapsed = self.clock.now() - started
        response = responses.pop()
        if vertex:
            told = responses.pop(0)
            if isinstance(told, BadGtpResponse):
                self._play_refused(mover, vertex, told)
                return None
        if responses:   # time_left's
            self.clock.note_failures(colour, controller, responses)
        if isinstance(response, BadGtpResponse):
            raise response
        return response

    def play(self, first: Colour = "b") -> GameRecord:
        """Play the game to its end and return the record."""
        colour = first
        record = self.record
        if not self._ask_about_claims():
            return record
        while True:
            if len(record.moves) >= self.move_limit:
                if not self._tell_untold():
                    return record
                self._at_move_limit()
                return record
            if self.rules.pass_is_forced(colour):
                if not self._tell_untold():
                    return record
                self.rules.play(colour, None)
                record.moves.append((colour, None, FORCED_PASS_COMMENT))
                colour = opponent_of(colour)
                continue
            try:
                response = self._genmove(colour)
            except GtpTimeout as exc:
                if self.clock is not None and self.clock.is_timed(colour):
                    self._lose_on_time(colour, self.clock.ran_out(colour))
                else:
                    self._forfeit(colour, str(exc))
                return record
            except (BadGtpResponse, GtpChannelError) as exc:
                self._forfeit(colour, str(exc))
                return record
            if response is None:
                return record
            if self.clock is not None:
                late = self.clock.charge(colour, self._elapsed)
                if late is not None:
                    self._lose_on_time(colour, late)
                    return record
            word = response.strip().lower()
            if word == "resign":
                record.winning_colour = opponent_of(colour)
                record.sgf_result = f"{record.winning_colour.upper()}+R"
                self._final_message(colour)
                return record
            if word == "claim" and self.players[colour].allow_claim:
                record.winning_colour = colour
                record.sgf_result = f"{colour.upper()}+"
                record.detail = "claim"
                self._final_message(colour)
                return record
            try:
                move = self.rules.parse_move(response.strip())
            except ValueError:
                self._forfeit(colour, ill_formed_move(response))
                return record
            reason = self.rules.check_move(colour, move)
            if reason is not None:
                self._forfeit(colour, reason)
                return record
            self._untold = (colour, move)
            if self.referee_engine is not None:
                self.referee_engine.tell(colour, self.rules.format_move(move))
            check_due = self.adjudicator is not None and self.adjudicator.is_due(
                len(record.moves) + 1)
            if (self.rules.goes_on_after(colour, move) and not check_due
                    and len(record.moves) + 1 < self.move_limit):
                self._ask(opponent_of(colour))   # it thinks while the board is updated
            self.rules.play(colour, move)
            mark = None if self.clock is None else self.clock.sgf_mark(colour)
            if mark is not None:
                record.clock_marks[len(record.moves)] = mark
            record.moves.append((colour, move, self._explain(colour)))
            if self.rules.is_over():
                if not self._tell_untold():
                    return record
                record.passed_out = True
                self._score()
                return record
            if check_due and self._adjudicated():
                return record
            colour = opponent_of(colour)

    def _tell_untold(self) -> bool:
        """Send the untold move (if any) to its opponent alone; False if that ended the game."""
        if self._untold is None:
            return True
        colour, move = self._untold
        self._untold = None
        return self._tell_opponent(colour, move)

    def _play_refused(self, colour: Colour, vertex: str, exc: BadGtpResponse) -> None:
        """The opponent refused colour's move, the last played on our board, which found it legal.

        If it says the move is illegal and rulesets differ on such a move (in Go a self-capture
        or a repeated position, which our rules allow), colour forfeits, as in Gomill: the
        opponent may play by stricter rules. If no ruleset forbids the move, the claim is false
        and the opponent forfeits, so that no engine wins by refusing its opponent's moves. Any
        other failure response forfeits the opponent."""
        other = opponent_of(colour)
        code = self.players[other].code
        if "illegal" not in exc.gtp_message.lower():
            self._forfeit(other, str(exc))
        elif self.rules.rulesets_differ_on_last_move():
            self._forfeit(colour, f"{code} claims move {vertex} is illegal")
        else:
            self._forfeit(other, f"{code} claims move {vertex} is illegal, which no ruleset forbids")

    def _tell_opponent(self, colour: Colour, move) -> bool:
        """Send the move to the other engine; False if that ended the game."""
        other = opponent_of(colour)
        vertex = self.rules.format_move(move)
        try:
            self.players[other].controller.do_command("play", colour, vertex)
        except BadGtpResponse as exc:
            if self.rules.is_over():
                self.record.late_errors.append(str(exc))
                return True
            self._play_refused(colour, vertex, exc)
            return False
        except GtpChannelError as exc:
            if self.rules.is_over():
                self.record.late_errors.append(str(exc))
                return True
            self._forfeit(other, str(exc))
            return False
        return True

    def _at_move_limit(self) -> None:
        """The move limit: the referee engine's score, or no result (Void) without one."""
        record = self.record
        if self.referee_engine is not None:
            scored = score_at_move_limit(self.referee_engine, len(record.moves), self._bounds())
            if isinstance(scored, Scored):
                record.settle(scored)
                record.is_adjudicated = True
                return
            record.notes.append(f"the referee engine couldn't score the game: {scored}")
            record.warnings.append(f"the referee engine couldn't score the game at the move "
                                   f"limit: {scored}")
        record.sgf_result, record.detail = "Void", "hit move limit"

    def _adjudicated(self) -> bool:
        """An adjudication check after the last move: True if it ended the game (the move
        is never sent to the opponent)."""
        assert self.adjudicator is not None
        scored = self.adjudicator.check(len(self.record.moves), self._bounds())
        if scored is None:
            failure = self.adjudicator.failure
            if failure is not None:
                self.record.warnings.append(f"adjudication stopped: the referee engine "
                                            f"couldn't score: {failure}")
            return False
        self._untold = None
        self.record.settle(scored)
        self.record.is_adjudicated = True
        return True

    def _bounds(self) -> ScoreBounds:
        return ScoreBounds(self.rules.board_size ** 2, self.komi, self.rules.stones_placed)

    def _score(self) -> None:
        bounds = self._bounds()
        if self.use_internal_scorer or not self.rules.players_may_score:
            compensation = 0
            if self.handicap_stones and self.handicap_compensation != "no":
                compensation = self.handicap_stones - (self.handicap_compensation == "short")
            self.record.settle(score_internally(self.rules, self.players, self.komi, compensation,
                                                self.referee_engine, bounds))
        else:
            self.record.settle(score_by_players(self.players, self.referee_engine, bounds))
