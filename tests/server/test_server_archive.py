"""Issue 21, part 1-2: a finished match is archived, outlives its table and the server, and is fetched
with ``replay`` (PROTOCOL.md 18); nothing of a match in progress comes out of an archive request."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import pytest
import redis
from meja.server.archive import decode, rebuild
from meja.server.records import Table, archive_id
from server_helpers import host, match_over, play

STORES = ["memory", "redis"]


async def archive_done(server: Any, wire: Any, table: str) -> str:
    """Wait for the finished match's ``archive`` timer to have run: what the table record's
    ``archived`` says then (``yes``, or why not), once ``wire`` has read that version if it
    changed the table map (a skipped archive changes nothing a client sees: no update); ``wire``
    None: nobody watches."""
    async with asyncio.timeout(30):
        while True:
            got = await server.store.load(table)
            assert got is not None
            archived = Table.from_bytes(got[1]).archived
            if archived is not None:
                break
            await asyncio.sleep(0.02)
        while wire is not None and archived == "yes" and wire.version < got[0]:
            await wire.recv()
    return str(archived)


async def finished_match(server: Any, connect: Any, *, archived: str = "yes", **options: Any) -> tuple[Any, str, str]:
    """Ann and a bot play a short match to its end: (Ann's wire, table id, archive id). The archive
    is written (or skipped: ``archived`` says why) by the timer the ending commit set."""
    ann = await connect(server)
    table = (await host(ann, seats=2, options={"preset": "house", "target": 10, **options}))["table"]
    await ann.ok({"type": "start", "table": table})
    # While the match is on, the table map names no archive.
    assert "archive" not in ann.table
    await play(ann, table)
    assert match_over(ann)
    assert await archive_done(server, ann, table) == archived
    got = await server.store.load(table)
    key = archive_id(Table.from_bytes(got[1]).seed)
    # The table map names the archive exactly when it was written.
    assert ann.table.get("archive") == (key if archived == "yes" else None), ann.table
    return ann, table, key


async def replay(wire: Any, key: str, **fields: Any) -> dict[str, Any]:
    return await wire.request({"type": "replay", "archive": key, **fields})


@pytest.mark.parametrize("store", STORES)
async def test_a_finished_match_replays_step_by_step_from_any_seat(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann, _, key = await finished_match(server, connect)
    got = await replay(ann, key, seat=0)
    assert got["type"] == "replay" and got["archive"] == key, got
    match = got["match"]
    assert match["check"] == {"replays": True, "at": None}
    assert 'meja_archives{result="written"} 1.0' in (await server.metrics.render()).decode()
    assert match["steps"] == match["moves"] + 1 and match["moves"] > 10
    assert [s["name"] for s in match["seats"]] == ["Ann", ann.table["seats"][1]["name"]]
    assert match["outcome"]["scores"] == ann.view["scores"]
    assert "seed" not in match
    # Every round's commitment opens with its revealed code and salt.
    assert match["rounds"] and all(
        hashlib.sha256(f"{r['code']}:{r['salt']}".encode()).hexdigest() == r["hash"] for r in match["rounds"]
    )
    steps = got["steps"]
    assert [s["n"] for s in steps] == list(range(min(50, match["steps"])))
    assert "action" not in steps[0] and steps[1]["seat"] in (0, 1) and "kind" in steps[1]["action"]
    assert steps[0]["view"]["hand"] is not None and steps[0]["view"]["seat"] == 0
    # The last step, from Ann's seat, is what Ann's page showed at the end.
    last = (await replay(ann, key, seat=0, first=match["steps"] - 1))["steps"]
    assert len(last) == 1 and last[0]["view"] == ann.view
    # Another seat's view, a spectator's, and every hand open.
    bob = (await replay(ann, key, seat=1, count=1))["steps"][0]
    assert bob["view"]["seat"] == 1 and bob["view"]["hand"] != steps[0]["view"]["hand"]
    watcher = (await replay(ann, key, count=1))["steps"][0]
    assert watcher["view"]["hand"] is None and got["seat"] == 0
    # A seat the match did not have is refused, not read as a spectator's (a hostile player's finding).
    for wrong in (2, 9):
        assert (await replay(ann, key, seat=wrong, count=1))["code"] == "seat/bad_seat"
    opened = await replay(ann, key, open=True, count=2)
    assert opened["open"] and [v["seat"] for v in opened["steps"][0]["views"]] == [0, 1]
    assert opened["steps"][0]["views"][1]["hand"] == bob["view"]["hand"]


async def test_an_archive_outlives_its_table(serve: Any, connect: Any) -> None:
    server = await serve(finished_ttl_s=1)
    _, table, key = await finished_match(server, connect)
    await asyncio.sleep(1.3)
    assert await server.store.load(table) is None, "the finished table has expired"
    other = await connect(server)
    assert (await replay(other, key, count=1))["type"] == "replay"


async def test_an_archive_survives_a_server_restart_on_redis(serve: Any, connect: Any) -> None:
    server = await serve(redis=True)
    _, _, key = await finished_match(server, connect)
    await server.stop()
    again = await serve(redis=True)
    got = await replay(await connect(again), key, count=1)
    assert got["type"] == "replay" and got["match"]["check"]["replays"], got


async def test_guessed_malformed_and_unfinished_ids_are_not_found_and_lookups_are_limited(
    serve: Any, connect: Any
) -> None:
    server = await serve(code_attempts=5)
    ann, _, key = await finished_match(server, connect)
    assert (await replay(ann, key, count=1))["type"] == "replay"  # Ann opens it (one lookup)
    eve = await connect(server)  # from the same address as Ann
    for guess in ("A" * 22, "not an id", "x{y}", key[:-1] + ("A" if key[-1] != "A" else "B")):
        refused = await replay(eve, guess)
        assert refused["type"] == "error" and refused["code"] == "archive/not_found", refused
    bad = await eve.request({"type": "replay", "archive": 7})
    assert bad["code"] == "protocol/bad_message"
    # Room codes and archive ids share one budget per address: past it, even a real id is refused.
    assert (await replay(eve, "B" * 22))["code"] == "table/code_rate_limited"
    assert (await replay(eve, key))["code"] == "table/code_rate_limited"
    # A connection that found an archive pages through it without spending the budget.
    for first in range(0, 12):
        assert (await replay(ann, key, first=first, count=1))["type"] == "replay"


async def test_a_match_in_progress_has_no_archive(serve: Any, connect: Any) -> None:
    server = await serve()
    ann = await connect(server)
    table = (await host(ann, seats=2, options={"preset": "house", "target": 10}))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=lambda w: w.version >= 12)
    current = await server.store.load(table)
    assert current is not None

    # Even the id the match will have (derived from its secret seed) finds nothing yet.
    early = archive_id(Table.from_bytes(current[1]).seed)
    refused = await replay(ann, early)
    assert refused["type"] == "error" and refused["code"] == "archive/not_found"
    assert all("archive" not in m.get("table", {}) for m in ann.seen if isinstance(m.get("table"), dict))
    await play(ann, table)
    assert await archive_done(server, ann, table) == "yes"
    assert ann.table["archive"] == early
    assert (await replay(ann, early, count=1))["type"] == "replay"


async def test_a_store_past_archive_full_pct_archives_nothing(serve: Any, connect: Any, redis_servers: Any) -> None:
    server_redis = redis_servers(extra=("--maxmemory-policy", "noeviction"))
    raw = redis.Redis.from_url(server_redis.url)
    used = int(raw.info("memory")["used_memory"])
    # About 30% used: past archive_full_pct (20), far below store_full_pct (90). (At 55% of a small
    # maxmemory the server's own connections and a match's writes could reach the limit itself on a
    # loaded machine, and Redis refused a move: a CI run failed so.)
    raw.config_set("maxmemory", used * 100 // 30)
    server = await serve(redis_url=server_redis.url, memory_check_s=0.05, archive_full_pct=20, store_full_pct=90)
    await asyncio.sleep(0.2)
    ann, _, key = await finished_match(server, connect, archived="full")  # new tables are still accepted
    assert (await replay(ann, key))["code"] == "archive/not_found"
    assert server.service.archiver.skipped == 1 and server.service.archiver.written == 0
    scraped = (await server.metrics.render()).decode()
    assert 'meja_archives{result="skipped"} 1.0' in scraped and 'meja_archives{result="written"} 0.0' in scraped
    raw.close()


async def test_a_changed_stored_action_is_caught_by_the_check(serve: Any, connect: Any) -> None:
    server = await serve()
    _, _, key = await finished_match(server, connect)
    data = decode(await server.store.archived(key))
    assert rebuild(data).ok
    seat, action = data["actions"][-1]
    legal = rebuild({**data, "actions": data["actions"][:-1]}).states[-1].legal_actions(seat)
    other = next((a.to_wire() for a in legal if a.to_wire() != action), None)
    changed = rebuild({**data, "actions": [*data["actions"][:-1], [seat, other or {"kind": "nonsense"}]]})
    assert not changed.ok
    data["actions"][3] = [data["actions"][3][0], {"kind": "nonsense"}]
    broken = rebuild(data)
    assert broken.broken_at == 4 and not broken.ok and len(broken.states) == 4


async def test_meja_replay_prints_the_moves_as_text(serve: Any, connect: Any) -> None:
    import sys

    server = await serve(redis=True)
    _, _, key = await finished_match(server, connect)
    data = decode(await server.store.archived(key))
    url = server.settings.redis_url

    async def meja(*args: str) -> tuple[int, str, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "meja.cli",
            "replay",
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await proc.communicate()
        assert proc.returncode is not None
        return proc.returncode, out.decode(), err.decode()

    # (after "--": one id in 32 begins with "-", which argparse would read as an option)
    code, out, err = await meja("--redis", url, "--", key)
    assert code == 0, (out, err)
    lines = out.splitlines()
    assert lines[0].startswith("crazy_eights ") and "seat 0 Ann" in lines[1]
    moves = [line for line in lines if line.startswith("  ") and ". seat " in line]
    assert len(moves) == len(data["actions"])
    first_seat, first_action = data["actions"][0]
    assert f"1. seat {first_seat} " in moves[0] and first_action["kind"] in moves[0]
    assert any(line.startswith("round 1: deal ") and line.endswith("commitment opens") for line in lines)
    assert lines[-1].startswith("check: the rules replay every move")
    code, _, err = await meja("A" * 22, "--redis", url)
    assert code == 1 and "no finished match" in err
