"""Every Redis key and channel name the store uses, built here and nowhere else.

After arq's ``arq/constants.py``: one prefix (default ``"meja:"``) in front of
every name, so one Redis can hold several deployments (or test runs), and a
reader of ``KEYS meja:*`` sees everything Meja owns.

Buckets
-------
Every table belongs to one of :data:`BUCKETS` (16) buckets, and all its keys,
its room code's key and (on a cluster) the due set its due actions go to carry
its bucket's hash tag ``{<B>}``. So everything one commit touches lies in one
hash slot, and the store runs on a Redis Cluster as on one Redis, with the same
scripts. A table's bucket is :func:`bucket_of` its id; a room code's bucket is
:func:`bucket_of` the code, so a lookup by code knows where to look. The server
makes ids in their code's bucket (:func:`meja.server.rooms.new_table_id` draws
ids until the buckets agree, about 16 draws of 128 random bits); on one Redis
any pair works, on a cluster :meth:`RedisStore.create <meja.store.redis.RedisStore.create>`
refuses a pair whose buckets differ (their keys would be in two slots).

The bucket tags ``<B>`` (:func:`bucket_tag`: ``0.13``, ``1.18``, ...) are chosen
so that bucket ``b`` hashes to a slot in the middle of the ``b``-th sixteenth of
the 16,384 slots: a cluster whose masters hold equal runs of slots (what
``redis-cli --cluster create`` makes) holds equal numbers of buckets, give or
take one. 16 buckets spread tables over up to 16 masters; more would cost every
claim on a cluster more calls (see below).

Layout
------
``<B>`` is the bucket tag of the table (of the code for ``code:``):

=====================================  ======  ==================================================
name                                   type    contents
=====================================  ======  ==================================================
``meja:{<B>}:t:<T>:rec``               hash    ``v`` version, ``r`` record (opaque bytes),
                                               ``c`` the name of the room code's key,
                                               ``n`` nonces of the last 16 writes (newest
                                               first, end to end: retries, meja.store.redis),
                                               ``s`` layout schema (:data:`SCHEMA`)
``meja:{<B>}:t:<T>:log``               list    one item per version, index = version:
                                               msgpack ``[version, entry]``
``meja:{<B>}:t:<T>:ch``                chan    published on each commit: msgpack
                                               ``[SCHEMA, version, record, entry]``; and
                                               on each note (talk, call signals):
                                               ``[SCHEMA, -1, note]``
``meja:{<B>}:t:<T>:talk``              list    the notes kept for late comers (the last
                                               ``keep`` chat lines and reactions)
``meja:{<B>}:t:<T>:pres``              hash    who is in the table's call: field -> entry
``meja:{<B>}:code:<CODE>``             string  the table id holding room code ``CODE``
``meja:due`` (one Redis)               zset    due actions: member = the action's key,
``meja:{<B>}:due`` (cluster)                   score = due time (ms)
``meja:due:tables`` (one Redis)        hash    due action key -> its table id
``meja:{<B>}:due:tables`` (cluster)
``meja:{p}:proc:<id>``                 string  a server process's heartbeat (expires)
``meja:{p}:alive``                     string  the last time (ms) any server was alive
``meja:hit:<key>``                     string  a rate-limit counter (expires with its window)
``meja:{<A>}:arch:<ID>``               string  an archived match (opaque bytes, written once; expires
                                               on its own: ``archive_ttl_s``), ``<A>`` the
                                               bucket tag of the archive id
``meja:{<A>}:deal:<CODE>``             list    a deal board: one round's results per entry, newest
                                               first, the newest ``deal_board_size`` (expires
                                               ``deal_board_ttl_s`` after the last), ``<A>`` the
                                               bucket tag of the deal's short code
=====================================  ======  ==================================================

The table keys and the room code expire together (PEXPIRE on every create and
commit: the commit script finds the code's key by the name in ``c``, and the
talk and presence keys by the record's name, keys of the same slot). The due
sets and ``alive`` do not expire; due actions of an
expired table are dropped by the server when it claims them and finds no table.

One Redis or a cluster
----------------------
The layout is the same but for the due sets: one Redis keeps one due set
(``meja:due``), so claiming, the next due time and the counts are one command
whatever the number of tables; a cluster keeps one per bucket (``meja:{<B>}:due``,
in the slot of the tables whose commits schedule into it), and the store asks
all 16 (see :mod:`meja.store.redis`). Heartbeats share the tag ``{p}``, so the
heartbeat script and ``alive``'s MGET stay in one slot. A rate-limit counter is
one key: any slot. A table's channel carries its bucket tag too: on a cluster
the store publishes with SPUBLISH, which stays in the shard of the channel's slot
(see :mod:`meja.store.redis`).

Anything the store itself encodes is msgpack carrying a schema number
(:data:`SCHEMA`): the record hash's ``s`` field covers its log items; the
published payload carries it first. Never pickle. Schema 2 (this layout)
replaced schema 1 (``meja:{<T>}:rec`` ..., one tag per table, global due set
and code keys): a server of one schema does not see the tables of the other,
so upgrade all processes together, between games if tables must survive.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS
from redis.crc import key_slot as _redis_key_slot

__all__ = ["BUCKETS", "DEFAULT_PREFIX", "SCHEMA", "Keys", "TableKeys", "bucket_of", "bucket_tag", "key_slot"]

#: The prefix of every key and channel unless configured otherwise.
DEFAULT_PREFIX = "meja:"

#: Version of the store's own layout and encodings (record hash, log items, payloads).
SCHEMA = 2

#: How many buckets tables are spread over (part of the layout: changing it is a schema change).
BUCKETS = 16

#: Hash slots of a Redis Cluster.
SLOTS = REDIS_CLUSTER_HASH_SLOTS


def key_slot(key: str) -> int:
    """The Redis Cluster hash slot of ``key`` (its hash tag's, if it has one): redis-py's own."""
    return _redis_key_slot(key.encode(), SLOTS)


def _make_tags() -> tuple[str, ...]:
    """For each bucket ``b`` the first tag ``"<b>.<i>"`` whose slot lies in the middle half
    of the ``b``-th run of ``SLOTS / BUCKETS`` slots (deterministic: every process agrees)."""
    tags = []
    width = SLOTS // BUCKETS
    for b in range(BUCKETS):
        low, high = b * width + width // 4, (b + 1) * width - width // 4
        i = 0
        while not low <= key_slot(f"{b}.{i}") < high:  # a tag has no braces: its own slot
            i += 1
        tags.append(f"{b}.{i}")
    return tuple(tags)


_TAGS = _make_tags()


def bucket_of(text: str) -> int:
    """The bucket of a table id or a room code: CRC-32 of its UTF-8 bytes, modulo :data:`BUCKETS`."""
    return zlib.crc32(text.encode()) % BUCKETS


def bucket_tag(bucket: int) -> str:
    """The hash tag (without braces) of ``bucket``'s keys."""
    return _TAGS[bucket]


@dataclass(frozen=True, slots=True)
class TableKeys:
    """The names belonging to one table (all in its bucket's hash slot).

    ``due`` and ``due_tables`` are the due set its commits schedule into: the
    bucket's on a cluster, the one global set on one Redis.
    """

    bucket: int
    record: str
    log: str
    channel: str
    due: str
    due_tables: str
    #: talk at the table (:meth:`meja.store.base.Store.publish` with ``keep``) and who is in its call
    talk: str = ""
    presence: str = ""


@dataclass(frozen=True, slots=True)
class Keys:
    """Key and channel names under one prefix; ``cluster`` selects the due sets per bucket.

    >>> k = Keys()
    >>> k.table("T1").record, k.code("ABC123"), k.due()
    ('meja:{5.68}:t:T1:rec', 'meja:{0.13}:code:ABC123', 'meja:due')
    >>> Keys(cluster=True).table("T1").due
    'meja:{5.68}:due'
    """

    prefix: str = DEFAULT_PREFIX
    cluster: bool = False

    def table(self, table_id: str) -> TableKeys:
        """The keys of table ``table_id``; braces in the id are refused (they would look like a tag)."""
        return _table_keys(self.prefix, self.cluster, table_id)

    def code(self, code: str) -> str:
        """The key mapping room code ``code`` to its table id (in the code's bucket)."""
        return f"{self.prefix}{{{_TAGS[bucket_of(code)]}}}:code:{code}"

    def due(self, bucket: int | None = None) -> str:
        """The sorted set of due actions (score: due time in ms): ``bucket``'s on a cluster."""
        if self.cluster:
            if bucket is None:
                raise ValueError("a cluster has one due set per bucket: say which")
            return f"{self.prefix}{{{_TAGS[bucket]}}}:due"
        return f"{self.prefix}due"

    def due_tables(self, bucket: int | None = None) -> str:
        """The hash from due action key to table id, beside :meth:`due`."""
        return f"{self.due(bucket)}:tables"

    @property
    def due_buckets(self) -> list[int | None]:
        """The due sets to look at: every bucket on a cluster, the one set (``None``) on one Redis."""
        return list(range(BUCKETS)) if self.cluster else [None]

    def proc(self, process_id: str) -> str:
        """The heartbeat key of server process ``process_id``."""
        return f"{self.prefix}{{p}}:proc:{process_id}"

    @property
    def alive(self) -> str:
        """The last time (ms) any server was alive."""
        return f"{self.prefix}{{p}}:alive"

    def archive(self, archive_id: str) -> str:
        """The key of archived match ``archive_id`` (one key: any slot; tagged by the id's bucket)."""
        if not archive_id or "{" in archive_id or "}" in archive_id:
            raise ValueError(f"archive id must be non-empty and without braces: {archive_id!r}")
        return f"{self.prefix}{{{_TAGS[bucket_of(archive_id)]}}}:arch:{archive_id}"

    def deal(self, code: str) -> str:
        """The key of deal board ``code`` (a deal's short code; one key: any slot; tagged by its bucket)."""
        if not code or "{" in code or "}" in code:
            raise ValueError(f"deal code must be non-empty and without braces: {code!r}")
        return f"{self.prefix}{{{_TAGS[bucket_of(code)]}}}:deal:{code}"

    def hit(self, key: str) -> str:
        """The counter of rate-limit window ``key``."""
        return f"{self.prefix}hit:{key}"

    def table_id_of_channel(self, channel: str) -> str | None:
        """The table id in a channel name built by :meth:`table`, or ``None``."""
        head, tail = f"{self.prefix}{{", ":ch"
        if not (channel.startswith(head) and channel.endswith(tail)):
            return None
        tag, sep, rest = channel[len(head) : -len(tail)].partition("}:t:")
        return rest if sep and rest and tag in _TAGS else None


@lru_cache(maxsize=8192)
def _table_keys(prefix: str, cluster: bool, table_id: str) -> TableKeys:
    # Cached: every commit asks, and a process serves the same tables again and again.
    if not table_id or "{" in table_id or "}" in table_id:
        raise ValueError(f"table id must be non-empty and without braces: {table_id!r}")
    bucket = bucket_of(table_id)
    tag = _TAGS[bucket]
    base = f"{prefix}{{{tag}}}:t:{table_id}"
    due = f"{prefix}{{{tag}}}:due" if cluster else f"{prefix}due"
    return TableKeys(
        bucket, f"{base}:rec", f"{base}:log", f"{base}:ch", due, f"{due}:tables", f"{base}:talk", f"{base}:pres"
    )
