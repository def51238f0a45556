"""RedisStore: the Store contract over Redis, shared by any number of server processes.

Key names come from :mod:`meja.store.keys` (its docstring has the layout, and
why it fits one Redis and a Redis Cluster alike). On one Redis every operation
is one round trip; the ones that must be atomic are Lua scripts, run with
EVALSHA (redis-py's script object loads the script on ``NOSCRIPT`` and tries
again, which only happens once per script and server):

- **create**: one script: ``SET NX`` on the room code, then the record hash and
  the first log item, all with the table's expiry. Fails if the id or the code
  is taken.
- **commit**: one script, one round trip: check the version, write record and
  version, append the log item, apply ``cancel`` then ``schedule`` to the due
  set, refresh the expiry of the table keys and the room code, and PUBLISH (on a
  cluster SPUBLISH) on the table's channel the version, its log entry and the record, as a
  delta against the version before it where this process knows that one (see "Publishing a
  delta"), so a subscriber does not read back. On one Redis the call goes down a lean pipelined
  connection (:mod:`meja.store.lane`, a tenth of redis-py's client CPU per call)
  and through redis-py whenever the lane cannot carry it (NOSCRIPT, a lost or
  silent connection): the same call, the same nonce.
- **claim_due**: one script: ``ZRANGEBYSCORE -inf now LIMIT 0 limit``, then
  ``ZADD`` each claimed member at ``now + lease``.

On a Redis Cluster
------------------
``redis+cluster://host:port[,host:port...]`` (see :class:`RedisStore`) makes the
commands go through redis-py's ``RedisCluster``: each to the master of its keys'
slot (a script's keys are always in one slot: one bucket), following ``MOVED``
and ``ASK`` and refreshing its map of the slots after a failure. Everything
about one table is the same as on one Redis, create and commit included: one
script call. What spans all tables spans the 16 buckets' due sets, on every
master:

- **claim_due**: a peek at every due set (``ZRANGEBYSCORE ... LIMIT 0 limit``,
  pipelined: one round trip to each master, in parallel), then, for the earliest
  ``limit`` items seen, a lease script per bucket concerned (in parallel) that
  leases each item only if it is still due at the time seen. Two round trips; at
  most ``limit`` claimed; an item another process claimed meanwhile is skipped.
- **next_due_ms**, **due_counts**: one pipelined command per due set;
  **shift_due**: its script on each due set, in parallel.
- **finish_due**: a script (ZREM, HDEL) in the bucket of the table id the key
  starts with (the server's keys are ``<table>|...``); if the key was not there, in
  every bucket.
- **create** refuses (``ValueError``) a table id that is not in its code's bucket.

Pub/sub on a cluster is sharded (``sharded_pubsub``, the default): a plain PUBLISH is
copied to every node over the cluster bus, so each move would cost every master a
copy of the record and adding masters would add traffic, not capacity; ``SPUBLISH``
stays inside the shard that owns the channel's slot (the master, and its replicas),
and a table's channel carries its bucket's hash tag. So the commit and publish
scripts ``SPUBLISH``, and the listener holds one connection per bucket (16, opened
as tables are subscribed) to the master of that bucket's slot, where it
``SSUBSCRIBE``s that bucket's tables. A broken connection, or a ``sunsubscribe``
from Redis (the slot moved to another master: a failover, a resharding), makes that
bucket's connection ask the cluster for the slot's master again, resubscribe there
and resync, as below. With ``sharded_pubsub=False`` (the benchmark's comparison) the
listener holds one connection to any one node and each new connection goes to the
next node (so a dead node is passed over). The resync
read is a script per bucket (each table's record and last log item together).
redis-py refuses EVALSHA in a cluster pipeline, so calls in parallel are
separate requests in flight at once, not one pipeline.

Publishing a delta
------------------
A move changes a few fields of a record of 2-4 KB, and every process subscribed to the table
(and, on a cluster, the master's replica) gets what a commit publishes. So the store keeps the
last record it knows of each table (the one it created, committed, loaded or heard: mostly the
very bytes the server keeps anyway, for the tables it subscribes to; of others, the last
``_UNSUBSCRIBED_BASES`` changed; and a few versions of one whose own commits run ahead of their
changes heard back), and a commit at version ``v`` whose
record at ``v - 1`` it knows publishes msgpack ``[SCHEMA, v, nil, entry, delta]``, where the
delta is :mod:`meja.store.delta`'s (the record compressed with the previous one as zlib's preset
dictionary: exact, and refused on any other base); else, or when the delta would not be smaller,
``[SCHEMA, v, record, entry]`` as before. On one Redis the script also answers how many
subscribers the publish reached: where that was no other process (one connection, its own, or
none), the next commit of the table makes no delta (about 30 µs of CPU a commit, and its own
listener's decompression) and publishes no record either: its entry with a one-byte delta that
applies to no base (``_UNHEARD``). Its own listener takes the record it committed; a process that
subscribes meanwhile reads the record once (as for any delta without its base), and the commit
after hears it and publishes deltas again. (A cluster counts only the
subscribers of the node it publishes on: there, every commit makes its delta.) A subscriber
makes the record from its own copy of ``v - 1`` (or takes its own commit's); one that has no
such copy, or another record at that version, reads the record and the last log item (one
script, :meth:`RedisStore._read_missed`) before the next message: still at ``v``, the change as
published; moved on, a resync ``Change`` of what it read (the versions between are skipped, as
after a reconnection). The log and the record in Redis are unchanged: only what crosses pub/sub
is smaller.

Retries are safe. Commands ride over a short outage such as a Redis restart:
redis-py retries after a connection error or timeout (10 times, jittered
exponential backoff capped at 1 s, a few seconds in all; then the
``redis.exceptions.ConnectionError`` reaches the caller). A commit or create
whose reply was lost would then fail its own check on the retry, so each write
carries a random nonce, kept in the record hash (``n``: the nonces of the
table's last 16 writes): a retry that finds its own nonce there answers
``True``, even when the table has moved on since (after an outage another
process's commit may land before the retry does; answering ``False`` would
make the server refuse, as stale, a move it had in fact applied).
(``hit`` may count a retried event twice; ``claim_due`` may lease an item whose
reply was lost, which then falls due again after its lease: at-least-once.)

Durable commits
---------------
Replication is asynchronous: a master that acknowledged a commit and died before its
replica had it would take the commit with it, and the replica promoted in its place
never heard of it. So a commit returns ``True`` only once a replica has it, where the
master has replicas: after the commit script, one pipeline on one connection to the
table's master (the plain client of that node, on a cluster) runs a barrier script,
``ROLE`` and ``WAIT 1 replica_wait_ms``. The barrier checks that the commit's nonce is in
the record's history and writes (the record's expiry, set again): a master's replication
stream is one ordered stream, so a replica that has the barrier's write has the commit
before it, and ``WAIT`` counts the replicas that have everything this connection wrote.
The barrier runs wherever the slot lives now, so it also notices a commit lost in a
failover between the script and the barrier: the nonce is missing, and the commit is made
again (the same call and nonce: applied once, or refused as stale if the table moved on,
as any commit is). While the barrier fails (the master died; ``MOVED``, ``READONLY`` or
``CLUSTERDOWN`` during the failover) it asks the cluster for the slot's master again and
tries again, with backoff; after 12 s the last error reaches the caller, as a commit's own
error would (the move may stand: a resume says). The commit itself, on a cluster, rides a
failover the same way: past redis-py's own retries it tries again (the same call and nonce)
for up to 12 s. ``ROLE`` says how many replicas the master has; a master
without any is asked again every 10 s, and meanwhile its commits are acknowledged at once
(losing that master loses what was not yet written to its disk, or everything without
persistence). A master whose replicas hold back ``WAIT`` ten times in a row has the commit
acknowledged anyway, logged and counted (``unreplicated``). ``replica_wait_ms=0`` turns the
barrier off.

Subscriptions and reconnects
----------------------------
:meth:`RedisStore.changes` is fed by one background task (started by the first
:meth:`~RedisStore.subscribe`) that owns a pub/sub connection (on one Redis a
:class:`meja.store.lane.PubSubLane`, which parses with hiredis at a fraction of
redis-py's cost per message; on a cluster redis.asyncio ``PubSub``; either way
with no silent retries, so that every break is seen). When the connection breaks
(Redis restarted, a network fault, or no answer to a ping within
``ping_interval_s`` after ``ping_interval_s`` of silence), the task reconnects
with capped exponential backoff, resubscribes every subscribed table and waits
until Redis confirms the subscriptions. Then, for each table that was subscribed
before the break and still exists, it reads the current version, record and last
entry (a script per bucket and 256 tables, so a table's record and entry agree)
and yields them as ``Change(..., resync=True)``.

What a subscriber may have missed: the commits made while the connection was
down were published to nobody. The resync ``Change`` says so; since it is read
after the subscriptions are confirmed, nothing committed after it can be
missed. Changes published between the confirmation and the snapshot are covered
by the snapshot and dropped, as are later ones at or below its version, so a
version jump in ``changes()`` only ever comes with ``resync=True``. How the server
recovers: replace its cached record with the resync one and, where the version
jumped, read the missed events with :meth:`RedisStore.log_since` for its
connections (see :class:`meja.store.base.Change`). A table that vanished
(expired, or lost by a Redis without persistence) gets no resync ``Change``.
Tables first subscribed during the outage are plain new subscriptions:
:meth:`~RedisStore.subscribe` waits for the reconnection (up to
``subscribe_timeout_s``) and they get no resync ``Change``.

The changes queue is unbounded: a consumer that stops reading makes it grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.exceptions import ClusterError, RedisClusterException, ResponseError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from meja.store import delta
from meja.store.base import Change, Due, Note
from meja.store.keys import BUCKETS, DEFAULT_PREFIX, SCHEMA, Keys, bucket_of
from meja.store.lane import Lane, LaneError, PubSubLane, PubSubLaneClient, lane_for

__all__ = ["CLUSTER_SCHEMES", "RedisStore"]

#: URL schemes that name a Redis Cluster rather than one Redis.
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")

log = logging.getLogger(__name__)

#: What a broken connection raises (redis-py wraps most OS errors, not all).
_CONNECTION_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)
#: What a cluster's failover raises once redis-py's retries are spent (no master for a slot yet).
_FAILOVER_ERRORS = (*_CONNECTION_ERRORS, ClusterError, RedisClusterException, TryAgainError)

# msgpack written by hand where Lua's cmsgpack cannot: it packs every string as
# msgpack *str*, but records and entries are binary, so any msgpack reader (not
# only ours) must see them as *bin*. Ints still go through cmsgpack.
_LUA_MSGPACK = """
local function bin(s)
  local n = #s
  if n < 256 then return string.char(0xc4, n) .. s end
  if n < 65536 then return string.char(0xc5, math.floor(n / 256), n % 256) .. s end
  return string.char(0xc6, math.floor(n / 16777216), math.floor(n / 65536) % 256,
                     math.floor(n / 256) % 256, n % 256) .. s
