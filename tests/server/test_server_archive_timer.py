"""Issue 21 follow-up: a finished match's archive is written by an ``archive`` timer (a due action kept
with the table), so a process that dies between the match's ending commit and the archive write
loses nothing: another process, or the same one restarted, writes it; and the table map names the
archive only once the record says it was written."""

from __future__ import annotations

import asyncio
from typing import Any

from meja.server.archive import decode, rebuild
from meja.server.records import Table, archive_id
from server_helpers import host, match_over, play
from test_server_archive import archive_done, finished_match, replay


async def test_a_process_that_dies_before_the_archive_write_leaves_it_to_another(serve: Any, connect: Any) -> None:
    first = await serve(redis=True)
    # The first process "dies" once it holds the archive timer, before writing anything: its
    # archive write never returns (nor writes), and the process stops with it under way.
    claimed = asyncio.Event()

    async def dies(*args: Any, **kwargs: Any) -> str:
        claimed.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    first.service.archiver.keep = dies  # type: ignore[method-assign]
    ann = await connect(first)
    table = (await host(ann, seats=2, options={"preset": "house", "target": 10}))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table)
    assert match_over(ann)
    await asyncio.wait_for(claimed.wait(), 30)
    got = await first.store.load(table)
    assert got is not None
    record = Table.from_bytes(got[1])
    key = archive_id(record.seed)
    assert record.archived is None and "archive" not in ann.table
    assert await first.store.archived(key) is None, "nothing was written before the process died"
    await first.stop()

    # Another process on the same store runs the timer once the dead one's lease runs out.
    second = await serve(redis=True)
    assert await archive_done(second, None, table) == "yes"
    data = decode(await second.store.archived(key))
    assert rebuild(data).ok and data["outcome"] == record.state.outcome().to_wire()
    assert second.service.archiver.written == 1
    got = await replay(await connect(second), key, count=1)
    assert got["type"] == "replay" and got["match"]["check"]["replays"], got


async def test_a_log_past_log_keep_is_not_archived_and_the_table_map_names_no_archive(serve: Any, connect: Any) -> None:
    # Five versions kept: a whole match is far longer, so its log no longer reaches its deal.
    server = await serve(log_keep=5, max_resume_updates=5)
    ann, table, key = await finished_match(server, connect, archived="log")
    assert "archive" not in ann.table and "outcome" in ann.table
    assert server.service.archiver.skipped == 1 and server.service.archiver.written == 0
    assert await server.store.archived(key) is None
    assert (await replay(ann, key))["code"] == "archive/not_found"
    # A rematch deals a new match: its record forgets the last one's archive, and its end archives it.
    await ann.ok({"type": "rematch", "table": table})
    got = await server.store.load(table)
    assert got is not None and Table.from_bytes(got[1]).archived is None
