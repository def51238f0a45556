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
from itertools import compress
from operator import is_not, ne
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

__all__ = ["Memo", "Part", "apply", "diff", "message", "packer", "parts", "same", "spliced"]

_Pack = Callable[[Any], bytes]
_Known = tuple[tuple[Any, ...], list[Any], list[bytes]]
#: Some of a patch's operations, and their encodings end to end (what :func:`message` splices in).
Part = tuple[list[list[Any]], bytes]
_MISSING: Final = object()


class Memo:
    """What :func:`diff` learnt, for the calls that follow: a caller that diffs the same maps again
    (one table map against many connections' last ones, the next version against this one) or
    many maps that change alike (the views of a table's seats, one move apart) passes one.

    ``maps``: by ``id`` of a map given to :func:`diff` (the map itself kept, so the id stays its
    own), its keys in order, its values and each value's encoding: a map is encoded once however
    many times it is diffed. ``changes``: the operations found for a key of such a map whose value
    went from one encoding to another, and their encodings, by the path, the key and the two
    encodings: where ten seats' views change alike (a count, the top card), the change is walked and
    encoded once.
    """

    __slots__ = ("changes", "maps")

    def __init__(self) -> None:
        self.maps: dict[int, tuple[Any, _Known]] = {}
        self.changes: dict[tuple[Any, ...], Part] = {}

    def keep(self, *maps: Any) -> Memo:
        """A memo with what this one knows of ``maps`` (those the next calls will diff against;
        ``None`` is passed over), and no changes (they were this version's)."""
        kept = Memo()
        for value in maps:
            got = self.maps.get(id(value))
            if got is not None and got[0] is value:
                kept.maps[id(value)] = got
        return kept


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


def packer() -> Callable[[Any], bytes]:
    """An encoder that gives :func:`meja.protocol.codec.encode`'s bytes, cheaper per call (one
    packer reused): for a caller that encodes many small values, as :func:`diff` and the hub's
    patches do."""
    encode: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack
    return encode


def diff(
    old: Any, new: Any, memo: Memo | None = None, path: Sequence[Any] = (), *, pack: _Pack | None = None
) -> list[list[Any]]:
    """The operations that turn ``old`` into ``new`` (``[]``: they are the same); ``path``: where
    both are in a larger document (the operations' paths start with it).

    Values are compared by their encodings, which is what the wire carries: a value that is the
    very object the old one was is the same; any other is encoded and compared as bytes, so values
    that are ``==`` but not the same (``1``, ``1.0``, ``true``; ``0.0`` and ``-0.0``) differ, and
    only what differs is walked further. ``pack``: a :func:`packer` to use (a caller that diffs many values
    passes one)."""
    pack = pack or packer()
    if memo is not None:
        return [op for part in parts(old, new, memo, path, pack=pack) for op in part[0]]
    ops: list[list[Any]] = []
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_maps(old, new, list(path), ops, pack)
    elif old is not new and pack(old) != pack(new):
        _changed(old, new, list(path), ops, pack)
    return ops


def parts(old: Any, new: Any, memo: Memo, path: Sequence[Any] = (), *, pack: _Pack | None = None) -> list[Part]:
    """:func:`diff`'s operations in parts, each with its operations' encodings (for :func:`message`):
    two maps' changed keys each make a part, shared through ``memo`` by every map that changed alike
    (encoded once)."""
    pack = pack or packer()
    if isinstance(old, dict) and isinstance(new, dict):
        found = _diff_roots(old, new, tuple(path), pack, memo)
        if found is not None:
            return found
    ops = diff(old, new, None, path, pack=pack)
    return [(ops, b"".join(map(pack, ops)))] if ops else []


def message(fields: dict[str, Any], found: Sequence[Part], pack: _Pack) -> bytes:
    """The bytes of a ``patch`` message whose operations are those of ``found``, their encodings
    spliced in, not encoded again: ``fields`` is the message with ``patch`` last and empty (it is
    encoded with it, and the empty list's one byte replaced). The bytes
    :func:`meja.protocol.codec.encode` gives for the same message with the operations in place."""
    head = pack(fields)
    if not head.endswith(_EMPTY_PATCH):
        raise ValueError("the message's last field must be an empty patch")
    return spliced(head[:-1], found)


def spliced(head: bytes, found: Sequence[Part]) -> bytes:
    """:func:`message` from the message's encoding up to its ``patch`` field's value (``head``: a
    map's header, then its keys and values end to end, the key ``"patch"`` last), for a caller that
    builds it from pieces encoded once for many messages."""
    count = sum([len(part[0]) for part in found])
    return b"".join([head, _array_header(count), *[part[1] for part in found]])


_EMPTY_PATCH: Final = b"\xa5patch\x90"  # ``"patch": []``, encoded


