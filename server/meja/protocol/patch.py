"""Structural diffs of msgpack values: what an ``update`` in the patch form carries (PROTOCOL.md 7.5).

Pure and game-free: :func:`diff` compares two decoded msgpack values (maps with
string keys, lists, and scalars) and :func:`apply` replays the result on a copy
of the old one. A patch is a list of operations, each a list whose first item
names it and whose second is a *path* (map keys and list indexes from the
root):

- ``["s", path, value]``: set the map key or list index at ``path`` to ``value``
  (the key may be new; an index is one the list has);
- ``["d", path]``: delete the map key at ``path``;
- ``["t", path, n, items]``: the list at ``path`` keeps its first ``n`` items
  and then ``items`` are appended (a splice of the tail).

Why so little: maps are compared key by key (a view is a map of named fields,
and a move changes a few of them); a list of the same length is compared item by
item (a list of seats), and any other list keeps its common head and replaces
its tail (a hand that lost or drew a card, a pile that grew). No moves, no
longest-common-subsequence: the diff is linear, deterministic, and an outside
client applies it in a few lines. Values are compared strictly (``1``, ``1.0``
and ``true`` differ, as msgpack encodes them differently), so applying the
patch gives exactly the new value (a map's new keys come after its old ones:
the order of a map's keys means nothing).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

__all__ = ["Memo", "apply", "diff", "same"]

#: Maps and lists found equal (``==``) to their old selves, encoded, by ``id`` (the value itself kept
#: with its bytes, so the id stays its own): a caller that diffs the same values again (one table map
#: against many connections' last ones, or the next version against this one) passes one, and each
#: is encoded once.
Memo = dict[int, tuple[Any, bytes]]


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same msgpack value (types compared, not just ``==``)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return bool(a.hex() == b.hex())  # -0.0 is not 0.0
    return bool(a == b)


def diff(old: Any, new: Any, memo: Memo | None = None, path: Sequence[Any] = ()) -> list[list[Any]]:
    """The operations that turn ``old`` into ``new`` (``[]``: they are the same); ``path``: where
    both are in a larger document (the operations' paths start with it)."""
    ops: list[list[Any]] = []
    pack = msgpack.Packer(use_bin_type=True).pack  # one packer for the call (several times faster than packb)
    _diff(old, new, list(path), ops, {} if memo is None else memo, pack)
    return ops


def _packed(value: Any, memo: Memo, pack: Callable[[Any], bytes]) -> bytes:
    got = memo.get(id(value))
    if got is None or got[0] is not value:
        got = memo[id(value)] = (value, pack(value))
    return got[1]


#: the types whose ``==`` is loose (``[1] == [1.0] == [True]``, ``-0.0 == 0.0``): equal ones are
#: compared encoded too
_LOOSE: Final = (dict, list, float)
_MISSING: Final = object()


def _diff(old: Any, new: Any, path: list[Any], ops: list[list[Any]], memo: Memo, pack: Callable[[Any], bytes]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append(["d", [*path, key]])
        # Each value: ``==`` in C first; where it is loose, the encodings (msgpack tells ``1``,
        # ``1.0`` and ``true`` apart); only a changed map or list is walked.
        for key, value in new.items():
            was = old.get(key, _MISSING)
            if was is value:
                continue
            kind = type(value)
            if type(was) is kind:
                if was == value and (kind not in _LOOSE or _packed(was, memo, pack) == _packed(value, memo, pack)):
                    continue
                if kind is dict or kind is list:
                    _diff(was, value, [*path, key], ops, memo, pack)
                    continue
            ops.append(["s", [*path, key], value])
        return
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                _diff(a, b, [*path, i], ops, memo, pack)
            return
        head = 0
        for a, b in zip(old, new, strict=False):
            if not same(a, b):
                break
            head += 1
        ops.append(["t", path, head, new[head:]])
        return
    if not same(old, new):
        ops.append(["s", path, new])


def apply(old: Any, ops: Sequence[Sequence[Any]]) -> Any:
    """``old`` with ``ops`` applied (``old`` itself is not changed). ``ValueError``: a patch that
    does not fit ``old`` (a path that is not there, an unknown operation)."""
    root = copy.deepcopy(old)
    for op in ops:
        if not isinstance(op, list | tuple) or len(op) < 2 or not isinstance(op[1], list | tuple):
            raise ValueError(f"not a patch operation: {op!r}")
        kind, path = op[0], list(op[1])
        if kind == "t" and len(op) == 4:
            target = _at(root, path)
            if not isinstance(target, list) or not isinstance(op[2], int) or not 0 <= op[2] <= len(target):
                raise ValueError(f"no list to splice at {path!r}")
            del target[op[2] :]
            target.extend(copy.deepcopy(list(op[3])))
            continue
        if not path:
            if kind != "s" or len(op) != 3:
                raise ValueError(f"bad operation on the root: {op!r}")
            root = copy.deepcopy(op[2])
            continue
        parent, last = _at(root, path[:-1]), path[-1]
        if kind == "s" and len(op) == 3:
            if _has(parent, last, new=True):
                parent[last] = copy.deepcopy(op[2])
            else:
                raise ValueError(f"nothing to set at {path!r}")
        elif kind == "d" and len(op) == 2:
            if not isinstance(parent, dict) or last not in parent:
                raise ValueError(f"no key to delete at {path!r}")
            del parent[last]
        else:
            raise ValueError(f"unknown patch operation: {op!r}")
    return root


def _at(root: Any, path: Sequence[Any]) -> Any:
    node = root
    for step in path:
        if _has(node, step):
            node = node[step]
        else:
            raise ValueError(f"no {step!r} on the patch's path {list(path)!r}")
    return node


def _has(node: Any, step: Any, *, new: bool = False) -> bool:
    """Whether ``step`` names a place in ``node``: a key of a map (any string, when ``new``), an index of a list."""
    if isinstance(node, dict):
        return isinstance(step, str) and (new or step in node)
    return isinstance(node, list) and type(step) is int and 0 <= step < len(node)
