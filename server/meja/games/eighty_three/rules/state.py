"""A match of Eighty-Three between whole decisions: :class:`EightyThreeState` and its moves."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from meja.rules.errors import BadActionError, BadSeatError, IllegalActionError, NotYourTurnError, RoundOverError
from meja.rules.frozen import FrozenState
from meja.rules.game import TALK_FREE, TALK_NEUTRAL, Event, Location, Outcome, StateDefaults, Transition, Wire
from meja.rules.rng import SEED_BITS, Rng
from meja.rules.shared import flags, ints

from .. import dealcode
from .actions import (
    _AUCTION,
    _BIDS,
    _DISCARD,
    _DISCARDS,
    _GIVE_STEP,
    _GIVES,
    _HAND_OVER,
    _MATCH_OVER,
    _PLAY,
    _PLAYS,
    _TRIM,
    _TRUMP,
    _TRUMPS,
    AUTO,
    DONE,
    PASS,
    READY,
    UNDO,
    Action,
    Kind,
    Phase,
)
from .decisions import _REASONS, Counts, _counts_of, auto_decision, auto_trim, decision_problems, infeasible
from .events import (
    Arranged,
    Bid,
    Contract,
    Decided,
    DiscardPhase,
    Exchange,
    HandDealt,
    HandOver,
    HandStart,
    Kitty,
    MatchOver,
    PartnerTrumps,
    Pass,
    Play,
    Ready,
    Received,
    Selected,
    Trick,
    Trimmed,
    TrimPhase,
    Trump,
    Turn,
    Unselected,
)
from .options import EightyThreeOptions
from .tables import (
    _ESUIT,
    _PLAIN,
    _POINTS,
    _SUIT_LETTERS,
    _SUIT_WORDS,
    GAME_NAME,
    HAND,
    KEEP,
    KITTY,
    MAX_BID,
    MIN_BID,
    NAMES,
    SEATS,
    TARGET,
    TEAM_TRUMPS,
    TEAMS,
    _names,
    playable,
    trick_winner,
)
from .view import TEAMS_WIRE, EightyThreeView, HandResult, calls, hand_result, last_trick, legal_wire, names, seat_cards

#: Nobody has decided (a view's ``decided`` outside the discard and trim).
_UNDECIDED: Final = (False,) * SEATS


def _minus(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


@dataclass(frozen=True)
class EightyThreeState(FrozenState, StateDefaults):
    """A match between whole decisions. Build one with :meth:`EightyThree.new_match` (or ``stacked``).

    Hands are tuples of card ids in card order. In the discard and trim phases
    ``hands`` are the hands as the phase began and ``pending`` each seat's steps
    so far (a card id for a discard, id + 100 for a give), applied when every
    seat has decided. Not ``slots=True``: :meth:`_evolve` copies the instance
    dict, several times cheaper than ``dataclasses.replace``.
    """

    options: EightyThreeOptions
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    dealer: int
    seed: int
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    #: the auction: (seat, bid) in order, bid 0 for a pass
    calls: tuple[tuple[int, int], ...]
    #: the seat on turn (auction, trump, play); -1 in the other phases
    turn: int
    #: the highest bidder so far, then the bidder (-1: no bid yet)
    bidder: int
    bid: int
    #: the trump suit 0-3 (S H D C), -1 until named
    trump: int
    pending: tuple[tuple[int, ...], ...]
    decided: tuple[bool, ...]
    #: per seat: the trumps it gave its partner
    gave: tuple[tuple[int, ...], ...]
    #: per seat: its face-down discards (seen by it alone)
    buried: tuple[tuple[int, ...], ...]
    #: trumps discarded face up: (seat, card), in order (4.6.5)
    shown: tuple[tuple[int, int], ...]
    #: the trick in progress: (seat, card) in play order
    trick: tuple[tuple[int, int], ...]
    leader: int
    #: the last finished trick and its winner (-1: none yet this hand)
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    #: tricks won and cards captured, per team
    tricks: tuple[int, int]
    taken: tuple[tuple[int, ...], tuple[int, ...]]
    scores: tuple[int, int]
    ready: tuple[bool, ...]
    last_hand: HandResult | None
    #: the winning team (-1: none yet)
    winner: int
    #: the version at which the phase began, and at which each seat last stepped (epoch)
    phase_v: int
    seat_v: tuple[int, ...]

    seats: int = field(default=SEATS, init=False)

    def _evolve(self, **changes: Any) -> EightyThreeState:
        new = object.__new__(EightyThreeState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d.pop("_cache", None)
        if "hands" in changes or "trump" in changes:
            d.pop("_counts", None)  # the discard phase's counts hold while the hands do
        return new

    # ------------------------------------------------------------- the contract

    @property
    def deal_code(self) -> str:
        """The current hand's deal code. Secret while the hand is in progress (the server reveals it)."""
        return dealcode.encode(dealcode.DealSpec(self.dealer, self.seed))

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def awaiting(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (_AUCTION, _TRUMP, _PLAY):
            return (self.turn,)
        if phase in (_DISCARD, _TRIM):
            return tuple(s for s in range(SEATS) if not self.decided[s])
        if phase == _HAND_OVER:
            return tuple(s for s in range(SEATS) if not self.ready[s])
        return ()

    def epoch(self, seat: int) -> int:
        """In the simultaneous phases (discard, trim, ready): when the phase began or ``seat`` last acted."""
        if self.phase in (_DISCARD, _TRIM, _HAND_OVER) and 0 <= seat < SEATS:
            return max(self.phase_v, self.seat_v[seat])
        return self.version

    def period(self) -> Hashable:
        """A turn in the auction and the tricks; the whole trump, discard, trim and ready phases."""
        phase = self.phase
        if phase == _AUCTION:
            return (self.round, int(phase), len(self.calls))
        if phase == _PLAY:
            return (self.round, int(phase), sum(self.tricks), len(self.trick))
        return (self.round, int(phase))

    def in_round(self) -> bool:
        return self.phase <= _PLAY

    def talk(self) -> str:
        """During a hand, from the auction to the last trick, only neutral reactions: partners may
        not signal each other (a word, or "Nice!" after a lead, tells a partner about a hand);
        between hands, anything. The host's "table talk" lifts it for a friendly table."""
        return TALK_NEUTRAL if self.in_round() else TALK_FREE

    def default_action(self, seat: int) -> Action | None:
        """See the module docstring: pass (bid 30 when forced), the best trump, auto_arrange, ready."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        phase = self.phase
        if phase == _AUCTION:
            return PASS if PASS in legal else legal[0]
        if phase == _TRUMP:
            return _TRUMPS[self._best_trump(seat)]
        if phase in (_DISCARD, _TRIM):
            return AUTO
        if phase == _HAND_OVER:
            return READY
        return None

    def _best_trump(self, seat: int) -> int:
        hand = self.hands[seat]

        def worth(t: int) -> tuple[int, int, int]:
            es, pts = _ESUIT[t], _POINTS[t]
            return (sum(1 for c in hand if es[c] == _PLAIN), sum(pts[c] for c in hand), -t)

        return max(range(4), key=worth)

    def bot_rng(self, seat: int) -> Rng:
        """The RNG of a bot in ``seat`` this hand: a hash of the hand's seed, never the seed itself."""
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def carry(self) -> dict[str, Wire] | None:
        """The next match's dealer, once this one is over: the seat left of the last dealer (4.2.1)."""
        if self.phase != _MATCH_OVER:
            return None
        return {"dealer": (self.dealer + 1) % SEATS}

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        team = self.winner
        return Outcome(
            winners=TEAMS[team],
            scores=tuple(self.scores[s % 2] for s in range(SEATS)),
            teams=(team,),
            team_scores=self.scores,
        )

    def locations(self) -> tuple[Location, ...]:
        """Where every card is and who may see it (see the module docstring)."""
        out: list[Location] = []
        for s in range(SEATS):
            steps = self.pending[s]
            if steps:
                gone = [c % _GIVE_STEP for c in steps]
                out.append(Location(f"hand/{s}", tuple(NAMES[c] for c in _minus(self.hands[s], gone)), (s,)))
                out.append(Location(f"discarding/{s}", tuple(NAMES[c] for c in steps if c < _GIVE_STEP), (s,)))
                out.append(
                    Location(f"giving/{s}", tuple(NAMES[c - _GIVE_STEP] for c in steps if c >= _GIVE_STEP), (s,))
                )
            else:
                out.append(Location(f"hand/{s}", tuple(NAMES[c] for c in self.hands[s]), (s,)))
            out.append(Location(f"buried/{s}", tuple(NAMES[c] for c in self.buried[s]), (s,)))
            # The giver saw the cards it passed; they lie in the partner's hand (or beyond).
            out.append(Location(f"gave/{s}", tuple(NAMES[c] for c in self.gave[s]), (s,), counted=False))
        out.append(Location("kitty", tuple(NAMES[c] for c in self.kitty), ()))
        out.append(Location("shown", tuple(NAMES[c] for _, c in self.shown), "all"))
        out.append(Location("trick", tuple(NAMES[c] for _, c in self.trick), "all"))
        for team in (0, 1):
            out.append(Location(f"taken/{team}", tuple(NAMES[c] for c in self.taken[team]), "all"))
        return tuple(out)

    # ------------------------------------------------------------- legal actions

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, sorted (see :class:`Kind` for the order)."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            return ()
        cache: dict[int, tuple[Action, ...]] | None = self.__dict__.get("_cache")
        if cache is None:
            cache = self.__dict__["_cache"] = {}
        got = cache.get(seat)
        if got is None:
            got = cache[seat] = self._legal(seat)
        return got

    def _legal(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == _PLAY:
            return tuple(_PLAYS[c] for c in self._playable(seat)) if seat == self.turn else ()
        if phase == _AUCTION:
            if seat != self.turn:
                return ()
            bids = _BIDS[max(MIN_BID, self.bid + 1) - MIN_BID :]
            return bids if self._forced() else (*bids, PASS)
        if phase == _TRUMP:
            return _TRUMPS if seat == self.turn else ()
        if phase == _DISCARD:
            return () if self.decided[seat] else self._discard_actions(seat)
        if phase == _TRIM:
            return () if self.decided[seat] else self._trim_actions(seat)
        if phase == _HAND_OVER:
            return () if self.ready[seat] else (READY,)
        return ()

    def _forced(self) -> bool:
        """4.5.5: the first three seats passed with no bid; the dealer may not pass."""
        return self.bidder < 0 and len(self.calls) == SEATS - 1

    def _playable(self, seat: int) -> tuple[int, ...]:
        """4.7.2-4.7.4: the cards ``seat`` may play to the trick in progress."""
        return playable(self.hands[seat], self.trick, self.trump)

    def counts(self, seat: int) -> Counts:
        """What ``seat`` may know in the discard phase (4.10.5): see :class:`Counts`."""
        known: dict[int, Counts] | None = self.__dict__.get("_counts")
        if known is None:
            known = self.__dict__["_counts"] = {}
        got = known.get(seat)
        if got is None:
            got = known[seat] = _counts_of(self.hands[seat], self.hands[(seat + 2) % SEATS], self.trump)
        return got

    def _steps(self, seat: int) -> tuple[int, int, int, int, tuple[int, ...]]:
        """``(gives, point gives, trump discards, plain discards, cards left)`` of ``seat``'s steps."""
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        g = q = d = e = 0
        steps = self.pending[seat]
        for step in steps:
            if step >= _GIVE_STEP:
                g += 1
                q += 1 if pts[step - _GIVE_STEP] else 0
            elif es[step] == _PLAIN:
                d += 1
            else:
                e += 1
        left = _minus(self.hands[seat], [c % _GIVE_STEP for c in steps]) if steps else self.hands[seat]
        return g, q, d, e, left

    def _discard_actions(self, seat: int) -> tuple[Action, ...]:
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        k = self.counts(seat)
        g, q, d, e, left = self._steps(seat)
        out: list[Action] = [AUTO]
        if len(left) == KEEP:
            out.append(DONE)
        if len(left) > KEEP:
            # The step's legality depends only on the class of its card: four feasibility checks.
            plain_ok = infeasible(k, g, q, d, e + 1) is None
            trump_ok = infeasible(k, g, q, d + 1, e) is None
            give_plain_ok = infeasible(k, g + 1, q, d, e) is None
            give_point_ok = infeasible(k, g + 1, q + 1, d, e) is None
            gives: list[Action] = []
            for c in left:
                if es[c] != _PLAIN:
                    if plain_ok:
                        out.append(_DISCARDS[c])
                elif pts[c]:
                    if give_point_ok:
                        gives.append(_GIVES[c])
                else:
                    if trump_ok:
                        out.append(_DISCARDS[c])
                    if give_plain_ok:
                        gives.append(_GIVES[c])
            out += gives
        if self.pending[seat]:
            out.append(UNDO)
        return tuple(out)

    def _trim_need(self, seat: int) -> tuple[tuple[int, ...], bool]:
        """``(cards left, whether a non-trump is among them)`` for a receiver in the trim."""
        steps = self.pending[seat]
        left = _minus(self.hands[seat], steps) if steps else self.hands[seat]
        es = _ESUIT[self.trump]
        return left, any(es[c] != _PLAIN for c in left)

    def _trim_actions(self, seat: int) -> tuple[Action, ...]:
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        left, plain_left = self._trim_need(seat)
        out: list[Action] = [AUTO]
        if len(left) == KEEP:
            out.append(DONE)
        if len(left) > KEEP:
            for c in left:
                # 4.6.4: non-trumps first; then trumps, never one that scores (4.6.5).
                if (es[c] != _PLAIN) if plain_left else not pts[c]:
                    out.append(_DISCARDS[c])
        if self.pending[seat]:
            out.append(UNDO)
        return tuple(out)

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Action) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (the state is unchanged) if it is not legal."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise BadSeatError(f"no seat {seat!r} at a table of {SEATS}")
        if type(action) is not Action:
            raise BadActionError(f"not an eighty-three action: {action!r}")
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        v = self.version + 1
        kind = action.kind
        phase = self.phase
        if kind == Kind.PLAY:
            return self._play(seat, action.arg, v)
        if phase == _AUCTION:
            return self._call(seat, 0 if kind == Kind.PASS else action.arg, v)
        if phase == _TRUMP:
            return self._name_trump(seat, action.arg, v)
        if phase in (_DISCARD, _TRIM):
            return self._step(seat, action, v)
        return self._ready(seat, v)

    def _why_illegal(self, seat: int, action: Action) -> IllegalActionError:
        phase, kind = self.phase, action.kind
        if phase == _MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == _HAND_OVER:
            if kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next hand")
            return RoundOverError(f"hand {self.round} is over; only 'ready' is accepted")
        if seat not in self.awaiting():
            if phase == _TRIM and not self.gave[(seat + 2) % SEATS]:
                return NotYourTurnError(f"seat {seat} received nothing: it has nothing to trim")
            if phase in (_DISCARD, _TRIM):
                return NotYourTurnError(f"seat {seat} has handed its decision in")
            return NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        text = str(action)
        if phase == _AUCTION:
            if kind == Kind.PASS:
                return IllegalActionError("the dealer must bid: the other three passed (eighty-three.md 4.5.5)")
            if kind == Kind.BID:
                low = max(MIN_BID, self.bid + 1)
                return IllegalActionError(f"a bid now is {low}-{MAX_BID}, not {action.arg!r} (eighty-three.md 4.5.2)")
            return IllegalActionError(f"{text!r} is not an auction call: bid or pass")
        if phase == _TRUMP:
            return IllegalActionError(f"the bidder names trumps first, not {text!r}")
        if phase == _PLAY:
            if kind != Kind.PLAY:
                return IllegalActionError(f"{text!r} is not a play: the tricks are on")
            return self._why_unplayable(seat, action.arg)
        return self._why_step_refused(seat, action)

    def _why_unplayable(self, seat: int, card: int) -> IllegalActionError:
        name = NAMES[card]
        if card not in self.hands[seat]:
            return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
        es = _ESUIT[self.trump]
        led = es[self.trick[0][1]]
        if led == _PLAIN:
            return IllegalActionError(
                f"a trump was led: seat {seat} must play a trump, not {name!r} (eighty-three.md 4.7.3)"
            )
        return IllegalActionError(
            f"{_SUIT_WORDS[led]} were led: seat {seat} must follow suit or play a trump, not {name!r}"
            " (eighty-three.md 4.7.4)"
        )

    def _why_step_refused(self, seat: int, action: Action) -> IllegalActionError:
        kind, card = action.kind, action.arg
        phase = self.phase
        if kind not in (Kind.DISCARD, Kind.GIVE, Kind.UNDO, Kind.DONE, Kind.AUTO):
            return IllegalActionError(f"{str(action)!r} is not a step of the {phase.wire} phase")
        if kind == Kind.UNDO:
            return IllegalActionError("there is no step to take back")
        if phase == _TRIM:
            left, plain_left = self._trim_need(seat)
            if kind == Kind.GIVE:
                return IllegalActionError("nothing is given in the trim: discard back to 6")
            if kind == Kind.DONE:
                return IllegalActionError(f"seat {seat} holds {len(left)} cards: discard back to 6 first")
            name = NAMES[card]
            if (refused := _card_step_refused(seat, card, left)) is not None:
                return refused
            if plain_left:
                return IllegalActionError(f"non-trumps go first: {name!r} is a trump (eighty-three.md 4.6.4)")
            return IllegalActionError(f"{name!r} scores: a point trump is never discarded (eighty-three.md 4.6.5)")
        g, q, d, e, left = self._steps(seat)
        if kind == Kind.DONE:
            return IllegalActionError(f"seat {seat} holds {len(left)} cards: come down to 6 first")
        name = NAMES[card]
        if (refused := _card_step_refused(seat, card, left)) is not None:
            return refused
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        k = self.counts(seat)
        if kind == Kind.GIVE:
            if es[card] != _PLAIN:
                return IllegalActionError(f"only trumps are given to the partner, not {name!r} (eighty-three.md 4.6.4)")
            if k.trumps <= KEEP:
                return IllegalActionError(
                    f"seat {seat} holds {k.trumps} trumps, 6 or fewer: it gives none (eighty-three.md 4.6.4)"
                )
            why = infeasible(k, g + 1, q + (1 if pts[card] else 0), d, e)
        else:
            if pts[card]:
                return IllegalActionError(f"{name!r} scores: a point trump is never discarded (eighty-three.md 4.6.5)")
            trump = es[card] == _PLAIN
            why = infeasible(k, g, q, d + trump, e + (not trump))
        return IllegalActionError(f"{str(action)!r} refused: {_REASONS.get(why or '', 'not legal now')}")

    # ---- the auction (4.5)

    def _call(self, seat: int, value: int, v: int) -> Transition:
        calls = (*self.calls, (seat, value))
        events: list[Event] = []
        if value:
            events.append(Bid.emit(seat=seat, value=value))
            state = self._evolve(version=v, calls=calls, bidder=seat, bid=value)
            if value == MAX_BID:
                return state._end_auction(events)  # 4.5.4: 83 cannot be outbid
        else:
            events.append(Pass.emit(seat=seat))
            state = self._evolve(version=v, calls=calls)
        passed = {s for s, b in calls if not b}
        if len(passed) == SEATS - 1:
            if state.bidder >= 0:
                return state._end_auction(events)  # 4.5.4: three passes end it
            nxt = self.dealer  # 4.5.5: the dealer must bid
        else:
            nxt = (seat + 1) % SEATS
            while nxt in passed:  # 4.5.3: a pass is final; passed seats are skipped
                nxt = (nxt + 1) % SEATS
        events.append(Turn.emit(seat=nxt))
        return Transition(state._evolve(turn=nxt), tuple(events))

    def _end_auction(self, events: list[Event]) -> Transition:
        bidder = self.bidder
        # 4.6.1, 4.10.3: the bidder takes the kitty, compulsorily, before naming trumps.
        kitty = self.kitty
        hands = list(self.hands)
        hands[bidder] = tuple(sorted(hands[bidder] + kitty))
        events.append(Contract.emit(bidder=bidder, bid=self.bid))
        events.append(Kitty.emit((bidder,), seat=bidder, cards=kitty))
        events.append(Kitty.emit(None, (bidder,), seat=bidder, count=len(kitty)))
        events.append(Turn.emit(seat=bidder))
        state = self._evolve(phase=_TRUMP, hands=tuple(hands), kitty=(), turn=bidder)
        return Transition(state, tuple(events))

    def _name_trump(self, seat: int, suit: int, v: int) -> Transition:
        events = [Trump.emit(seat=seat, suit=suit)]
        state = self._evolve(
            version=v,
            trump=suit,
            phase=_DISCARD,
            turn=-1,
            pending=((),) * SEATS,
            decided=(False,) * SEATS,
            phase_v=v,
            seat_v=(v,) * SEATS,
        )
        for s in range(SEATS):
            k = state.counts(s)
            # 4.10.5: a seat learns its partner's trump and point-trump counts, nothing more.
            events.append(
                PartnerTrumps.emit(
                    (s,), seat=s, partner=(s + 2) % SEATS, trumps=k.partner_trumps, points=k.partner_points
                )
            )
        events.append(DiscardPhase.emit(seats=tuple(range(SEATS))))
        return Transition(state, tuple(events))

    # ---- the discard and trim phases (4.6, 4.10.4-4.10.6)

    def _step(self, seat: int, action: Action, v: int) -> Transition:
        kind = action.kind
        steps = self.pending[seat]
        events: list[Event] = []
        decided = self.decided
        if kind == Kind.DISCARD or kind == Kind.GIVE:
            step = action.arg + (_GIVE_STEP if kind == Kind.GIVE else 0)
            steps = (*steps, step)
            to = "give" if kind == Kind.GIVE else "discard"
            events.append(Selected.emit((seat,), seat=seat, card=action.arg, to=to))
        elif kind == Kind.UNDO:
            last = steps[-1]
            steps = steps[:-1]
            to = "give" if last >= _GIVE_STEP else "discard"
            events.append(Unselected.emit((seat,), seat=seat, card=last % _GIVE_STEP, to=to))
        else:
            if kind == Kind.AUTO:
                steps = self._auto_steps(seat)
                drop = tuple(sorted(c for c in steps if c < _GIVE_STEP))
                gives = tuple(sorted(c - _GIVE_STEP for c in steps if c >= _GIVE_STEP))
                given = gives if self.phase == _DISCARD else None
                events.append(Arranged.emit((seat,), seat=seat, discards=drop, gives=given))
            self._check_decision(seat, steps)
            decided = (*decided[:seat], True, *decided[seat + 1 :])
            events.append(Decided.emit(seat=seat))
        pending = (*self.pending[:seat], steps, *self.pending[seat + 1 :])
        seat_v = (*self.seat_v[:seat], v, *self.seat_v[seat + 1 :])
        state = self._evolve(version=v, pending=pending, decided=decided, seat_v=seat_v)
        if not all(decided):
            return Transition(state, tuple(events))
        return state._exchange(events) if self.phase == _DISCARD else state._trimmed(events)

    def _auto_steps(self, seat: int) -> tuple[int, ...]:
        """The steps ``auto_arrange`` hands in for ``seat`` (4.10.6): with no step taken, the
        decision of :func:`auto_decision` (:func:`auto_trim` in the trim); else the steps taken,
        kept, and completed one listed step at a time, each the first of that order for the
        cards left that is listed (else the first listed step): a walk of listed steps, so
        valid at its end (every listed step keeps a valid end within reach)."""
        trump = self.trump
        if not self.pending[seat]:
            if self.phase == _DISCARD:
                drop, gives = auto_decision(self.hands[seat], trump)
            else:
                drop, gives = auto_trim(self.hands[seat], trump), ()
            return (*drop, *(c + _GIVE_STEP for c in gives))
        state = self
        while True:
            discarding = state.phase == _DISCARD
            legal = state._discard_actions(seat) if discarding else state._trim_actions(seat)
            steps = [a for a in legal if a.kind in (Kind.DISCARD, Kind.GIVE)]
            if not steps:
                return state.pending[seat]
            left = state._steps(seat)[4] if discarding else state._trim_need(seat)[0]
            if discarding:
                drop, gives = auto_decision(left, trump)
                wanted = [_GIVES[c] for c in gives] + [_DISCARDS[c] for c in drop]
            else:
                wanted = [_DISCARDS[c] for c in auto_trim(left, trump)]
            listed = set(steps)
            step = next((a for a in wanted if a in listed), steps[0])
            taken = (*state.pending[seat], step.arg + (_GIVE_STEP if step.kind == Kind.GIVE else 0))
            state = state._evolve(pending=(*state.pending[:seat], taken, *state.pending[seat + 1 :]))

    def _check_decision(self, seat: int, steps: tuple[int, ...]) -> None:
        """The server's check of a whole decision (4.6.6): never fails after accepted steps."""
        drop = [c for c in steps if c < _GIVE_STEP]
        gives = [c - _GIVE_STEP for c in steps if c >= _GIVE_STEP]
        if self.phase == _DISCARD:
            problems = decision_problems(self.hands[seat], self.hands[(seat + 2) % SEATS], self.trump, drop, gives)
        else:
            problems = _trim_problems(self.hands[seat], self.trump, drop)
        if problems:
            raise AssertionError(f"seat {seat}'s decision is not valid: {problems}")

    def _exchange(self, events: list[Event]) -> Transition:
        """Every seat has decided: the decisions apply together (4.6.8, 4.10.4)."""
        es = _ESUIT[self.trump]
        hands = list(self.hands)
        gave = [tuple(sorted(c - _GIVE_STEP for c in self.pending[s] if c >= _GIVE_STEP)) for s in range(SEATS)]
        drops = [tuple(sorted(c for c in self.pending[s] if c < _GIVE_STEP)) for s in range(SEATS)]
        buried = list(self.buried)
        shown = list(self.shown)
        for s in range(SEATS):
            partner = (s + 2) % SEATS
            hands[s] = tuple(sorted(_minus(self.hands[s], drops[s] + gave[s]) + gave[partner]))
            buried[s] = buried[s] + tuple(c for c in drops[s] if es[c] != _PLAIN)
            shown += [(s, c) for c in drops[s] if es[c] == _PLAIN]  # 4.6.5: trumps shed face up
        events.append(
            Exchange.emit(
                passed=tuple(len(g) for g in gave),
                discarded=tuple(len(d) for d in drops),
                shown=tuple(shown[len(self.shown) :]),
            )
        )
        for s in range(SEATS):
            if gave[s]:
                partner = (s + 2) % SEATS
                # 4.6.4: passed cards are face down, seen by the partner alone.
                events.append(Received.emit((partner,), seat=partner, from_=s, cards=gave[s]))
        receivers = tuple(s for s in range(SEATS) if gave[(s + 2) % SEATS])
        state = self._evolve(
            hands=tuple(hands),
            gave=tuple(gave),
            buried=tuple(buried),
            shown=tuple(shown),
            pending=((),) * SEATS,
        )
        if receivers:
            events.append(TrimPhase.emit(seats=receivers))
            state = state._evolve(
                phase=_TRIM,
                decided=tuple(s not in receivers for s in range(SEATS)),
                phase_v=self.version,
                seat_v=(self.version,) * SEATS,
            )
            return Transition(state, tuple(events))
        return state._start_play(events)

    def _trimmed(self, events: list[Event]) -> Transition:
        es = _ESUIT[self.trump]
        hands = list(self.hands)
        buried = list(self.buried)
        shown = list(self.shown)
        counts = []
        for s in range(SEATS):
            drop = tuple(sorted(self.pending[s]))
            counts.append(len(drop))
            hands[s] = _minus(self.hands[s], drop)
            buried[s] = buried[s] + tuple(c for c in drop if es[c] != _PLAIN)
            shown += [(s, c) for c in drop if es[c] == _PLAIN]
        events.append(Trimmed.emit(discarded=tuple(counts), shown=tuple(shown[len(self.shown) :])))
        state = self._evolve(hands=tuple(hands), buried=tuple(buried), shown=tuple(shown), pending=((),) * SEATS)
        return state._start_play(events)

    def _start_play(self, events: list[Event]) -> Transition:
        problems = self.end_state_problems()
        if problems:
            raise AssertionError(f"the discard phase ended in an invalid state: {problems}")
        events.append(Turn.emit(seat=self.bidder))  # 4.7.1: the bidder leads the first trick
        state = self._evolve(
            phase=_PLAY, turn=self.bidder, leader=self.bidder, decided=(False,) * SEATS, phase_v=self.version
        )
        return Transition(state, tuple(events))

    def end_state_problems(self) -> list[str]:
        """What breaks 4.6.6 in the hands as they stand after the discard phase (empty: valid)."""
        out: list[str] = []
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        for team, (a, b) in enumerate(TEAMS):
            held = [c for s in (a, b) for c in self.hands[s] if es[c] == _PLAIN]
            shed = [c for s, c in self.shown if s in (a, b)]
            n = len(held) + len(shed)
            if len(self.hands[a]) != KEEP or len(self.hands[b]) != KEEP:
                out.append(f"team {team} holds {len(self.hands[a])} and {len(self.hands[b])} cards, not 6 each")
            if len(held) != min(n, TEAM_TRUMPS):
                out.append(f"team {team} keeps {len(held)} of its {n} trumps, not {min(n, TEAM_TRUMPS)}")
            if any(pts[c] for c in shed):
                out.append(f"team {team} shed a point trump")
            if any(es[c] == _PLAIN for s in (a, b) for c in self.buried[s]):
                out.append(f"team {team} buried a trump face down")
        return out

    # ---- the tricks (4.7) and the score (4.8)

    def _play(self, seat: int, card: int, v: int) -> Transition:
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = (*self.trick, (seat, card))
        events = [Play.emit(seat=seat, card=card)]
        if len(trick) < SEATS:
            nxt = (seat + 1) % SEATS
            events.append(Turn.emit(seat=nxt))
            return Transition(self._evolve(version=v, hands=tuple(hands), trick=trick, turn=nxt), tuple(events))
        winner = trick_winner(trick, self.trump)  # 4.7.5
        team = winner % 2
        cards = tuple(c for _, c in trick)
        taken = list(self.taken)
        taken[team] = taken[team] + cards
        tricks = list(self.tricks)
        tricks[team] += 1
        pts = _POINTS[self.trump]
        events.append(
            Trick.emit(number=sum(tricks), winner=winner, team=team, cards=trick, points=sum(pts[c] for c in cards))
        )
        state = self._evolve(
            version=v,
            hands=tuple(hands),
            trick=(),
            last_trick=trick,
            last_winner=winner,
            taken=(taken[0], taken[1]),
            tricks=(tricks[0], tricks[1]),
            turn=winner,
            leader=winner,
        )
        if any(hands):
            events.append(Turn.emit(seat=winner))  # 4.7.5: the winner leads next
            return Transition(state, tuple(events))
        return state._score(events)

    def captured(self) -> tuple[int, int]:
        """The points each team has taken in tricks so far this hand (4.8.1)."""
        pts = _POINTS[self.trump] if self.trump >= 0 else _POINTS[0]
        return (sum(pts[c] for c in self.taken[0]), sum(pts[c] for c in self.taken[1]))

    def _score(self, events: list[Event]) -> Transition:
        captured = self.captured()
        if sum(captured) != MAX_BID:  # 4.6.7: every point card is played
            raise AssertionError(f"the hand's captured points add up to {sum(captured)}, not 83")
        bidders = self.bidder % 2
        made = captured[bidders] >= self.bid  # 4.8.3
        delta = [captured[0], captured[1]]  # 4.8.2: the defenders score what they took
        if not made:
            delta[bidders] = -self.bid  # 4.8.3: a failed bid loses its amount
        scores = (self.scores[0] + delta[0], self.scores[1] + delta[1])
        if self.options.must_win_on_own_bid:
            winner = bidders if made and scores[bidders] >= TARGET else -1  # 4.10.7
        else:
            over = [t for t in (0, 1) if scores[t] >= TARGET]
            winner = (bidders if len(over) == 2 else over[0]) if over else -1  # 4.8.4
        result = HandResult(
            round=self.round,
            dealer=self.dealer,
            bidder=self.bidder,
            bid=self.bid,
            trump=self.trump,
            captured=captured,
            made=made,
            delta=(delta[0], delta[1]),
            scores=scores,
            deal_code=self.deal_code,
        )
        events.append(
            HandOver.emit(
                hand=result.round,
                dealer=result.dealer,
                bidder=result.bidder,
                bid=result.bid,
                trump=result.trump,
                captured=result.captured,
                made=result.made,
                delta=result.delta,
                scores=result.scores,
                deal_code=result.deal_code,
            )
        )
        state = self._evolve(
            phase=_MATCH_OVER if winner >= 0 else _HAND_OVER,
            scores=scores,
            last_hand=result,
            winner=winner,
            turn=-1,
            ready=(False,) * SEATS,
            phase_v=self.version,
            seat_v=(self.version,) * SEATS,
        )
        if winner >= 0:
            events.append(MatchOver.emit(teams=(winner,), winners=TEAMS[winner], team_scores=scores))
        return Transition(state, tuple(events))

    def _ready(self, seat: int, v: int) -> Transition:
        ready = (*self.ready[:seat], True, *self.ready[seat + 1 :])
        seat_v = (*self.seat_v[:seat], v, *self.seat_v[seat + 1 :])
        events = [Ready.emit(seat=seat)]
        state = self._evolve(version=v, ready=ready, seat_v=seat_v)
        if not all(ready):
            return Transition(state, tuple(events))
        seed, match_rng = self.match_rng.bits(SEED_BITS)
        state = state._evolve(match_rng=match_rng, round=self.round + 1)
        return state._deal((self.dealer + 1) % SEATS, seed, events)  # 4.2.1: the deal passes left

    def _deal(self, dealer: int, seed: int, events: list[Event]) -> Transition:
        """Deal a hand (4.2.2, 4.10.1): the deck in card order, shuffled with stream ``deal`` of
        ``seed``; 4 cards at a time, three rounds, from the dealer's left; the last 5 to the kitty."""
        deck, _ = Rng(seed, "deal").shuffle(range(len(NAMES)))
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        at = 0
        for _round in range(3):
            for i in range(SEATS):
                hands[(dealer + 1 + i) % SEATS] += deck[at : at + 4]
                at += 4
        kitty = tuple(sorted(deck[at:]))
        first = (dealer + 1) % SEATS  # 4.5.1: the dealer's left bids first
        state = self._evolve(
            phase=_AUCTION,
            dealer=dealer,
            seed=seed,
            hands=tuple(tuple(sorted(h)) for h in hands),
            kitty=kitty,
            calls=(),
            turn=first,
            leader=first,
            **_HAND_AT_REST,
            phase_v=self.version,
            seat_v=(self.version,) * SEATS,
        )
        events.append(HandStart.emit(hand=state.round, dealer=dealer, hand_counts=(HAND,) * SEATS, kitty_count=KITTY))
        for s in range(SEATS):
            events.append(HandDealt.emit((s,), seat=s, cards=state.hands[s]))
        events.append(Turn.emit(seat=first))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> EightyThreeView:
        """What ``seat`` may see (``None``: a spectator), field by field."""
        own = self._own(seat)
        phase = self.phase
        trump = self.trump
        in_hand = phase <= _PLAY
        data: dict[str, Wire] = {
            "game": GAME_NAME,
            "preset": self.options.preset,
            "must_win_on_own_bid": self.options.must_win_on_own_bid,
            "seat": seat,
            "seats": SEATS,
            "teams": TEAMS_WIRE,
            "version": self.version,
            "phase": phase.wire,
            "round": self.round,  # the hand, from 1 (every game's view calls it round)
            "dealer": self.dealer,
            "turn": self.turn if self.turn >= 0 else None,
            "awaiting": ints(self.awaiting()),
            "hand": None,
            "hand_counts": ints(tuple(map(len, self.hands))),
            "kitty_count": len(self.kitty),
            "auction": calls(self.calls),
            "passed": flags(tuple(any(c == (s, 0) for c in self.calls) for s in range(SEATS))),
            "high_bid": self.bid or None,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "bid": self.bid if phase > _AUCTION and self.bidder >= 0 else None,
            "trump": _SUIT_LETTERS[trump] if trump >= 0 else None,
            "partner_trumps": None,
            "selected": None,
            "arranged": None,
            "decided": flags(self.decided if phase in (_DISCARD, _TRIM) else _UNDECIDED),
            "passed_counts": None,
            "given": None,
            "received": None,
            "discarded": None,
            "shown": seat_cards(self.shown),
            "trick": seat_cards(self.trick),
            "leader": self.leader if phase == _PLAY else None,
            "last_trick": None if not self.last_trick else last_trick(self.last_winner, self.last_trick),
            "tricks": ints(self.tricks),
            "points": ints(self.captured() if trump >= 0 else (0, 0)),
            "scores": ints(self.scores),
            "target": TARGET,
            "ready": flags(self.ready),
            "last_hand": None if self.last_hand is None else hand_result(self.last_hand),
            "deal_code": None if in_hand else self.deal_code,
            "winners": ints(TEAMS[self.winner] if phase == _MATCH_OVER else ()),
            "winning_team": self.winner if phase == _MATCH_OVER else None,
        }
        if phase >= _TRIM and in_hand:
            data["passed_counts"] = ints(tuple(map(len, self.gave)))
        data.update(own)  # (its keys are in ``data`` already: they keep their places)
        return EightyThreeView(seat, data, self.legal_actions(seat) if seat is not None else ())

    def own_view(self, seat: int | None) -> dict[str, Wire]:
        """What only ``seat`` sees of its view (``State.own_view``): its seat, hand, what it has
        chosen to discard and give and what it gave, got and buried, its legal moves."""
        return {**self._own(seat), "legal": legal_wire(self.legal_actions(seat) if seat is not None else ())}

    def _own(self, seat: int | None) -> dict[str, Wire]:
        """The fields of a view that only ``seat`` sees, but ``legal`` (all nil for a spectator)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise BadSeatError(f"no seat {seat!r} at a table of {SEATS}")
        data: dict[str, Wire] = {
            "seat": seat,
            "hand": None,
            "partner_trumps": None,
            "selected": None,
            "arranged": None,
            "given": None,
            "received": None,
            "discarded": None,
        }
        phase = self.phase
        in_hand = phase <= _PLAY
        if seat is not None:
            steps = self.pending[seat]
            gone = [c % _GIVE_STEP for c in steps]
            data["hand"] = names(_minus(self.hands[seat], gone) if steps else self.hands[seat])
            if phase == _DISCARD:
                k = self.counts(seat)
                data["partner_trumps"] = {"trumps": k.partner_trumps, "points": k.partner_points}
            if phase in (_DISCARD, _TRIM):
                data["selected"] = {
                    "discards": [NAMES[c] for c in steps if c < _GIVE_STEP],
                    "gives": [NAMES[c - _GIVE_STEP] for c in steps if c >= _GIVE_STEP],
                }
                if seat in self.awaiting():
                    # What auto_arrange would hand in now: the page shows it before it is pressed.
                    auto = self._auto_steps(seat)
                    data["arranged"] = {
                        "discards": _names(tuple(sorted(c for c in auto if c < _GIVE_STEP))),
                        "gives": _names(tuple(sorted(c - _GIVE_STEP for c in auto if c >= _GIVE_STEP))),
                    }
            if phase >= _TRIM and in_hand:
                data["given"] = names(self.gave[seat])
                data["received"] = names(self.gave[(seat + 2) % SEATS])
                data["discarded"] = names(self.buried[seat])
        return data

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`EightyThree.state_from_data` rebuilds this state."""
        return {
            "schema": 1,
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "dealer": self.dealer,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            "hands": [list(h) for h in self.hands],
            "kitty": list(self.kitty),
            "calls": [list(c) for c in self.calls],
            "turn": self.turn,
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": self.trump,
            "pending": [list(p) for p in self.pending],
            "decided": list(self.decided),
            "gave": [list(g) for g in self.gave],
            "buried": [list(b) for b in self.buried],
            "shown": [list(x) for x in self.shown],
            "trick": [list(x) for x in self.trick],
            "leader": self.leader,
            "last_trick": [list(x) for x in self.last_trick],
            "last_winner": self.last_winner,
            "tricks": list(self.tricks),
            "taken": [list(t) for t in self.taken],
            "scores": list(self.scores),
            "ready": list(self.ready),
            "last_hand": None if self.last_hand is None else self.last_hand.to_data(),
            "winner": self.winner,
            "phase_v": self.phase_v,
            "seat_v": list(self.seat_v),
        }


def _card_step_refused(seat: int, card: int, left: Sequence[int]) -> IllegalActionError | None:
    """Why a discard or give of ``card`` is refused in any phase of the exchange, if it is: the card
    is not among the cards ``left`` in the seat's hand, or the hand is already down to 6."""
    if card not in left:
        return IllegalActionError(f"{NAMES[card]!r} is not in seat {seat}'s hand")
    if len(left) <= KEEP:
        return IllegalActionError(f"seat {seat} is down to 6 cards: say done")
    return None


def _trim_problems(hand: Sequence[int], trump: int, drop: Sequence[int]) -> list[str]:
    """What is wrong with a receiver's trim of ``hand`` (empty: valid): 6 cards left, non-trumps first,
    no point trump (4.6.4, 4.6.5)."""
    es, pts = _ESUIT[trump], _POINTS[trump]
    out = []
    if len(hand) - len(drop) != KEEP or not set(drop) <= set(hand) or len(set(drop)) != len(drop):
        out.append(f"the trim leaves {len(hand) - len(drop)} cards, not 6")
    kept = _minus(tuple(hand), drop)
    if any(es[c] == _PLAIN for c in drop) and any(es[c] != _PLAIN for c in kept):
        out.append("a trump is trimmed while a non-trump is kept")
    if any(pts[c] for c in drop):
        out.append("a point trump is trimmed")
    return out


#: What a new hand starts with, besides its cards, its dealer and who bids and leads first:
#: no auction yet, no trump, no exchange, no trick taken, nobody ready.
_HAND_AT_REST: Final[dict[str, Any]] = {
    "bidder": -1,
    "bid": 0,
    "trump": -1,
    "pending": ((),) * SEATS,
    "decided": (False,) * SEATS,
    "gave": ((),) * SEATS,
    "buried": ((),) * SEATS,
    "shown": (),
    "trick": (),
    "last_trick": (),
    "last_winner": -1,
    "tricks": (0, 0),
    "taken": ((), ()),
    "ready": (False,) * SEATS,
}


def _blank(options: EightyThreeOptions, match_rng: Rng) -> EightyThreeState:
    """A state before its first deal: every field at rest."""
    return EightyThreeState(
        options=options,
        version=0,
        phase=_AUCTION,
        match_rng=match_rng,
        round=1,
        dealer=0,
        seed=0,
        hands=((),) * SEATS,
        kitty=(),
        calls=(),
        turn=1,
        leader=1,
        **_HAND_AT_REST,
        scores=(0, 0),
        last_hand=None,
        winner=-1,
        phase_v=0,
        seat_v=(0,) * SEATS,
    )
