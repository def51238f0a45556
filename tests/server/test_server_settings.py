"""Settings: every limit named, defaulted, documented with its unit; read from MEJA_* and flags."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from meja.server.app import lan_address
from meja.server.settings import Settings, SettingsError, settings_table
from server_helpers import host


def test_defaults_are_the_documented_ones() -> None:
    s = Settings.from_env({})
    assert (s.host, s.port, s.redis_url, s.grace_s, s.turn_limit_s) == ("127.0.0.1", 8000, None, 60, None)
    assert (s.max_frame_bytes, s.rate_per_s, s.rate_burst) == (32768, 20.0, 40)
    assert (s.bot_delay_min_ms, s.bot_delay_max_ms, s.hold_delay_ms, s.ready_timeout_s) == (600, 1200, 1000, 30)


def test_every_setting_has_a_unit_and_a_meaning() -> None:
    for f in dataclasses.fields(Settings):
        assert f.metadata["unit"] and len(f.metadata["doc"]) > 10, f.name
    table = settings_table()
    assert table.count("\n") == len(dataclasses.fields(Settings)) + 1
    assert "`MEJA_GRACE_S`" in table and "`MEJA_BOT_DELAY_MIN_MS`" in table


def test_environment_and_overrides() -> None:
    env = {
        "MEJA_GRACE_S": "90",
        "MEJA_RATE_PER_S": "2.5",
        "MEJA_TRUST_PROXY": "yes",
        "MEJA_REDIS_URL": "redis://r:6379/0",
        "MEJA_PORT": "",  # empty: the default
        "MEJA_TURN_LIMIT_S": "0",  # 0: no limit
        "OTHER": "ignored",
    }
    s = Settings.from_env(env, port=9000, redis_url=None)
    assert (s.grace_s, s.rate_per_s, s.trust_proxy, s.redis_url, s.port, s.turn_limit_s) == (
        90, 2.5, True, "redis://r:6379/0", 9000, None,
    )  # fmt: skip
    assert Settings.from_env({"MEJA_TURN_LIMIT_S": "45"}).turn_limit_s == 45


@pytest.mark.parametrize(
    "env",
    [
        {"MEJA_PORT": "eighty"},
        {"MEJA_PORT": "70000"},
        {"MEJA_TRUST_PROXY": "maybe"},
        {"MEJA_GRACE_S": "-1"},
        {"MEJA_GRACE_S": "5000"},
        {"MEJA_BOT_DELAY_MIN_MS": "900", "MEJA_BOT_DELAY_MAX_MS": "100"},
        {"MEJA_HEARTBEAT_TTL_S": "1"},
        {"MEJA_PUBLIC_ORIGIN": "cards.example.org"},
        {"MEJA_TURN_LIMIT_S": "2"},
    ],
)
def test_bad_values_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError):
        Settings.from_env(env)


def test_invite_links_use_the_public_origin() -> None:
    assert Settings(public_origin="https://cards.example.org/").invite_link("K7M2QX") == (
        "https://cards.example.org/?join=K7M2QX"
    )
    assert Settings(host="0.0.0.0", port=8080).origin == "http://127.0.0.1:8080"
    assert Settings(host="::1", port=8080).origin == "http://[::1]:8080"


def test_codec_limits_follow_the_settings() -> None:
    limits = Settings(max_frame_bytes=1000, max_depth=3).codec_limits
    assert (limits.max_frame_bytes, limits.max_depth) == (1000, 3)


async def test_a_server_on_every_interface_invites_by_its_network_address(serve: Any, connect: Any) -> None:
    """Bound to 0.0.0.0 with no public origin, links name the address a phone in the room can open."""
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback")
    server = await serve(host="0.0.0.0", public_origin=None)
    ann = await connect(f"ws://127.0.0.1:{server.port}/ws")
    joined = await host(ann, seats=2)
    assert ann.table is not None and ann.table["link"] == f"http://{lan}:{server.port}/?join={joined['code']}"
    # Where the operator names the origin, it wins; bound to loopback, links stay on loopback.
    named = await serve(host="0.0.0.0", public_origin="https://cards.example.org")
    assert named.settings.origin == "https://cards.example.org"
    local = await serve(public_origin=None)
    assert local.settings.public_origin is None and local.settings.origin.startswith("http://127.0.0.1:")
