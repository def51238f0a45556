"""Applying the patch form of an update (PROTOCOL.md 7.5): the client's side, on its own.

A ``patch`` message's ``patch`` is a list of operations on the document
``{"table": <table map>, "view": <view>}`` this connection was last sent:
``["s", path, value]`` sets a map key or list index, ``["d", path]`` deletes a
map key, ``["t", path, n, items]`` keeps a list's first ``n`` items and appends
``items``. A path is the map keys and list indexes from the document's root.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

__all__ = ["PatchError", "apply_patch"]


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to (the server broke the protocol)."""


def apply_patch(document: Any, operations: Sequence[Any]) -> Any:
    """``document`` with ``operations`` applied, as a new value: ``document`` is not changed. Only
    the maps and lists on the operations' paths are copied; the rest is shared with ``document``
    (treat both as read-only)."""
    fresh: set[int] = set()  # ids of the containers copied by this call: changed in place

    def own(value: Any) -> Any:
        if id(value) in fresh or not isinstance(value, dict | list):
            return value
        value = copy.copy(value)
        fresh.add(id(value))
        return value

    def walk(path: Sequence[Any]) -> Any:
        node = out
        for key in path:
            in_map = isinstance(node, dict) and isinstance(key, str) and key in node
            if not (in_map or (isinstance(node, list) and type(key) is int and 0 <= key < len(node))):
                raise PatchError(f"no {key!r} on the path {path!r}")
            node[key] = own(node[key])
            node = node[key]
        return node

    out = own(document)
    for operation in operations:
        if not isinstance(operation, list) or len(operation) < 2 or not isinstance(operation[1], list):
            raise PatchError(f"not an operation: {operation!r}")
        name, path = operation[0], operation[1]
        if name == "t" and len(operation) == 4:
            items = walk(path)
            keep = operation[2]
            if not isinstance(items, list) or type(keep) is not int or not 0 <= keep <= len(items):
                raise PatchError(f"cannot splice at {path!r}")
            items[keep:] = operation[3]
        elif name == "s" and len(operation) == 3 and not path:
            out = own(operation[2])
        elif (name, len(operation)) in (("s", 3), ("d", 2)) and path:
            holder, key = walk(path[:-1]), path[-1]
            if isinstance(holder, dict) and isinstance(key, str) and (name == "s" or key in holder):
                if name == "s":
                    holder[key] = operation[2]
                else:
                    del holder[key]
            elif name == "s" and isinstance(holder, list) and type(key) is int and 0 <= key < len(holder):
                holder[key] = operation[2]
            else:
                raise PatchError(f"nothing at {path!r} for {name!r}")
        else:
            raise PatchError(f"unknown operation: {operation!r}")
    return out