end
-- the log item: [version, entry]
local function log_item(version, entry)
  return string.char(0x92) .. cmsgpack.pack(version) .. bin(entry)
end
-- the record's nonce history ('n'): the nonces of its last writes, newest first, end to end
local NONCES = 16
local function seen(history, nonce)
  if not history then return false end
  local w = #nonce
  for i = 1, #history - w + 1, w do
    if string.sub(history, i, i + w - 1) == nonce then return true end
  end
  return false
end
local function remember(history, nonce)
  return nonce .. string.sub(history or '', 1, #nonce * (NONCES - 1))
end
"""

# KEYS: rec, log, code. ARGV: table_id, code key, record, entry, ttl_ms, nonce, schema.
_CREATE = (
    _LUA_MSGPACK
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then
  -- a retry of this very create, whose first reply was lost, succeeded already
  if seen(redis.call('HGET', KEYS[1], 'n'), ARGV[6]) then return 1 end
  return 0
end
if not redis.call('SET', KEYS[3], ARGV[1], 'NX', 'PX', ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'v', 0, 'r', ARGV[3], 'c', ARGV[2], 'n', ARGV[6], 's', ARGV[7])
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], log_item(0, ARGV[4]))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
"""
)

# KEYS: rec, log, due, due_tables (one slot: the table's bucket). The room code's key is
# the name stored in the record's 'c' (same bucket, so the same slot).
# ARGV: expected, record, entry, ttl_ms, nonce, channel, schema, log_keep (0: all),
#       delta ('': publish the record), n_cancel, cancel keys..., n_schedule, (key, due_ms, table_id)...
# Returns 0 refused, 2 already committed by this nonce (a retry), or committed: 3 plus how many
# subscribers the publish reached (on one Redis, every subscriber; see "Publishing a delta").
_COMMIT = (
    _LUA_MSGPACK
    + """
local cur = redis.call('HMGET', KEYS[1], 'v', 'n', 'c')
if not cur[1] then return 0 end
local version = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if version ~= expected then
  -- a retry of this very commit, whose reply was lost: the table may have moved on since
  -- (another process's commit came first after an outage), so look in the whole history
  if version > expected and seen(cur[2], ARGV[5]) then return 2 end
  return 0
end
local new = expected + 1
redis.call('HSET', KEYS[1], 'v', new, 'r', ARGV[2], 'n', remember(cur[2], ARGV[5]))
redis.call('RPUSH', KEYS[2], log_item(new, ARGV[3]))
local keep = tonumber(ARGV[8])
if keep > 0 then redis.call('LTRIM', KEYS[2], -keep, -1) end
local i = 10
local n = tonumber(ARGV[i])
for j = 1, n do
  redis.call('ZREM', KEYS[3], ARGV[i + j])
  redis.call('HDEL', KEYS[4], ARGV[i + j])
end
i = i + n + 1
n = tonumber(ARGV[i])
for j = 0, n - 1 do
  local k = i + 1 + 3 * j
  redis.call('ZADD', KEYS[3], ARGV[k + 1], ARGV[k])
  redis.call('HSET', KEYS[4], ARGV[k], ARGV[k + 2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if cur[3] then redis.call('PEXPIRE', cur[3], ARGV[4]) end
-- the table's talk and presence keys (named after the record's, same slot) expire with it
local base = string.sub(KEYS[1], 1, -4)
redis.call('PEXPIRE', base .. 'talk', ARGV[4])
redis.call('PEXPIRE', base .. 'pres', ARGV[4])
local heard
if ARGV[9] == '' then
  local payload = string.char(0x94) .. cmsgpack.pack(tonumber(ARGV[7])) .. cmsgpack.pack(new)
  heard = redis.call('PUBLISH', ARGV[6], payload .. bin(ARGV[2]) .. bin(ARGV[3]))
else
  -- [schema, version, nil, entry, delta]: the record as a delta against the one before it
  local payload = string.char(0x95) .. cmsgpack.pack(tonumber(ARGV[7])) .. cmsgpack.pack(new) .. string.char(0xc0)
  heard = redis.call('PUBLISH', ARGV[6], payload .. bin(ARGV[3]) .. bin(ARGV[9]))
end
return 3 + heard
"""
)

# KEYS: rec, talk, pres (one slot). ARGV: channel, note, keep (0: keep none), schema,
#       presence field ('' : none), presence value ('' : remove the field).
# Returns 1 published, 0 no such table. The kept keys take the record's time to live.
_PUBLISH = (
    _LUA_MSGPACK
    + """
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 0 end
if ARGV[5] ~= '' then
  if ARGV[6] == '' then redis.call('HDEL', KEYS[3], ARGV[5])
  else redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
  redis.call('PEXPIRE', KEYS[3], ttl)
end
local keep = tonumber(ARGV[3])
if keep > 0 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  redis.call('LTRIM', KEYS[2], -keep, -1)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
local head = string.char(0x93) .. cmsgpack.pack(tonumber(ARGV[4])) .. cmsgpack.pack(-1)
redis.call('PUBLISH', ARGV[1], head .. bin(ARGV[2]))
return 1
"""
)

