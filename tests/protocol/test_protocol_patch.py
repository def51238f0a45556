"""The patch form's diff and apply (meja.protocol.patch): round trips on random nested msgpack values."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meja.protocol import codec, messages
from meja.protocol.patch import Memo, apply, diff, message, packer, parts, same

scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=4) | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from("abcdef"), inner, max_size=5),
    max_leaves=30,
)


def _wire(ops: list[Any]) -> Any:
    """``ops`` as a client reads them off the wire (decoded without the server's limits on what
    clients send: a patch nests its values two levels deeper than the update it stands for)."""
    return msgpack.unpackb(codec.encode({"p": ops}))["p"]


def _mutate(value: Any, data: st.DataObject) -> Any:
    """A value near ``value`` (the common case: most of it unchanged)."""
    if isinstance(value, dict | list) and value and data.draw(st.booleans()):
        out = copy.copy(value)
        key = data.draw(st.sampled_from(sorted(out) if isinstance(out, dict) else range(len(out))))
        choice = data.draw(st.integers(0, 2))
        if choice == 0:
            del out[key]
        elif choice == 1:
            out[key] = _mutate(out[key], data)
        elif isinstance(out, dict):
            out[data.draw(st.sampled_from("abcdefgh"))] = data.draw(values)
        else:
            out.insert(key, data.draw(values))
        return out
    return data.draw(values)


@settings(max_examples=300, deadline=None)
@given(old=values, new=values)
def test_apply_of_diff_is_the_new_value(old: Any, new: Any) -> None:
    before = codec.encode({"v": old})
    patched = apply(old, diff(old, new))
    assert same(patched, new)
    assert msgpack.unpackb(codec.encode({"v": patched})) == msgpack.unpackb(codec.encode({"v": new}))
    assert codec.encode({"v": old}) == before  # apply works on a copy


@settings(max_examples=300, deadline=None)
@given(old=values, data=st.data())
def test_round_trip_on_near_values(old: Any, data: st.DataObject) -> None:
    new = _mutate(old, data)
    ops = diff(old, new)
    assert same(apply(old, ops), new)
    if same(old, new):
        assert ops == []
    # what goes on the wire is a msgpack value that decodes to the same patch
    assert same(apply(old, _wire(ops)), new)


def test_the_operations() -> None:
    old = {"hand": ["2S", "3S", "4S"], "seats": [{"n": 1}, {"n": 2}], "gone": 1, "turn": 0}
    new = {"hand": ["2S", "4S"], "seats": [{"n": 1}, {"n": 3}], "turn": 1, "top": "3S"}
    ops = diff(old, new)
    assert ops == [
        ["d", ["gone"]],
        ["t", ["hand"], 1, ["4S"]],
        ["s", ["seats", 1, "n"], 3],
        ["s", ["turn"], 1],
        ["s", ["top"], "3S"],
    ]
    assert apply(old, ops) == new
    assert diff(1, True) == [["s", [], True]]  # strict: an int is not a bool


@pytest.mark.parametrize(
    "ops",
    [
        [["d", ["nope"]]],
        [["s", ["a", "b"], 1]],
        [["t", ["a"], 0, []]],
        [["t", ["l"], 5, []]],
        [["s", ["l", 3], 1]],
        [["x", ["a"]]],
        ["s"],
    ],
)
def test_a_patch_that_does_not_fit_is_refused(ops: list[Any]) -> None:
    with pytest.raises(ValueError):
        apply({"a": 1, "l": [1]}, ops)


@settings(max_examples=200, deadline=None)
@given(old=values, data=st.data())
def test_the_client_library_applies_as_the_server_diffs(old: Any, data: st.DataObject) -> None:
    """meja_client's apply_patch (path copying, its own code) agrees, and leaves the old value as it was."""
    from meja_client import apply_patch

    new = _mutate(old, data)
    before = codec.encode({"v": old})
    assert same(apply_patch(old, _wire(diff(old, new))), new)
    assert codec.encode({"v": old}) == before


LOOSE = [1, 1.0, True, 0, 0.0, -0.0, False]  # every pair of these is ``==`` or encoded differently


