"""The contract every game implements: what the server, bots, protocol and page rely on.

Shaped after OpenSpiel's ``GameType``/``Game``/``State`` (``open_spiel/spiel.h``)
and python-chess's variant registry, and kept as small as the server needs and
no smaller. A game is one folder, ``meja/games/<name>/``; this module is what
all of them share, so the server, the store, the protocol core and the page
shell never need to know which game a table plays.

The pieces
----------
- A :class:`Game` has a :class:`GameInfo` (title, presets, an option spec per
  preset, seat range, teams: what the host form and the lobby are built from,
  sent to clients in ``welcome``), turns a host's request into frozen, fully
  defaulted options, and deals the first :class:`State` of a match from a seed
  (or from a deal code it reads).
- A :class:`State` is an immutable value between whole decisions:
  ``legal_actions(seat)`` is a sorted tuple; ``apply(seat, action)`` checks
  legality, raises a :class:`~meja.rules.errors.RulesError` (the state is
  unchanged: it is a value) or returns a :class:`Transition`, the next state and
  its :class:`Event` s; ``view(seat)`` builds what one seat (``None``: a
  spectator or a shared screen) may see, by allow-list.

What the server asks of a state, so that it guesses nothing
-----------------------------------------------------------
``awaiting()``
    The seats whose decision holds the game up: what turn limits, bots' thinking
    pauses and presence checks watch. Several seats in a phase where they act in
    any order (Eighty-Three's discards, everyone's ``ready`` between rounds).
    It is public: every connection gets it in the table map (``awaiting``), so
    it may depend only on what every seat may see.
``actors()``
    Every seat that may act now, ``awaiting()`` included: a seat with an
    out-of-turn action (Kartu Terakhir's catch, or a last-card call right after a
    play) is an actor without being awaited. Bots are asked for every actor;
    one that is not awaited may decline (its bot returns ``None``).
``epoch(seat)``
    The state version of the last change that makes a decision ``seat`` may be
    taking stale. An ``act`` is refused as ``action/stale_version`` only if the
    client's version is older than its seat's epoch, so in a phase where several
    seats act in any order nobody's decision goes stale because another seat
    decided. A game where every action concerns everyone returns ``version``.
``period()``
    Any hashable value that changes exactly when a new decision period begins (a
    new turn, a new phase): the turn limit runs per period, so three draws in one
    turn share one clock.
``in_round()`` and ``round``
    Round boundaries: a round in progress has a secret deal (fair-deal
    commitments are made when one begins and opened when it ends). Between rounds
    (``not in_round()`` and no outcome yet) every awaited seat's decision is to be
    ready for the next one, and ``default_action`` gives it.
``default_action(seat)``
    What the server does for a present player whose turn time ran out, or who
    has not said they are ready between rounds; ``None``: let the game's default
    bot decide. One of the seat's legal actions, or an action only the timer
    makes, which ``legal`` does not list but ``apply`` accepts (Kartu Terakhir's
    ``draw_keep``: its rules' timeout draw ends the turn, which no choice does;
    and ``timer_take``). The server refuses such an action from a person
    (``action/illegal``): a person's ``act`` must be one of ``legal_actions``.
``timed_actions()``
    Actions the game takes on its own after a delay unless someone acts first (an
    automatic penalty draw after a reaction window). The server turns each into a
    due action, like a bot's move.
``bot_rng(seat)``, ``deal_code``
    The seed of a seat's bot decisions (never one that rebuilds the deal), and the
    current round's deal code if the game has codes (secret while the round is in
    progress: the server reveals it).
``outcome()``
    ``None`` until the match ends; then the winners, by seat and, where the game
    has teams, by team.
``carry()``
    Once the match is over, what its rules hand the next match at the same table
    (a rematch), as plain public data, or ``None`` (each match starts afresh: the
    default). The server keeps it in the table record and gives it back to
    ``Game.new_match(..., carry=...)``, so a replay of the log deals the rematch
    again from the record alone. Kartu Terakhir's and Eighty-Three's: the next
    dealer (the deal passes to the left for the next game, after every hand).
``talk()``
    What table talk the game's rules allow now, for every seat alike (it is
    public: every connection learns it from the table map): :data:`TALK_FREE`
    (chat and every reaction), :data:`TALK_NEUTRAL` (only the reactions that
    say nothing about a hand: a partnership game forbids signalling a partner
    during a hand) or :data:`TALK_NONE`. The server enforces it on talk at the
    table (:mod:`meja.server.talk`) unless the host turned on "table talk"; the
    default is :data:`TALK_FREE`.
``locations()``
    Where every card is and who may see it: the conformance suite and the leak
    checks use it to test every game the same way (cards conserved, nothing seen
    that a seat may not see).

Events for one seat only (a challenged hand shown to the challenger, a drawn
card, trumps passed to a partner) are :class:`Event` s with an audience, and
:func:`events_for` picks a seat's events by allow-list, never by deleting
secrets from a copy.

Actions, views and events cross the wire as plain data (str, int, bool, None,
lists and dicts of those): ``Game.decode_action`` is the only door for
untrusted input, and it raises :class:`~meja.rules.errors.BadActionError` on
anything else.

Conventions every game keeps (the conformance suite checks them)
----------------------------------------------------------------
- Legal actions are sorted and distinct; a seat is awaited only if it has some,
  and has some only if it is an actor. The view's ``legal`` is exactly
  ``legal_actions(seat)``.
- ``version`` goes up by exactly one per applied action.
- No game event is of a kind in :data:`TABLE_EVENT_KINDS`: those are the
  table's own (a seat taken, a fair-deal reveal...), and clients tell them apart
  by kind alone.
- A round starts with an event of kind ``GameInfo.round_start`` and ends with one
  of kind ``GameInfo.round_end`` (the server puts the fair-deal commitment just
  before the first and the reveal just after the second).
- Every chance comes from :class:`~meja.rules.rng.Rng` in the state; no set of
  strings or plain ``Enum`` is iterated (their order changes with
  ``PYTHONHASHSEED``).
- Each game offers ``stacked(...)``, a checked scenario builder for stacked-deck
  tests (its keyword arguments are the game's own: hands, piles, whose turn),
  which raises :class:`~meja.rules.errors.BadOptionsError` for a layout the game
  could never reach (a card twice, a card from outside the deck, a seat that
  does not exist).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple, Protocol, runtime_checkable

from .errors import BadOptionsError
from .rng import Rng

__all__ = [
    "TABLE_EVENT_KINDS",
    "TALK_FREE",
    "TALK_KINDS",
    "TALK_NEUTRAL",
    "TALK_NONE",
    "Action",
    "DealInfo",
    "Event",
    "Game",
    "GameInfo",
    "Location",
    "OptionSpec",
    "Outcome",
    "PresetInfo",
    "RoundPoints",
    "State",
    "StateDefaults",
    "Timed",
    "Transition",
    "View",
    "Wire",
    "check_options",
    "events_for",
    "games",
    "get_game",
    "register",
    "round_points",
]

Wire = Any
"""Plain data that msgpack encodes as it is: None, bool, int, str, list, dict."""

#: The event kinds the table adds to a game's (:mod:`meja.server.tables`); a game uses none of them.
TABLE_EVENT_KINDS: frozenset[str] = frozenset(
    {
        "seat_changed", "connected", "away", "auto", "started", "rematch", "closed", "commitment", "reveal",
        "timeout", "act", "talk_changed", "muted", "host_changed",
    }
)  # fmt: skip


#: What talk a game's rules allow now (``State.talk()``): chat and every reaction,
TALK_FREE: Final = "free"
#: only the neutral reactions (none says anything about a hand),
TALK_NEUTRAL: Final = "neutral"
#: or nothing at all.
TALK_NONE: Final = "none"
#: The three, from the most allowed to the least.
TALK_KINDS: tuple[str, ...] = (TALK_FREE, TALK_NEUTRAL, TALK_NONE)


class Event(NamedTuple):
    """Something that happened, for the seats allowed to see it.

    A ``NamedTuple`` rather than a frozen dataclass: as immutable, and several
    times cheaper to build, which matters because every action builds a few.

    ``data`` holds only what this audience may know, as plain wire data.
    ``only`` set: seen by those seats alone (no spectator). Otherwise seen by
    every seat and spectator except the seats in ``hidden_from``. A private fact
    is therefore two events: the full one ``only`` for its owner and a redacted
    one ``hidden_from`` that owner (a draw: the drawer sees the card, the rest
    see that a card was drawn).
    """

    kind: str
    data: Mapping[str, Wire]
    only: tuple[int, ...] | None = None
    hidden_from: tuple[int, ...] = ()

    def is_seen_by(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        if self.only is not None:
            return seat is not None and seat in self.only
        return seat is None or seat not in self.hidden_from

    def to_wire(self) -> dict[str, Wire]:
        return {"kind": self.kind, **self.data}


def events_for(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The events ``seat`` may see, in order (``None``: a spectator)."""
    return tuple(e for e in events if e.is_seen_by(seat))


