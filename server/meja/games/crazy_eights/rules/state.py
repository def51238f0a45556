"""A match of Crazy Eights between whole decisions: :class:`CrazyEightsState` and its moves."""

from __future__ import annotations

import bisect
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from meja.rules.cards import CARDS, Card, Suit
from meja.rules.errors import BadActionError, BadSeatError, IllegalActionError, NotYourTurnError, RoundOverError
from meja.rules.frozen import FrozenState
from meja.rules.game import Event, Location, Outcome, StateDefaults, Transition, Wire
from meja.rules.rng import Rng

from .. import dealcode
from .actions import _CHOOSE_SUIT, _MATCH_OVER, _PLAY, _PLAYS, _ROUND_OVER, _SUITS, DRAW, PASS, READY, Kind, Move, Phase
from .events import (
    ChooseSuit,
    Draw,
    HandDealt,
    MatchOver,
    Pass,
    Play,
    Ready,
    Reshuffle,
    RoundOver,
    RoundStart,
    SuitChosen,
    Turn,
)
from .options import CrazyEightsOptions
from .tables import _EIGHT, _NAME, _PLAYABLE, _RANK0, _SUIT_OBJ, GAME_NAME, _tuple_new, penalty
from .view import Blocked, CrazyEightsView, RoundResult, own_wire


