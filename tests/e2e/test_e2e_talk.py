"""Issue 19: talk at the table through two real ``meja serve`` processes on a real redis-server.

Three people, Ann and Cat on process a and Bob on process b, and a spectator on b:

- chat lines and reactions reach every seat (across the processes), the spectator
  only the reactions until the host lets spectators read; a bot never hears any
  (it has no connection) and nothing said is a version of the table;
- refusals carry the documented codes and say nothing to anyone: a spectator's
  line, a muted seat's, a line too long, a chat line under "reactions only";
- the call: Ann and Bob join from different processes, a signal crosses to
  Bob's process and reaches Bob alone; Bob's process is killed (``kill -9``) and
  the roster drops him once his seat is marked away; Bob comes back on process a,
  rejoins the call and gets the talk history;
- what is kept lives in Redis under the table's keys and expires with it.

Cost: about 10 s.
"""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from e2e_harness import ServerProcess, servers
from meja_client import ServerError


async def test_talk_crosses_processes_and_survives_one_dying(fresh_redis, clients):
    async with servers(ServerProcess(fresh_redis, name="a"), ServerProcess(fresh_redis, name="b")) as (a, b):
        ann, bob, cat, sam = await clients(a.url), await clients(b.url), await clients(a.url), await clients(b.url)
        joined = await ann.host(name="Ann", game="kartu_terakhir", seats=4, grace_s=600)
        table = joined["table"]
        await bob.join(table=table, name="Bob")
        bob_token = bob.token
        await cat.join(table=table, name="Cat")
        await sam.watch(table=table)
        await ann.seat_to(3, "bot")
        version = ann.version

        await ann.say("shall we?")
        await bob.react("good_game")
        await cat.say("sure")
        for client in (ann, bob, cat):
            await client.wait_for(lambda c: len(c.talk_lines()) == 3, timeout=10)
            assert [line.get("text") or line.get("reaction") for line in client.talk_lines()] == [
                "shall we?", "good_game", "sure",
            ]  # fmt: skip
        await sam.wait_for(lambda c: len(c.talk_lines()) == 1, timeout=10)
        assert sam.talk_lines()[0]["reaction"] == "good_game"
        await ann.ping()
        assert ann.version == version, "talk changed the table's version"

        for attempt, code in (
            (sam.say("me too"), "auth/not_seated"),
            (cat.say("x" * 201), "talk/bad_text"),
        ):
            with pytest.raises(ServerError) as refused:
                await attempt
            assert refused.value.code == code
        # A mute holds once the change reaches the speaker's process (through Redis, within
        # milliseconds): Bob's connection sees it first, as his page would.
        await ann.mute(1)
        await bob.wait_for(lambda c: (c.table or {}).get("talk", {}).get("muted") == [1], timeout=10)
        with pytest.raises(ServerError) as refused:
            await bob.say("let me speak")
        assert refused.value.code == "talk/muted"
        await ann.mute(1, False)
        await bob.wait_for(lambda c: (c.table or {}).get("talk", {}).get("muted") == [], timeout=10)
        await ann.talk_policy(chat="reactions", spectators=True)
        with pytest.raises(ServerError) as refused:
            await cat.say("hello?")
        assert refused.value.code == "talk/off"
        await cat.react("wow")
        await sam.wait_for(lambda c: any(line.get("reaction") == "wow" for line in c.talk_lines()), timeout=10)
        await ann.talk_policy(chat="on")

        # The call: a signal from process a to Bob on process b, to Bob alone.
        ice = await ann.call(mic=True, cam=True)
        bobs = await bob.call(mic=True)
        # Ann's process knows Bob is in the call once his roster note reached it (her page sees it).
        await ann.wait_for(
            lambda c: any(m["type"] == "call" and len(m["peers"]) == 2 for m in c.messages), timeout=10
        )
        await ann.signal(1, bobs["id"], "offer", sdp=["v=0\r\n"])
        signal = await bob.wait_for(
            lambda c: next((m for m in c.messages if m["type"] == "signal"), None), timeout=10
        )
        assert (signal["from"], signal["peer"], signal["sdp"]) == (0, ice["id"], ["v=0\r\n"])
        await cat.ping()
        await sam.ping()
        assert not [m for m in cat.messages + sam.messages if m["type"] == "signal"]
        await cat.wait_for(
            lambda c: any(m["type"] == "call" and len(m["peers"]) == 2 for m in c.messages), timeout=10
        )

        # Bob's process dies: his seat goes away, and with it his place in the call.
        b.kill()
        await ann.wait_for(
            lambda c: any(m["type"] == "call" and [p["seat"] for p in m["peers"]] == [0] for m in c.messages),
            timeout=30,
        )
        again = await clients(a.url)
        await again.resume(table=table, token=bob_token)
        await again.wait_for(lambda c: len(c.talk_lines()) >= 4, timeout=10)
        assert [line.get("text") or line.get("reaction") for line in again.talk_lines()][:3] == [
            "shall we?", "good_game", "sure",
        ]  # fmt: skip
        back = await again.call(mic=True)
        assert back["id"] != bobs["id"]
        await ann.wait_for(
            lambda c: any(m["type"] == "call" and [p["seat"] for p in m["peers"]] == [0, 1] for m in c.messages),
            timeout=10,
        )

        # What is kept lives under the table's keys and expires with them.
        url, _, prefix = fresh_redis.partition("?prefix=")
        store = aioredis.Redis.from_url(url)
        try:
            talk_keys = [k async for k in store.scan_iter(match=f"{prefix}*{table}:talk")]
            record_keys = [k async for k in store.scan_iter(match=f"{prefix}*{table}:rec")]
            assert len(talk_keys) == 1 and len(record_keys) == 1
            assert await store.llen(talk_keys[0]) >= 4
            ttl_talk, ttl_record = await store.pttl(talk_keys[0]), await store.pttl(record_keys[0])
            assert ttl_talk > 0 and abs(ttl_talk - ttl_record) < 60_000
        finally:
            await store.aclose()


async def test_returns_to_a_seat_are_counted_across_real_processes(fresh_redis, clients):
    """Issue 25, finding 1, through real processes: a seat resumed from new connections,
    alternating between two ``meja serve`` processes, is bounded by the store's count."""
    env = {"MEJA_SEAT_RESUMES_PER_MIN": "6", "MEJA_TABLE_CHANGES_BURST": "100"}
    async with servers(
        ServerProcess(fresh_redis, name="a", env=env), ServerProcess(fresh_redis, name="b", env=env)
    ) as (a, b):
        ann, bob = await clients(a.url), await clients(b.url)
        joined = await ann.host(name="Ann", seats=2)
        await bob.join(table=joined["table"], name="Bob")
        codes = []
        for n in range(8):
            again = await clients((a if n % 2 else b).url)
            try:
                await again.resume(table=joined["table"], token=bob.token)
                codes.append("ok")
            except ServerError as exc:
                codes.append(exc.code)
        assert codes == ["ok"] * 6 + ["limit/exceeded"] * 2, codes
