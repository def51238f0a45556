"""The Eighty-Three game: options, the start of a match, and stacked layouts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from meja.rules.errors import BadActionError, BadOptionsError
from meja.rules.game import DealInfo, RoundPoints, Transition, check_options
from meja.rules.rng import SEED_BITS, Rng
from meja.rules.wire import action_kind

from .. import dealcode
from . import scenario
from .actions import _BIDS, _CARD_ACTIONS, _CARD_KINDS, _KIND_OF_WIRE, _SIMPLE, _TRUMPS, Action, Kind, Phase
from .options import INFO, EightyThreeOptions, options_arg, preset_options
from .state import EightyThreeState, _blank
from .tables import _ID, _SUIT_LETTERS, DECK, GAME_NAME, MAX_BID, MIN_BID, SEATS, TEAMS
from .view import HandResult

# --------------------------------------------------------------------------- the game


class EightyThree:
    """The Eighty-Three game: its preset and option, the start of a match, deal codes."""

    name: Final = GAME_NAME
    title: Final = "Eighty-Three"
    info: Final = INFO

    def options(self, preset: str | None = None, **overrides: Any) -> EightyThreeOptions:
        """The preset (``standard``) with the host's settings checked against :data:`INFO`."""
        return preset_options(preset, **overrides)

    def options_from_wire(self, data: Any) -> EightyThreeOptions:
        """Options from a host's request (``{"preset": "standard", "must_win_on_own_bid": true}``)."""
        preset, values = check_options(INFO, data)
        return EightyThreeOptions(preset=preset.name, **values)

    def seat_range(self, options: EightyThreeOptions) -> range:
        return range(SEATS, SEATS + 1)

    def teams(self, options: EightyThreeOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def round_points(self, options: EightyThreeOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """4.8: each seat scores its team's change of score in the hand; more is better."""
        delta = data["delta"]
        return RoundPoints(tuple(int(delta[0 if s in TEAMS[0] else 1]) for s in range(seats)), lower_wins=False)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo(dealcode.PRESET, SEATS, dealcode.encode(spec))

    def deck(self, options: EightyThreeOptions, seats: int) -> tuple[str, ...]:
        return DECK

    def new_match(
        self,
        options: EightyThreeOptions | str,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> Transition:
        """Deal hand 1 (from ``deal_code`` if given). ``seed`` (up to 128 bits) decides the rest.
        ``carry`` (a rematch: the last match's :meth:`EightyThreeState.carry`) names the dealer: the
        deal passes to the left after every hand (4.2.1), the last match's last one included."""
        opts = options_arg(options)
        if seats != SEATS:
            raise BadOptionsError(f"eighty-three is for {SEATS} seats, not {seats!r}")
        match_rng = Rng(seed, "match")
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            dealer, hand_seed = spec.dealer, spec.seed
        else:
            dealer, match_rng = match_rng.randbelow(SEATS)  # 4.2.1: the first dealer at random
            hand_seed, match_rng = match_rng.bits(SEED_BITS)
            if carry is not None:
                carried = carry.get("dealer") if isinstance(carry, Mapping) else None
                if type(carried) is not int or not 0 <= carried < SEATS:
                    raise BadOptionsError(f"not a carry of eighty-three: {carry!r}")
                dealer = carried
        return _blank(opts, match_rng)._deal(dealer, hand_seed, [])

    #: a hand laid out by hand (stacked-deck scenarios): :func:`.scenario.stacked`
    stacked = staticmethod(scenario.stacked)

    def decode_action(self, data: Any) -> Action:
        """The only door for untrusted actions: strict about keys and types."""
        kind = action_kind(data, _KIND_OF_WIRE)
        field_name = (
            "card" if kind in _CARD_KINDS else "value" if kind == Kind.BID else "suit" if kind == Kind.TRUMP else None
        )
        allowed = {"kind"} if field_name is None else {"kind", field_name}
        extra = set(data) - allowed
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        if field_name is None:
            return _SIMPLE[kind]
        if field_name not in data:
            raise BadActionError(f"a {kind.wire!r} action needs a {field_name!r}")
        value = data[field_name]
        if kind == Kind.BID:
            if type(value) is not int or not MIN_BID <= value <= MAX_BID:
                raise BadActionError(f"a bid is a whole number {MIN_BID}-{MAX_BID}, not {value!r}")
            return _BIDS[value - MIN_BID]
        if kind == Kind.TRUMP:
            if not isinstance(value, str) or len(value) != 1 or value not in _SUIT_LETTERS:
                raise BadActionError(f"a suit is exactly one of S, H, D, C, not {value!r}")
            return _TRUMPS[_SUIT_LETTERS.index(value)]
        card = _ID.get(value) if isinstance(value, str) else None  # the wire's one spelling of each
        if card is None:
            raise BadActionError(
                f"not a card of eighty-three: {value!r} (exactly one of the 53 names: '8H', '10C', 'JK')"
            )
        return _CARD_ACTIONS[kind][card]

    def state_from_data(self, data: Mapping[str, Any]) -> EightyThreeState:
        """Rebuild a state from :meth:`EightyThreeState.to_data` output."""
        if data.get("schema") != 1 or data.get("game") != GAME_NAME:
            raise ValueError(f"not an eighty-three state record: schema {data.get('schema')!r}")
        o = data["options"]
        lh = data["last_hand"]
        state = _blank(
            EightyThreeOptions(o["preset"], bool(o["must_win_on_own_bid"])), Rng.from_data(data["match_rng"])
        )
        return state._evolve(
            version=data["version"],
            phase=Phase(data["phase"]),
            round=data["round"],
            dealer=data["dealer"],
            seed=int(data["seed"], 16),
            hands=tuple(tuple(h) for h in data["hands"]),
            kitty=tuple(data["kitty"]),
            calls=tuple((c[0], c[1]) for c in data["calls"]),
            turn=data["turn"],
            bidder=data["bidder"],
            bid=data["bid"],
            trump=data["trump"],
            pending=tuple(tuple(p) for p in data["pending"]),
            decided=tuple(data["decided"]),
            gave=tuple(tuple(g) for g in data["gave"]),
            buried=tuple(tuple(b) for b in data["buried"]),
            shown=tuple((x[0], x[1]) for x in data["shown"]),
            trick=tuple((x[0], x[1]) for x in data["trick"]),
            leader=data["leader"],
            last_trick=tuple((x[0], x[1]) for x in data["last_trick"]),
            last_winner=data["last_winner"],
            tricks=(data["tricks"][0], data["tricks"][1]),
            taken=(tuple(data["taken"][0]), tuple(data["taken"][1])),
            scores=(data["scores"][0], data["scores"][1]),
            ready=tuple(data["ready"]),
            last_hand=None if lh is None else HandResult.from_data(lh),
            winner=data["winner"],
            phase_v=data["phase_v"],
            seat_v=tuple(data["seat_v"]),
        )


GAME: Final = EightyThree()