# KEYS: rec, log. ARGV: after, limit (0: all). The log's items after version ``after`` that it
# still keeps: the record's version and the log's length say which version is at index 0.
_LOG_SINCE = """
local len = redis.call('LLEN', KEYS[2])
if len == 0 then return {} end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or -1)
local base = v - len + 1
local start = math.max(tonumber(ARGV[1]) + 1 - base, 0)
local limit = tonumber(ARGV[2])
local stop = -1
if limit > 0 then stop = start + limit - 1 end
return redis.call('LRANGE', KEYS[2], start, stop)
"""

# KEYS: due, due_tables. ARGV: now_ms, lease_ms, limit. Returns key, due_ms, table_id, ...
_CLAIMED = """
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
local leased = tonumber(ARGV[1]) + tonumber(ARGV[2])
local out = {}
for i = 1, #items, 2 do
  redis.call('ZADD', KEYS[1], leased, items[i])
  out[#out + 1] = items[i]
  out[#out + 1] = items[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], items[i]) or ''
end
"""
_CLAIM = _CLAIMED + "return out\n"

# The claim, then the earliest item left. KEYS, ARGV: as _CLAIM. Returns {claimed as _CLAIM, {member, score} or {}}.
_POLL = _CLAIMED + "return {out, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')}\n"

# KEYS: due (one set). ARGV: delta_ms. Returns how many items moved.
_SHIFT = """
local items = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #items, 2 do
  redis.call('ZADD', KEYS[1], tonumber(items[i + 1]) + tonumber(ARGV[1]), items[i])
end
return #items / 2
"""

# KEYS: proc, alive (one slot: tag {p}). ARGV: now_ms, ttl_ms. Returns the previous last-alive time or nil.
_HEARTBEAT = """
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local prev = redis.call('GET', KEYS[2])
if not prev or tonumber(prev) < tonumber(ARGV[1]) then redis.call('SET', KEYS[2], ARGV[1]) end
return prev
"""

