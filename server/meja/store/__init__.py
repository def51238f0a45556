"""Where tables live: the Store contract (:mod:`meja.store.base`) and its two implementations.

``open_store(url)`` picks one by URL:

==========================================  ==========================================
``None``, ``""`` or ``memory://``           :class:`~meja.store.memory.MemoryStore`:
                                            in this process only, nothing survives it
``redis://``, ``rediss://``, ``unix://``    :class:`~meja.store.redis.RedisStore`:
                                            shared by any number of server processes
``redis+cluster://host:port[,host:port]``   a RedisStore on a Redis Cluster, found
``rediss+cluster://...``                    from any of the nodes named (TLS: rediss)
==========================================  ==========================================

A cluster needs nothing more: every table's keys share a hash tag (see
:mod:`meja.store.keys`), and a cluster URL takes the same credentials and
query parameters as a plain one (``redis+cluster://:secret@10.0.0.5:7000,10.0.0.6:7000``).

A Redis URL may carry ``prefix=<p>`` in its query string: every key and channel
name then starts with ``<p>`` instead of ``meja:`` (several deployments, or test
runs, can share one Redis that way). The other query parameters are redis-py's.

The store is both a plain object and an async context manager::

    async with open_store(settings.store_url) as store:
        ...                                # closed on the way out

    store = open_store(url)                # or by hand
    try: ...
    finally: await store.aclose()

Opening does no I/O: a RedisStore connects on its first command, so a wrong
address shows up there (as a ``redis.exceptions.ConnectionError``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meja.store.base import Change, Due, Note, Store
from meja.store.keys import DEFAULT_PREFIX
from meja.store.memory import MemoryStore

if TYPE_CHECKING:
    from meja.store.redis import RedisStore

__all__ = ["URL_SCHEMES", "Change", "Due", "MemoryStore", "Note", "Store", "open_store"]

_REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")

#: Every scheme :func:`open_store` understands (for checking a setting early).
URL_SCHEMES = ("memory", *_REDIS_SCHEMES)


def open_store(url: str | None, *, prefix: str | None = None, replica_wait_ms: int = 1000) -> MemoryStore | RedisStore:
    """The store for ``url`` (see the module docstring); ``prefix`` overrides the URL's;
    ``replica_wait_ms``: how long a commit's WAIT waits for a replica (RedisStore; 0: no wait).

    Raises :class:`ValueError` for an unknown scheme.
    """
    if not url or url == "memory://":
        return MemoryStore()
    scheme, sep, _ = url.partition("://")
    if not sep or scheme not in _REDIS_SCHEMES:
        raise ValueError(f"unknown store url scheme {scheme!r} in {url!r}")
    redis_url, url_prefix = _take_prefix(url)
    chosen = prefix if prefix is not None else (url_prefix if url_prefix is not None else DEFAULT_PREFIX)
    # Imported here so that the embedded mode never loads redis-py.
    from meja.store.redis import RedisStore

    return RedisStore(redis_url, prefix=chosen, replica_wait_ms=replica_wait_ms)


def _take_prefix(url: str) -> tuple[str, str | None]:
    """Split ``prefix=...`` off the query string (plain string work: the layering test
    keeps ``urllib`` out of the store). A percent-encoded prefix is not decoded."""
    base, sep, query = url.partition("?")
    if not sep:
        return url, None
    prefix = None
    rest = []
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name == "prefix":
            prefix = value
        elif pair:
            rest.append(pair)
    return (f"{base}?{'&'.join(rest)}" if rest else base), prefix