class Transition(NamedTuple):
    """The result of an action: the next state and the events it caused, in order."""

    state: Any
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match.

    ``winners``: the winning seats (co-winners share). ``scores``: each seat's
    final total as the game counts it. Where the game has teams, ``teams`` are
    the indices (into ``Game.teams``) of the winning teams and ``team_scores``
    every team's total; otherwise both are empty.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    teams: tuple[int, ...] = ()
    team_scores: tuple[int, ...] = ()

    def to_wire(self) -> dict[str, Wire]:
        out: dict[str, Wire] = {"winners": list(self.winners), "scores": list(self.scores)}
        if self.team_scores:
            out["teams"] = list(self.teams)
            out["team_scores"] = list(self.team_scores)
        return out


class Timed(NamedTuple):
    """An action the game takes by itself ``delay_ms`` after the state version ``since``.

    The server makes it a due action keyed by ``(seat, since)``: if the state
    still lists the same timed action when it falls due, the action is applied
    for ``seat`` through the same path as a player's; if anyone acted first and
    the game no longer lists it, it is dropped. ``since`` is the version at which
    the game first listed it, so unrelated actions in between (a catch) do not
    restart its clock unless the game says so by giving a new ``since``.
    """

    seat: int
    action: Any
    delay_ms: int
    since: int


