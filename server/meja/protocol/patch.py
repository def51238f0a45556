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
from operator import is_, is_not, itemgetter
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

__all__ = [
    "Memo", "Part", "apply", "array_header", "diff", "message", "packer", "parts", "same", "small_part",
    "spliced",
]  # fmt: skip

_Pack = Callable[[Any], bytes]
#: Some of a patch's operations, and their encodings end to end (what :func:`message` splices in).
Part = tuple[list[list[Any]], bytes]
_MISSING: Final = object()
#: The part of two values encoded alike: no operations.
_SAME: Final[Part] = ([], b"")


class Memo:
    """What :func:`diff` learnt, for the calls that follow while it lives: a caller that diffs many
    maps that change alike (the views of a table's seats, one move apart, which share their public
    values) or the same maps again passes one (the hub: one a version).

    Two maps with the same keys in the same order are compared in a few calls into C, with no
    Python step per key: which values are not the very objects the old map held, and those
    values' keys and objects. The changed keys and the ids of their old and new values are the
    signature of the change: a map whose signature another map had gets that map's part (its
    operations and their encodings) with nothing encoded or walked (``found``; the map just before
    is checked first, with no signature built: ``last``). A signature seen for the first time is
    walked key by key (``keyed``: by the path, the key and the ids of the two values, that key's
    operations, ``None`` where the values are encoded alike), so a key that changed alike in maps
    whose other changes differ (a seat's own hand) is walked once, and its operations encoded in
    one call; a list or map that changed is walked once however many objects made the same change
    (``changes``, by the path, the key and the two encodings).

    Every map given is kept (``alive``) while the memo lives, so the ids it knows stay theirs:
    make one for a batch of diffs and drop it. What the next batch may use, when its old maps are
    this batch's new ones (the hub's next version), is :meth:`after`'s: the new maps' keys and the
    new values' encodings, each with its object (so a map or value met again is known by ``is``).
    """

    __slots__ = ("alive", "before", "changes", "encoded", "found", "keyed", "keys", "last", "old_keys")

    def __init__(self) -> None:
        self.found: dict[tuple[Any, ...], Part] = {}
        self.keyed: dict[tuple[Any, ...], list[list[Any]] | None] = {}
        self.changes: dict[tuple[Any, ...], list[list[Any]]] = {}
        self.alive: list[tuple[Any, Any]] = []
        #: by ``id``: each new map's keys, and each changed key's new value's encoding (with the
        #: map or value itself); ``old_keys`` and ``before``: the same of the batch before
        self.keys: dict[int, tuple[Any, tuple[str, ...]]] = {}
        self.encoded: dict[int, tuple[Any, bytes]] = {}
        self.old_keys: dict[int, tuple[Any, tuple[str, ...]]] = {}
        self.before: dict[int, tuple[Any, bytes]] = {}
        #: the last map pair's change: its root, keys, which values changed, a reader of the changed
        #: values with their old and new objects, and its part (the next map, as often as not,
        #: changed alike: it is checked in a few calls, no signature built)
        self.last: tuple[tuple[Any, ...], tuple[str, ...], list[bool], tuple[Any, ...], Part] | None = None

    def after(self) -> Memo:
        """A memo for the next batch, whose old maps are this one's new ones: it knows their keys
        and their changed values' encodings (and holds nothing else of this batch)."""
        memo = Memo()
        memo.old_keys, memo.before = self.keys, self.encoded
        return memo

    def part(self, old: Any, new: Any, root: tuple[Any, ...], pack: _Pack) -> Part:
        """The operations that turn ``old`` into ``new`` (at ``root``), with their encodings end to
        end: :func:`diff`'s, as one part (``([], b"")``: the same)."""
        if type(old) is dict and type(new) is dict:
            keys = tuple(new)
            self.keys[id(new)] = (new, keys)
            known = self.old_keys.get(id(old))
            if keys == (known[1] if known is not None and known[0] is old else tuple(old)):
                olds, news = old.values(), new.values()
                mask = list(map(is_not, olds, news))
                if not any(mask):
                    return _SAME
                last = self.last
                if last is not None and last[2] == mask and last[1] == keys and last[0] == root:
                    get, was, now = last[3]
                    if all(map(is_, get(new), now)) and all(map(is_, get(old), was)):
                        return last[4]
                changed = tuple(compress(keys, mask))
                was = tuple(compress(olds, mask))
                now = tuple(compress(news, mask))
                signature = (root, changed, *map(id, was), *map(id, now))
                found = self.found.get(signature)
                if found is None:
                    self.alive.append((old, new))
                    found = self.found[signature] = self._walk(root, changed, was, now, pack)
                # the changed values read in one call (a key twice when it is alone: a tuple still)
                if len(changed) > 1:
                    get = itemgetter(*changed)
                else:
                    get, was, now = itemgetter(changed[0], changed[0]), was * 2, now * 2
                self.last = (root, keys, mask, (get, was, now), found)
                return found
        self.alive.append((old, new))
        ops = diff(old, new, None, root, pack=pack)
        return (ops, b"".join(map(pack, ops))) if ops else _SAME

    def _walk(
        self, root: tuple[Any, ...], keys: tuple[str, ...], was: tuple[Any, ...], now: tuple[Any, ...], pack: _Pack
    ) -> Part:
        """The part of a map's changed ``keys`` (their old values ``was``, new ``now``), key by key,
        its operations encoded in one call (an array of them, less its header)."""
        keyed = self.keyed
        ops: list[list[Any]] = []
        for key, a, b in zip(keys, was, now, strict=True):
            at = (root, key, id(a), id(b))
            if at in keyed:
                got = keyed[at]
            else:
                got = keyed[at] = self._key(root, key, a, b, pack)
            if got is not None:
                ops += got
        if not ops:
            return _SAME
        n = len(ops)
        return ops, pack(ops)[1 if n < 16 else 3 if n < 0x10000 else 5 :]

    def _key(self, root: tuple[Any, ...], key: str, was: Any, value: Any, pack: _Pack) -> list[list[Any]] | None:
        """One key's operations: ``None`` where the two values are encoded alike; a value that is
        not walked (not a map or a list on both sides) is set whole. Two strings, two ints, two flags
        or two nils are encoded alike when they are equal: compared so, not encoded."""
        kind = type(value)
        if kind is type(was) and (kind is int or kind is str or kind is bool or value is None):
            return None if value == was else [["s", [*root, key], value]]
        after = pack(value)
        self.encoded[id(value)] = (value, after)
        known = self.before.get(id(was))
        before = known[1] if known is not None and known[0] is was else pack(was)
        if after == before:
            return None
        path = [*root, key]
        if not (isinstance(value, dict) and isinstance(was, dict)) and not (
            isinstance(value, list) and isinstance(was, list)
        ):
            return [["s", path, value]]
        at = (root, key, before, after)
        found = self.changes.get(at)
        if found is None:
            found = self.changes[at] = []
            _changed(was, value, path, found, pack)
        return found


