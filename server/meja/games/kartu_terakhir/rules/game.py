"""The Kartu Terakhir game: options, the start of a match, and stacked layouts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from meja.rules.errors import BadActionError, BadOptionsError
from meja.rules.game import DealInfo, RoundPoints, Transition, check_options
from meja.rules.rng import Rng
from meja.rules.wire import action_kind

from .. import dealcode
from . import scenario
from .actions import _BY_KIND, _KIND_OF_WIRE, Kind, Move, Phase
from .options import INFO, KartuTerakhirOptions, options_arg, options_from_wire
from .state import KartuTerakhirState, blank_state
from .tables import DECK, GAME_NAME, MAX_SEATS, MIN_SEATS, TITLE
from .view import RoundResult

# --------------------------------------------------------------------------- the game


class KartuTerakhir:
    """The Kartu Terakhir game: its options, deck, deal codes, and the start of a match."""

    name: Final = GAME_NAME
    title: Final = TITLE
    info: Final = INFO

    def options(self, preset: str | None = None, **overrides: Any) -> KartuTerakhirOptions:
        """The preset (``standard``) with options set, checked against :data:`OPTION_SPECS`."""
        _, values = check_options(INFO, {"preset": preset or "standard", **overrides})
        return KartuTerakhirOptions(preset="standard", **values)

    def options_from_wire(self, data: Any) -> KartuTerakhirOptions:
        """Options from a host's request (``{"preset": "standard", "stacking": true}``), checked."""
        return options_from_wire(data)

    def seat_range(self, options: KartuTerakhirOptions) -> range:
        return range(MIN_SEATS, MAX_SEATS + 1)

    def teams(self, options: KartuTerakhirOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(seats))

    def round_points(self, options: KartuTerakhirOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """3.8: the round's winner scores the others' cards, every other seat nothing; more is better."""
        points = int(data["points"])
        return RoundPoints(tuple(points if s == data["winner"] else 0 for s in range(seats)), lower_wins=False)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo("standard", spec.seats, dealcode.encode(spec))

    def deck(self, options: KartuTerakhirOptions, seats: int) -> tuple[str, ...]:
        return DECK

    def new_match(
        self,
        options: KartuTerakhirOptions | Mapping[str, Any] | None,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> Transition:
        """Deal round 1 of a match. ``seed`` (up to 128 bits) draws the first dealer (3.2.3) and
        every round's seed; with ``deal_code``, round 1 is that deal (its dealer and seed) and later
        rounds come from ``seed`` as usual. ``carry`` (a rematch: the last match's
        :meth:`KartuTerakhirState.carry`) names the dealer: the deal passes to the left for the
        next game (3.2.3), and one game is one round of the default match (3.8.1)."""
        opts = options_arg(options)
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            raise BadOptionsError(f"{TITLE} is for {MIN_SEATS}-{MAX_SEATS} seats, not {seats!r}")
        match_rng = Rng(seed, "match")
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            if spec.seats != seats:
                raise BadOptionsError(f"deal code {deal_code!r} is for {spec.seats} seats, not {seats}")
            dealer, round_seed = spec.dealer, spec.seed
        else:
            dealer, match_rng = match_rng.randbelow(seats)  # 3.2.3: the first dealer is random
            round_seed, match_rng = match_rng.bits(dealcode.SEED_BITS)
            if carry is not None:
                dealer = _carried_dealer(carry, seats)
        blank = blank_state(opts, seats, match_rng)
        return blank._deal(dealer, round_seed, [])

    #: a state laid out by hand (stacked-deck scenarios, tutorials): :func:`.scenario.stacked`
    stacked = staticmethod(scenario.stacked)

    def decode_action(self, data: Any) -> Move:
        """The only door for untrusted actions: strict about keys and types."""
        kind = action_kind(data, _KIND_OF_WIRE)
        allowed = ("kind", "card", "colour") if kind == Kind.PLAY else ("kind",)
        extra = [k for k in data if k not in allowed]
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        if kind != Kind.PLAY:
            return _BY_KIND[kind]
        if "card" not in data:
            raise BadActionError("a 'play' action needs a 'card'")
        try:
            return Move.play(data["card"], data.get("colour"))
        except ValueError as exc:
            raise BadActionError(str(exc)) from None

    def state_from_data(self, data: Mapping[str, Any]) -> KartuTerakhirState:
        """Rebuild a state from :meth:`KartuTerakhirState.to_data` output."""
        if data.get("schema") != 1 or data.get("game") != GAME_NAME:
            raise ValueError(f"not a {TITLE} state record: schema {data.get('schema')!r}, game {data.get('game')!r}")
        o = dict(data["options"])
        lr = data["last_round"]
        epochs = data["epochs"]
        state = object.__new__(KartuTerakhirState)
        state.__dict__.update(
            options=KartuTerakhirOptions(**o),
            seats=data["seats"],
            version=data["version"],
            phase=Phase(data["phase"]),
            match_rng=Rng.from_data(data["match_rng"]),
            round=data["round"],
            dealer=data["dealer"],
            seed=int(data["seed"], 16),
            reshuffles=data["reshuffles"],
            hands=tuple(tuple(h) for h in data["hands"]),
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            colour=data["colour"],
            direction=data["direction"],
            turn=data["turn"],
            turn_v=data["turn_v"],
            drawn=data["drawn"],
            pending=data["pending"],
            challenge=data["challenge"],
            wd4_by=data["wd4_by"],
            evidence=tuple(data["evidence"]),
            bluff=data["bluff"],
            window=data["window"],
            called=data["called"],
            shown=tuple(data["shown"]),
            shown_to=data["shown_to"],
            scores=tuple(data["scores"]),
            ready=tuple(data["ready"]),
            last_round=None if lr is None else RoundResult(lr[0], lr[1], lr[2], tuple(tuple(h) for h in lr[3]), lr[4]),
            winners=tuple(data["winners"]),
            epochs=None if epochs is None else tuple(epochs),
        )
        return state


def _carried_dealer(carry: Mapping[str, Any], seats: int) -> int:
    dealer = carry.get("dealer") if isinstance(carry, Mapping) else None
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise BadOptionsError(f"not a carry of {TITLE} at {seats} seats: {carry!r}")
    return dealer


GAME: Final = KartuTerakhir()