@pytest.mark.parametrize("a", LOOSE)
@pytest.mark.parametrize("b", LOOSE)
def test_values_are_compared_strictly(a: Any, b: Any) -> None:
    """``1``, ``1.0`` and ``true`` (and ``0.0`` and ``-0.0``) are told apart, alone, in a list, in a
    map, in a list of maps, at the top of a map given with a memo, in an equal-length list and in a
    list that grew; and the patch gives exactly the new value."""
    strict = codec.encode({"v": a}) == codec.encode({"v": b})
    for wrap in (
        lambda x: x,
        lambda x: [x],
        lambda x: {"k": x},
        lambda x: {"seats": [{"n": 1}, {"n": x}], "turn": 3},
        lambda x: {"l": [x, "a"], "m": {"n": [x]}},
        lambda x: {"l": [1, x]} if x is a else {"l": [1, x, 2]},
    ):
        old, new = wrap(a), wrap(b)
        for memo in (None, Memo()):
            ops = diff(old, new, memo)
            assert (ops == []) == (strict and old == new), (old, new, ops)
            patched = apply(old, _wire(ops))
            assert same(patched, new), (old, new, ops)
            assert codec.encode({"v": patched}) == codec.encode({"v": new})


def test_a_memo_gives_the_same_patches() -> None:
    """With a memo (the hub's: one a version, for every connection, made by the last version's
    ``after``), the operations are those without one, for many maps that change alike and for maps
    diffed twice; a change found for one map is not taken for another's that only looks alike (``1``
    is not ``true``)."""
    rng = random.Random(7)
    memo = Memo()
    olds = [{"v": 1, "counts": [5, 5, 5], "hand": ["a", "b"], "flag": False, "me": s} for s in range(4)]
    for version in range(2, 40):
        news = []
        for s, old in enumerate(olds):
            new = copy.deepcopy(old)
            new["v"] = version
            new["counts"][version % 3] = rng.choice([4, 5, 6, 5.0, True])
            new["flag"] = rng.choice([False, 0, 0.0, -0.0, True])
            if s == version % 4:
                new["hand"] = new["hand"][:1] + [rng.choice("xyz")]
            news.append(new)
        for old, new in zip(olds, news, strict=True):
            with_memo = diff(old, new, memo, ("view",))
            assert with_memo == diff(old, new, None, ("view",))
            assert diff(old, new, memo, ("view",)) == with_memo  # the second time from the memo
            assert same(apply({"view": old}, _wire(with_memo))["view"], new)
        memo = memo.after()
        assert set(memo.old_keys) == {id(n) for n in news} and not memo.found and not memo.alive
        olds = news


@pytest.mark.parametrize("n", [0, 1, 15, 16, 0xFFFF, 0x10000])
def test_a_message_with_its_operations_spliced_in_is_the_one_codec_encodes(n: int) -> None:
    """patch.message (the hub's patches: each part's operations encoded once, then spliced) gives
    the bytes of codec.encode(messages.patch(...)), with every size of msgpack's array header."""
    old = {"l": list(range(n)), "k": 1}
    new = {"l": [i + 1 for i in range(n)], "k": 2}
    pack = packer()
    found = parts({"view": old}, {"view": new}, Memo(), pack=pack)
    ops = [op for part in found for op in part[0]]
    assert ops == diff({"view": old}, {"view": new}) and len(ops) == n + 1
    events = [{"kind": "turn", "seat": 1}]
    fields = {
        "type": "patch",
        "table": "t" * 32,
        "version": 9,
        "since": 8,
        "events": events,
        "seat": 0,
        "is_host": True,
        "patch": [],
    }
    spliced = message(fields, found, pack)
    with pytest.raises(ValueError):
        message({**fields, "re": 3}, found, pack)  # ``patch`` must come last
    assert spliced == codec.encode(
        messages.patch(table="t" * 32, version=9, since=8, events=events, seat=0, is_host=True, ops=ops)
    )


def test_a_memo_gives_the_same_patches_where_maps_share_their_values() -> None:
    """The hub's views share their public values (one list of hand sizes for every seat, kept from
    version to version while it does not change), and the memo knows a changed key by its key and
    the two objects: the operations are still those without a memo, for every map, whether a value
    is shared by all, by some, or by none, and whether a shared object's stand-in only looks alike
    (``1`` is not ``true``) or is encoded alike without being the same object."""
    rng = random.Random(11)
    pool: list[Any] = [[5, 5, 5], [4, 5, 5], [5, 4, 5], [5.0, 5, 5], [True, 5, 5], "a", "b", 1, True, 1.0, None]
    memo = Memo()
    olds = [{"v": 1, "counts": pool[0], "top": "a", "flag": 1, "hand": [s], "me": s} for s in range(4)]
    for version in range(2, 60):
        counts, top, flag = rng.choice(pool), rng.choice(pool), rng.choice(pool)
        news = []
        for s, old in enumerate(olds):
            new = dict(old)
            new["v"] = version  # one int object for every map
            new["counts"] = counts if s != version % 4 else copy.copy(counts)  # shared, but one map's is a copy
            if s == 3 and version % 5 == 0:
                new["counts"] = old["counts"]  # one map lags: next time its old value is not the others'
            new["top"], new["flag"] = top, flag
            if s == (version + 1) % 4:
                new["hand"] = [*old["hand"], rng.choice(pool)]  # one map's own change
            news.append(new)
        for old, new in zip(olds, news, strict=True):
            with_memo = diff(old, new, memo, ("view",))
            assert with_memo == diff(old, new, None, ("view",)), (old, new)
            # (applied to the old map as a client has it: read off the wire, no list held twice)
            assert same(apply(_wire({"view": old}), _wire(with_memo))["view"], new)
        memo = memo.after()  # the last version's keys and encodings, as the hub's next version
        olds = news


