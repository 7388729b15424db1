"""The checks made before a run uses a Dask cluster: the address's scheme, and the workers' code."""

from __future__ import annotations

import pytest

from ringmaster.dispatch.cluster import check_address, code_fingerprint, require_same_code
from ringmaster.errors import ClusterUnavailable


class FakeClient:
    """client.run as distributed gives it: {worker address: what the function returned there}."""

    def __init__(self, answers=None, error=None) -> None:
        self.answers = answers or {}
        self.error = error

    def run(self, function, *args, workers=None):
        if self.error is not None:
            raise self.error
        return {a: v for a, v in self.answers.items() if workers is None or a in workers}


@pytest.mark.parametrize("address", ["http://127.0.0.1:8787", "ws://127.0.0.1:8786"])
def test_only_a_schedulers_schemes_are_taken(address):
    scheme = address.split(":")[0]
    with pytest.raises(ClusterUnavailable, match=(
            rf"is not a scheduler's address: a Dask scheduler speaks tcp:// or tls://, "
            rf"not {scheme}://")):
        check_address(address)
    check_address("tcp://127.0.0.1:8786")
    check_address("127.0.0.1:8786")


def test_a_worker_with_other_ringmaster_code_is_refused():
    ours = code_fingerprint()
    assert len(ours) == 12 and code_fingerprint() == ours
    require_same_code(FakeClient({"tcp://10.0.0.2:40000": ("w1", ours)}))
    require_same_code(FakeClient({}))   # no worker yet: the run says so when it needs one
    with pytest.raises(ClusterUnavailable, match=(
            rf"^the Dask worker w2 tcp://10.0.0.3:40000 runs other ringmaster code than this one "
            rf"\(0123456789ab against {ours}\): install this ringmaster on every worker$")):
        require_same_code(FakeClient({"tcp://10.0.0.2:40000": ("w1", ours),
                                      "tcp://10.0.0.3:40000": ("w2", "0123456789ab")}))
    # One that joins during a run is checked alone, and the message says the results are kept.
    both = FakeClient({"tcp://10.0.0.2:40000": ("w1", ours), "tcp://10.0.0.3:40000": ("w2", "x")})
    require_same_code(both, ["tcp://10.0.0.2:40000"], joined=True)
    with pytest.raises(ClusterUnavailable, match=(
            r"^the Dask worker w2 tcp://10.0.0.3:40000 joined the run with other ringmaster code "
            r"than this one \(x against .*\): install this ringmaster on every worker; the "
            r"results so far are saved$")):
        require_same_code(both, ["tcp://10.0.0.3:40000"], joined=True)
    # An older worker has no code_fingerprint to run.
    with pytest.raises(ClusterUnavailable, match=r"^a Dask worker can't check its ringmaster code "
                                                 r"\(module .* has no attribute"):
        require_same_code(FakeClient(error=AttributeError(
            "module 'ringmaster.dispatch.cluster' has no attribute 'code_fingerprint'")))


@pytest.mark.integration
def test_a_peer_that_accepts_and_says_nothing_is_no_scheduler():
    # The dashboard's port, or any HTTP server: a Client made to it hung past its timeout.
    import socket
    import threading
    import time

    from ringmaster.dispatch.cluster import connect
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    started = time.monotonic()
    try:
        with pytest.raises(ClusterUnavailable, match=(
                rf"^what listens at tcp://127.0.0.1:{port} is no Dask scheduler: it sent no "
                rf"handshake within 1 s \(give the scheduler's address")):
            connect(f"tcp://127.0.0.1:{port}", timeout=1)
    finally:
        server.close()
        for conn, _ in accepted:
            conn.close()
    assert time.monotonic() - started < 10


def test_a_player_failing_on_several_workers_is_counted_once():
    from ringmaster.errors import StartupCheckFailed
    failures = ["w1 tcp://10.0.0.2:1: player q failed startup check: can't run 'myrand'",
                "w2 tcp://10.0.0.3:1: player q failed startup check: can't run 'myrand'"]
    assert str(StartupCheckFailed(failures)).startswith("1 player failed the startup check")
    failures.append("player p failed startup check: it crashed")
    assert str(StartupCheckFailed(failures)).startswith("2 players failed the startup check")


class FakeFuture:
    """A finished Dask future holding what _cluster_task returned."""

    def __init__(self, key, result) -> None:
        self.key, self._result, self.status = key, result, "finished"

    def result(self):
        return self._result

    def release(self) -> None:
        pass


class RecordingSource:
    def __init__(self) -> None:
        self.responses: list = []

    def note_host(self, job, host) -> None:
        pass

    def process_response(self, response) -> None:
        self.responses.append(response)

    def process_error_response(self, job, message) -> None:
        self.responses.append(("void", message))


def test_a_result_from_other_code_is_not_taken_and_the_others_are_before_the_run_stops():
    # Two games finish together: the first from a worker that joined with other code (or an
    # older one, which returns no digest), the second from a checked worker. The first is
    # played again when the run resumes; the second must be recorded, not thrown away.
    from ringmaster.dispatch.cluster import ClusterLoop

    class Client:
        def scheduler_info(self):
            return {"workers": {}}

    ours = code_fingerprint()
    for bad in [((True, "lost"), "w2 tcp://10.0.0.3:1", "0123456789ab"), ((True, "lost"), "w2 x")]:
        source = RecordingSource()
        loop = ClusterLoop(Client(), source, play=None, parallel=2, note=print)
        loop.deliver(FakeFuture("a", bad), job=None)
        loop.deliver(FakeFuture("b", ((True, "counted"), "w1 tcp://10.0.0.2:1", ours)), job=None)
        assert source.responses == ["counted"]
        with pytest.raises(ClusterUnavailable, match=(
                r"^the Dask worker w2 .* joined the run with other ringmaster code than this one "
                rf"\((0123456789ab|none) against {ours}\): install this ringmaster on every worker; "
                r"the results so far are saved$")):
            loop.between()
