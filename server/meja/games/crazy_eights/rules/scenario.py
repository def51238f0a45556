"""Crazy Eights laid out by hand: :func:`stacked`, the state of a stacked-deck scenario or a tutorial.

The game's :meth:`CrazyEights.stacked <meja.games.crazy_eights.rules.game.CrazyEights.stacked>`.
"""

from __future__ import annotations

from meja.rules.cards import Suit, parse_cards
from meja.rules.errors import BadOptionsError
from meja.rules.rng import Rng

from .actions import Phase
from .options import CrazyEightsOptions, options_arg
from .state import CrazyEightsState, _turn_at_rest
from .tables import _SUIT_OBJ


def stacked(
    options: CrazyEightsOptions | str = "house",
    *,
    hands: list[str] | tuple[str, ...],
    discard: str,
    stock: str = "",
    active_suit: Suit | str | None = None,
    turn: int = 0,
    draws: int = 0,
    dealer: int | None = None,
    seed: int = 0,
    scores: tuple[int, ...] | None = None,
    round: int = 1,
) -> CrazyEightsState:
    """A state with the cards laid out by hand, for stacked-deck scenarios and tutorials.

    ``hands`` has one card list per seat (``"6S KH 8C"``); ``discard`` is
    bottom to top, so its last card is the top card; ``stock`` is top first
    (its first card is drawn next). Cards need not make a whole deck. The
    active suit defaults to the top card's suit; ``seed`` names the round (it
    feeds reshuffles). The state is in the play phase with ``turn`` to act.
    """
    opts = options_arg(options)
    n = len(hands)
    if not opts.min_seats <= n <= opts.max_seats:
        raise BadOptionsError(f"{opts.preset} is for {opts.min_seats}-{opts.max_seats} seats, not {n}")
    try:
        cards = [list(parse_cards(h)) for h in hands]
        pile = parse_cards(discard)
        stock_cards = parse_cards(stock)
    except ValueError as exc:
        raise BadOptionsError(f"a stacked state names a card that is not one: {exc}") from None
    if not pile:
        raise BadOptionsError("a stacked state needs at least the top card in 'discard'")
    # Only a layout the game could reach: each card of this preset's deck at most once.
    in_deck = 52 * opts.decks(n)
    seen: set[int] = set()
    for c in [c for h in cards for c in h] + list(pile) + list(stock_cards):
        if c >= in_deck:
            raise BadOptionsError(f"card {str(c)!r} is not in a {opts.preset} deck at {n} seats")
        if c in seen:
            raise BadOptionsError(f"card {str(c)!r} is laid out twice")
        seen.add(c)
    if not 0 <= turn < n:
        raise BadOptionsError(f"turn {turn!r} is not a seat of {n}")
    if not 0 <= draws <= opts.max_draws:
        raise BadOptionsError(f"draws={draws!r}: a {opts.preset} turn has 0-{opts.max_draws} draws")
    if dealer is not None and not 0 <= dealer < n:
        raise BadOptionsError(f"dealer {dealer!r} is not a seat of {n}")
    if scores is not None and len(scores) != n:
        raise BadOptionsError(f"scores {scores!r} need one total per seat")
    top = pile[-1]
    suit = Suit.parse(active_suit) if isinstance(active_suit, str) else active_suit
    if opts.has_dealer and dealer is None:
        dealer = (turn - 1) % n
    return CrazyEightsState(
        options=opts,
        seats=n,
        version=0,
        phase=Phase.PLAY,
        match_rng=Rng(seed, "match"),
        round=round,
        scores=scores if scores is not None else (0,) * n,
        wins=(0,) * n,
        dealer=dealer if opts.has_dealer else None,
        leader=turn,
        seed=seed,
        hands=tuple(tuple(sorted(h)) for h in cards),
        stock=tuple(reversed(stock_cards)),
        discard=pile,
        active_suit=_SUIT_OBJ[top] if suit is None else suit,
        turn=turn,
        draws=draws,
        **_turn_at_rest(n),
        last_round=None,
        winners=(),
    )
