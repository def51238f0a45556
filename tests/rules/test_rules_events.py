"""Typed events (meja.rules.events): a kind declared once gives the wire dict, the rules' Event and
the bots' reading, and a bad history reads as Unknown entries, never an exception."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import pytest
from meja.rules import Card, Event, Suit
from meja.rules.events import OMITTED, Codec, EventKinds, TypedEvent, Unknown


@dataclass(frozen=True, slots=True, kw_only=True)
class Laid(TypedEvent):
    KIND: ClassVar[str] = "laid"
    seat: int
    card: Card | None = field(default=None, metadata=OMITTED)
    colour: Suit
    faces: tuple[Card, ...]
    owner: int | None
    late: bool = field(default=False, metadata=OMITTED)


#: a game's own type: a number sent as text
TEXT_NUMBER = Codec(str, lambda v: int(v) if isinstance(v, str) else 1 // 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Scored(TypedEvent):
    KIND: ClassVar[str] = "scored"
    points: Annotated[int, TEXT_NUMBER]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Given(TypedEvent):
    KIND: ClassVar[str] = "given"
    seat: int
    from_: int = field(metadata={"wire": "from"})
    note: str = field(default="", metadata={"wire": "why", **OMITTED})


KINDS = EventKinds(Laid, Scored, Given)
H = Card.parse("QH")
LAID = Laid(seat=1, card=H, colour=Suit.CLUBS, faces=(H, Card.parse("10S")), owner=None, late=True)
LAID_WIRE = {
    "kind": "laid",
    "seat": 1,
    "card": "QH",
    "colour": "C",
    "faces": ["QH", "10S"],
    "owner": None,
    "late": True,
}


def test_the_wire_dict_follows_the_declaration_in_order_and_reads_back() -> None:
    assert list(LAID.wire().items()) == list(LAID_WIRE.items())
    assert KINDS.parse(LAID_WIRE) == LAID
    assert LAID.event(only=(1,)) == Event("laid", {k: v for k, v in LAID_WIRE.items() if k != "kind"}, (1,))
    plain = Laid(seat=0, colour=Suit.HEARTS, faces=(), owner=2)
    assert plain.wire() == {"kind": "laid", "seat": 0, "colour": "H", "faces": [], "owner": 2}  # defaults left off
    assert KINDS.parse(plain.wire()) == plain
    given = Given(seat=1, from_=2, note="swap")
    assert list(given.wire().items()) == [("kind", "given"), ("seat", 1), ("from", 2), ("why", "swap")]
    assert Given.emit(seat=1, from_=2, note="swap") == given.event()
    assert Given.emit(seat=1, from_=2).data == {"seat": 1, "from": 2}
    assert KINDS.parse(given.wire()) == given
    assert KINDS.parse({"kind": "given", "seat": 1, "from_": 2}) == Unknown({"kind": "given", "seat": 1, "from_": 2})
    scored = Scored(points=12, names=("a", "b"))
    assert scored.wire() == {"kind": "scored", "points": "12", "names": ["a", "b"]}
    assert KINDS.parse(scored.wire()) == scored


def test_emit_builds_the_same_event_without_the_instance_and_checks_its_keywords() -> None:
    values = {"seat": 1, "card": H, "colour": Suit.CLUBS, "faces": LAID.faces, "owner": None, "late": True}
    assert Laid.emit((1,), (), **values) == LAID.event(only=(1,))
    assert list(Laid.emit(**values).data) == list(LAID.data())
    # defaults given or not: left off the wire alike
    short = Laid.emit(seat=0, colour=Suit.HEARTS, faces=(), owner=2)
    assert short == Laid.emit(seat=0, card=None, colour=Suit.HEARTS, faces=(), owner=2, late=False)
    assert short.data == {"seat": 0, "colour": "H", "faces": [], "owner": 2}
    # the keywords' order is free: the wire keeps the declaration's
    shuffled = Laid.emit(late=True, owner=None, faces=LAID.faces, colour=Suit.CLUBS, card=H, seat=1)
    assert list(shuffled.data.items()) == list(LAID.data().items())
    assert list(Given.emit(note="swap", from_=2, seat=1).data) == ["seat", "from", "why"]
    with pytest.raises(TypeError):
        Laid.emit(seat=0, colour=Suit.HEARTS, faces=(), owner=2, colur=1)  # a name it lacks
    with pytest.raises(TypeError):
        Laid.emit(seat=0, faces=(), owner=2)  # colour has no default
    # a kind with no omitted field: every field, and nothing else
    with pytest.raises(TypeError):
        Scored.emit(points=1)
    with pytest.raises(TypeError):
        Scored.emit(points=1, names=(), extra=2)
    with pytest.raises(TypeError):
        Given.emit(seat=1, from_=2, noet="x")
    assert Scored.emit(names=("a",), points=3).data == {"points": "3", "names": ["a"]}


#: entries no declared kind reads: not dicts, unknown kinds, fields missing or malformed
BAD: list[Any] = [
    None,
    "laid",
    [1, 2],
    {},
    {"kind": "nobody"},
    {"kind": ["laid"]},  # unhashable kind
    {k: v for k, v in LAID_WIRE.items() if k != "faces"},  # a field missing
    {**LAID_WIRE, "seat": "1"},
    {**LAID_WIRE, "seat": True},  # a bool is not an int here
    {**LAID_WIRE, "card": "QQ"},
    {**LAID_WIRE, "card": "qh"},  # the wire spells a card one way only
    {**LAID_WIRE, "colour": 2},
    {**LAID_WIRE, "faces": "QH"},  # a string is not a list of cards
    {**LAID_WIRE, "faces": ["QH", None]},
    {**LAID_WIRE, "late": 1},
    {"kind": "scored", "points": 12, "names": []},  # the game's own codec refuses it
]


@pytest.mark.parametrize("bad", BAD)
def test_a_malformed_entry_reads_as_unknown(bad: Any) -> None:
    read = KINDS.read([LAID_WIRE, bad, LAID_WIRE])
    assert read[0] == read[2] == LAID
    assert read[1] == Unknown(bad)


@pytest.mark.parametrize("bad", BAD)
def test_known_keeps_the_entries_of_its_kinds_and_skips_the_rest(bad: Any) -> None:
    scored = Scored(points=3, names=())
    history = [LAID_WIRE, bad, scored.wire(), {"kind": "given", "seat": 1}, LAID_WIRE]
    assert KINDS.known(history) == [LAID, scored, LAID]
    # a reader of fewer kinds: the others are skipped like malformed ones
    assert EventKinds(Scored).known(history) == [scored]
    assert EventKinds(Laid).known(history) == [LAID, LAID]


def test_extra_keys_are_ignored_and_null_reads_as_none_where_allowed() -> None:
    assert KINDS.parse({**LAID_WIRE, "new": 1}) == LAID
    assert KINDS.parse({**LAID_WIRE, "card": None}) == Laid(
        seat=1, colour=Suit.CLUBS, faces=LAID.faces, owner=None, late=True
    )


def test_a_declaration_the_wire_cannot_carry_is_refused() -> None:
    @dataclass(frozen=True, kw_only=True)
    class NoSlots(TypedEvent):
        KIND: ClassVar[str] = "no_slots"
        seat: int

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Float(TypedEvent):
        KIND: ClassVar[str] = "float"
        x: complex

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Clash(TypedEvent):
        KIND: ClassVar[str] = "clash"
        kind: int

    for cls in (NoSlots, Float, Clash):
        with pytest.raises(TypeError):
            EventKinds(cls)
    with pytest.raises(TypeError):
        EventKinds(Laid, Laid)


def test_a_kind_derived_from_another_kind_is_refused() -> None:
    """A derived kind would find its parent's emitter and say the parent's kind without an error
    (reviewer h8): declaring one fails at once."""
    with pytest.raises(TypeError, match="derives from TypedEvent itself"):

        @dataclass(frozen=True, slots=True, kw_only=True)
        class Relaid(Laid):
            KIND: ClassVar[str] = "relaid"
