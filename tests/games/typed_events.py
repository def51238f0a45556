"""Checks shared by the games' typed-events tests: an emitted event round-trips through its declared
kind, and histories spoilt on purpose, for the tests that a bot's history reader survives anything."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from meja.rules import Event
from meja.rules.events import EventKinds, Unknown


def assert_round_trips(kinds: EventKinds, e: Event) -> None:
    """``e`` reads back as its declared kind, which writes the very wire dict (the same keys in the
    same order), re-reads equal, and rebuilds ``e`` both with ``event()`` and with ``emit()``."""
    wire = e.to_wire()
    typed = kinds.parse(wire)
    assert not isinstance(typed, Unknown), wire
    assert list(typed.wire().items()) == list(wire.items())
    assert kinds.parse(typed.wire()) == typed
    assert typed.event(e.only, e.hidden_from) == e
    values = {f.name: getattr(typed, f.name) for f in fields(typed)}  # type: ignore[arg-type]
    assert type(typed).emit(e.only, e.hidden_from, **values) == e


def spoil(history: list[dict[str, Any]], rnd: random.Random, seats: tuple[int, ...] = (-1, 8, 99)) -> list[Any]:
    """``history`` with a few entries broken: keys dropped, values of the wrong type or out of range,
    kinds unknown, entries that are not dicts, entries duplicated or moved; a seat set to one of ``seats``
    (out of range)."""
    bad: list[Any] = [dict(e) for e in history]
    junk: list[Any] = [None, "x", -1, 99, 2**70, True, [], {}, ["8H"], "8H.2", "ZZ", -5, [{"seat": 9}]]
    for _ in range(rnd.randint(1, 6)):
        if not bad:
            break
        i = rnd.randrange(len(bad))
        e = bad[i]
        what = rnd.randrange(6)
        if what == 0 and isinstance(e, dict) and e:
            del e[rnd.choice(sorted(e))]
        elif what == 1 and isinstance(e, dict) and e:
            e[rnd.choice(sorted(e))] = rnd.choice(junk)
        elif what == 2:
            bad[i] = rnd.choice([None, "play", 7, {"kind": "nonsense"}, {"kind": None}])
        elif what == 3:
            copy = rnd.choice(bad)
            bad.insert(rnd.randrange(len(bad) + 1), dict(copy) if isinstance(copy, dict) else copy)
        elif what == 4:
            bad.insert(rnd.randrange(len(bad) + 1), bad.pop(i))
        elif isinstance(e, dict) and "seat" in e:
            e["seat"] = rnd.choice(seats)
    return bad