class Location(NamedTuple):
    """A place where cards lie, with the wire names of its cards and who may see them.

    ``seen_by``: ``"all"`` (face up: every seat and spectator), a tuple of
    seats (a hand; passed cards seen by the partner too), or ``()`` (face down:
    the stock, a kitty nobody took). ``counted=False`` marks cards shown to some
    seats that also lie elsewhere (a hand shown to a challenger): the leak
    checks honour it, the count of cards skips it. Used by the conformance suite
    and the leak checks, never by the server.
    """

    name: str
    cards: tuple[str, ...]
    seen_by: tuple[int, ...] | Literal["all"]
    counted: bool = True


# --------------------------------------------------------------------------- descriptions


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a host may set, as the host form shows it and the game checks it.

    ``type``: ``"int"`` (``min``..``max`` by ``step``), ``"choice"`` (one of
    ``choices``) or ``"bool"``. ``label`` is the key of its words in the game's
    page strings (``option.<name>``; a choice's words are ``<label>.<choice>``).
    ``when``: ``((other option, (values...)), ...)``: the option means something
    only while each other option named has one of those values (a match's number
    of rounds in wins mode, not in points mode; an option the preset lacks does not
    count); a host form shows it only then,
    and a table's description leaves it out otherwise. The game still checks and
    keeps it whatever the others are.
    ``unit``: for an ``"int"``, what its number counts when that is not a plain count: ``"ms"``
    (milliseconds: the value, ``min``, ``max`` and ``step`` stay milliseconds on the wire and
    in the game; a host form shows and takes them in seconds). ``""``: a plain number.
    """

    name: str
    type: Literal["int", "choice", "bool"]
    default: Wire
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    step: int = 1
    label: str = ""
    when: tuple[tuple[str, tuple[Wire, ...]], ...] = ()
    unit: Literal["", "ms"] = ""

    def applies(self, values: Mapping[str, Any]) -> bool:
        """Whether the option means something under ``values`` (the table's options), by :attr:`when`."""
        return all(name not in values or values[name] in allowed for name, allowed in self.when)

    def check(self, value: Any) -> Any:
        """``value`` if the host may set it, else :class:`BadOptionsError` naming the option."""
        # type(...) checks: True == 1 and 100.0 == 100, but neither is an int option's value here.
        if self.type == "bool":
            if type(value) is not bool:
                raise BadOptionsError(f"option {self.name}={value!r} must be true or false")
        elif self.type == "int":
            assert self.min is not None and self.max is not None
            if type(value) is not int or not self.min <= value <= self.max or (value - self.min) % self.step:
                raise BadOptionsError(
                    f"option {self.name}={value!r} is out of range: {self.min}-{self.max} by {self.step}"
                )
        elif type(value) is not str or value not in self.choices:
            raise BadOptionsError(f"option {self.name}={value!r} is out of range: one of {list(self.choices)}")
        return value

    def to_wire(self) -> dict[str, Wire]:
        out: dict[str, Wire] = {"name": self.name, "type": self.type, "default": self.default}
        if self.type == "choice":
            out["choices"] = list(self.choices)
        if self.type == "int":
            out.update(min=self.min, max=self.max, step=self.step)
            if self.unit:
                out["unit"] = self.unit
        out["label"] = self.label or f"option.{self.name}"
        if self.when:
            out["when"] = {name: list(allowed) for name, allowed in self.when}
        return out


@dataclass(frozen=True, slots=True)
class PresetInfo:
    """A named rule set: its seat range, the seat count the host form offers first, and its options."""

    name: str
    min_seats: int
    max_seats: int
    default_seats: int
    options: tuple[OptionSpec, ...] = ()

    def seat_range(self) -> range:
        return range(self.min_seats, self.max_seats + 1)

    def option(self, name: str) -> OptionSpec | None:
        for spec in self.options:
            if spec.name == name:
                return spec
        return None

    def to_wire(self) -> dict[str, Wire]:
        return {
            "name": self.name,
            "label": f"preset.{self.name}",
            "seats": [self.min_seats, self.max_seats],
            "default_seats": self.default_seats,
            "options": [o.to_wire() for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game declares about itself (OpenSpiel's ``GameType``); sent to clients in ``welcome``.

    ``teams``: ``"none"`` (every seat for itself) or ``"partners"`` (the seats of
    ``Game.teams`` play together; the table map lists them). ``deal_codes``:
    whether the game names deals by code. ``round_start`` and ``round_end``:
    the event kinds that begin and end a round. ``hold_events``: event kinds
    the table visibly pauses for (bots wait a little longer; the page shows it).
    """

    name: str
    title: str
    presets: tuple[PresetInfo, ...]
    teams: Literal["none", "partners"] = "none"
    deal_codes: bool = False
    round_start: str = "round_start"
    round_end: str = "round_over"
    hold_events: frozenset[str] = field(default_factory=frozenset)

    @property
    def default_preset(self) -> str:
        return self.presets[0].name

    def preset(self, name: str | None) -> PresetInfo:
        """The preset called ``name`` (the first one for ``None``), or :class:`BadOptionsError`."""
        for p in self.presets:
            if name is None or p.name == name:
                return p
        raise BadOptionsError(f"unknown preset {name!r} of {self.name}; known: {[p.name for p in self.presets]}")

    def to_wire(self) -> dict[str, Wire]:
        return {
            "name": self.name,
            "title": self.title,
            "presets": [p.to_wire() for p in self.presets],
            "default_preset": self.default_preset,
            "seats": [min(p.min_seats for p in self.presets), max(p.max_seats for p in self.presets)],
            "teams": self.teams,
            "deal_codes": self.deal_codes,
            "round_start": self.round_start,
            "round_end": self.round_end,
            "hold_events": sorted(self.hold_events),
        }


def check_options(info: GameInfo, data: Any) -> tuple[PresetInfo, dict[str, Any]]:
    """A host's options request checked against the game's spec: ``(preset, {option: value})``.

    ``data`` is ``{"preset": name, <option>: value, ...}`` or ``None`` (the first
    preset with its defaults). Unknown options, values out of range and a preset
    the game does not have are :class:`BadOptionsError`. The result holds every
    option of the preset, defaulted.
    """
    if data is None:
        data = {}
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise BadOptionsError(f"options must be a map of names to values, not {data!r}")
    request = dict(data)
    name = request.pop("preset", None)
    if name is not None and not isinstance(name, str):
        raise BadOptionsError(f"preset must be a name, not {name!r}")
    preset = info.preset(name)
    values: dict[str, Any] = {}
    for key, value in request.items():
        spec = preset.option(key)
        if spec is None:
            known = sorted(o.name for o in preset.options)
            raise BadOptionsError(f"option {key!r} cannot be set in {preset.name}; adjustable: {known}")
        values[key] = spec.check(value)
    return preset, {o.name: values.get(o.name, o.default) for o in preset.options}


# --------------------------------------------------------------------------- the protocols


class Action(Protocol):
    """One action of a game: a hashable, ordered value (``legal_actions`` sorts them) with a wire form.

    ``Game.decode_action(a.to_wire()) == a`` for every action.
    """

    def to_wire(self) -> dict[str, Wire]: ...

    def __lt__(self, other: Any) -> bool: ...


class View(Protocol):
    """What one seat may see, built by allow-list; ``to_wire`` gives plain data.

    ``legal`` is exactly ``state.legal_actions(seat)`` (empty for a spectator), and
    the wire form carries it as ``legal``, a list of action maps in the same order:
    a generic client (a bot written from PROTOCOL.md, the page's fallback) can
    play any game from its views alone. The wire form also carries ``game``,
    ``seat``, ``seats``, ``phase`` (a str), ``round`` (``State.round``) and
    ``version``, the state's version (one up per action: what a client counts
    moves by): client-protocol/PROTOCOL.md 7.2.
    """

    @property
    def legal(self) -> tuple[Any, ...]: ...

    def to_wire(self) -> dict[str, Wire]: ...


@runtime_checkable
class State(Protocol):
    """An immutable game state between whole decisions (see the module docstring)."""

    @property
    def version(self) -> int: ...

    @property
    def seats(self) -> int: ...

    @property
    def round(self) -> int: ...

    @property
    def deal_code(self) -> str | None: ...

    def legal_actions(self, seat: int) -> tuple[Any, ...]: ...

    def apply(self, seat: int, action: Any) -> Transition: ...

    def view(self, seat: int | None) -> View: ...

    def own_view(self, seat: int | None) -> dict[str, Wire] | None:
        """The part of ``view(seat).to_wire()`` that differs from seat to seat (``seat``, ``hand``,
        ``legal`` and whatever else only that seat sees): the same keys for every seat and a
        spectator, with that seat's values. Every other key of a seat's view holds the spectator's
        value. ``None``: the game does not tell (:class:`StateDefaults`).

        A shell that sends views as patches (PROTOCOL.md 7.5) builds a version's views in two parts
        with it: what every seat sees alike once, from the spectator's view, and each seat's own
        part; so it neither builds nor compares each seat's whole view (tests/games checks, at
        every state of the conformance runs, that the two parts are the whole view)."""
        ...

    def awaiting(self) -> tuple[int, ...]: ...

    def actors(self) -> tuple[int, ...]: ...

    def epoch(self, seat: int) -> int: ...

    def period(self) -> Hashable: ...

    def in_round(self) -> bool: ...

    def default_action(self, seat: int) -> Any | None: ...

    def timed_actions(self) -> tuple[Timed, ...]: ...

    def bot_rng(self, seat: int) -> Rng: ...

    def outcome(self) -> Outcome | None: ...

    def carry(self) -> dict[str, Wire] | None: ...

    def talk(self) -> str: ...

    def locations(self) -> tuple[Location, ...]: ...

    def to_data(self) -> dict[str, Wire]: ...


class StateDefaults:
    """Defaults for the parts of :class:`State` that most games answer the same way.

    Mix it into a game's state class (it has no fields, so it suits frozen
    dataclasses) and override what the game does differently.
    """

    __slots__ = ()

    def actors(self) -> tuple[int, ...]:
        """Nobody acts out of turn: the awaited seats."""
        awaiting: tuple[int, ...] = self.awaiting()  # type: ignore[attr-defined]
        return awaiting

    def epoch(self, seat: int) -> int:
        """Every action concerns every seat."""
        version: int = self.version  # type: ignore[attr-defined]
        return version

    def timed_actions(self) -> tuple[Timed, ...]:
        return ()

    def default_action(self, seat: int) -> Any | None:
        return None

    def carry(self) -> dict[str, Wire] | None:
        """Nothing: the next match at the table starts afresh."""
        return None

    def talk(self) -> str:
        """Any talk: the game's rules say nothing against it."""
        return TALK_FREE

    def own_view(self, seat: int | None) -> dict[str, Wire] | None:
        """Not told: the shell builds every seat's whole view."""
        return None


@dataclass(frozen=True, slots=True)
class DealInfo:
    """What a deal code names, as far as a table needs it: the preset, the seat count, the canonical code."""

    preset: str
    seats: int
    code: str


class Game(Protocol):
    """A game: its description, options, seats, teams, and the start of a match."""

    @property
    def name(self) -> str: ...

    @property
    def info(self) -> GameInfo: ...

    def options_from_wire(self, data: Any) -> Any:
        """Frozen, fully defaulted options from a host's request (``{"preset": ..., <option>: ...}``)."""
        ...

    def seat_range(self, options: Any) -> range: ...

    def teams(self, options: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        """The teams, as tuples of seats (one seat each where every seat plays for itself)."""
        ...

    def new_match(
        self, options: Any, seats: int, seed: int, deal_code: str | None = None, carry: Any = None
    ) -> Transition:
        """Deal round 1 (from ``deal_code`` if given, which ``read_deal_code`` accepted). ``carry``: at a
        rematch, the finished match's ``State.carry()`` (a deal code, when given, fixes round 1 instead)."""
        ...

    def read_deal_code(self, code: str) -> DealInfo:
        """What ``code`` names; :class:`~meja.rules.errors.BadDealCodeError` if it does not read
        (or the game has no deal codes)."""
        ...

    def deck(self, options: Any, seats: int) -> tuple[str, ...]:
        """The wire name of every physical card of a match (a name twice where two cards share it)."""
        ...

    def decode_action(self, data: Any) -> Any: ...

    def state_from_data(self, data: Mapping[str, Any]) -> Any: ...

    # Optional (read with :func:`round_points`, which gives ``None`` for a game without it):
    # ``round_points(options, seats, data) -> RoundPoints | None``: each seat's points in the round
    # whose ``GameInfo.round_end`` event carried ``data``, so that results of one deal compare.


@dataclass(frozen=True, slots=True)
class RoundPoints:
    """Each seat's points in one round (what a deal's board compares), and which way is better."""

    points: tuple[int, ...]
    lower_wins: bool


def round_points(game: Game, options: Any, seats: int, data: Mapping[str, Any]) -> RoundPoints | None:
    """The game's own :class:`RoundPoints` for the round-end event ``data``; ``None`` if it says none."""
    method = getattr(game, "round_points", None)
    if method is None:
        return None
    result: RoundPoints | None = method(options, seats, data)
    return result


# --------------------------------------------------------------------------- the registry

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under ``game.name`` (:mod:`meja.games` does it for every game)."""
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name``; :class:`BadOptionsError` if there is none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise BadOptionsError(f"unknown game {name!r}; known: {sorted(_REGISTRY)}") from None


def games() -> tuple[str, ...]:
    """The names of the registered games, in the order they were registered."""
    return tuple(_REGISTRY)
