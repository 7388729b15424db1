"""Tests for the shared inference server: batching across clients, and one server per model and device."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest
import torch

from players.games.othello import Othello
from players.nets import server as server_module
from players.nets.checkpoint import save_checkpoint
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor
from players.nets.model import NetConfig, PolicyValueNet
from players.nets.server import InferenceServer, RemotePredictor, connect_or_start, server_address
from ringmaster.gtp.launch import SERVICE_TOKEN_VARIABLE
from ringmaster.reaper import is_shared_service, new_service_token
from tests.conftest import gone_within, processes_mentioning

torch.set_num_threads(1)  # small nets: more threads only contend on 2 shared cores


def tiny_net() -> PolicyValueNet:
    torch.manual_seed(0)
    return PolicyValueNet(NetConfig("othello6", 6, 3, 37, channels=8, blocks=1, value_hidden=16)).eval()


def planes(count: int, seed: int) -> np.ndarray:
    game = Othello(6)
    rng = np.random.default_rng(seed)
    states, state = [], game.initial_state()
    for _ in range(count):
        states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return encoder_for(game).encode(states)


class CountingPredictor(LocalPredictor):
    def __init__(self, model) -> None:
        super().__init__(model)
        self.sizes: list[int] = []

    def predict(self, x):
        self.sizes.append(len(x))
        time.sleep(0.05)   # long enough that the other clients' requests queue up
        return super().predict(x)


def test_server_batches_requests_from_several_clients(tmp_path):
    model = tiny_net()
    local = LocalPredictor(model)
    counting = CountingPredictor(tiny_net())
    address = str(tmp_path / "s.sock")
    server = InferenceServer(counting, address, idle_seconds=0.5)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    results: dict[int, tuple] = {}
    inputs = {k: planes(5 + k, seed=k) for k in range(4)}

    def client(k: int) -> None:
        remote = RemotePredictor(address)
        results[k] = tuple(remote.predict(inputs[k]) for _ in range(3))
        remote.close()

    workers = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=30)
    for k in range(4):
        want_logits, want_values = local.predict(inputs[k])
        for logits, values in results[k]:
            assert np.allclose(logits, want_logits, atol=1e-5)
            assert np.allclose(values, want_values, atol=1e-5)
    assert server.positions == sum(3 * len(x) for x in inputs.values())
    assert server.batches < 12 and max(counting.sizes) > 8   # some calls served several clients
    thread.join(timeout=10)
    assert not thread.is_alive()            # idle: the server stopped by itself
    assert not os.path.exists(address)


@pytest.mark.integration
def test_engines_share_one_server_process(tmp_path, no_leftover_processes, monkeypatch):
    # The engine was given its run's token (Player(..., shared_services=True)).
    monkeypatch.setenv(SERVICE_TOKEN_VARIABLE, new_service_token())
    model_path = tmp_path / "m.pt"
    save_checkpoint(model_path, tiny_net())
    address = server_address(model_path, "cpu")
    assert address == server_address(model_path, "cpu") != server_address(model_path, "cuda")
    first = connect_or_start(model_path, "cpu", idle_seconds=1.0, threads=1)
    second = connect_or_start(model_path, "cpu", idle_seconds=1.0, threads=1)
    servers = processes_mentioning(str(model_path))
    assert len(servers) == 1
    server = servers.pop()
    with open(f"/proc/{server}/cmdline", "rb") as f:
        assert b"\0--threads\x001\0" in f.read()   # the engine's thread count, not torch's default
    # It holds none of the engine's pipes (so the ringmaster never waits for it), and
    # the ringmaster's reaper leaves it to end by itself.
    assert all(os.readlink(f"/proc/{server}/fd/{fd}") == "/dev/null" for fd in (0, 1, 2))
    assert is_shared_service(server)
    try:
        x = planes(7, seed=9)
        a, b = first.predict(x), second.predict(x)
        assert np.allclose(a[0], b[0]) and np.allclose(a[1], b[1])
        assert np.allclose(a[0], LocalPredictor(tiny_net()).predict(x)[0], atol=1e-5)
        assert first.address == second.address == address
    finally:
        first.close()
        second.close()
    assert gone_within(address, 20)         # the server went away once both engines had gone


def test_remote_reports_server_errors(tmp_path):
    class Broken:
        def predict(self, x):
            raise ValueError("bad input")
    address = str(tmp_path / "b.sock")
    server = InferenceServer(Broken(), address, idle_seconds=0.3)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    remote = RemotePredictor(address)
    with pytest.raises(RuntimeError, match="bad input"):
        remote.predict(planes(2, seed=1))
    remote.close()
    thread.join(timeout=10)


def test_the_server_runs_torch_on_the_threads_it_is_given(tmp_path, monkeypatch):
    model_path = tmp_path / "m.pt"
    save_checkpoint(model_path, tiny_net())
    seen: list[int] = []
    monkeypatch.setattr(InferenceServer, "serve_forever", lambda self: seen.append(torch.get_num_threads()))
    monkeypatch.setattr(InferenceServer, "__init__", lambda self, *args: None)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        assert server_module.main(["--model", str(model_path), "--device", "cpu",
                                   "--address", str(tmp_path / "s.sock")]) == 0
        torch.set_num_threads(2)
        server_module.main(["--model", str(model_path), "--device", "cpu",
                            "--address", str(tmp_path / "s.sock"), "--threads", "3"])
    finally:
        torch.set_num_threads(before)
    assert seen == [1, 3]   # one by default


def test_an_idle_server_removes_its_socket_and_lock_file(tmp_path):
    address = str(tmp_path / "s.sock")
    with server_module.take_lock(address + ".lock"):       # as an engine starting it leaves it
        pass
    server = InferenceServer(LocalPredictor(tiny_net()), address, idle_seconds=0.2)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    remote = RemotePredictor(address)
    remote.predict(planes(2, seed=3))
    remote.close()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert not os.path.exists(address) and not os.path.exists(address + ".lock")


def test_a_lock_taken_on_a_removed_lock_file_is_taken_again_on_the_new_one(tmp_path):
    """An engine waiting on the lock file that an exiting server removes must not start a
    server beside one that another engine, which took the lock on the new file, starts."""
    path = str(tmp_path / "s.sock.lock")
    first = server_module.take_lock(path)
    taken: list = []
    waiter = threading.Thread(target=lambda: taken.append(server_module.take_lock(path)))
    waiter.start()
    time.sleep(0.2)
    assert not taken                                     # it waits on the file first holds
    os.unlink(path)                                      # the server leaves under the lock
    first.close()
    waiter.join(timeout=10)
    assert os.fstat(taken[0].fileno()).st_ino == os.stat(path).st_ino
    taken[0].close()
