"""The board's eight symmetries, and a game's fingerprint under them."""

from __future__ import annotations

from ringmaster.rules.symmetry import SYMMETRIES, fingerprint, transform


def test_the_eight_symmetries_are_distinct_and_keep_the_board():
    points = [(0, 1), (2, 4), (3, 3)]   # a shape with no symmetry of its own
    images = {tuple(transform(p, k, 5) for p in points) for k in range(SYMMETRIES)}
    assert len(images) == 8
    assert all(0 <= r < 5 and 0 <= c < 5 for image in images for r, c in image)
    assert transform((0, 1), 0, 5) == (0, 1)
    assert {transform((0, 0), k, 9) for k in range(SYMMETRIES)} == {(0, 0), (0, 8), (8, 0), (8, 8)}


def test_a_game_and_its_images_share_a_fingerprint():
    moves = [("b", (2, 2)), ("w", (0, 1)), ("b", None), ("w", (3, 4))]
    key = fingerprint(5, [], moves)
    for k in range(SYMMETRIES):
        image = [(c, None if m is None else transform(m, k, 5)) for c, m in moves]
        assert fingerprint(5, [], image) == key
    assert fingerprint(5, [], moves[:3]) != key                          # one move fewer
    assert fingerprint(5, [], [("w", m) if c == "b" else ("b", m)
                               for c, m in moves]) != key                # colours swapped
    assert fingerprint(5, [("b", (0, 0))], moves) != key                 # another start
    assert fingerprint(7, [], moves) != key                              # another board
    assert len(key) == 16 and int(key, 16) >= 0


def test_the_othello_start_is_part_of_the_fingerprint():
    start = [("w", (3, 3)), ("w", (4, 4)), ("b", (3, 4)), ("b", (4, 3))]
    moves = [("b", (2, 3))]
    turned = [(c, transform(p, 4, 8)) for c, p in start]      # rows and columns swapped
    assert sorted(turned) == sorted(start)                    # a symmetry of the start
    # Flipping the rows alone changes the start: no image of this game starts as the other.
    flipped = [(c, transform(p, 1, 8)) for c, p in start]
    assert fingerprint(8, start, moves) != fingerprint(8, flipped, moves)
    assert fingerprint(8, start, moves) == fingerprint(8, start, [("b", transform((2, 3), 4, 8))])
