"""Kartu Terakhir laid out by hand: :func:`stacked`, the state of a stacked-deck scenario or a tutorial.

The game's :meth:`KartuTerakhir.stacked <meja.games.kartu_terakhir.rules.game.KartuTerakhir.stacked>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meja.rules.errors import BadOptionsError
from meja.rules.rng import Rng

from .actions import _PLAY, _REACT
from .options import KartuTerakhirOptions, options_arg
from .state import KartuTerakhirState, blank_state
from .tables import (
    _COLOUR_OF,
    _NAME,
    _OF_COLOUR,
    COLOUR,
    COLOURS,
    DRAW_TWO,
    IDS_OF,
    IS_WILD,
    MAX_SEATS,
    MIN_SEATS,
    NAMEIX,
    NAMEIX_OF,
    PLAYABLE,
    SYM,
    TITLE,
    WILD_DRAW_FOUR,
)


def stacked(
    options: KartuTerakhirOptions | Mapping[str, Any] | None = None,
    *,
    hands: Sequence[str],
    discard: str,
    stock: str = "",
    turn: int = 0,
    direction: int = 1,
    colour: str | None = None,
    prior_colour: str | None = None,
    pending: int = 0,
    window: int | None = None,
    called: int | None = None,
    drawn: str | None = None,
    dealer: int | None = None,
    seed: int = 0,
    scores: Sequence[int] | None = None,
    round: int = 1,
) -> KartuTerakhirState:
    """A state with the cards laid out by hand, for stacked-deck scenarios and tutorials.

    ``hands`` has one card list per seat (``"R7 GS W"``); ``discard`` is bottom to
    top (its last card is the top card); ``stock`` is top first (its first card is
    drawn next). Cards need not make a whole deck, but no card may be laid out more
    often than the deck has it (one ``R0``, two ``R7``, four ``W``...). ``colour``:
    the active colour (default: the top card's; required on a Wild). ``pending``: a
    penalty the seat on turn faces, from the top card (a Draw Two: phase ``react``
    with stacking off; a Wild Draw Four of 4: challengeable, played by the seat before
    ``turn``, judged against ``prior_colour``, by default the colour of the card under
    it). ``window``: a seat holding one card that is open to a catch. ``called``: the
    seat on turn has called with 2 cards. ``drawn``: the seat on turn has drawn this
    card (playable) and must play or keep it. A layout the game could never reach is
    :class:`BadOptionsError`.
    """
    opts = options_arg(options)
    n = len(hands)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise BadOptionsError(f"{TITLE} is for {MIN_SEATS}-{MAX_SEATS} seats, not {n}")
    free = [list(ids) for ids in IDS_OF]  # the copies not yet laid out, lowest id first

    def lay(text: str, where: str) -> list[int]:
        out = []
        for word in text.split():
            i = NAMEIX_OF.get(word)
            if i is None:
                raise BadOptionsError(f"{where} names {word!r}, which is not a card of {TITLE}")
            if not free[i]:
                copies = len(IDS_OF[i])
                raise BadOptionsError(f"card {word!r} is laid out more often than the deck has it ({copies})")
            out.append(free[i].pop(0))
        return out

    hand_ids = [sorted(lay(h, f"hand {s}")) for s, h in enumerate(hands)]
    pile = lay(discard, "discard")
    stock_ids = lay(stock, "stock")
    if not pile:
        raise BadOptionsError("a stacked state needs at least the top card in 'discard'")
    if not 0 <= turn < n:
        raise BadOptionsError(f"turn {turn!r} is not a seat of {n}")
    if direction not in (1, -1):
        raise BadOptionsError(f"direction is 1 or -1, not {direction!r}")
    if any(not h for h in hand_ids):
        raise BadOptionsError("every hand holds a card while a round is in play (an empty hand has gone out)")
    top = pile[-1]
    if colour is None:
        if IS_WILD[top]:
            raise BadOptionsError(f"the top card {_NAME[top]!r} is a Wild: name the active colour")
        active = COLOUR[top]
    else:
        if colour not in _COLOUR_OF:
            raise BadOptionsError(f"colour {colour!r} is not one of {list(COLOURS)}")
        active = _COLOUR_OF[colour]
        if not IS_WILD[top] and active != COLOUR[top]:
            raise BadOptionsError(f"the active colour is the top card's ({_NAME[top]!r}) unless it is a Wild")
    if dealer is not None and not 0 <= dealer < n:
        raise BadOptionsError(f"dealer {dealer!r} is not a seat of {n}")
    if scores is not None and len(scores) != n:
        raise BadOptionsError(f"scores {scores!r} need one total per seat")
    phase = _PLAY
    challenge = False
    wd4_by = -1
    evidence: tuple[int, ...] = ()
    bluff = False
    if pending:
        sym = SYM[top]
        if sym not in (DRAW_TWO, WILD_DRAW_FOUR):
            raise BadOptionsError(
                f"a pending penalty comes from a Draw Two or Wild Draw Four on top, not {_NAME[top]!r}"
            )
        single = 2 if sym == DRAW_TWO else 4
        if not opts.stacking and pending != single:
            raise BadOptionsError(f"without stacking a {_NAME[top]!r} makes a penalty of {single}")
        # 3.7 stacking 2: 2 per Draw Two (8 in the deck), 4 per Wild Draw Four (4)
        if pending % 2 or pending < single or pending > 2 * 8 + 4 * 4:
            raise BadOptionsError(f"no stack of Draw Twos and Wild Draw Fours makes {pending!r} under {_NAME[top]!r}")
        if sym == DRAW_TWO and not opts.stacking:
            phase = _REACT
        if sym == WILD_DRAW_FOUR and pending == 4:
            challenge = True
            wd4_by = (turn - direction) % n
            evidence = tuple(hand_ids[wd4_by])
            if prior_colour is None:
                under = pile[-2] if len(pile) > 1 else -1
                if under < 0 or IS_WILD[under]:
                    raise BadOptionsError("name the colour in force before the Wild Draw Four: prior_colour")
                prior = COLOUR[under]
            elif prior_colour in _COLOUR_OF:
                prior = _COLOUR_OF[prior_colour]
            else:
                raise BadOptionsError(f"prior_colour {prior_colour!r} is not one of {list(COLOURS)}")
            bluff = not _OF_COLOUR[prior].isdisjoint(evidence)
    if window is not None:
        if not 0 <= window < n or len(hand_ids[window]) != 1:
            raise BadOptionsError(f"window {window!r}: only a seat holding one card is open to a catch")
        if called is not None and called == window:
            raise BadOptionsError("a seat that called is not open to a catch")
    drawn_id = -1
    if called is not None and (called != turn or len(hand_ids[turn]) != 2):
        raise BadOptionsError(f"called={called!r}: only the seat on turn holding 2 cards may have called")
    if drawn is not None:
        if pending:
            raise BadOptionsError("a seat facing a penalty has not drawn a card of its own")
        i = NAMEIX_OF.get(drawn)
        held = [c for c in hand_ids[turn] if i is not None and NAMEIX[c] == i]
        if not held:
            raise BadOptionsError(f"drawn card {drawn!r} is not in the hand of seat {turn}")
        drawn_id = held[-1]
        if not PLAYABLE[active * 15 + SYM[top]][drawn_id]:
            raise BadOptionsError(f"drawn card {drawn!r} is not playable: the turn would have ended (3.3.4)")
        if window is not None:
            raise BadOptionsError("a draw closes the catch window (3.6.3)")
    state = blank_state(opts, n, Rng(seed, "match"))
    state.__dict__.update(
        phase=phase,
        round=round,
        dealer=(turn - direction) % n if dealer is None else dealer,
        seed=seed,
        hands=tuple(tuple(h) for h in hand_ids),
        stock=tuple(reversed(stock_ids)),
        discard=tuple(pile),
        colour=active,
        direction=direction,
        turn=turn,
        pending=pending,
        challenge=challenge,
        wd4_by=wd4_by,
        evidence=evidence,
        bluff=bluff,
        window=-1 if window is None else window,
        called=-1 if called is None else called,
        drawn=drawn_id,
        scores=tuple(scores) if scores is not None else (0,) * n,
    )
    return state