def test_a_memo_gives_each_map_its_own_patch_whatever_it_shares_with_the_others() -> None:
    """Maps diffed with one memo (the hub's, for a version's connections) that share their values
    with the others in any way: every value, some, none; on one side only; objects equal but not
    the same, or that only look alike (``1`` and ``true``); the same keys, others, or the same in
    another order; in any order, a pair diffed again. Each pair's operations are the ones diffed
    without a memo, and the patch gives exactly its new map."""
    rng = random.Random(24)
    pool: list[Any] = [1, True, 1.0, 0, None, "a", [1, 2], [1, 2, 3], [True, 2], {"k": 1}, {"k": True}, [[1], [2]]]
    keys = ["v", "a", "b", "c", "d", "e"]

    def value(shared: Any) -> Any:
        pick = rng.random()
        if pick < 0.6:
            return shared  # the very object the others hold
        if pick < 0.8:
            return copy.deepcopy(shared)  # equal, not the same
        return rng.choice(pool)  # anything

    for _ in range(300):
        memo = Memo()
        old_shared = {k: rng.choice(pool) for k in keys}
        new_shared = {k: rng.choice(pool) if rng.random() < 0.5 else old_shared[k] for k in keys}
        pairs = []
        for _ in range(rng.randint(1, 6)):
            order = keys if rng.random() < 0.8 else rng.sample(keys, len(keys) - rng.randint(0, 1))
            old = {k: value(old_shared[k]) for k in (keys if rng.random() < 0.9 else order)}
            new = {k: value(new_shared[k]) for k in order}
            pairs.append((old, new))
        pairs += [rng.choice(pairs) for _ in range(2)]  # a pair diffed again
        rng.shuffle(pairs)
        for old, new in pairs:
            with_memo = diff(old, new, memo, ("view",))
            assert with_memo == diff(old, new, None, ("view",)), (old, new)
            patched = apply(_wire({"view": old}), _wire(with_memo))["view"]
            assert same(patched, new), (old, new, with_memo)


def test_a_memo_knows_a_change_by_objects_that_stay_alive() -> None:
    """A memo knows a change by the ids of the values (the hub's views share theirs): a caller that
    drops its maps after each diff gets new objects at the old addresses, and each pair still gets
    its own operations (the memo keeps what it was given while it lives)."""
    memo = Memo()
    for i in range(3000):
        old = {"v": i, "a": [i % 3], "b": {"k": [i % 2]}, "c": 1}
        new = {"v": i, "a": [i % 5], "b": {"k": [i % 7]}, "c": 1}
        assert diff(old, new, memo, ("view",)) == diff(old, new, None, ("view",)), i


def test_maps_that_change_alike_one_after_another_share_a_part() -> None:
    """The seats' views of a version, diffed one after another, that changed the same keys to the
    same objects get the very part the first one got (nothing encoded again), and a map between
    them that changed otherwise gets its own; a map whose changed values only look like the others'
    (equal lists, not the same) gets a part of its own that is still right."""
    pack = packer()
    counts, top, version = [3, 4], {"rank": "5"}, 8
    olds = [{"version": 7, "counts": [3, 5], "top": {"rank": "4"}, "hand": [s], "seat": s} for s in range(5)]
    news = [{**old, "version": version, "counts": counts, "top": top} for old in olds]
    news[2]["hand"] = [2, 9]  # one seat's own change
    news[3]["counts"] = [3, 4]  # equal to the others', another object
    for old in olds[1:]:
        old["counts"], old["top"] = olds[0]["counts"], olds[0]["top"]  # shared, as the hub's views
    memo = Memo()
    found = [memo.part(old, new, ("view",), pack) for old, new in zip(olds, news, strict=True)]
    assert found[1] is found[0] and found[4] is found[0]
    assert found[2] is not found[0] and found[3] is not found[0]
    for old, new, (ops, encoded) in zip(olds, news, found, strict=True):
        assert ops == diff(old, new, None, ("view",))
        assert encoded == b"".join(map(pack, ops))
        assert same(apply(_wire({"view": old}), _wire(ops))["view"], new)
