"""The deal-board part of the Store contract (Store.deal_record / Store.deal_plays) on every store
(the archive's environments: memory with an injected clock, a private redis-server, a Redis Cluster)."""

from __future__ import annotations

from test_store_archive import Env, env  # noqa: F401  (the fixture)


async def test_a_board_keeps_the_newest_entries_newest_first_for_another_client(env: Env) -> None:  # noqa: F811
    assert await env.store.deal_plays("ABCDE12345") == []
    for n in range(5):
        await env.store.deal_record("ABCDE12345", b"play %d" % n, keep=3, ttl_ms=60_000)
    other = env.reopen()  # type: ignore[operator]
    assert await other.deal_plays("ABCDE12345") == [b"play 4", b"play 3", b"play 2"]
    assert await other.deal_plays("ABCDE12346") == [], "each deal has its own board"


async def test_a_board_expires_after_its_last_entry(env: Env) -> None:  # noqa: F811
    # (margins of 700 ms and more on a real Redis: with 150, a loaded CI machine's calls and
    # sleeps ran past the expiry the check expects not yet)
    await env.store.deal_record("ZZZZZ00000", b"first", keep=10, ttl_ms=1500)
    await env.elapse(800)
    await env.store.deal_record("ZZZZZ00000", b"second", keep=10, ttl_ms=1500)  # restarts the expiry
    await env.elapse(800)  # past the first entry's expiry, well before the second's
    assert await env.store.deal_plays("ZZZZZ00000") == [b"second", b"first"]
    await env.elapse(1500)
    assert await env.store.deal_plays("ZZZZZ00000") == []
