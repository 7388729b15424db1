"""Game records: build a game's SGF with sgfmill and write it so that a crash never leaves half a file."""

from __future__ import annotations

import datetime
import os
import tempfile

from sgfmill import sgf

from ringmaster import __version__


def build_sgf(*, board_size: int, sgf_game_number: int, komi: float,
              moves: list, result: str | None, event: str | None, game_name: str | None,
              player_names: dict[str, str], root_comment: str, last_comment: str | None,
              handicap_points: list | None = None) -> bytes:
    """Serialise one game as SGF (UTF-8).

    moves is [(colour, move, comment or None)] with move (row, col) or None.
    """
    game = sgf.Sgf_game(board_size)
    root = game.get_root()
    root.set("AP", ("ringmaster", __version__))
    root.set("CA", "UTF-8")
    root.set("DT", datetime.date.today().isoformat())
    if sgf_game_number != 1:
        root.set_raw("GM", str(sgf_game_number).encode())
    root.set("KM", komi)
    if event:
        root.set("EV", event)
    if game_name:
        root.set("GN", game_name)
    for colour, name in player_names.items():
        root.set("PB" if colour == "b" else "PW", name)
    if result is not None:
        root.set("RE", result)
    if handicap_points:
        root.set("HA", len(handicap_points))
        root.set_setup_stones(handicap_points, [])
    root.set("C", root_comment)
    node = root
    for colour, move, comment in moves:
        node = node.new_child()
        node.set_move(colour, move)
        if comment:
            node.set("C", comment)
    if last_comment:
        previous = node.get("C") if node.has_property("C") else None
        node.set("C", f"{previous}\n\n{last_comment}" if previous else last_comment)
    return game.serialise()


def temp_prefix(pathname: str) -> str:
    """The name prefix of write_atomically()'s temporary files for pathname."""
    return f".{os.path.basename(pathname)}.tmp-"


def remove_stale_temporaries(directory: str, prefix: str = ".") -> None:
    """Delete temporary files a killed write_atomically() left in directory."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    for name in names:
        if name.startswith(prefix) and ".tmp-" in name:
            try:
                os.remove(os.path.join(directory, name))
            except OSError:
                pass


def write_atomically(pathname: str, data: bytes) -> None:
    """Write a file so that it either appears whole or not at all, and survives a power cut."""
    directory = os.path.dirname(pathname) or "."
    os.makedirs(directory, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=directory, prefix=temp_prefix(pathname))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, pathname)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
