"""Typed events: a game declares each event kind once, and its rules and bots both use the declaration.

A game's events are frozen dataclasses, one per kind, subclassing :class:`TypedEvent`::

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Play(TypedEvent):
        KIND: ClassVar[str] = "play"
        seat: int
        card: Card
        suit: Suit | None = field(default=None, metadata=OMITTED)

    EVENTS: Final = EventKinds(Play, ...)

The fields, in order, are the wire dict's keys, in order (after ``"kind"``). A field's type says
its wire form: ``int``, ``str``, ``bool`` and ``Any`` as they are, a :class:`~meja.rules.cards.Card`
as its name (``"8H"``), a :class:`~meja.rules.cards.Suit` as its letter, ``tuple[X, ...]`` as a
list, ``X | None`` as ``X`` or null; a game's own types say theirs with
``Annotated[T, Codec(encode, decode)]``. A field declared with ``metadata=OMITTED`` is left off the
wire while it holds its default (``"drawn": true`` is sent, ``"drawn": false`` is not); one
declared with ``metadata={"wire": "from"}`` has that key on the wire (a keyword, say, that cannot
name a field).

The rules emit through the declaration: ``Play(...).event()`` builds the :class:`Event` (with its
audience), and ``Play.emit(...)``, the hot path, builds the same event from the same fields without
building the dataclass first. Bots read with ``EVENTS.read(history)``: each wire dict becomes its
typed event, or an :class:`Unknown` where its kind is not declared or a field is missing or
malformed; reading never raises (a bot must survive a bad history).

No code is generated (the rules' layer runs no ``exec``): each kind's plan is a tuple of its
fields' codecs, walked in a loop. A typed event is read without the frozen ``__init__`` (one
``object.__setattr__`` per field, about twice the cost of the rest of the read): each value goes
straight into its slot, through the slot's own descriptor.
"""

from __future__ import annotations

import operator
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Final, Union

from .cards import _BY_NAME, _NAMES, _SUIT_LETTERS, Card, Suit
from .game import Event, Wire

__all__ = ["OMITTED", "Codec", "EventKinds", "Ready", "TypedEvent", "Unknown"]


_tuple_new: Final = tuple.__new__
_object_new: Final = object.__new__
#: a field that is always on the wire
_KEEP: Final = object()
#: ``field(default=..., metadata=OMITTED)``: a field left off the wire while it holds its default
#: (and read as its default where the wire leaves it off)
OMITTED: Final[Mapping[str, bool]] = {"omitted": True}


@dataclass(frozen=True, slots=True)
class Codec:
    """A wire form: ``encode`` a value to plain wire data (``None``: the value is its own wire
    form), ``decode`` it back, raising (any exception) where the wire value is malformed."""

    encode: Callable[[Any], Wire] | None
    decode: Callable[[Any], Any]


def _exactly(kind: type) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {value!r}")
        return value

    return decode


def _string(value: Any) -> Any:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, not {value!r}")
    return value


_SUIT_OF_LETTER: Final = {letter: Suit(i) for i, letter in enumerate(_SUIT_LETTERS)}

#: The wire forms of the plain types and of the shared cards; a game adds its own with ``Annotated``.
CODECS: Final[Mapping[Any, Codec]] = {
    int: Codec(None, _exactly(int)),
    bool: Codec(None, _exactly(bool)),
    str: Codec(None, _string),
    Any: Codec(None, lambda v: v),
    Card: Codec(_NAMES.__getitem__, _BY_NAME.__getitem__),
    Suit: Codec(_SUIT_LETTERS.__getitem__, _SUIT_OF_LETTER.__getitem__),
}


def _tuple_of(item: Codec) -> Codec:
    enc, dec = item.encode, item.decode

    def decode(value: Any) -> tuple[Any, ...]:
        if type(value) is not list and type(value) is not tuple:
            raise TypeError(f"expected a list, not {value!r}")
        return tuple(map(dec, value))

    if enc is None:
        return Codec(list, decode)
    return Codec(lambda v: list(map(enc, v)), decode)


def _optional(item: Codec) -> Codec:
    enc, dec = item.encode, item.decode
    return Codec(
        None if enc is None else lambda v: None if v is None else enc(v),
        lambda v: None if v is None else dec(v),
    )


