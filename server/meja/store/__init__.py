"""Where tables live: the Store contract (:mod:`meja.store.base`) and its two implementations.

``open_store(url)`` picks one by URL:

==========================================  ==========================================
``None``, ``""`` or ``memory://``           :class:`~meja.store.memory.MemoryStore`:
                                            in this process only, nothing survives it
``redis://``, ``rediss://``, ``unix://``    :class:`~meja.store.redis.RedisStore`:
                                            shared by any number of server processes
==========================================  ==========================================

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
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from meja.store.base import Change, Due, Store
from meja.store.keys import DEFAULT_PREFIX
from meja.store.memory import MemoryStore

if TYPE_CHECKING:
    from meja.store.redis import RedisStore

__all__ = ["Change", "Due", "MemoryStore", "Store", "open_store"]

_REDIS_SCHEMES = ("redis", "rediss", "unix")


def open_store(url: str | None, *, prefix: str | None = None) -> MemoryStore | RedisStore:
    """The store for ``url`` (see the module docstring); ``prefix`` overrides the URL's.

    Raises :class:`ValueError` for an unknown scheme.
    """
    if not url or url == "memory://":
        return MemoryStore()
    parts = urlsplit(url)
    if parts.scheme not in _REDIS_SCHEMES:
        raise ValueError(f"unknown store url scheme {parts.scheme!r} in {url!r}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    url_prefix = [v for k, v in query if k == "prefix"]
    rest = [(k, v) for k, v in query if k != "prefix"]
    chosen = prefix if prefix is not None else (url_prefix[-1] if url_prefix else DEFAULT_PREFIX)
    # Imported here so that the embedded mode never loads redis-py.
    from meja.store.redis import RedisStore

    return RedisStore(urlunsplit(parts._replace(query=urlencode(rest))), prefix=chosen)