@dataclass(frozen=True)
class CrazyEightsState(FrozenState, StateDefaults):
    """A match of Crazy Eights between whole decisions. Build one with :meth:`CrazyEights.new_match`.

    Hands are kept sorted by card id. ``stock[-1]`` is the next card drawn and
    ``discard[-1]`` the top card, so the common moves slice off the end.

    Not ``slots=True``, on purpose: :meth:`~meja.rules.frozen.FrozenState._evolve` copies the instance dict in
    one ``dict.update``, about eight times cheaper than ``dataclasses.replace``
    (which re-runs the frozen ``__init__`` field by field); this is most of the
    rules' speed (``meja bench rules``).
    """

    options: CrazyEightsOptions
    seats: int
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    scores: tuple[int, ...]
    wins: tuple[int, ...]
    dealer: int | None
    leader: int
    seed: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    active_suit: Suit
    turn: int
    draws: int
    #: the card drawn this turn where only it may be played (classic, optional play)
    drawn: Card | None
    reshuffles: int
    #: who must name the suit in the CHOOSE_SUIT phase
    chooser: int | None
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]

    # ------------------------------------------------------------- queries

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def deal_code(self) -> str:
        """The current round's deal code. Secret while the round is in progress (1.9.3)."""
        return dealcode.encode(dealcode.DealSpec(self.options.preset, self.seats, self.leader, self.seed))

    def is_playable(self, card: Card) -> bool:
        """1.3.1: an 8, the active suit, or the top card's rank."""
        return bool(_PLAYABLE[self.active_suit * 13 + _RANK0[self.discard[-1]]][card])

    def can_draw_any(self) -> bool:
        """Whether a card can be drawn at all (1.5.4: not when stock is empty and discard is one card)."""
        return bool(self.stock) or len(self.discard) > 1

    def awaiting(self) -> tuple[int, ...]:
        if self.phase == _PLAY:
            return (self.turn,)
        if self.phase == _CHOOSE_SUIT:
            assert self.chooser is not None
            return (self.chooser,)
        if self.phase == _ROUND_OVER:
            return tuple(s for s in range(self.seats) if not self.ready[s])
        return ()

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        return Outcome(self.winners, self.wins if self.options.match_mode == "wins" else self.scores)

    # The rest of the contract (meja.rules.game); nobody acts out of turn (actors() is awaiting()).

    def epoch(self, seat: int) -> int:
        """Every action concerns everyone, except the ``ready`` of another seat between rounds."""
        if self.phase == _ROUND_OVER:
            return self.version - sum(self.ready)  # the version that ended the round
        return self.version

    def period(self) -> Hashable:
        """A turn, a suit choice, the wait for ``ready``: three draws in one turn share a period."""
        phase = self.phase
        if phase == _PLAY:
            return (self.round, 0, self.turn)
        if phase == _CHOOSE_SUIT:
            return (self.round, 1, self.chooser)
        return (self.round, int(phase))

    def in_round(self) -> bool:
        return self.phase == _PLAY or self.phase == _CHOOSE_SUIT

    def default_action(self, seat: int) -> Move | None:
        """Out of time: ``ready`` between rounds; a draw while the rules allow one; else the game's bot decides."""
        legal = self.legal_actions(seat)
        if self.phase == _ROUND_OVER:
            return READY if READY in legal else None
        return DRAW if DRAW in legal else None

    def locations(self) -> tuple[Location, ...]:
        """Hands (to their seats; to all once the round is scored), the face-up pile, the face-down stock."""
        shown = not self.in_round()
        out = [
            Location(f"hand/{s}", tuple(_NAME[c] for c in h), "all" if shown else (s,))
            for s, h in enumerate(self.hands)
        ]
        # Every card under the top one was face up when it landed (buried starters too: 2.2.2).
        out.append(Location("discard", tuple(_NAME[c] for c in self.discard), "all"))
        out.append(Location("stock", tuple(_NAME[c] for c in self.stock), ()))
        if self.options.starter_eight == "bury" and self.stock is not None:
            # 2.2.2: starter 8s turned face up and put back into the stock, this round.
            buried = self._buried()
            if buried:
                out.append(Location("buried", tuple(_NAME[c] for c in buried), "all", counted=False))
        lr = self.last_round
        if lr is not None and lr.round < self.round:
            # The last round's hands, revealed when it was scored (1.6): public facts about a past
            # round, shown in every view's last_round, while the cards themselves are dealt again.
            out.append(Location("last_round", tuple(_NAME[c] for h in lr.hands for c in h), "all", counted=False))
        return tuple(out)

    def legal_actions(self, seat: int) -> tuple[Move, ...]:
        """Every action ``seat`` may take now, sorted (plays by card, then suit, draw, pass, ready)."""
        phase = self.phase
        if phase == _PLAY:
            if seat != self.turn:
                return ()
            # Cached on the (immutable) state: the policy asks, then apply checks.
            legal: tuple[Move, ...] | None = self.__dict__.get("_legal")
            if legal is None:
                legal = self.__dict__["_legal"] = self._turn_actions()
            return legal
        if phase == _CHOOSE_SUIT:
            return _SUITS if seat == self.chooser else ()
        if phase == _ROUND_OVER:
            return (READY,) if 0 <= seat < self.seats and not self.ready[seat] else ()
        return ()

    def _turn_actions(self) -> tuple[Move, ...]:
        hand = self.hands[self.turn]
        drawn = self.drawn
        # 1.3.1 as a precomputed table: which card ids are playable on (active suit, top rank).
        playable = _PLAYABLE[self.active_suit * 13 + _RANK0[self.discard[-1]]]
        out: list[Move] = []
        for c in hand if drawn is None else (drawn,):
            if playable[c]:
                if _RANK0[c] == _EIGHT:
                    if len(hand) == 1:
                        out.append(_PLAYS[c][5])  # 1.3.7: going out on an 8 names no suit
                    else:
                        out.extend(_PLAYS[c][:4])
                else:
                    out.append(_PLAYS[c][5])
        # _draw_blocked and _pass_blocked, inlined (this runs once per state).
        stuck = not out
        opts = self.options
        can_draw = bool(self.stock) or len(self.discard) > 1  # 1.5.4
        draws_left = self.draws < opts.max_draws
        if draws_left and can_draw and (stuck or not opts.draw_only_when_stuck):
            out.append(DRAW)
        if drawn is not None or (stuck and not (draws_left and can_draw)):
            out.append(PASS)
        return tuple(out)

    def _has_playable(self, seat: int) -> bool:
        return any(self.is_playable(c) for c in self.hands[seat])

    def _draw_blocked(self, stuck: bool) -> str | None:
        """Why the seat on turn may not draw, or ``None``. Assumes the PLAY phase."""
        opts = self.options
        if self.draws >= opts.max_draws:
            return "draw_limit"  # 1.4.2 (house), 2.2.3 and 2.3.3 (one draw)
        if not self.stock and len(self.discard) < 2:
            return "nothing_to_draw"  # 1.5.4
        if opts.draw_only_when_stuck and not stuck:
            return "has_playable"  # 2.2.3, 2.3.3
        return None

    def _pass_blocked(self, stuck: bool) -> str | None:
        """Why the seat on turn may not pass, or ``None``. Assumes the PLAY phase."""
        if self.drawn is not None:
            return None  # classic, optional play: keep the drawn card and end the turn
        if not stuck:
            return "has_playable"  # 1.4.5 (a), 1.4.6
        if self.draws < self.options.max_draws and (self.stock or len(self.discard) > 1):
            return "must_draw"  # 1.4.5 (b)
        return None

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Move) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (state unchanged) if it is not legal."""
        if self.phase == 0 and type(seat) is int and seat == self.turn and type(action) is Move:
            # The hot path (playouts, search): a turn action by the seat on turn.
            legal = self.__dict__.get("_legal") or self.legal_actions(seat)
            if action in legal:
                kind = action.kind
                if kind == 0:
                    assert action.card is not None
                    return self._play(seat, action.card, action.suit, [])
                if kind == 2:
                    return self._draw(seat)
                return self._pass(seat)
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        if not isinstance(action, Move):
            raise BadActionError(f"not a crazy eights action: {action!r}")
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        kind = action.kind
        if kind == Kind.PLAY:
            assert action.card is not None
            return self._play(seat, action.card, action.suit, [])
        if kind == Kind.DRAW:
            return self._draw(seat)
        if kind == Kind.PASS:
            return self._pass(seat)
        if kind == Kind.SUIT:
            assert action.suit is not None
            return self._choose_suit(seat, action.suit)
        return self._ready(seat)

    def _why_illegal(self, seat: int, action: Move) -> IllegalActionError:
        phase = self.phase
        if phase == Phase.MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == Phase.ROUND_OVER:
            if action.kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next round")
            return RoundOverError(f"round {self.round} is over; only 'ready' is accepted")
        if seat not in self.awaiting():
            whose = self.chooser if phase == Phase.CHOOSE_SUIT else self.turn
            return NotYourTurnError(f"it is seat {whose}'s decision, not seat {seat}'s")
        if phase == Phase.CHOOSE_SUIT:
            return IllegalActionError(f"seat {seat} must name a suit first, not {str(action)!r}")
        stuck = not self._has_playable(seat) if self.drawn is None else not self.is_playable(self.drawn)
        if action.kind == Kind.DRAW:
            return IllegalActionError(f"draw is not allowed: {self._draw_blocked(stuck)}")
        if action.kind == Kind.PASS:
            return IllegalActionError(f"pass is not allowed: {self._pass_blocked(stuck)}")
        if action.kind == Kind.PLAY:
            card = action.card
            assert card is not None
            if card not in self.hands[seat]:
                return IllegalActionError(f"{str(card)!r} is not in seat {seat}'s hand")
            if self.drawn is not None and card != self.drawn:
                return IllegalActionError(f"only the drawn card {str(self.drawn)!r} may be played")
            if not self.is_playable(card):
                return IllegalActionError(
                    f"{str(card)!r} does not match the active suit {self.active_suit.word.lower()!r}"
                    f" or the rank of {str(self.top)!r}"
                )
            if _RANK0[card] == _EIGHT and len(self.hands[seat]) > 1 and action.suit is None:
                return IllegalActionError(f"playing {str(card)!r} must name a suit")
            if _RANK0[card] == _EIGHT and len(self.hands[seat]) == 1 and action.suit is not None:
                return IllegalActionError("an 8 played as the last card ends the round: name no suit")
            if _RANK0[card] != _EIGHT and action.suit is not None:
                return IllegalActionError(f"only an 8 names a suit, not {str(card)!r}")
        return IllegalActionError(f"{str(action)!r} is not legal now")

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def _play(self, seat: int, card: Card, suit: Suit | None, events: list[Event], bump: int = 1) -> Transition:
        hand = self.hands[seat]
        i = hand.index(card)
        hands_list = list(self.hands)
        new_hand = hands_list[seat] = hand[:i] + hand[i + 1 :]
        hands = tuple(hands_list)
        active = _SUIT_OBJ[card] if suit is None else suit  # 1.3.2, 1.3.3
        events.append(
            Play.emit(seat=seat, card=card, active_suit=active, suit=suit, drawn=self.drawn is not None or bool(events))
        )
        changes: dict[str, Any] = {
            "version": self.version + bump,
            "hands": hands,
            "discard": self.discard + (card,),
            "active_suit": active,
            "drawn": None,
            "draws": 0,
        }
        if not new_hand:
            return self._evolve_with(changes)._end_round(seat, events)  # 1.6.1, 1.3.7
        nxt = changes["turn"] = (seat + 1) % self.seats
        events.append(Turn.emit(seat=nxt))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _next_turn(self, seat: int, events: list[Event]) -> Transition:
        events.append(Turn.emit(seat=seat))
        state = self._evolve(turn=seat, draws=0, drawn=None, phase=_PLAY)
        return Transition(state, tuple(events))

    def _draw(self, seat: int) -> Transition:
        events: list[Event] = []
        stock = self.stock
        discard = self.discard
        reshuffles = self.reshuffles
        if not stock:
            # 1.5.1-1.5.3: the top card stays; the rest is shuffled into the stock,
            # the active suit does not change; the event comes before the draw.
            k = reshuffles + 1
            shuffled, _ = Rng(self.seed, f"reshuffle/{k}").shuffle(discard[:-1])
            stock = tuple(reversed(shuffled))
            discard = discard[-1:]
            reshuffles = k
            events.append(Reshuffle.emit(moved=len(stock), count=k))
        card = stock[-1]
        stock = stock[:-1]
        hand = self.hands[seat]
        i = bisect.bisect(hand, card)
        hands_list = list(self.hands)
        hands_list[seat] = hand[:i] + (card,) + hand[i:]
        hands = tuple(hands_list)
        new_hand = hands[seat]
        draws = self.draws + 1
        opts = self.options
        left = opts.max_draws - draws
        only = (seat,)
        events.append(Draw.emit(only, (), seat=seat, card=card, draws_left=left))
        events.append(Draw.emit(None, only, seat=seat, draws_left=left))
        state = self._evolve_with(
            {
                "version": self.version + 1,
                "hands": hands,
                "stock": stock,
                "discard": discard,
                "reshuffles": reshuffles,
                "draws": draws,
            }
        )
        after = opts.after_draw
        if after == "any":
            return _tuple_new(Transition, (state, tuple(events)))  # 1.4.4: play anything, or draw again
        if after == "end_turn":
            return state._next_turn(self._next_seat(seat), events)  # 2.3.3
        # classic (2.2.3): a legal drawn card is played at once (forced) or may be (optional)
        if not state.is_playable(card):
            return state._next_turn(self._next_seat(seat), events)
        if opts.drawn_card_play == "optional":
            return Transition(state._evolve(drawn=card), tuple(events))
        if _RANK0[card] == _EIGHT:
            # The drawn 8 is played for the seat, which still names the suit.
            i = new_hand.index(card)
            rest = new_hand[:i] + new_hand[i + 1 :]
            events.append(Play.emit(seat=seat, card=card, active_suit=_SUIT_OBJ[card], drawn=True, forced=True))
            state = state._evolve(
                hands=state.hands[:seat] + (rest,) + state.hands[seat + 1 :],
                discard=state.discard + (card,),
                active_suit=_SUIT_OBJ[card],
                phase=Phase.CHOOSE_SUIT,
                chooser=seat,
            )
            events.append(ChooseSuit.emit(seat=seat))
            return Transition(state, tuple(events))
        return state._play(seat, card, None, events, bump=0)

    def _pass(self, seat: int) -> Transition:
        # What the pass tells everyone (docs/bots.md: void inference): the seat held no card of
        # this suit, of this rank, and no 8 (unless it kept a drawn card: "kept").
        events = [Pass.emit(seat=seat, active_suit=self.active_suit, top=self.top, kept=self.drawn is not None)]
        state = self._evolve(version=self.version + 1)
        return state._next_turn(self._next_seat(seat), events)

    def _choose_suit(self, seat: int, suit: Suit) -> Transition:
        events = [SuitChosen.emit(seat=seat, suit=suit, active_suit=suit)]
        state = self._evolve(version=self.version + 1, active_suit=suit, chooser=None)
        if self.round_start_choice():
            return state._next_turn(self.turn, events)  # the first player now leads
        return state._next_turn(self._next_seat(seat), events)

    def bot_rng(self, seat: int) -> Rng:
        """The RNG a bot in ``seat`` uses this round (1.9.3: derived from the round's seed and the seat).

        Its seed is a hash of the round seed, not the round seed itself, so a
        bot holding it cannot rebuild the deal from it.
        """
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def round_start_choice(self) -> bool:
        """Whether the pending suit choice is a starter 8's (party), not a played 8's."""
        return self.phase == Phase.CHOOSE_SUIT and len(self.discard) == 1 and self.draws == 0

    def _end_round(self, winner: int, events: list[Event]) -> Transition:
        opts = self.options
        penalties = tuple(penalty(h) for h in self.hands)  # 1.6.1, 1.6.2
        scores = tuple(a + b for a, b in zip(self.scores, penalties, strict=True))
        wins = tuple(w + (s == winner) for s, w in enumerate(self.wins))
        result = RoundResult(self.round, winner, penalties, self.hands, self.deal_code)
        events.append(
            RoundOver.emit(
                round=result.round,
                winner=winner,
                penalties=penalties,
                hands=self.hands,
                deal_code=result.deal_code,
                scores=scores,
                wins=wins,
            )
        )
        if opts.match_mode == "wins":
            over = self.round >= opts.rounds
            best = max(wins)
            winners = tuple(s for s in range(self.seats) if wins[s] == best)  # T-NO-04
        else:
            over = max(scores) >= opts.target  # 1.6.5
            best = min(scores)
            winners = tuple(s for s in range(self.seats) if scores[s] == best)  # 1.6.6, 1.6.7
        state = self._evolve(
            scores=scores,
            wins=wins,
            last_round=result,
            phase=Phase.MATCH_OVER if over else Phase.ROUND_OVER,
            ready=(False,) * self.seats,
            winners=winners if over else (),
            drawn=None,
            chooser=None,
        )
        if over:
            events.append(MatchOver.emit(winners=winners, scores=scores, wins=wins))
        return Transition(state, tuple(events))

    def _ready(self, seat: int) -> Transition:
        ready = self.ready[:seat] + (True,) + self.ready[seat + 1 :]
        events = [Ready.emit(seat=seat)]
        state = self._evolve(version=self.version + 1, ready=ready)
        if not all(ready):
            return Transition(state, tuple(events))
        # Next round: the winner leads (1.2.2), or the dealer moves on (2.2.5).
        assert self.last_round is not None
        if self.options.has_dealer:
            assert self.dealer is not None
            next_dealer = self._next_seat(self.dealer)
            dealer: int | None = next_dealer
            leader = self._next_seat(next_dealer)
        else:
            dealer, leader = None, self.last_round.winner
        seed, match_rng = self.match_rng.bits(dealcode.SEED_BITS)
        state = state._evolve(match_rng=match_rng, round=self.round + 1)
        return state._deal(dealer, leader, seed, events)

    def _buried(self) -> list[Card]:
        """The starter 8s this round's deal turned up and buried (2.2.2), dealt again from its seed."""
        n = self.seats
        size = self.options.hand_size(n)
        rng = Rng(self.seed, "deal")
        deck, rng = rng.shuffle(CARDS[: 52 * self.options.decks(n)])
        starter, rest, buried = deck[n * size], list(deck[n * size + 1 :]), []
        while _RANK0[starter] == _EIGHT:
            buried.append(starter)
            shuffled, rng = rng.shuffle([*rest, starter])
            starter, rest = shuffled[0], list(shuffled[1:])
        return buried

    def _deal(self, dealer: int | None, leader: int, seed: int, events: list[Event]) -> Transition:
        """Deal a round from ``seed`` (1.1, 2.2.2, 2.3.1-2). The deal is fixed by (preset, seats, leader, seed).

        The deck (one or two, in card-id order) is shuffled with stream ``deal``;
        cards go out one at a time clockwise from the leader; the next card is
        the starter, and the rest is the stock, drawn in the shuffled order.
        """
        opts = self.options
        n = self.seats
        size = opts.hand_size(n)
        rng = Rng(seed, "deal")
        deck, rng = rng.shuffle(CARDS[: 52 * opts.decks(n)])
        # Card j goes to seat (leader + j) % n, so seat s gets every n-th card from (s - leader) % n.
        hands = [sorted(deck[(s - leader) % n : n * size : n]) for s in range(n)]
        starter = deck[n * size]
        rest = list(deck[n * size + 1 :])
        buried: list[Card] = []
        while opts.starter_eight == "bury" and _RANK0[starter] == _EIGHT:
            # 2.2.2: return the 8 to the stock, reshuffle the stock, turn again.
            buried.append(starter)
            shuffled, rng = rng.shuffle([*rest, starter])
            starter, rest = shuffled[0], list(shuffled[1:])
        stock = tuple(reversed(rest))
        state = self._evolve(
            phase=Phase.PLAY,
            dealer=dealer,
            leader=leader,
            seed=seed,
            hands=tuple(tuple(h) for h in hands),
            stock=stock,
            discard=(starter,),
            active_suit=_SUIT_OBJ[starter],  # 1.3.2; 1.3.6: a starter 8 keeps its suit
            turn=leader,
            draws=0,
            **_turn_at_rest(n),
        )
        events.append(
            RoundStart.emit(
                round=state.round,
                dealer=dealer,
                leader=leader,
                starter=starter,
                active_suit=state.active_suit,
                hand_counts=tuple(len(h) for h in hands),
                stock_count=len(stock),
                buried=tuple(buried),
            )
        )
        for s in range(n):
            events.append(HandDealt.emit((s,), seat=s, cards=state.hands[s]))
        if opts.starter_eight == "name" and _RANK0[starter] == _EIGHT:
            # 2.3.2: the dealer (by default) names the suit before the first player acts.
            chooser = dealer if opts.starter_eight_chooser == "dealer" and dealer is not None else leader
            state = state._evolve(phase=Phase.CHOOSE_SUIT, chooser=chooser)
            events.append(ChooseSuit.emit(seat=chooser))
            return Transition(state, tuple(events))
        events.append(Turn.emit(seat=leader))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> CrazyEightsView:
        """What ``seat`` may see (``None``: a spectator), chosen field by field."""
        hand, drawn, (draw_reason, pass_reason), legal = self._own(seat)
        phase = self.phase
        in_round = phase in (_PLAY, _CHOOSE_SUIT)
        return CrazyEightsView(
            seat=seat,
            options=self.options,
            seats=self.seats,
            version=self.version,
            phase=phase,
            round=self.round,
            hand=hand,
            hand_counts=tuple(len(h) for h in self.hands),
            top=self.discard[-1],
            discard_count=len(self.discard),
            stock_count=len(self.stock),
            active_suit=self.active_suit,
            turn=self.turn,
            dealer=self.dealer,
            leader=self.leader,
            chooser=self.chooser,
            draws_taken=self.draws,
            draws_left=max(0, self.options.max_draws - self.draws) if in_round else 0,
            drawn=drawn,
            draw_blocked=draw_reason,
            pass_blocked=pass_reason,
            legal=legal,
            scores=self.scores,
            wins=self.wins,
            ready=self.ready,
            last_round=self.last_round,
            deal_code=None if in_round else self.deal_code,
            winners=self.winners,
        )

    def own_view(self, seat: int | None) -> dict[str, Wire]:
        """What only ``seat`` sees of its view (``State.own_view``): its seat, hand, drawn card, why
        it may not draw or pass, its legal moves."""
        return own_wire(seat, *self._own(seat))

    def _own(self, seat: int | None) -> tuple[tuple[Card, ...] | None, Card | None, Blocked, tuple[Move, ...]]:
        """The values of a view's fields that only ``seat`` sees (``None``: a spectator)."""
        if seat is not None and not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        phase = self.phase
        draw_reason: str | None
        pass_reason: str | None
        if phase == _PLAY and seat == self.turn:
            stuck = not self._has_playable(seat) if self.drawn is None else not self.is_playable(self.drawn)
            draw_reason = self._draw_blocked(stuck)
            pass_reason = self._pass_blocked(stuck)
        elif phase in (_ROUND_OVER, _MATCH_OVER):
            draw_reason = pass_reason = "round_over"
        elif phase == _CHOOSE_SUIT:
            draw_reason = pass_reason = "choose_suit"
        else:
            draw_reason = pass_reason = "not_your_turn"
        if seat is None:
            return None, None, (draw_reason, pass_reason), ()
        drawn = self.drawn if seat == self.turn else None
        return self.hands[seat], drawn, (draw_reason, pass_reason), self.legal_actions(seat)

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`CrazyEights.state_from_data` rebuilds this state."""
        lr = self.last_round
        return {
            "schema": 2,  # 2: 128-bit seeds, in hex
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "seats": self.seats,
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "scores": list(self.scores),
            "wins": list(self.wins),
            "dealer": self.dealer,
            "leader": self.leader,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            # Cards are ints (an int subclass): list() keeps them, and msgpack and json write
            # them as plain ints, at a fraction of the cost of int() on every card.
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "active_suit": int(self.active_suit),
            "turn": self.turn,
            "draws": self.draws,
            "drawn": None if self.drawn is None else int(self.drawn),
            "reshuffles": self.reshuffles,
            "chooser": self.chooser,
            "ready": list(self.ready),
            "last_round": None
            if lr is None
            else [lr.round, lr.winner, list(lr.penalties), [[int(c) for c in h] for h in lr.hands], lr.deal_code],
            "winners": list(self.winners),
        }


def _turn_at_rest(seats: int) -> dict[str, Any]:
    """What a new round's first turn starts with at ``seats`` seats, besides the cards and whose
    turn it is: nothing drawn or reshuffled, no suit to name, nobody ready."""
    return {"drawn": None, "reshuffles": 0, "chooser": None, "ready": (False,) * seats}
