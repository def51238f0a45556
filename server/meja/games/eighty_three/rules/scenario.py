"""Eighty-Three laid out by hand: :func:`stacked`, the state of a stacked-deck scenario.

The game's :meth:`EightyThree.stacked <meja.games.eighty_three.rules.game.EightyThree.stacked>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from meja.rules.errors import BadOptionsError
from meja.rules.rng import SEED_BITS, Rng

from .actions import _AUCTION, _DISCARD, _PLAY, _TRUMP
from .options import EightyThreeOptions, options_arg
from .state import EightyThreeState, _blank
from .tables import (
    _ESUIT,
    _PLAIN,
    _POINTS,
    _SUIT_LETTERS,
    HAND,
    KEEP,
    KITTY,
    MAX_BID,
    MIN_BID,
    NAMES,
    SEATS,
    TRICKS,
    parse_cards,
)

#: the phases a stacked hand may start in
_PHASES_OF_WIRE: Final = {"auction": _AUCTION, "trump": _TRUMP, "discard": _DISCARD, "play": _PLAY}


def stacked(
    options: EightyThreeOptions | str = "standard",
    *,
    hands: Sequence[str],
    kitty: str = "",
    dealer: int = 3,
    phase: str = "auction",
    bidder: int | None = None,
    bid: int | None = None,
    trump: str | None = None,
    leader: int | None = None,
    trick: str = "",
    taken: Sequence[str] = ("", ""),
    scores: tuple[int, int] = (0, 0),
    hand: int = 1,
    seed: int = 0,
) -> EightyThreeState:
    """A hand laid out by hand, for stacked-deck scenarios; :class:`BadOptionsError` for a layout
    that could never happen.

    ``phase``:

    - ``"auction"``: ``hands`` are four 12-card hands and ``kitty`` 5 cards
      (the whole deck); the dealer's left is to bid.
    - ``"trump"``: after the auction; ``bidder`` and ``bid`` given, the
      bidder's hand holds 17 cards (the kitty taken), the others 12.
    - ``"discard"``: as ``"trump"`` with ``trump`` (a suit letter) named.
    - ``"play"``: the tricks; ``bidder``, ``bid``, ``trump`` given; ``trick``
      the cards played to the trick in progress, from ``leader`` (default:
      the bidder) on; ``taken`` the cards each team has captured (whole
      tricks). Every hand holds the same number of cards (at most 6) once the
      trick's cards are counted back, and the tricks taken make up the rest
      of the 6. The cards not laid out count as discarded face down; no point
      trump may be among them (4.6.5: it is never discarded).

    ``seed`` names the hand (its deal code) and feeds the later hands.
    """
    opts = options_arg(options)
    if len(hands) != SEATS:
        raise BadOptionsError(f"eighty-three is for {SEATS} seats, not {len(hands)}")
    if phase not in _PHASES_OF_WIRE:
        raise BadOptionsError(f"a stacked hand starts in one of {sorted(_PHASES_OF_WIRE)}, not {phase!r}")
    ph = _PHASES_OF_WIRE[phase]
    try:
        laid = [parse_cards(h) for h in hands]
        kitty_cards = parse_cards(kitty)
        trick_cards = parse_cards(trick)
        taken_cards = [parse_cards(t) for t in taken]
    except ValueError as exc:
        raise BadOptionsError(f"a stacked hand names a card that is not one: {exc}") from None
    if len(taken_cards) != 2:
        raise BadOptionsError("taken names the cards of the two teams")
    every = [c for h in laid for c in h] + list(kitty_cards) + list(trick_cards) + [c for t in taken_cards for c in t]
    seen: set[int] = set()
    for c in every:
        if c in seen:
            raise BadOptionsError(f"card {NAMES[c]!r} is laid out twice")
        seen.add(c)
    if type(dealer) is not int or not 0 <= dealer < SEATS:
        raise BadOptionsError(f"dealer {dealer!r} is not a seat of {SEATS}")
    if type(hand) is not int or hand < 1 or type(seed) is not int or not 0 <= seed < 1 << SEED_BITS:
        raise BadOptionsError(f"hand {hand!r} and seed {seed!r}: a hand number from 1 and a 128-bit seed")
    if len(scores) != 2:
        raise BadOptionsError(f"scores {scores!r}: one total per team")
    trump_suit = -1
    if ph >= _DISCARD:
        if not isinstance(trump, str) or trump.upper() not in tuple(_SUIT_LETTERS):
            raise BadOptionsError(f"trump {trump!r} is not one of S H D C")
        trump_suit = _SUIT_LETTERS.index(trump.upper())
    elif trump is not None:
        raise BadOptionsError("trumps are named after the auction: no trump in the auction or trump phase")
    if ph >= _TRUMP:
        if type(bidder) is not int or not 0 <= bidder < SEATS:
            raise BadOptionsError(f"bidder {bidder!r} is not a seat of {SEATS}")
        if type(bid) is not int or not MIN_BID <= bid <= MAX_BID:
            raise BadOptionsError(f"bid {bid!r} is not {MIN_BID}-{MAX_BID}")
    elif bidder is not None or bid is not None:
        raise BadOptionsError("a stacked auction starts with no bid: bidder and bid come later")
    if ph != _PLAY and (trick_cards or any(taken_cards) or leader is not None):
        raise BadOptionsError("tricks, taken cards and a leader belong to the play phase")
    sizes = [len(h) for h in laid]
    if ph == _AUCTION:
        if sizes != [HAND] * SEATS or len(kitty_cards) != KITTY:
            raise BadOptionsError(
                f"an auction needs four hands of 12 and a kitty of 5, not {sizes} and {len(kitty_cards)}"
            )
    elif ph in (_TRUMP, _DISCARD):
        assert bidder is not None
        want = [HAND + KITTY if s == bidder else HAND for s in range(SEATS)]
        if sizes != want or kitty_cards:
            raise BadOptionsError(f"after the auction the hands hold {want} cards and the kitty none, not {sizes}")
    else:
        assert bidder is not None
        lead = bidder if leader is None else leader
        if type(lead) is not int or not 0 <= lead < SEATS:
            raise BadOptionsError(f"leader {lead!r} is not a seat of {SEATS}")
        if kitty_cards:
            raise BadOptionsError("the kitty is empty once the tricks are played")
        played = [(lead + i) % SEATS for i in range(len(trick_cards))]
        if len(trick_cards) >= SEATS:
            raise BadOptionsError("a trick in progress holds at most 3 cards")
        counted_back = [sizes[s] + (s in played) for s in range(SEATS)]
        n = counted_back[0]
        if any(x != n for x in counted_back) or not 1 <= n <= KEEP:
            raise BadOptionsError(f"the hands hold {sizes} cards: not one trick's position of the play")
        if any(len(t) % SEATS for t in taken_cards) or sum(len(t) for t in taken_cards) != SEATS * (TRICKS - n):
            raise BadOptionsError(f"the taken cards must be the {TRICKS - n} whole tricks played before")
        out_cards = set(range(len(NAMES))) - seen
        lost = [NAMES[c] for c in sorted(out_cards) if _POINTS[trump_suit][c]]
        if lost:
            raise BadOptionsError(f"point trumps {lost} are laid out nowhere: a point trump is never discarded")
    missing = set(range(len(NAMES))) - seen
    if ph != _PLAY and missing:
        raise BadOptionsError(f"the deck is not all laid out: {[NAMES[c] for c in sorted(missing)]} missing")
    state = _blank(opts, Rng(seed, "match"))._evolve(
        round=hand, dealer=dealer, seed=seed, scores=(scores[0], scores[1])
    )
    first = (dealer + 1) % SEATS
    hands_t = tuple(tuple(sorted(h)) for h in laid)
    common: dict[str, Any] = {
        "hands": hands_t,
        "kitty": tuple(sorted(kitty_cards)),
        "turn": first,
        "leader": first,
    }
    if ph >= _TRUMP:
        assert bidder is not None and bid is not None
        common.update(phase=_TRUMP, bidder=bidder, bid=bid, turn=bidder, calls=((bidder, bid),))
    if ph >= _DISCARD:
        common.update(phase=_DISCARD, trump=trump_suit, turn=-1)
    if ph == _PLAY:
        assert bidder is not None
        lead = bidder if leader is None else leader
        aside = sorted(set(range(len(NAMES))) - seen)
        tricks_each = (len(taken_cards[0]) // SEATS, len(taken_cards[1]) // SEATS)
        common.update(
            phase=_PLAY,
            trick=tuple(((lead + i) % SEATS, c) for i, c in enumerate(trick_cards)),
            leader=lead,
            turn=(lead + len(trick_cards)) % SEATS,
            taken=(tuple(taken_cards[0]), tuple(taken_cards[1])),
            tricks=tricks_each,
            # the cards laid out nowhere: discarded face down, by the bidder (who shed most)
            buried=tuple(tuple(aside) if s == bidder else () for s in range(SEATS)),
        )
        if any(_ESUIT[trump_suit][c] == _PLAIN for c in aside):
            # trumps set aside were shed face up (4.6.5)
            common["shown"] = tuple((bidder, c) for c in aside if _ESUIT[trump_suit][c] == _PLAIN)
            common["buried"] = tuple(
                tuple(c for c in aside if _ESUIT[trump_suit][c] != _PLAIN) if s == bidder else () for s in range(SEATS)
            )
    return state._evolve(**common)