# KEYS: a deal board (one key). ARGV: entry, keep, ttl_ms. Newest first, the newest `keep` kept.
_DEAL_RECORD = """
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS: counter. ARGV: window_ms. A fixed window that starts at the first hit.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


# Cluster only (one Redis runs _CLAIM on its one due set). KEYS: due, due_tables of one
# bucket. ARGV: leased until, then (key, due_ms) pairs a peek found due. Leases those still
# at that due time (another process may have claimed one since); returns key, due_ms, table_id, ...
_LEASE = """
local out = {}
for i = 2, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[i + 1]) then
    redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i])
    out[#out + 1] = ARGV[i]
    out[#out + 1] = ARGV[i + 1]
    out[#out + 1] = redis.call('HGET', KEYS[2], ARGV[i]) or ''
  end
end
return out
"""

# Cluster only (one Redis sends ZREM and HDEL in a MULTI). KEYS: due, due_tables of one
# bucket. ARGV: key. Returns 1 if it was there.
_FINISH = """
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
"""

# KEYS: rec, log of each table (one slot on a cluster: tables of one bucket).
# Returns version, record, schema, last log item for each (false where missing).
_SNAPSHOT = """
local out = {}
for i = 1, #KEYS, 2 do
  local cur = redis.call('HMGET', KEYS[i], 'v', 'r', 's')
  out[#out + 1] = cur[1] or false
  out[#out + 1] = cur[2] or false
  out[#out + 1] = cur[3] or false
  out[#out + 1] = redis.call('LINDEX', KEYS[i + 1], -1) or false
end
return out
"""


# KEYS: rec. ARGV: nonce, ttl_ms. The durability barrier after a commit (see "Durable commits"):
# 1 if the commit with this nonce is in the record's history (then a write, the record's expiry
# set again, so that a WAIT after it on the same connection covers the commit), 0 if it is not
# (lost with a master that died before its replica had it).
_BARRIER = (
    _LUA_MSGPACK
    + """
if not seen(redis.call('HGET', KEYS[1], 'n'), ARGV[1]) then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
)

#: How long a master's "no replica" (from ROLE) is trusted before it is asked again, in seconds.
_ROLE_FRESH_S = 10.0

#: Barrier rounds before a commit is acknowledged without a replica (see "Durable commits").
_BARRIER_ATTEMPTS = 10

#: The delta a commit publishes while no other process heard the table's last one: one byte that
#: is no zlib stream, so it applies to no base (:func:`meja.store.delta.apply` gives ``None``).
_UNHEARD: Final = b"\x00"
#: Bases of deltas: how many versions of one table (its own commits ahead of their changes heard
#: back), and how many tables not subscribed to (the least recently changed go first).
_BASES_PER_TABLE = 4
_UNSUBSCRIBED_BASES = 500

#: How long a commit on a cluster keeps trying through a failover (its slot without a master,
#: its master unreachable), in seconds: a failover takes ``cluster-node-timeout`` and an election.
_FAILOVER_WAIT_S = 12.0


class _Closed:
    """The end-of-stream marker put on the changes queue by aclose()."""


_CLOSED = _Closed()


@dataclass(eq=False, slots=True)
class _Shard:
    """One pub/sub connection's state: the store's one (``bucket`` None: every channel), or,
    with sharded pub/sub on a cluster, one bucket's, to the master of the bucket's slot."""

    bucket: int | None
    pubsub: PubSub | PubSubLane | None = None  # the live one, if connected
    broken: bool = False  # set by subscribe() when a send failed
    healthy: bool = False  # the current connection got as far as delivering
    resyncing: set[bytes] = field(default_factory=set)  # channels the coming snapshot covers
    task: asyncio.Task[None] = field(init=False)


class _Reconnect(Exception):
    """Raised inside the listener to drop its pub/sub connection and start over."""


def _unpack(data: bytes) -> Any:
    # raw=True: the store's own encodings hold only ints and bin; should a str
    # ever appear, it comes back as bytes rather than failing on non-UTF-8.
    return msgpack.unpackb(data, raw=True, use_list=True)


def _nonce() -> bytes:
    """A fresh nonce for one create or commit (see "Retries are safe" above)."""
    return os.urandom(8)


def _str(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    # The clients use decode_responses=False, so replies are bytes; typed as either.
    return value if isinstance(value, bytes) else value.encode()


def _as_int(value: bytes | str | int | float) -> int:
    # Scores come back as '1700000000000' (Lua) or 1.7e12 (redis-py floats): both exact.
    return int(float(value)) if isinstance(value, bytes | str) else int(value)


def _dues(flat: Sequence[Any]) -> list[Due]:
    """Due values from a claim or lease script's reply: key, due_ms, table_id, ..."""
    return [
        Due(_bytes(flat[i + 2]).decode(), _bytes(flat[i]).decode(), _as_int(flat[i + 1]))
        for i in range(0, len(flat), 3)
    ]


@dataclass(frozen=True, slots=True)
class _ClusterURL:
    """A ``redis+cluster://`` URL taken apart: its nodes, and what goes around them.

    Plain string work, as in :func:`meja.store.open_store` (the layering test keeps
    ``urllib`` out of the store).
    """

    scheme: str  # redis or rediss
    auth: str  # "user:password@" or ""
    nodes: tuple[tuple[str, int], ...]
    rest: str  # "/path?query" or ""

    @classmethod
    def parse(cls, url: str) -> _ClusterURL | None:
        """The parts of a cluster URL, or ``None`` if ``url`` is not one. ``ValueError`` if malformed."""
        scheme, sep, after = url.partition("://")
        if not sep or scheme not in CLUSTER_SCHEMES:
            return None
        cut = min((i for i in (after.find("/"), after.find("?")) if i >= 0), default=len(after))
        netloc, rest = after[:cut], after[cut:]
        auth, at, hosts = netloc.rpartition("@")
        nodes = []
        for part in hosts.split(","):
            host, colon, port = part.rpartition(":")
            if not colon or not host or not port.isdigit():
                raise ValueError(f"a cluster node must be host:port, not {part!r} in {url!r}")
            nodes.append((host.strip("[]"), int(port)))
        return cls(scheme.partition("+")[0], auth + at, tuple(nodes), rest)

    def node_url(self, host: str, port: int) -> str:
        """A plain redis-py URL for one node, with the credentials and options of the cluster's."""
        host = f"[{host}]" if ":" in host else host
        return f"{self.scheme}://{self.auth}{host}:{port}{self.rest}"


class RedisStore:
    """The Store contract on Redis; see the module docstring.

    ``url`` is a redis-py URL (``redis://host:port/db``, ``rediss://``,
    ``unix://``), or a cluster's: ``redis+cluster://host:port[,host:port...]``
    (``rediss+cluster://`` for TLS; credentials and query parameters as in a
    redis-py URL) names one or more of its nodes, and the rest are found from
    them. ``prefix`` starts every key and channel name.
    ``ping_interval_s``: after that long without a word on the pub/sub
    connection, ping; no answer within as long again means the connection is
    dead and is replaced. ``reconnect_max_s`` caps the backoff between attempts.
    ``subscribe_timeout_s``: how long :meth:`subscribe` waits for a connection.
    ``max_connections``: Redis connections for commands (besides pub/sub); more commands
    in flight wait up to ``pool_timeout_s`` for one. (On a cluster that is per node,
    and redis-py's cluster pool does not wait: past it a command fails. So a cluster
    store allows ten times as many.)
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        ping_interval_s: float = 5.0,
        reconnect_max_s: float = 2.0,
        subscribe_timeout_s: float = 10.0,
        max_connections: int = 100,
        pool_timeout_s: float = 20.0,
        replica_wait_ms: int = 1000,
        sharded_pubsub: bool = True,
    ) -> None:
        #: (Store.on_error) told of each error the pub/sub listener meets and recovers from
        self.on_error: Callable[[BaseException], object] | None = None
        cluster = _ClusterURL.parse(url)
        self.keys = Keys(prefix, cluster=cluster is not None)
        self._url = url
        self._cluster_url = cluster
        # Commands ride over a short outage (a Redis restart): 10 retries, exponential
        # backoff with jitter capped at 1 s, then the error. Safe: see the module docstring.
        retry = Retry(ExponentialWithJitterBackoff(base=0.01, cap=1.0), 10)
        self._redis: aioredis.Redis | RedisCluster
        self._lane: Lane | None = None
        if cluster is None:
            # A blocking pool: past ``max_connections`` commands in flight, a command waits (up to
            # ``pool_timeout_s``) for a connection. redis-py's default pool raises
            # MaxConnectionsError at once instead, which failed requests and timers of a busy
            # process (tests/faults/test_faults_capacity.py).
            # (The retry policy goes to the pool: redis-py takes it from each connection.)
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=pool_timeout_s,
                socket_connect_timeout=5,
                socket_timeout=10,
                retry=retry,
            )
            self._redis = aioredis.Redis(connection_pool=pool)
            # Commits go down a lean pipelined connection first (meja.store.lane: a tenth of
            # redis-py's client CPU per call), and through redis-py when the lane cannot carry one.
            self._lane = lane_for(url, timeout_s=10)
        else:
            # redis-py follows MOVED and ASK, refreshes its slot map after a connection
            # error and retries by the same policy; EVALSHA goes to the node of its keys'
            # slot, and a NOSCRIPT loads the script on every primary and tries again.
            first, *others = cluster.nodes
            self._redis = RedisCluster.from_url(
                cluster.node_url(*first),
                startup_nodes=[ClusterNode(host, port) for host, port in others],
                max_connections=10 * max_connections,
                socket_connect_timeout=5,
                socket_timeout=10,
                retry=retry,
            )
        # Pub/sub: no silent retries, so the listener sees every break and resyncs. On a
        # cluster one connection to any node hears every PUBLISH; _pubsub_client() picks one.
        self._pubsub_clients: dict[tuple[str, int], aioredis.Redis | PubSubLaneClient] = {}
        self._pubsub_attempts = 0
        # Sharded pub/sub on a cluster (see "Pub/sub on a cluster" in the module docstring).
        self._sharded = cluster is not None and sharded_pubsub
        publish = "'SPUBLISH'" if self._sharded else "'PUBLISH'"
        self._create = self._redis.register_script(_CREATE)
        self._commit = self._redis.register_script(_COMMIT.replace("'PUBLISH'", publish))
        self._claim = self._redis.register_script(_CLAIM)
        self._poll = self._redis.register_script(_POLL)
        self._shift = self._redis.register_script(_SHIFT)
        self._heartbeat = self._redis.register_script(_HEARTBEAT)
        self._hit = self._redis.register_script(_HIT)
        self._lease = self._redis.register_script(_LEASE)
        self._finish = self._redis.register_script(_FINISH)
        self._snapshot = self._redis.register_script(_SNAPSHOT)
        self._log_since = self._redis.register_script(_LOG_SINCE)
        self._publish = self._redis.register_script(_PUBLISH.replace("'PUBLISH'", publish))
        self._ping_s = ping_interval_s
        self._reconnect_max_s = reconnect_max_s
        # Durable commits (see the module docstring): how long one WAIT waits for a replica (0: no
        # barrier), what ROLE last said of each master (replicas, when), a client per cluster node.
        self._replica_wait_ms = replica_wait_ms
        self._roles: dict[tuple[str, int], tuple[int, float]] = {}
        self._node_clients: dict[tuple[str, int], aioredis.Redis] = {}
        #: Commits found lost by their barrier (a master died before its replica had them) and made again.
        self.lost_commits = 0
        #: Commits acknowledged although no replica confirmed them within the barrier's rounds.
        self.unreplicated = 0
        # Subscription state, shared by subscribe() and the listener task.
        self._channels: dict[bytes, str] = {}  # channel -> table id
        self._seen: dict[str, int] = {}  # table id -> last version yielded
        self._waiters: dict[bytes, list[asyncio.Future[None]]] = {}
        self._sub_lock = asyncio.Lock()
        # One pub/sub connection (None: every channel), or one per bucket with sharded pub/sub.
        self._shards: dict[int | None, _Shard] = {}
        self._confirmed: set[bytes] = set()  # channels Redis confirmed on some connection
        self._subscribe_timeout_s = subscribe_timeout_s
        self._queue: asyncio.Queue[Change | Note | _Closed] = asyncio.Queue()
        self._closed = False
        #: How many times the listener (re)connected; for tests and /healthz.
        self.connects = 0
        # Publishing a delta (see the module docstring): the last record known of each table, the
        # base of its next commit's delta and of the next delta heard. For the tables subscribed to,
        # the very bytes the server keeps of them (little memory of its own); of the others, the
        # last _UNSUBSCRIBED_BASES tables changed.
        self._bases: dict[str, list[tuple[int, bytes]]] = {}
        self._subscribed: set[str] = set()
        #: tables whose last commit here was heard by no other process (no delta for the next)
        self._unheard: set[str] = set()
        self._unsubscribed_bases: dict[str, None] = {}
        #: Deltas heard that did not apply (no base, or another one): the record was read instead.
        self.delta_misses = 0

    async def __aenter__(self) -> RedisStore:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- tables ---------------------------------------------------------------------------

    async def create(self, table_id: str, code: str, record: bytes, entry: bytes, *, ttl_ms: int) -> bool:
        """See :meth:`meja.store.base.Store.create`.

        On a cluster the id must be in the code's bucket (see :mod:`meja.store.keys`;
        :func:`meja.server.rooms.new_table_id` makes such ids): else ``ValueError``.
        """
        tk = self.keys.table(table_id)
        code_key = self.keys.code(code)
        if self.keys.cluster and bucket_of(code) != tk.bucket:
            raise ValueError(
                f"table id {table_id!r} is not in the bucket of room code {code!r}: on a cluster "
                "their keys would be in two slots (make ids with meja.server.rooms.new_table_id(code))"
            )
        args: list[bytes | str | int] = [table_id, code_key, record, entry, ttl_ms, _nonce(), SCHEMA]
        result = await self._create(keys=[tk.record, tk.log, code_key], args=args)
        if result:
            self._keep_base(table_id, 0, record)
        return bool(result)

    async def load(self, table_id: str) -> tuple[int, bytes] | None:
        """See :meth:`meja.store.base.Store.load`."""
        version, record, schema = await self._redis.hmget(self.keys.table(table_id).record, ["v", "r", "s"])
        if version is None or record is None:
            return None
        self._check_schema(schema, table_id)
        self._keep_base(table_id, int(version), _bytes(record), heard=True)
        return int(version), _bytes(record)

    async def lookup(self, code: str) -> str | None:
        """See :meth:`meja.store.base.Store.lookup`."""
        table_id = await self._redis.get(self.keys.code(code))
        return None if table_id is None else _bytes(table_id).decode()

    async def commit(
        self,
        table_id: str,
        expected: int,
        record: bytes,
        entry: bytes,
        *,
        schedule: Sequence[Due] = (),
        cancel: Sequence[str] = (),
        ttl_ms: int,
        log_keep: int = 0,
    ) -> bool:
        """See :meth:`meja.store.base.Store.commit`: one EVALSHA.

        A missing (or expired) table fails the check like a wrong version does.
        ``cancel`` is applied before ``schedule``, so a key in both ends scheduled.
        """
        tk = self.keys.table(table_id)
        nonce = _nonce()
        if table_id in self._unheard:
            # Nobody but this process heard the last commit: publish the entry with a delta that
            # applies to no base. This process takes its own record (kept below); another that
            # subscribed meanwhile reads the record, once, and is heard by the next commit.
            delta_: bytes | None = _UNHEARD
        else:
            base = self._base(table_id, expected)
            delta_ = None if base is None else delta.make(base, record)
        args: list[bytes | str | int] = [
            expected,
            record,
            entry,
            ttl_ms,
            nonce,
            tk.channel,
            SCHEMA,
            log_keep,
            delta_ or b"",
            len(cancel),
            *cancel,
            len(schedule),
        ]
        for due in schedule:
            args += [due.key, due.due_ms, due.table_id]
        keys = [tk.record, tk.log, tk.due, tk.due_tables]
        done = await self._commit_call(keys, args)
        if not done:
            return False
        if self._replica_wait_ms > 0 and not self._alone() and not await self._durable(keys, args, nonce, ttl_ms):
            return False
        self._keep_base(table_id, expected + 1, record)  # (the base of this table's next delta)
        # Nobody but this process heard the publish (one Redis: the count is every subscriber's):
        # the next commit publishes its record, not a delta nobody else would read.
        if done >= 3 and not self.keys.cluster and done - 3 <= (table_id in self._subscribed):
            if len(self._unheard) >= _UNSUBSCRIBED_BASES * 64:
                self._unheard.clear()  # (bounded: tables nobody subscribes to are not kept)
            self._unheard.add(table_id)
        else:
            self._unheard.discard(table_id)
        return True

    async def _commit_call(self, keys: list[str], args: list[bytes | str | int]) -> int:
        """The commit script's answer (0: refused; else committed, see ``_COMMIT``)."""
        lane = self._lane
        if lane is not None:
            try:
                return int(await lane.call("EVALSHA", self._commit.sha, 4, *keys, *args))
            except LaneError as exc:
                # No connection, a lost or silent one, or an error reply (NOSCRIPT after a Redis
                # restart, LOADING...): redis-py makes the same call with its retries and script
                # loading. The same nonce makes a commit the lane did deliver answer True again.
                log.debug("commit through redis-py: %s", exc)
        if not self.keys.cluster:
            return int(await self._commit(keys=keys, args=args))
        # On a cluster, past redis-py's own retries (a few seconds), ride the rest of a failover:
        # the same call and nonce, so a try whose reply was lost answers True the next time.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _FAILOVER_WAIT_S
        delay = 0.1
        while True:
            try:
                return int(await self._commit(keys=keys, args=args))
            except _FAILOVER_ERRORS:
                if loop.time() >= deadline:
                    raise
                await self._refresh_nodes()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _durable(self, keys: list[str], args: list[bytes | str | int], nonce: bytes, ttl_ms: int) -> bool:
        """Return once the commit with ``nonce`` is on a replica of its master, if the master
        has replicas (see "Durable commits" in the module docstring). A commit the barrier finds
        lost is made again (the same call, the same nonce): False if the table moved on meanwhile."""
        loop = asyncio.get_running_loop()
        record_key = keys[0]
        delay = 0.01
        deadline = loop.time() + _FAILOVER_WAIT_S
        rounds = 0
        while True:
            try:
                address, client = self._node_client(record_key)
                if self._without_replicas(address):
                    return True  # a master without replicas (the README says what losing it loses)
                role = self._roles.get(address)
                want = 1 if role is not None and role[0] > 0 else 0
                async with client.pipeline(transaction=False) as pipe:
                    pipe.execute_command("EVAL", _BARRIER, 1, record_key, nonce, ttl_ms)
                    pipe.execute_command("ROLE")
                    pipe.execute_command("WAIT", want, self._replica_wait_ms)
                    there, role_reply, acked = await pipe.execute()
            except _FAILOVER_ERRORS + (ResponseError,) as exc:
                # The master died or is being replaced (MOVED, READONLY, CLUSTERDOWN): ask again
                # where the slot lives, then try the barrier there.
                log.debug("commit barrier: %s", exc)
                if loop.time() >= deadline:
                    raise  # the master cannot be reached: not acknowledged (as a commit's own error)
                await self._refresh_nodes()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            replicas = len(role_reply[2]) if _bytes(role_reply[0]) == b"master" else 0
            self._roles[address] = (replicas, loop.time())
            if not there:
                self.lost_commits += 1
                log.warning("a commit was lost with its master (no replica had it): made again")
                if not await self._commit_call(keys, args):
                    return False
                rounds += 1
                continue
            if int(acked) >= 1 or replicas == 0:
                return True
            rounds += 1
            if rounds >= _BARRIER_ATTEMPTS:
                break
        self.unreplicated += 1
        log.warning("a commit acknowledged without a replica confirming it")
        return True

    def _base(self, table_id: str, version: int) -> bytes | None:
        """The table's record at ``version``, if this store knows it (see :meth:`_keep_base`)."""
        for known, record in self._bases.get(table_id, ()):
            if known == version:
                return record
        return None

    def _keep_base(self, table_id: str, version: int, record: bytes, *, heard: bool = False) -> None:
        """Remember ``record`` as the table's at ``version``, beside the later ones known: this
        process's own commits may run ahead of their changes heard back, each the base of the next
        commit's delta. ``heard``: the change was heard (or read), so the versions before it are
        no longer needed."""
        bases = self._bases
        kept = [k for k in bases.pop(table_id, ()) if k[0] != version and not (heard and k[0] < version)]
        kept.append((version, record))
        kept.sort(key=lambda k: k[0])
        bases[table_id] = kept[-_BASES_PER_TABLE:]
        if table_id not in self._subscribed:  # (a table whose timer ran here): a few hundred kept
            others = self._unsubscribed_bases
            others.pop(table_id, None)
            others[table_id] = None
            if len(others) > _UNSUBSCRIBED_BASES:
                oldest = next(iter(others))
                del others[oldest]
                bases.pop(oldest, None)

    def _alone(self) -> bool:
        """Whether this is one Redis known (lately) to have no replica: no barrier to wait for."""
        return not self.keys.cluster and self._without_replicas(("", 0))

    def _without_replicas(self, address: tuple[str, int]) -> bool:
        """Whether the master at ``address`` (one Redis: ``("", 0)``) was lately seen with no replica."""
        role = self._roles.get(address)
        return role is not None and role[0] == 0 and asyncio.get_running_loop().time() - role[1] < _ROLE_FRESH_S

    def _node_client(self, key: str) -> tuple[tuple[str, int], aioredis.Redis]:
        """The master that holds ``key`` and a plain client of it (one connection carries a
        pipeline: the barrier's write and the WAIT after it must share one)."""
        if not isinstance(self._redis, RedisCluster):
            return ("", 0), self._redis
        assert self._cluster_url is not None
        node = self._redis.get_node_from_key(key)
        if node is None:
            raise RedisClusterException(f"no master holds {key!r}")
        address = (str(node.host), int(node.port))
        client = self._node_clients.get(address)
        if client is None:
            client = aioredis.Redis.from_url(
                self._cluster_url.node_url(*address),
                socket_connect_timeout=5,
                socket_timeout=10 + self._replica_wait_ms / 1000,
                retry=Retry(NoBackoff(), 0),
            )
            self._node_clients[address] = client
        return address, client

    async def _refresh_nodes(self) -> None:
        if isinstance(self._redis, RedisCluster):
            with contextlib.suppress(*_CONNECTION_ERRORS, RedisClusterException, ResponseError):
                await self._redis.nodes_manager.initialize()

    async def log_since(self, table_id: str, after: int, limit: int | None = None) -> list[tuple[int, bytes]]:
        """See :meth:`meja.store.base.Store.log_since`: one script (the log may be trimmed at its head)."""
        if limit is not None and limit <= 0:
            return []
        tk = self.keys.table(table_id)
        items = await self._log_since(keys=[tk.record, tk.log], args=[after, limit or 0])
        out: list[tuple[int, bytes]] = []
        for item in items:
            version, entry = _unpack(_bytes(item))
            out.append((int(version), bytes(entry)))
        return out

    # -- changes --------------------------------------------------------------------------

    async def publish(
        self,
        table_id: str,
        note: bytes,
        *,
        keep: int = 0,
        presence: tuple[str, bytes | None] | None = None,
    ) -> bool:
        """See :meth:`meja.store.base.Store.publish`: one script, PUBLISHed on the table's channel
        (a note is ``[SCHEMA, -1, note]`` there: no version)."""
        tk = self.keys.table(table_id)
        name, value = presence if presence is not None else ("", b"")
        if presence is not None and not name:
            raise ValueError("a presence field needs a name")
        args: list[bytes | str | int] = [tk.channel, note, max(0, keep), SCHEMA, name, value or b""]
        return bool(await self._publish(keys=[tk.record, tk.talk, tk.presence], args=args))

    async def notes(self, table_id: str) -> list[bytes]:
        """See :meth:`meja.store.base.Store.notes`: LRANGE."""
        return [_bytes(item) for item in await self._redis.lrange(self.keys.table(table_id).talk, 0, -1)]

    async def presence(self, table_id: str) -> dict[str, bytes]:
        """See :meth:`meja.store.base.Store.presence`: HGETALL."""
        raw = await self._redis.hgetall(self.keys.table(table_id).presence)
        return {_bytes(k).decode(): _bytes(v) for k, v in raw.items()}

    async def changes(self) -> AsyncIterator[Change | Note]:
        """See :meth:`meja.store.base.Store.changes` and the module docstring on reconnects."""
        while True:
            item = await self._queue.get()
            if isinstance(item, _Closed):
                self._queue.put_nowait(item)  # so that a later call ends too
                return
            yield item

    async def subscribe(self, table_id: str) -> None:
        """See :meth:`meja.store.base.Store.subscribe`.

        Returns once Redis has confirmed the subscription, so every commit made
        after it returns is delivered. If the pub/sub connection is down, it waits
        for the listener to reconnect, up to ``subscribe_timeout_s``; past that it
        raises ``redis.exceptions.ConnectionError`` and the table is not subscribed.
        """
        channel = self.keys.table(table_id).channel.encode()
        shard = self._shard_of(table_id)
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        async with self._sub_lock:
            if channel in self._channels:
                return
            self._channels[channel] = table_id
            self._subscribed.add(table_id)
            self._unsubscribed_bases.pop(table_id, None)
            self._waiters.setdefault(channel, []).append(waiter)
            # Not connected: the listener subscribes it when it (re)connects.
            if shard.pubsub is not None:
                try:
                    await self._sub(shard.pubsub, [channel])
                except _CONNECTION_ERRORS:
                    shard.broken = True  # the listener reconnects and subscribes it
        try:
            await asyncio.wait_for(asyncio.shield(waiter), self._subscribe_timeout_s)
        except TimeoutError:
            async with self._sub_lock:
                if self._channels.get(channel) == table_id:
                    del self._channels[channel]
                    self._subscribed.discard(table_id)
                self._seen.pop(table_id, None)
                self._confirmed.discard(channel)
            raise RedisConnectionError(
                f"could not subscribe to table {table_id!r} in {self._subscribe_timeout_s} s"
            ) from None

    async def unsubscribe(self, table_id: str) -> None:
        """See :meth:`meja.store.base.Store.unsubscribe`. No change of it is yielded after."""
        channel = self.keys.table(table_id).channel.encode()
        async with self._sub_lock:
            if self._channels.pop(channel, None) is None:
                return
            self._subscribed.discard(table_id)
            self._unheard.discard(table_id)
            self._seen.pop(table_id, None)
            self._bases.pop(table_id, None)
            self._confirmed.discard(channel)
            shard = self._shards.get(self._shard_key(table_id))
            if shard is not None and shard.pubsub is not None:
                try:
                    if self._sharded and isinstance(shard.pubsub, PubSub):
                        await shard.pubsub.sunsubscribe(channel)
                    else:
                        await shard.pubsub.unsubscribe(channel)
                except _CONNECTION_ERRORS:
                    shard.broken = True

    # -- due actions ----------------------------------------------------------------------

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Due]:
        """See :meth:`meja.store.base.Store.claim_due`.

        One Redis: one script on the one due set. A cluster: a peek at every bucket's
        due set (ZRANGEBYSCORE, pipelined: one round trip to each node, in parallel),
        then, for the earliest ``limit`` found, one lease script per bucket concerned
        (in parallel) that leases those still due at the time seen, so no more than
        ``limit`` are claimed and a racing process's claims are not taken twice.
        """
        if limit <= 0:
            return []
        if not self.keys.cluster:
            flat = await self._claim(keys=[self.keys.due(), self.keys.due_tables()], args=[now_ms, lease_ms, limit])
            return _dues(flat)
        async with self._redis.pipeline(transaction=False) as pipe:
            for bucket in range(BUCKETS):
                pipe.zrangebyscore(self.keys.due(bucket), "-inf", now_ms, start=0, num=limit, withscores=True)
            peeked = await pipe.execute()
        found = sorted(
            (_as_int(score), _bytes(key).decode(), bucket)
            for bucket, items in enumerate(peeked)
            for key, score in items
        )[:limit]
        by_bucket: dict[int, list[bytes | str | int]] = {}
        for due_ms, key, bucket in found:
            by_bucket.setdefault(bucket, [now_ms + lease_ms]).extend([key, due_ms])
        leased = await asyncio.gather(
            *(self._lease(keys=[self.keys.due(b), self.keys.due_tables(b)], args=args) for b, args in by_bucket.items())
        )
        claimed = [due for flat in leased for due in _dues(flat)]
        claimed.sort(key=lambda d: (d.due_ms, d.key))
        return claimed

    async def poll_due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[list[Due], int | None]:
        """See :meth:`meja.store.base.Store.poll_due`: one script on one Redis (a timer loop's
        look costs one round trip); a cluster: :meth:`claim_due`, then :meth:`next_due_ms`."""
        if self.keys.cluster or limit <= 0:
            claimed = await self.claim_due(now_ms, lease_ms, limit)
            return claimed, await self.next_due_ms()
        flat, first = await self._poll(keys=[self.keys.due(), self.keys.due_tables()], args=[now_ms, lease_ms, limit])
        return _dues(flat), (_as_int(first[1]) if first else None)

    async def finish_due(self, key: str) -> None:
        """See :meth:`meja.store.base.Store.finish_due`.

        One Redis: ZREM and HDEL in one MULTI. A cluster: a script in the bucket of
        the table id that starts the key (the server's keys are ``<table>|...``); if
        it was not there (the key has no table id, or was finished already), a script
        in every bucket, in parallel.
        """
        if not self.keys.cluster:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.zrem(self.keys.due(), key)
                pipe.hdel(self.keys.due_tables(), key)
                await pipe.execute()
            return
        head, sep, _ = key.partition("|")
        tried = None
        if sep and head and "{" not in head and "}" not in head:
            tried = self.keys.table(head).bucket
            if await self._finish(keys=[self.keys.due(tried), self.keys.due_tables(tried)], args=[key]):
                return
        await asyncio.gather(
            *(
                self._finish(keys=[self.keys.due(b), self.keys.due_tables(b)], args=[key])
                for b in range(BUCKETS)
                if b != tried
            )
        )

    async def next_due_ms(self) -> int | None:
        """See :meth:`meja.store.base.Store.next_due_ms`: ZRANGE of the first item of each due set
        (one command on one Redis; pipelined over the buckets on a cluster)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for bucket in self.keys.due_buckets:
                pipe.zrange(self.keys.due(bucket), 0, 0, withscores=True)
            firsts = await pipe.execute()
        times = [_as_int(first[0][1]) for first in firsts if first]
        return min(times) if times else None

    async def shift_due(self, delta_ms: int) -> int:
        """See :meth:`meja.store.base.Store.shift_due`: one script over each due set (in parallel)."""
        moved = await asyncio.gather(
            *(self._shift(keys=[self.keys.due(bucket)], args=[delta_ms]) for bucket in self.keys.due_buckets)
        )
        return sum(int(n) for n in moved)

    async def due_counts(self, now_ms: int) -> tuple[int, int]:
        """See :meth:`meja.store.base.Store.due_counts`: ZCARD and ZCOUNT of each due set,
        pipelined (one round trip on one Redis; one to each node, in parallel, on a cluster)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for bucket in self.keys.due_buckets:
                pipe.zcard(self.keys.due(bucket))
                pipe.zcount(self.keys.due(bucket), "-inf", now_ms)
            counts = await pipe.execute()
        return sum(int(n) for n in counts[0::2]), sum(int(n) for n in counts[1::2])

    async def archive(self, archive_id: str, record: bytes, *, ttl_ms: int) -> bool:
        """See :meth:`meja.store.base.Store.archive`: one SET NX PX (one key: cluster-safe)."""
        return bool(await self._redis.set(self.keys.archive(archive_id), record, nx=True, px=ttl_ms))

    async def archived(self, archive_id: str) -> bytes | None:
        """See :meth:`meja.store.base.Store.archived`: one GET."""
        record = await self._redis.get(self.keys.archive(archive_id))
        return None if record is None else _bytes(record)

    async def deal_record(self, code: str, play: bytes, *, keep: int, ttl_ms: int) -> None:
        """See :meth:`meja.store.base.Store.deal_record`: LPUSH, LTRIM, PEXPIRE in one script (one key)."""
        if keep <= 0:
            await self._redis.delete(self.keys.deal(code))
            return
        script = getattr(self, "_deal_script", None)
        if script is None:
            script = self._deal_script = self._redis.register_script(_DEAL_RECORD)
        await script(keys=[self.keys.deal(code)], args=[play, keep, ttl_ms])

    async def deal_plays(self, code: str) -> list[bytes]:
        """See :meth:`meja.store.base.Store.deal_plays`: one LRANGE."""
        return [_bytes(p) for p in await self._redis.lrange(self.keys.deal(code), 0, -1)]

    async def memory(self) -> tuple[int, int] | None:
        """See :meth:`meja.store.base.Store.memory`: INFO memory (of every master, on a cluster)."""
        info: Any = await self._redis.info("memory")
        nodes = info.values() if info and all(isinstance(v, dict) for v in info.values()) else [info]
        fullest: tuple[int, int] | None = None
        for node in nodes:
            limit = int(node.get("maxmemory", 0) or 0)
            if limit <= 0:
                continue
            used = int(node.get("used_memory", 0) or 0)
            if fullest is None or used / limit > fullest[0] / fullest[1]:
                fullest = (used, limit)
        return fullest

    # -- processes and rate limits --------------------------------------------------------

    async def heartbeat(self, process_id: str, now_ms: int, ttl_ms: int) -> int | None:
        """See :meth:`meja.store.base.Store.heartbeat`."""
        keys = [self.keys.proc(process_id), self.keys.alive]
        previous = await self._heartbeat(keys=keys, args=[now_ms, ttl_ms])
        return None if previous is None else _as_int(previous)

    async def alive(self, process_ids: Sequence[str]) -> list[bool]:
        """See :meth:`meja.store.base.Store.alive`: one MGET."""
        if not process_ids:
            return []
        values = await self._redis.mget([self.keys.proc(p) for p in process_ids])
        return [v is not None for v in values]

    async def hit(self, key: str, window_ms: int) -> int:
        """See :meth:`meja.store.base.Store.hit`. The window starts at the key's first hit."""
        return int(await self._hit(keys=[self.keys.hit(key)], args=[window_ms]))

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        """See :meth:`meja.store.base.Store.aclose`: stops the listener, ends changes(). Idempotent."""
        if self._closed:
            return
        self._closed = True
        for shard in self._shards.values():
            listener = shard.task
            listener.cancel()
            # Bounded: a listener that does not end (a lost cancellation) must not hang the shutdown.
            done, _ = await asyncio.wait([listener], timeout=5.0)
            if not done:
                log.error("the store's pub/sub listener did not stop; left behind")
            elif not listener.cancelled() and listener.exception() is not None:
                log.error("the store's pub/sub listener had failed", exc_info=listener.exception())
        for waiters in self._waiters.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_exception(RedisConnectionError("the store was closed"))
        self._waiters.clear()
        self._queue.put_nowait(_CLOSED)
        for client in self._pubsub_clients.values():
            await client.aclose()
        for node_client in self._node_clients.values():
            await node_client.aclose()
        if self._lane is not None:
            await self._lane.aclose()
        await self._redis.aclose()

    # -- the listener ---------------------------------------------------------------------

    def _shard_key(self, table_id: str) -> int | None:
        return self.keys.table(table_id).bucket if self._sharded else None

    def _shard_of(self, table_id: str) -> _Shard:
        """The pub/sub connection that carries ``table_id``'s channel, its listener started."""
        if self._closed:
            raise RuntimeError("the store is closed")
        key = self._shard_key(table_id)
        shard = self._shards.get(key)
        if shard is None:
            shard = _Shard(key)
            name = f"meja-store-listener-{self.keys.prefix}" + ("" if key is None else f"-{key}")
            shard.task = asyncio.get_running_loop().create_task(self._listen(shard), name=name)
            self._shards[key] = shard
        return shard

    def _in_shard(self, shard: _Shard, table_id: str) -> bool:
        return shard.bucket is None or self.keys.table(table_id).bucket == shard.bucket

    async def _sub(self, pubsub: PubSub | PubSubLane, channels: Sequence[bytes]) -> None:
        if self._sharded and isinstance(pubsub, PubSub):
            await pubsub.ssubscribe(*channels)
        else:
            await pubsub.subscribe(*channels)

    async def _listen(self, shard: _Shard) -> None:
        """Own a pub/sub connection for the store's lifetime: read, reconnect, resync."""
        backoff = 0.05
        first = True
        while not self._closed:  # (cancelled by aclose(); the flag, should a cancellation be lost)
            try:
                await self._listen_once(shard, resync=not first)
            except asyncio.CancelledError:
                raise
            except _CONNECTION_ERRORS + (_Reconnect, RedisClusterException) as exc:
                self._report(exc)
                log.warning("store pub/sub connection lost (%s); reconnecting", exc)
            except Exception as exc:  # a bug: keep the stream alive, say so loudly
                self._report(exc)
                log.exception("store pub/sub listener failed; reconnecting")
            first = False
            if shard.healthy:
                backoff = 0.05
            shard.healthy = False
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, self._reconnect_max_s)

    def _report(self, exc: BaseException) -> None:
        if self.on_error is not None:
            try:
                self.on_error(exc)
            except Exception:  # counting must never stop the listener
                log.exception("the store's on_error hook failed")

    async def _listen_once(self, shard: _Shard, *, resync: bool) -> None:
        """One connection's life: subscribe everything of its shard, resync if asked, then deliver.

        Ends only by raising; ``shard.healthy`` says whether it got as far as
        delivering (which resets the reconnect backoff).
        """
        if self._sharded and not resync:
            await self._redis.initialize()  # the slots' masters
        elif self._sharded:
            await self._refresh_nodes()  # the bucket's master may have changed
        pubsub = self._pubsub_client(shard).pubsub()
        try:
            async with self._sub_lock:
                shard.broken = False
                await pubsub.connect()  # type: ignore[no-untyped-call, unused-ignore]
                channels = [c for c, t in self._channels.items() if self._in_shard(shard, t)]
                if channels:
                    await self._sub(pubsub, channels)
                shard.pubsub = pubsub
                # Tables subscribed on an earlier connection may have missed changes;
                # those first subscribed during the outage are new: no resync for them.
                resynced = [c for c in channels if c in self._confirmed] if resync else []
            self.connects += 1
            # Until the snapshot is read, published changes of these tables are covered
            # by it (they were committed before it was read): drop them.
            shard.resyncing = set(resynced)
            pending = set(channels)
            if not pending:
                shard.healthy = True
            loop = asyncio.get_running_loop()
            last_heard = loop.time()
            pinged = False
            while True:
                if shard.broken:
                    raise _Reconnect("a subscribe or unsubscribe could not be sent")
                message = await pubsub.get_message(timeout=min(1.0, self._ping_s))
                now = loop.time()
                if message is None:
                    if pinged and now - last_heard > 2 * self._ping_s:
                        raise _Reconnect(f"no answer to a ping within {self._ping_s} s")
                    if not pinged and now - last_heard > self._ping_s:
                        await pubsub.ping()
                        pinged = True
                    continue
                last_heard, pinged = now, False
                kind = _str(message["type"])
                if kind in ("message", "smessage"):
                    missed = self._deliver(shard, bytes(message["channel"]), bytes(message["data"]))
                    if missed is not None:
                        await self._read_missed(*missed)
                elif kind == "sunsubscribe" and bytes(message["channel"]) in self._channels:
                    # Redis ends a sharded subscription whose slot moved to another master.
                    raise _Reconnect("a subscribed slot moved to another master")
                elif kind in ("subscribe", "ssubscribe"):
                    channel = bytes(message["channel"])
                    if channel in self._channels:
                        self._confirmed.add(channel)
                    for waiter in self._waiters.pop(channel, []):
                        if not waiter.done():
                            waiter.set_result(None)
                    if channel in pending:
                        pending.discard(channel)
                        if not pending:
                            if resynced:
                                await self._resync(resynced)
                            shard.resyncing = set()
                            shard.healthy = True
        finally:
            shard.resyncing = set()
            async with self._sub_lock:
                if shard.pubsub is pubsub:
                    shard.pubsub = None
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    def _pubsub_client(self, shard: _Shard) -> aioredis.Redis | PubSubLaneClient:
        """The client for the next pub/sub connection: the one Redis; on a cluster with sharded
        pub/sub the master of the shard's bucket, with plain pub/sub the next of its nodes (as
        redis-py last saw them, else the URL's), so a dead node is passed over.
        Where commits take the lane, so does pub/sub (:class:`meja.store.lane.PubSubLane`)."""
        if self._lane is not None:
            return PubSubLaneClient(self._lane)
        cluster = self._cluster_url
        if cluster is None:
            address = ("", 0)
        elif shard.bucket is not None:
            address, _ = self._node_client(self.keys.due(shard.bucket))
        else:
            known = self._redis.get_nodes() if isinstance(self._redis, RedisCluster) else []
            nodes = sorted({(n.host, int(n.port)) for n in known}) or list(cluster.nodes)
            address = nodes[self._pubsub_attempts % len(nodes)]
        self._pubsub_attempts += 1
        client = self._pubsub_clients.get(address)
        if client is None:
            url = self._url if cluster is None else cluster.node_url(*address)
            client = aioredis.Redis.from_url(
                url, socket_connect_timeout=5, socket_timeout=10, retry=Retry(NoBackoff(), 0)
            )
            self._pubsub_clients[address] = client
        return client

    def _deliver(self, shard: _Shard, channel: bytes, data: bytes) -> tuple[str, int, bytes] | None:
        """Queue what was published; a delta that does not apply to the record known of its table
        (the version before it unknown, or another record) gives ``(table id, version, entry)``:
        then read the record (:meth:`_read_missed`) before the next message."""
        table_id = self._channels.get(channel)
        if table_id is None or channel in shard.resyncing:
            return None  # unsubscribed since, or covered by the coming resync snapshot
        payload = _unpack(data)
        if payload[0] != SCHEMA:
            log.error("table %s: change with unknown store schema %r dropped", table_id, payload[0])
            return None
        if len(payload) == 3 and payload[1] == -1:
            self._queue.put_nowait(Note(table_id, bytes(payload[2])))
            return None
        version = int(payload[1])
        if version <= self._seen.get(table_id, -1):
            return None  # already covered by a resync snapshot
        if len(payload) == 5:  # [schema, version, nil, entry, delta]
            entry = bytes(payload[3])
            # This process's own commit (known since it committed), or made from the version before.
            made = self._base(table_id, version)
            if made is None:
                base = self._base(table_id, version - 1)
                made = None if base is None else delta.apply(base, payload[4])
            if made is None:
                self.delta_misses += 1
                return table_id, version, entry
            record = made
        else:
            record, entry = bytes(payload[2]), bytes(payload[3])
        self._seen[table_id] = version
        self._keep_base(table_id, version, record, heard=True)
        self._queue.put_nowait(Change(table_id, version, record, entry))
        return None

    async def _read_missed(self, table_id: str, version: int, entry: bytes) -> None:
        """The record of a change heard as a delta that had no base here: read it (with the log's
        last item, one script). Still at ``version``: the change, whole. Moved on since (or back,
        after lost writes): a resync ``Change`` of what was read, which says versions were skipped
        (the later changes, heard next, are dropped as covered). Redis out of reach: the listener
        starts over, and its resync covers this table too."""
        tk = self.keys.table(table_id)
        try:
            read, record, schema, item = await self._snapshot(keys=[tk.record, tk.log])
        except _FAILOVER_ERRORS as exc:
            raise _Reconnect(f"could not read a record a delta needed: {exc}") from exc
        if read is None or record is None or item is None or tk.channel.encode() not in self._channels:
            return  # the table is gone, or unsubscribed meanwhile
        self._check_schema(schema, table_id)
        read_version, record = int(read), _bytes(record)
        self._seen[table_id] = read_version
        self._bases.pop(table_id, None)  # (what was read is the truth: lost writes leave other records)
        self._keep_base(table_id, read_version, record, heard=True)
        if read_version == version:
            self._queue.put_nowait(Change(table_id, version, record, entry))
        else:
            _, logged = _unpack(_bytes(item))
            self._queue.put_nowait(Change(table_id, read_version, record, bytes(logged), resync=True))

    async def _resync(self, channels: Sequence[bytes]) -> None:
        """Yield a resync Change for each still-subscribed table. Read by a script per bucket
        and 256 tables (each table's record and last log item together, so they agree; one
        slot per call, as a cluster needs), the calls in parallel."""
        by_bucket: dict[int, list[str]] = {}
        for channel in channels:
            table_id = self._channels.get(channel)
            if table_id is not None:
                by_bucket.setdefault(self.keys.table(table_id).bucket, []).append(table_id)
        batches = [tables[i : i + 256] for tables in by_bucket.values() for i in range(0, len(tables), 256)]

        async def read(batch: list[str]) -> list[Any]:
            keys = [name for t in batch for name in (self.keys.table(t).record, self.keys.table(t).log)]
            return list(await self._snapshot(keys=keys))

        replies = await asyncio.gather(*(read(batch) for batch in batches))
        for batch, flat in zip(batches, replies, strict=True):
            for k, table_id in enumerate(batch):
                version, record, schema, item = flat[4 * k : 4 * k + 4]
                if version is None or record is None or item is None:
                    continue  # the table is gone
                if self.keys.table(table_id).channel.encode() not in self._channels:
                    continue  # unsubscribed meanwhile
                self._check_schema(schema, table_id)
                logged_version, entry = _unpack(_bytes(item))
                if int(logged_version) != int(version):
                    log.error("table %s: log ends at %s, record at %s", table_id, logged_version, version)
                # The snapshot is the truth, even below what was yielded before (Redis
                # restarted from an older snapshot): later changes compare against it.
                self._seen[table_id] = int(version)
                self._bases.pop(table_id, None)  # (the snapshot is the truth)
                self._keep_base(table_id, int(version), _bytes(record), heard=True)
                self._queue.put_nowait(Change(table_id, int(version), _bytes(record), bytes(entry), resync=True))

    def _check_schema(self, schema: bytes | str | None, table_id: str) -> None:
        if schema is not None and int(schema) != SCHEMA:
            raise ValueError(f"table {table_id!r} has store schema {int(schema)}, this server knows {SCHEMA}")
