"""A shared inference server: one process per (model, device) batches requests from many engine processes.

Engines connect over a Unix socket whose name is derived from the model file and
the device, so `--parallel 8` games load the network onto a GPU once. The first
engine to need a server starts it (under a file lock); the server exits after
it has had no clients for `idle_seconds`, so it ends at most that long after the
last engine using it (and so the last ringmaster running such engines) has ended.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Client, Connection, Listener, wait
from pathlib import Path
from typing import IO

import numpy as np

from players.errors import ServerError
from ringmaster.gtp.launch import SERVICE_TOKEN_VARIABLE, SHARED_SERVICE_VARIABLE

_AUTHKEY = b"players-nets-server"


def server_address(model_path: str | Path, device: str) -> str:
    """The socket path for a model file (by path, size and mtime) on a device."""
    path = Path(model_path).resolve()
    stat = path.stat()
    key = f"{path}|{stat.st_size}|{stat.st_mtime_ns}|{device}|{os.getuid()}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"players-az-{digest}.sock")


class RemotePredictor:
    """A Predictor whose network lives in a server process."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.conn: Connection = Client(address, family="AF_UNIX", authkey=_AUTHKEY)

    def predict(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.conn.send(np.ascontiguousarray(planes, dtype=np.float32))
        reply = self.conn.recv()
        if isinstance(reply, str):
            raise RuntimeError(f"inference server: {reply}")
        return reply

    def close(self) -> None:
        self.conn.close()


def connect_or_start(model_path: str | Path, device: str, idle_seconds: float = 30.0,
                     start_timeout: float = 120.0, threads: int = 1) -> RemotePredictor:
    """Connect to the server for (model, device), starting it if none is running.

    A server this call starts runs torch on `threads` CPU threads (see main()).
    Raises ServerError (a RuntimeError) if a server can't be reached within start_timeout.
    """
    address = server_address(model_path, device)
    try:
        return RemotePredictor(address)
    except OSError:
        pass
    with take_lock(address + ".lock"):
        try:
            return RemotePredictor(address)
        except OSError:
            pass
        if os.path.exists(address):
            os.unlink(address)   # a stale socket from a server that died
        # Its own session, and none of the engine's pipes: the ringmaster must not wait for
        # it. The run's token, where the ringmaster gave this engine one, tells its reaper
        # to leave the server running for other engines: it ends by itself idle_seconds
        # after its last client has gone. Without one it ends with this engine's game.
        subprocess.Popen(
            [sys.executable, "-m", "players.nets.server", "--model", str(model_path),
             "--device", device, "--address", address, "--idle-seconds", str(idle_seconds),
             "--threads", str(threads)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True,
            env={**os.environ, SHARED_SERVICE_VARIABLE: os.environ.get(SERVICE_TOKEN_VARIABLE, "")})
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline:
            try:
                return RemotePredictor(address)
            except OSError:
                time.sleep(0.1)
    raise ServerError(f"no inference server at {address} after {start_timeout}s")


def take_lock(path: str) -> IO:
    """The start-up lock of a server's address: path, open and flock'ed; close it to release.

    A server removes the lock file as it exits, holding the lock. Whoever was
    waiting on the file it removed then holds a lock that no one else will
    see, so it takes the lock again on the file now at path (creating it),
    until the file it holds is the one there.
    """
    while True:
        lock = open(path, "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            there = os.stat(path)
        except FileNotFoundError:
            there = None
        held = os.fstat(lock.fileno())
        if there is not None and (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino):
            return lock
        lock.close()


class InferenceServer:
    """Serves one predictor; each loop batches every request that is waiting."""

    def __init__(self, predictor, address: str, idle_seconds: float) -> None:
        self.predictor = predictor
        self.address = address
        self.idle_seconds = idle_seconds
        self.listener = Listener(address, family="AF_UNIX", authkey=_AUTHKEY)
        self.clients: list[Connection] = []
        self.lock = threading.Lock()
        self.last_client = time.monotonic()
        self.batches = 0
        self.positions = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.clients.append(conn)

    def serve_forever(self) -> None:
        """Serve until idle for idle_seconds; then remove the socket and its lock file.

        The server leaves under the start-up lock (take_lock), so that no engine
        is starting a server for this address meanwhile; a client that came
        while it took the lock keeps it serving.
        """
        lock = None
        try:
            while True:
                with self.lock:
                    clients = list(self.clients)
                if not clients:
                    if time.monotonic() - self.last_client <= self.idle_seconds:
                        time.sleep(0.05)
                        continue
                    lock = take_lock(self.address + ".lock")
                    with self.lock:
                        if not self.clients:
                            return
                    lock.close()
                    lock = None
                    continue
                self.last_client = time.monotonic()
                self.serve_once(wait(clients, timeout=0.5))
        finally:
            if lock is None:
                lock = take_lock(self.address + ".lock")
            try:
                self.listener.close()
                for path in (self.address, self.address + ".lock"):
                    if os.path.exists(path):
                        os.unlink(path)
            finally:
                lock.close()

    def serve_once(self, ready: list) -> None:
        """Read one request from each ready client, run them as one batch, reply to each."""
        requests: list[tuple[Connection, np.ndarray]] = []
        for conn in ready:
            try:
                requests.append((conn, conn.recv()))
            except (EOFError, OSError):
                with self.lock:
                    self.clients.remove(conn)
                conn.close()
        if not requests:
            return
        sizes = [len(planes) for _, planes in requests]
        try:
            logits, values = self.predictor.predict(np.concatenate([p for _, p in requests]))
        except Exception as exc:  # report to the clients rather than die silently
            for conn, _ in requests:
                conn.send(f"{type(exc).__name__}: {exc}")
            return
        self.batches += 1
        self.positions += sum(sizes)
        start = 0
        for (conn, _), size in zip(requests, sizes):
            try:
                conn.send((logits[start:start + size], values[start:start + size]))
            except OSError:
                pass
            start += size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players.nets.server",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--address", default=None)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    # torch's default, a thread per core, is ruinous on a busy machine: each batch's
    # threads wait for one another's time slices (on 2 loaded cores a batch of one
    # took 475 ms with 2 threads against 2.5 ms with 1).
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    options = parser.parse_args(argv)
    from players.nets.checkpoint import load_checkpoint
    from players.nets.inference import LocalPredictor, resolve_device, set_threads
    set_threads(options.threads)
    device = resolve_device(options.device)
    model, _ = load_checkpoint(options.model, device)
    address = options.address or server_address(options.model, options.device)
    InferenceServer(LocalPredictor(model, device), address, options.idle_seconds).serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
