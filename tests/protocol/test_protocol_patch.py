"""The patch form's diff and apply (meja.protocol.patch): round trips on random nested msgpack values."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meja.protocol import codec
from meja.protocol.patch import apply, diff, same

scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=4) | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from("abcdef"), inner, max_size=5),
    max_leaves=30,
)


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
    assert codec.decode(codec.encode({"v": patched})) == codec.decode(codec.encode({"v": new}))
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
    assert same(apply(old, codec.decode(codec.encode({"p": ops}))["p"]), new)


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
    assert same(apply_patch(old, codec.decode(codec.encode({"p": diff(old, new)}))["p"]), new)
    assert codec.encode({"v": old}) == before