def codec_of(hint: Any) -> Codec:
    """The wire form of a field's type (see the module docstring); ``TypeError`` for a type it lacks."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        found = [a for a in args[1:] if isinstance(a, Codec)]
        return found[0] if found else codec_of(args[0])
    if origin is Union or origin is types.UnionType:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return _optional(codec_of(rest[0]))
    elif origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_of(codec_of(args[0]))
    elif hint in CODECS:
        return CODECS[hint]
    raise TypeError(f"no wire form for {hint!r}: declare one with Annotated[type, Codec(...)]")


@dataclass(frozen=True, slots=True)
class _Plan:
    """One kind's fields, in wire order: (name, wire key, encode, omitted default or _KEEP) and
    their decoders."""

    kind: str
    cls: type[TypedEvent]
    names: tuple[str, ...]
    out: tuple[tuple[str, str, Callable[[Any], Wire] | None, Any], ...]
    #: (wire key, slot setter, decode, omitted default or _KEEP)
    into: tuple[tuple[str, Callable[[Any, Any], None], Callable[[Any], Any], Any], ...]
    values: Callable[[Any], tuple[Any, ...]]


_PLANS: dict[type, _Plan] = {}


def _plan(cls: type[TypedEvent]) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    into = []
    for f in fields(cls):  # type: ignore[arg-type]  # every subclass is a dataclass
        key = f.metadata.get("wire", f.name)
        if key == "kind":
            raise TypeError(f"{cls.__name__}.{f.name}: the wire's ``kind`` is the class's KIND")
        codec = codec_of(hints[f.name])
        omit = f.default if f.metadata.get("omitted") else _KEEP
        if omit is MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: an omitted field needs a default")
        out.append((f.name, key, codec.encode, omit))
        # A slot's own descriptor sets it without the frozen __setattr__ (see the module docstring).
        slot: Any = cls.__dict__.get(f.name)
        if not hasattr(slot, "__set__"):
            raise TypeError(f"{cls.__name__}: declare it @dataclass(frozen=True, slots=True, kw_only=True)")
        into.append((key, slot.__set__, codec.decode, omit))
    names = tuple(name for name, _, _, _ in out)
    getter = operator.attrgetter(*names)
    values: Callable[[Any], tuple[Any, ...]] = (lambda e: (getter(e),)) if len(names) == 1 else getter
    plan = _PLANS[cls] = _Plan(cls.KIND, cls, names, tuple(out), tuple(into), values)
    cls.emit = staticmethod(_emitter(plan))  # type: ignore[method-assign]
    return plan


def _data(
    out: tuple[tuple[str, str, Callable[[Any], Wire] | None, Any], ...], values: Iterable[Any]
) -> dict[str, Wire]:
    data: dict[str, Wire] = {}
    for (_, key, encode, omit), value in zip(out, values, strict=True):
        if omit is not _KEEP and value == omit:
            continue
        data[key] = value if encode is None else encode(value)
    return data


class TypedEvent:
    """The base of a game's typed events (see the module docstring); ``KIND`` is its wire ``kind``."""

    __slots__ = ()
    KIND: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A kind is declared directly on :class:`TypedEvent`: a kind derived from another would find
        its parent's emitter and fields and say the parent's ``kind`` without an error."""
        super().__init_subclass__(**kwargs)
        if any(issubclass(base, TypedEvent) and base is not TypedEvent for base in cls.__bases__):
            raise TypeError(f"{cls.__name__}: a typed event derives from TypedEvent itself, not from another kind")

    def data(self) -> dict[str, Wire]:
        """The wire data, without ``kind``: what the rules put in :attr:`Event.data`."""
        plan = _plan(type(self))
        return _data(plan.out, plan.values(self))

    def wire(self) -> dict[str, Wire]:
        """The wire dict, ``kind`` first, as ``Event.to_wire()`` gives it (and a bot's history holds)."""
        return {"kind": self.KIND, **self.data()}

    def event(self, only: tuple[int, ...] | None = None, hidden_from: tuple[int, ...] = ()) -> Event:
        """The rules' :class:`Event` for this, with its audience (see :class:`Event`)."""
        return _tuple_new(Event, (self.KIND, self.data(), only, hidden_from))

    @classmethod
    def emit(cls, only: tuple[int, ...] | None = None, hidden_from: tuple[int, ...] = (), /, **values: Any) -> Event:
        """``cls(**values).event(only, hidden_from)`` without building ``cls``: the rules' hot path.

        The keywords are the fields' names, in any order (the wire keeps the declaration's); a
        name the kind lacks, or a field left out that has no default, is a ``TypeError``. The
        first call puts the kind's own closure in the class's ``emit`` (:func:`_emitter`), which
        builds the wire data in one loop over the fields worked out once for the class."""
        _plan(cls)  # puts the closure in cls.emit
        return cls.emit(only, hidden_from, **values)


def _emitter(plan: _Plan) -> Callable[..., Event]:
    """The class's ``emit``: builds the wire data in one loop over the kind's fields, in their order
    (so the keywords' order is free): an identity field is copied, an encoded one encoded, an omitted
    one left off at its default. A kind with no omitted field needs its every field, and as many
    keywords (one length test); one with omitted fields takes no keyword it lacks (a subset test)."""
    kind, cls, names = plan.kind, plan.cls, frozenset(plan.names)
    out = plan.out
    if all(omit is _KEEP for _, _, _, omit in out):
        count = len(out)
        steps = tuple((name, key, encode) for name, key, encode, _ in out)

        def emit(only: tuple[int, ...] | None = None, hidden_from: tuple[int, ...] = (), /, **values: Any) -> Event:
            data: dict[str, Wire] = {}
            try:
                for name, key, encode in steps:
                    data[key] = values[name] if encode is None else encode(values[name])
            except KeyError:
                raise _wrong_keywords(cls, values) from None
            if len(values) != count:
                raise _wrong_keywords(cls, values)
            return _tuple_new(Event, (kind, data, only, hidden_from))

        return emit

    def emit_some(only: tuple[int, ...] | None = None, hidden_from: tuple[int, ...] = (), /, **values: Any) -> Event:
        if not names.issuperset(values):
            raise _wrong_keywords(cls, values)
        data: dict[str, Wire] = {}
        try:
            for name, key, encode, omit in out:
                if omit is _KEEP:
                    value = values[name]
                else:
                    value = values.get(name, omit)
                    if value is omit or value == omit:
                        continue
                data[key] = value if encode is None else encode(value)
        except KeyError:
            raise _wrong_keywords(cls, values) from None
        return _tuple_new(Event, (kind, data, only, hidden_from))

    return emit_some


def _wrong_keywords(cls: type[TypedEvent], values: Mapping[str, Any]) -> TypeError:
    plan = _PLANS[cls]
    required = [name for name, _, _, omit in plan.out if omit is _KEEP]
    return TypeError(f"{cls.__name__}.emit() takes {list(plan.names)} (these required: {required}), not {list(values)}")


@dataclass(frozen=True, slots=True)
class Unknown:
    """A history entry no declared kind reads: an unknown ``kind``, or a field missing or malformed."""

    wire: Any

    @property
    def kind(self) -> Any:
        return self.wire.get("kind") if isinstance(self.wire, Mapping) else None


class EventKinds:
    """A game's event kinds, by wire ``kind``: reads a history of wire dicts into typed events."""

    def __init__(self, *classes: type[TypedEvent]) -> None:
        plans = [_plan(c) for c in classes]
        self.classes: Final = {p.kind: p.cls for p in plans}
        if len(self.classes) != len(plans):
            raise TypeError("two event classes share a kind")
        self._into: Final = {p.kind: (p.cls, p.into) for p in plans}

    def parse(self, wire: Any) -> TypedEvent | Unknown:
        """One wire dict as its typed event, or :class:`Unknown`; never raises."""
        event = self._typed(wire)
        return Unknown(wire) if event is None else event

    def _typed(self, wire: Any) -> TypedEvent | None:
        """One wire dict as its typed event, ``None`` where :meth:`parse` reads :class:`Unknown`."""
        try:
            found = self._into.get(wire["kind"])
            if found is None:  # a kind not declared here (no exception: a reader of a few kinds meets many)
                return None
            cls, into = found
            event = _object_new(cls)
            for name, put, decode, omit in into:
                if omit is _KEEP:
                    put(event, decode(wire[name]))
                else:
                    value = wire.get(name, _KEEP)
                    put(event, omit if value is _KEEP else decode(value))
        except Exception:  # malformed in any way (a bot must survive a bad history): read as Unknown
            return None
        return event

    def read(self, history: Iterable[Any]) -> list[TypedEvent | Unknown]:
        """Every entry of ``history``, in order, as :meth:`parse` reads it (so indices still match)."""
        parse = self.parse
        return [parse(w) for w in history]

    def known(self, history: Iterable[Any]) -> list[TypedEvent]:
        """The entries of ``history`` that read as a kind declared here, in order; the rest are
        skipped (cheaper than :meth:`read` for a reader that wants a few kinds of many)."""
        typed = self._typed
        return [e for e in map(typed, history) if e is not None]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ready(TypedEvent):
    """A seat is ready for the next round: the same event in every game that plays rounds."""

    KIND: ClassVar[str] = "ready"
    seat: int
