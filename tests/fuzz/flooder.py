"""A client that floods: sits at a table, then sends frames as fast as it can until the server closes it.

Run by test_fuzz_flood.py in a process of its own (so that its sending loop
does not slow the test's own clients, whose latency is measured):

    python flooder.py WS_URL TABLE_ID MAX_SECONDS

It joins TABLE_ID (the table is in its lobby), prints ``joined`` and waits for
a line on stdin; then it sends ``ping`` and stale ``act`` frames back to back,
yielding to its loop only every 256 frames, until the connection is closed or
MAX_SECONDS pass. Last, it prints one JSON line: the close code, the frames
sent, the seconds it flooded and the ``protocol/rate_limited`` errors it got.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from meja_client import ConnectionClosed, connect, encode


async def main(url: str, table: str, max_s: float) -> None:
    # No keepalive pings of its own: the server reads a flooder only as fast as its rate limit
    # allows (backpressure), so a ping would wait behind the flood and time out on this side.
    client = await connect(url, ping_interval=None)
    await client.join(table=table, name="Flo")
    print("joined", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    frames = [
        encode({"type": "ping", "id": 1}),
        encode({"type": "act", "id": 2, "table": table, "version": 0, "action": {"kind": "draw"}}),
    ]
    sent = 0
    began = time.monotonic()
    while not client.closed and time.monotonic() - began < max_s:
        try:
            await client.send_raw(frames[sent % 2])
        except ConnectionClosed:
            break
        except AttributeError:
            # websockets (15, asyncio) aborting a transport asyncio has already closed: the
            # server closed us while a send waited for the socket to drain. Closed all the same.
            break
        sent += 1
        if sent % 256 == 0:
            await asyncio.sleep(0)
    flooded = time.monotonic() - began
    if not client.closed:
        await client.close()
    else:
        await client.wait_closed(10)
    limited = sum(1 for e in client.errors if e.get("code") == "protocol/rate_limited")
    print(json.dumps({"close": client.close_code, "reason": client.close_reason, "sent": sent,
                      "seconds": round(flooded, 2), "rate_limited": limited}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
