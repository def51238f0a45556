"""Every Redis key and channel name the store uses, built here and nowhere else.

After arq's ``arq/constants.py``: one prefix (default ``"meja:"``) in front of
every name, so one Redis can hold several deployments (or test runs), and a
reader of ``KEYS meja:*`` sees everything Meja owns.

All keys of one table carry the hash tag ``{<table_id>}``, so a later Redis
Cluster keeps a table's keys in one slot:

===============================  ======  ==================================================
name                             type    contents
===============================  ======  ==================================================
``meja:{T}:rec``                 hash    ``v`` version, ``r`` record (opaque bytes),
                                         ``c`` room code, ``n`` nonce of the last write,
                                         ``s`` layout schema (:data:`SCHEMA`)
``meja:{T}:log``                 list    one item per version, index = version:
                                         msgpack ``[version, entry]``
``meja:{T}:ch``                  chan    PUBLISHed on each commit: msgpack
                                         ``[SCHEMA, version, record, entry]``
``meja:code:<CODE>``             string  the table id holding room code ``CODE``
``meja:due``                     zset    due actions: member = the action's key,
                                         score = due time (ms)
``meja:due:tables``              hash    due action key -> its table id
``meja:proc:<id>``               string  a server process's heartbeat (expires)
``meja:alive``                   string  the last time (ms) any server was alive
``meja:hit:<key>``               string  a rate-limit counter (expires with its window)
===============================  ======  ==================================================

The table keys and the room code expire together (PEXPIRE on every create and
commit). ``meja:due``, ``meja:due:tables`` and ``meja:alive`` are global and do
not expire; due actions of an expired table are dropped by the server when it
claims them and finds no table.

Cluster note: the commit script also touches the global due set and the room
code key, and builds the room code key's name from the record hash; a Redis
Cluster deployment would need a due set per slot and the code key passed in.
Everything runs on one Redis (or a replicated primary) today.

Anything the store itself encodes is msgpack carrying a schema number
(:data:`SCHEMA`): the record hash's ``s`` field covers its log items; the
published payload carries it first. Never pickle.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_PREFIX", "SCHEMA", "Keys", "TableKeys"]

#: The prefix of every key and channel unless configured otherwise.
DEFAULT_PREFIX = "meja:"

#: Version of the store's own layout and encodings (record hash, log items, payloads).
SCHEMA = 1


@dataclass(frozen=True, slots=True)
class TableKeys:
    """The names belonging to one table (all in the table's hash slot)."""

    record: str
    log: str
    channel: str


@dataclass(frozen=True, slots=True)
class Keys:
    """Key and channel names under one prefix.

    >>> k = Keys()
    >>> k.table("T1").record, k.code("ABC123"), k.due
    ('meja:{T1}:rec', 'meja:code:ABC123', 'meja:due')
    """

    prefix: str = DEFAULT_PREFIX

    def table(self, table_id: str) -> TableKeys:
        """The keys of table ``table_id``; braces in the id would break the hash tag."""
        if not table_id or "{" in table_id or "}" in table_id:
            raise ValueError(f"table id must be non-empty and without braces: {table_id!r}")
        base = f"{self.prefix}{{{table_id}}}"
        return TableKeys(record=f"{base}:rec", log=f"{base}:log", channel=f"{base}:ch")

    def code(self, code: str) -> str:
        """The key mapping room code ``code`` to its table id."""
        return f"{self.prefix}code:{code}"

    @property
    def code_prefix(self) -> str:
        """What :meth:`code` puts before the code (the commit script builds the name)."""
        return f"{self.prefix}code:"

    @property
    def due(self) -> str:
        """The sorted set of due actions (score: due time in ms)."""
        return f"{self.prefix}due"

    @property
    def due_tables(self) -> str:
        """The hash from due action key to table id."""
        return f"{self.prefix}due:tables"

    def proc(self, process_id: str) -> str:
        """The heartbeat key of server process ``process_id``."""
        return f"{self.prefix}proc:{process_id}"

    @property
    def alive(self) -> str:
        """The last time (ms) any server was alive."""
        return f"{self.prefix}alive"

    def hit(self, key: str) -> str:
        """The counter of rate-limit window ``key``."""
        return f"{self.prefix}hit:{key}"

    def table_id_of_channel(self, channel: str) -> str | None:
        """The table id in a channel name built by :meth:`table`, or ``None``."""
        head = f"{self.prefix}{{"
        if channel.startswith(head) and channel.endswith("}:ch"):
            return channel[len(head) : -len("}:ch")]
        return None