def small_part(old: Any, new: Any, root: tuple[Any, ...], pack: _Pack) -> Part:
    """:meth:`Memo.part` of two small maps that no other map changes alike (a seat's own part of its
    view: its hand, its legal moves), with no memo: each value that is not the very object it was is
    compared (strings, ints, flags and nils by value, anything else by its encoding)."""
    if type(old) is not dict or type(new) is not dict or old.keys() != new.keys():
        walked = diff(old, new, None, root, pack=pack)
        return (walked, b"".join(map(pack, walked))) if walked else _SAME
    ops: list[list[Any]] = []
    for key, was, value in zip(new, map(old.__getitem__, new), new.values(), strict=True):
        if was is value:
            continue
        kind = type(value)
        if kind is type(was) and (kind is int or kind is str or kind is bool):
            if value != was:
                ops.append(["s", [*root, key], value])
        elif pack(was) != pack(value):
            _changed(was, value, [*root, key], ops, pack)
    if not ops:
        return _SAME
    n = len(ops)
    return ops, pack(ops)[1 if n < 16 else 3 if n < 0x10000 else 5 :]


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
        return list(memo.part(old, new, tuple(path), pack)[0])
    ops: list[list[Any]] = []
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_maps(old, new, list(path), ops, pack)
    elif old is not new and pack(old) != pack(new):
        _changed(old, new, list(path), ops, pack)
    return ops


def parts(old: Any, new: Any, memo: Memo, path: Sequence[Any] = (), *, pack: _Pack | None = None) -> list[Part]:
    """:func:`diff`'s operations as parts, each with its operations' encodings (for :func:`message`):
    found through ``memo``, where every map that changed alike shares one part (encoded once)."""
    found = memo.part(old, new, tuple(path), pack or packer())
    return [found] if found[0] else []


def message(fields: dict[str, Any], found: Sequence[Part], pack: _Pack) -> bytes:
    """The bytes of a ``patch`` message whose operations are those of ``found``, their encodings
    spliced in, not encoded again: ``fields`` is the message with ``patch`` last and empty (it is
    encoded with it, and the empty list's one byte replaced). The bytes
    :func:`meja.protocol.codec.encode` gives for the same message with the operations in place."""
    head = pack(fields)
    if not head.endswith(_EMPTY_PATCH):
        raise ValueError("the message's last field must be an empty patch")
    return spliced(head[:-1], found)


def spliced(head: bytes, *found: Sequence[Part]) -> bytes:
    """:func:`message` from the message's encoding up to its ``patch`` field's value (``head``: a
    map's header, then its keys and values end to end, the key ``"patch"`` last), for a caller that
    builds it from pieces encoded once for many messages; the operations of every ``found`` in turn."""
    pieces = [head, b""]
    count = 0
    for each in found:
        for ops, encoded in each:
            count += len(ops)
            pieces.append(encoded)
    pieces[1] = array_header(count)
    return b"".join(pieces)


_EMPTY_PATCH: Final = b"\xa5patch\x90"  # ``"patch": []``, encoded


#: msgpack's headers of arrays of 0 to 15 items
_SMALL_ARRAYS: Final = [bytes((0x90 | n,)) for n in range(16)]


def array_header(n: int) -> bytes:
    """msgpack's header of an array of ``n`` items."""
    if n < 16:
        return _SMALL_ARRAYS[n]
    if n < 0x10000:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


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
