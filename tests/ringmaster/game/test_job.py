"""What an engine is started with: the game id, its slot, and a service token only if allowed."""

from __future__ import annotations

from ringmaster.game.job import PlayerSpec, engine_environment
from ringmaster.gtp.launch import SERVICE_TOKEN_VARIABLE


def test_only_a_player_allowed_shared_services_gets_the_runs_token(monkeypatch):
    monkeypatch.setenv(SERVICE_TOKEN_VARIABLE, "inherited")   # never passed on
    plain = PlayerSpec("p", ("engine",), environ=((SERVICE_TOKEN_VARIABLE, "forged"),))
    trusted = PlayerSpec("t", ("engine",), shared_services=True)
    assert SERVICE_TOKEN_VARIABLE not in engine_environment(plain, "0_1", None, "secret")
    assert engine_environment(trusted, "0_1", 2, "secret")[SERVICE_TOKEN_VARIABLE] == "secret"
    assert SERVICE_TOKEN_VARIABLE not in engine_environment(trusted, "0_1", 2, None)
    env = engine_environment(plain, "0_1", 2)
    assert (env["RINGMASTER_GAME_ID"], env["RINGMASTER_SLOT"]) == ("0_1", "2")