def _array_header(n: int) -> bytes:
    """msgpack's header of an array of ``n`` items."""
    if n < 16:
        return bytes((0x90 | n,))
    if n < 0x10000:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def _known(value: dict[str, Any], memo: Memo, pack: _Pack) -> _Known:
    """``value``'s keys, values and their encodings, from ``memo`` if it has them (then kept there)."""
    got = memo.maps.get(id(value))
    if got is None or got[0] is not value:
        values = list(value.values())
        got = memo.maps[id(value)] = (value, (tuple(value), values, list(map(pack, values))))
    return got[1]


def _diff_roots(
    old: dict[str, Any], new: dict[str, Any], root: tuple[Any, ...], pack: _Pack, memo: Memo
) -> list[Part] | None:
    """:func:`_diff_maps` of two maps given to :func:`diff` with a memo: the old one's encodings from
    it (the new one's kept there: where a value is the very object the old map held, its encoding),
    and each changed key's operations looked up there (found for another map that changed alike:
    the seats' views) or kept. ``None``: the two maps' keys differ (not in the same order)."""
    old_keys, olds, old_packed = _known(old, memo, pack)
    got = memo.maps.get(id(new))
    if got is not None and got[0] is new:
        keys, values, packed = got[1]
        if keys != old_keys:
            return None
        changed = list(compress(range(len(keys)), map(ne, old_packed, packed)))
    else:
        keys, values = tuple(new), list(new.values())
        if keys != old_keys:
            memo.maps[id(new)] = (new, (keys, values, list(map(pack, values))))
            return None
        packed, changed = _encodings(olds, values, old_packed, pack)
        memo.maps[id(new)] = (new, (keys, values, packed))
    changes = memo.changes
    out = []
    for i in changed:
        key = (root, keys[i], old_packed[i], packed[i])
        found = changes.get(key)
        if found is None:
            ops: list[list[Any]] = []
            _changed(olds[i], values[i], [*root, keys[i]], ops, pack)
            found = changes[key] = (ops, b"".join(map(pack, ops)))
        out.append(found)
    return out


def _encodings(
    olds: list[Any], values: list[Any], old_packed: list[bytes], pack: _Pack
) -> tuple[list[bytes], list[int]]:
    """The encodings of ``values`` and the indexes where they differ from ``old_packed`` (those of
    ``olds``): a value that is the very object the old one was (a string from a table of
    constants, a small int, a flag) is not encoded again."""
    packed = old_packed.copy()
    changed = []
    for i in compress(range(len(values)), map(is_not, olds, values)):
        packed[i] = encoded = pack(values[i])
        if encoded != old_packed[i]:
            changed.append(i)
    return packed, changed


def _diff_maps(old: dict[str, Any], new: dict[str, Any], path: list[Any], ops: list[list[Any]], pack: _Pack) -> None:
    """A map's operations: its deleted keys, then each key whose value's encoding changed or is new."""
    keys, values = tuple(new), list(new.values())
    if keys == tuple(old):  # the usual case: the same keys in the same order
        olds = list(old.values())
        for i in compress(range(len(keys)), map(is_not, olds, values)):
            if pack(olds[i]) != pack(values[i]):
                _changed(olds[i], values[i], [*path, keys[i]], ops, pack)
        return
    for key in old:
        if key not in new:
            ops.append(["d", [*path, key]])
    for key, value in zip(keys, values, strict=True):
        was = old.get(key, _MISSING)
        if was is _MISSING:
            ops.append(["s", [*path, key], value])
        elif was is not value and pack(was) != pack(value):
            _changed(was, value, [*path, key], ops, pack)


def _changed(old: Any, new: Any, path: list[Any], ops: list[list[Any]], pack: _Pack) -> None:
    """The operations at ``path``, where ``old`` and ``new`` are encoded differently: a map or a
    list on both sides is walked, anything else is set whole."""
    if isinstance(new, dict) and isinstance(old, dict):
        _diff_maps(old, new, path, ops, pack)
    elif isinstance(new, list) and isinstance(old, list):
        _diff_lists(old, new, path, ops, pack)
    else:
        ops.append(["s", path, new])


def _diff_lists(old: list[Any], new: list[Any], path: list[Any], ops: list[list[Any]], pack: _Pack) -> None:
    """A list of the same length item by item; any other keeps its common head and replaces its tail."""
    n = len(new)
    if len(old) == n:
        for i in compress(range(n), map(is_not, old, new)):
            if pack(old[i]) != pack(new[i]):
                _changed(old[i], new[i], [*path, i], ops, pack)
        return
    head = min(n, len(old))
    for i in compress(range(head), map(is_not, old, new)):
        if pack(old[i]) != pack(new[i]):
            head = i
            break
    ops.append(["t", path, head, new[head:]])


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
