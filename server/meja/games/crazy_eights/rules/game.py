"""The Crazy Eights game: presets, options, the start of a match, and stacked layouts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from meja.rules.cards import CARDS, Card, Suit
from meja.rules.errors import BadActionError, BadOptionsError
from meja.rules.game import DealInfo, RoundPoints, Transition, check_options
from meja.rules.rng import Rng
from meja.rules.wire import action_kind

from .. import dealcode
from . import scenario
from .actions import _KIND_OF_WIRE, DRAW, PASS, READY, Kind, Move, Phase
from .options import INFO, PRESETS, CrazyEightsOptions, options_arg, preset_options
from .state import CrazyEightsState, _turn_at_rest
from .tables import _NAME, GAME_NAME
from .view import RoundResult

# --------------------------------------------------------------------------- the game


class CrazyEights:
    """The Crazy Eights game: presets, options, and the start of a match."""

    name: Final = GAME_NAME
    title: Final = "Crazy Eights"

    info: Final = INFO

    @property
    def presets(self) -> Mapping[str, CrazyEightsOptions]:
        return PRESETS

    def options(self, preset: str | None = None, **overrides: Any) -> CrazyEightsOptions:
        """The named preset (``house`` by default) with adjustments checked (any of :data:`ADJUSTABLE`)."""
        return preset_options(preset, **overrides)

    def options_from_wire(self, data: Any) -> CrazyEightsOptions:
        """Options from a host's request (``{"preset": "party", "match_mode": "wins"}``), checked
        against the preset's spec in :data:`INFO`: only what the host form offers for it."""
        if data is None:
            return self.options()
        preset, values = check_options(INFO, data)
        given = {k: v for k, v in values.items() if k in data}
        return self.options(preset.name, **given)

    def seat_range(self, options: CrazyEightsOptions) -> range:
        return range(options.min_seats, options.max_seats + 1)

    def teams(self, options: CrazyEightsOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(seats))

    def round_points(self, options: CrazyEightsOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """Each seat's penalty of the round (1.6.1, 1.6.2): fewer is better."""
        return RoundPoints(tuple(int(p) for p in data["penalties"]), lower_wins=True)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo(spec.preset, spec.seats, dealcode.encode(spec))

    def deck(self, options: CrazyEightsOptions, seats: int) -> tuple[str, ...]:
        return _NAME[: 52 * options.decks(seats)]

    def new_match(
        self,
        options: CrazyEightsOptions | str,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Any = None,
    ) -> Transition:
        """Deal round 1 of a match. ``seed`` (up to 128 bits) decides everything not fixed by ``deal_code``.
        ``carry`` is ignored: each match starts afresh (the presets' first dealer is random, then
        moves every round of the match), so :meth:`State.carry` is the default ``None``.

        With a deal code (1.9.3 "play a deal by code"), round 1 is that deal, led by
        its leader; later rounds are drawn from ``seed`` as usual.
        """
        options = options_arg(options)
        if seats not in self.seat_range(options):
            raise BadOptionsError(
                f"{options.preset} is for {options.min_seats}-{options.max_seats} seats, not {seats!r}"
            )
        match_rng = Rng(seed, "match")
        dealer: int | None = None
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            if spec.preset != options.preset or spec.seats != seats:
                raise BadOptionsError(
                    f"deal code {deal_code!r} is for {spec.preset} with {spec.seats} seats,"
                    f" not {options.preset} with {seats}"
                )
            leader, round_seed = spec.leader, spec.seed
            if options.has_dealer:
                dealer = (leader - 1) % seats
        else:
            if options.has_dealer:
                dealer, match_rng = match_rng.randbelow(seats)  # 2.1: first dealer random
                leader = (dealer + 1) % seats
            else:
                leader = 0  # 1.2.1: the host's seat leads round 1
            round_seed, match_rng = match_rng.bits(dealcode.SEED_BITS)
        # Built field by field into the instance dict, like _evolve: the frozen
        # __init__ would cost more than the deal itself (meja bench rules).
        blank = object.__new__(CrazyEightsState)
        blank.__dict__.update(
            options=options,
            seats=seats,
            version=0,
            phase=Phase.PLAY,
            match_rng=match_rng,
            round=1,
            scores=(0,) * seats,
            wins=(0,) * seats,
            dealer=dealer,
            leader=leader,
            seed=round_seed,
            hands=((),) * seats,
            stock=(),
            discard=(),
            active_suit=Suit.SPADES,
            turn=leader,
            draws=0,
            **_turn_at_rest(seats),
            last_round=None,
            winners=(),
        )
        return blank._deal(dealer, leader, round_seed, [])

    #: a state laid out by hand (stacked-deck scenarios, tutorials): :func:`.scenario.stacked`
    stacked = staticmethod(scenario.stacked)

    def decode_action(self, data: Any) -> Move:
        """The only door for untrusted actions: strict about keys, types and spellings (a card or
        suit exactly as the server writes it)."""
        kind = action_kind(data, _KIND_OF_WIRE)
        allowed = {"kind", "card", "suit"} if kind == Kind.PLAY else {"kind", "suit"} if kind == Kind.SUIT else {"kind"}
        extra = set(data) - allowed
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        try:
            if kind == Kind.PLAY:
                if "card" not in data:
                    raise BadActionError("a 'play' action needs a 'card'")
                suit = data.get("suit")
                return Move.play(Card.from_wire(data["card"]), None if suit is None else Suit.from_wire(suit))
            if kind == Kind.SUIT:
                if "suit" not in data:
                    raise BadActionError("a 'suit' action needs a 'suit'")
                return Move.choose(Suit.from_wire(data["suit"]))
        except BadActionError:
            raise
        except ValueError as exc:
            raise BadActionError(str(exc)) from None
        return {Kind.DRAW: DRAW, Kind.PASS: PASS, Kind.READY: READY}[kind]

    def state_from_data(self, data: Mapping[str, Any]) -> CrazyEightsState:
        """Rebuild a state from :meth:`CrazyEightsState.to_data` output."""
        if data.get("schema") != 2 or data.get("game") != GAME_NAME:
            raise ValueError(f"not a crazy eights state record: schema {data.get('schema')!r}")
        o = dict(data["options"])
        o["hand_sizes"] = tuple(o["hand_sizes"])
        options = CrazyEightsOptions(**o)
        lr = data["last_round"]
        return CrazyEightsState(
            options=options,
            seats=data["seats"],
            version=data["version"],
            phase=Phase(data["phase"]),
            match_rng=Rng.from_data(data["match_rng"]),
            round=data["round"],
            scores=tuple(data["scores"]),
            wins=tuple(data["wins"]),
            dealer=data["dealer"],
            leader=data["leader"],
            seed=int(data["seed"], 16),
            hands=tuple(tuple(CARDS[c] for c in h) for h in data["hands"]),
            stock=tuple(CARDS[c] for c in data["stock"]),
            discard=tuple(CARDS[c] for c in data["discard"]),
            active_suit=Suit(data["active_suit"]),
            turn=data["turn"],
            draws=data["draws"],
            drawn=None if data["drawn"] is None else CARDS[data["drawn"]],
            reshuffles=data["reshuffles"],
            chooser=data["chooser"],
            ready=tuple(data["ready"]),
            last_round=None
            if lr is None
            else RoundResult(lr[0], lr[1], tuple(lr[2]), tuple(tuple(CARDS[c] for c in h) for h in lr[3]), lr[4]),
            winners=tuple(data["winners"]),
        )


GAME: Final = CrazyEights()
