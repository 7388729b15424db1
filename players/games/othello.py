"""Othello for search: bitboard states on even boards from 4x4 to 8x8 with a forced pass."""

from __future__ import annotations

from players.games.board import BoardGame

# Point p = row * size + col, row 0 at the bottom (sgfmill's convention, so
# GTP vertices map directly). Bit p of a bitboard is point p.

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


class OthelloState:
    """An immutable Othello position, stored relative to the player to move.

    Public attributes:
      own, opp  -- bitboards of the mover's and the opponent's discs
      to_play   -- 0 when black is to move, 1 for white
      moves     -- bitboard of the mover's legal placements (0: must pass or game over)
      terminal  -- True when neither player has a placement
    """

    __slots__ = ("own", "opp", "to_play", "moves", "terminal")

    def __init__(self, own: int, opp: int, to_play: int, moves: int, terminal: bool) -> None:
        self.own = own
        self.opp = opp
        self.to_play = to_play
        self.moves = moves
        self.terminal = terminal

    def black_white(self) -> tuple[int, int]:
        """(black bitboard, white bitboard)."""
        return (self.own, self.opp) if self.to_play == 0 else (self.opp, self.own)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, OthelloState) and self.own == other.own
                and self.opp == other.opp and self.to_play == other.to_play)

    def __hash__(self) -> int:
        return hash((self.own, self.opp, self.to_play))

    def __repr__(self) -> str:
        return f"OthelloState(own={self.own:#x}, opp={self.opp:#x}, to_play={self.to_play})"


class Othello(BoardGame):
    """Othello on a size x size board (size even, 4..8); pass only when no placement exists."""

    kind = "othello"
    board_sizes = (4, 6, 8)
    symbols = {"b": "#", "w": "o", None: "."}

    def __init__(self, size: int = 8) -> None:
        if size not in self.board_sizes:
            raise ValueError(f"othello board size must be even and 4-8, not {size}")
        self.size = size
        self.name = f"othello{size}"
        self.num_points = size * size
        self.num_actions = self.num_points + 1
        self.pass_action = self.num_points
        self.full = (1 << self.num_points) - 1
        not_col0 = self.full
        not_last = self.full
        for row in range(size):
            not_col0 &= ~(1 << (row * size))
            not_last &= ~(1 << (row * size + size - 1))
        # (shift, destination mask) per direction; positive shifts go left.
        self._shifts = []
        for dr, dc in _DIRECTIONS:
            mask = self.full
            if dc == 1:
                mask &= not_col0
            elif dc == -1:
                mask &= not_last
            self._shifts.append((dr * size + dc, mask))

    # -- bitboard primitives ---------------------------------------------------

    def placements(self, own: int, opp: int) -> int:
        """Bitboard of the points where the owner of `own` may place a disc."""
        empty = self.full & ~(own | opp)
        moves = 0
        steps = self.size - 2
        for shift, mask in self._shifts:
            if shift > 0:
                x = (own << shift) & mask & opp
                for _ in range(steps - 1):
                    x |= (x << shift) & mask & opp
                moves |= (x << shift) & mask & empty
            else:
                s = -shift
                x = (own >> s) & mask & opp
                for _ in range(steps - 1):
                    x |= (x >> s) & mask & opp
                moves |= (x >> s) & mask & empty
        return moves

    def flips(self, own: int, opp: int, point: int) -> int:
        """Bitboard of the opponent discs that a placement at point turns over."""
        move = 1 << point
        flipped = 0
        for shift, mask in self._shifts:
            line = 0
            x = move
            while True:
                x = ((x << shift) if shift > 0 else (x >> -shift)) & mask
                if x & opp:
                    line |= x
                    continue
                if x & own:
                    flipped |= line
                break
        return flipped

    def make_state(self, black: int, white: int, to_play: int) -> OthelloState:
        """A state from absolute bitboards (for tests and the GTP engine)."""
        own, opp = (black, white) if to_play == 0 else (white, black)
        return self._state(own, opp, to_play)

    def _state(self, own: int, opp: int, to_play: int) -> OthelloState:
        moves = self.placements(own, opp)
        terminal = moves == 0 and self.placements(opp, own) == 0
        return OthelloState(own, opp, to_play, moves, terminal)

    # -- Game interface --------------------------------------------------------

    def initial_state(self) -> OthelloState:
        m = self.size // 2
        p = lambda r, c: 1 << (r * self.size + c)  # noqa: E731
        white = p(m - 1, m - 1) | p(m, m)
        black = p(m - 1, m) | p(m, m - 1)
        return self._state(black, white, 0)

    def to_play(self, state: OthelloState) -> int:
        return state.to_play

    def legal_actions(self, state: OthelloState) -> list[int]:
        if state.terminal:
            return []
        if state.moves == 0:
            return [self.pass_action]
        actions = []
        moves = state.moves
        while moves:
            low = moves & -moves
            actions.append(low.bit_length() - 1)
            moves ^= low
        return actions

    def apply(self, state: OthelloState, action: int) -> OthelloState:
        if state.terminal:
            raise ValueError("the game is over")
        if action == self.pass_action:
            if state.moves:
                raise ValueError("pass is illegal when a placement exists")
            return self._state(state.opp, state.own, 1 - state.to_play)
        if not 0 <= action < self.num_points or not (state.moves >> action) & 1:
            raise ValueError(f"illegal action {action}")
        flipped = self.flips(state.own, state.opp, action)
        own = state.own | flipped | (1 << action)
        opp = state.opp & ~flipped
        return self._state(opp, own, 1 - state.to_play)

    def is_terminal(self, state: OthelloState) -> bool:
        return state.terminal

    def terminal_value(self, state: OthelloState) -> float:
        diff = state.own.bit_count() - state.opp.bit_count()
        return float((diff > 0) - (diff < 0))

    def disc_difference(self, state: OthelloState) -> int:
        """Black's discs minus White's."""
        black, white = state.black_white()
        return black.bit_count() - white.bit_count()

    def score(self, state: OthelloState) -> float:
        return float(self.disc_difference(state))

    def colour_at(self, state: OthelloState, action: int) -> str | None:
        black, white = state.black_white()
        return "b" if black >> action & 1 else "w" if white >> action & 1 else None

    def empty_points(self, state: OthelloState) -> int:
        return self.num_points - (state.own | state.opp).bit_count()

    def random_rollout(self, state: OthelloState, rng) -> float:
        """Play uniformly random moves to the end; the result for state's mover (+1/-1/0).

        rng is a random.Random (its choice() is much faster than numpy's per call).
        """
        own, opp = state.own, state.opp
        sign = 1
        passed = False
        while True:
            moves = self.placements(own, opp)
            if not moves:
                if passed:
                    break
                passed = True
            else:
                passed = False
                options = []
                while moves:
                    low = moves & -moves
                    options.append(low)
                    moves ^= low
                move = rng.choice(options)
                flipped = self.flips(own, opp, move.bit_length() - 1)
                own |= flipped | move
                opp &= ~flipped
            own, opp = opp, own
            sign = -sign
        diff = (own.bit_count() - opp.bit_count()) * sign
        return float((diff > 0) - (diff < 0))
