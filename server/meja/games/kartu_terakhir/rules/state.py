"""A match of Kartu Terakhir between whole decisions: :class:`KartuTerakhirState` and its moves."""

from __future__ import annotations

import bisect
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Final

from meja.rules.errors import BadActionError, BadSeatError, IllegalActionError, NotYourTurnError, RoundOverError
from meja.rules.frozen import FrozenState
from meja.rules.game import Event, Location, Outcome, StateDefaults, Timed, Transition, Wire
from meja.rules.rng import Rng

from .. import dealcode
from .actions import (
    _KIND_STEP,
    _MATCH_OVER,
    _ONLY_CALL,
    _ONLY_CATCH,
    _ONLY_READY,
    _PLAY,
    _REACT,
    _ROUND_OVER,
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    KEEP,
    PASS,
    PLAY_OF,
    READY,
    TAKE,
    TIMER_TAKE,
    WILD_PLAYS,
    Kind,
    Move,
    Phase,
)
from .events import (
    Call,
    CallCancelled,
    Catch,
    Challenge,
    Draw,
    HandDealt,
    Keep,
    MatchOver,
    Pass,
    Play,
    Ready,
    Reshuffle,
    Reverse,
    RoundOver,
    RoundStart,
    Shown,
    Skip,
    Turn,
    Window,
)
from .options import KartuTerakhirOptions
from .tables import (
    _ALL,
    _IS_NUMBER,
    _NAME,
    _OF_COLOUR,
    _SEAT,
    ANSWER_D2,
    ANSWER_WD4,
    CARD_COUNT,
    COLOUR,
    COLOUR_WORDS,
    DRAW_TWO,
    FIRST_ID,
    GAME_NAME,
    HAND_SIZE,
    IDS_OF,
    IS_WILD,
    MATCH_TARGET,
    NAMEIX,
    NAMEIX_OF,
    NO_COLOUR,
    PLAYABLE,
    REVERSE,
    SKIP,
    SYM,
    TITLE,
    WILD,
    WILD_DRAW_FOUR,
    _tuple_new,
    card_points,
    reshuffled,
)
from .view import KartuTerakhirView, RoundResult, own_wire


@dataclass(frozen=True)
class KartuTerakhirState(FrozenState, StateDefaults):
    """A match of Kartu Terakhir between whole decisions. Build one with :meth:`KartuTerakhir.new_match`
    (or :meth:`KartuTerakhir.stacked` for a laid-out scenario).

    Cards are ids (0-107, see the module docstring); hands are sorted by id;
    ``stock[-1]`` is the next card drawn and ``discard[-1]`` the top card. Seats
    count ``-1`` as "none" (``window``, ``called``, ``drawn``...).

    Not ``slots=True``, on purpose: :meth:`_evolve_with` copies the instance dict in
    one ``dict.update``, several times cheaper than ``dataclasses.replace``.
    """

    options: KartuTerakhirOptions
    seats: int
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    dealer: int
    seed: int
    reshuffles: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    #: the active colour, 0-3 (R Y G B)
    colour: int
    #: +1 clockwise (the next seat is seat + 1), -1 after an odd number of Reverses
    direction: int
    turn: int
    #: the version at which the current decision period began (period())
    turn_v: int
    #: the card drawn this turn, playable, that alone may now be played (or kept); -1: none
    drawn: int
    #: the penalty the seat on turn faces (cards), 0: none
    pending: int
    #: whether the pending penalty is a single, unstacked Wild Draw Four (3.7 stacking 6)
    challenge: bool
    #: who played that Wild Draw Four, the hand it left (3.11.5), and whether it was a bluff (3.5.3)
    wd4_by: int
    evidence: tuple[int, ...]
    bluff: bool
    #: the seat open to a catch (3.6.3), -1: no window
    window: int
    #: the seat on turn that called before playing (3.6.1 a), -1: none
    called: int
    #: a challenged hand shown to ``shown_to`` (3.5.2), until the next turn action
    shown: tuple[int, ...]
    shown_to: int
    scores: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]
    #: per-seat epochs where they differ from ``version`` (after a call, catch or ready); None: all equal
    epochs: tuple[int, ...] | None

    # ------------------------------------------------------------- queries

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def deal_code(self) -> str:
        """The current round's deal code. Secret while the round is in progress."""
        code: str | None = self.__dict__.get("_code")
        if code is None:
            code = dealcode.encode(dealcode.DealSpec(self.seats, self.dealer, self.seed))
            self.__dict__["_code"] = code
        return code

    def is_playable(self, card: int) -> bool:
        """3.3.1-3.3.2 (no penalty pending): the active colour, the top card's symbol, or a Wild."""
        return bool(PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]][card])

    def can_draw_any(self) -> bool:
        """Whether a card can be drawn at all (3.3.5: not when the stock is empty and the discard is one card)."""
        return bool(self.stock) or len(self.discard) > 1

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + steps * self.direction) % self.seats

    def awaiting(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == _PLAY:
            return _SEAT[self.turn]
        if phase == _ROUND_OVER:
            return tuple(s for s in range(self.seats) if not self.ready[s])
        return ()  # react: the penalty draws itself (timed_actions); match over

    def actors(self) -> tuple[int, ...]:
        """The awaited seats and, while a catch window is open, every seat (3.6.1 b, 3.6.2)."""
        if self.window >= 0 and self.phase <= _REACT:
            return _ALL[self.seats]
        return self.awaiting()

    def epoch(self, seat: int) -> int:
        epochs = self.epochs
        return self.version if epochs is None else epochs[seat]

    def period(self) -> Hashable:
        return self.turn_v

    def in_round(self) -> bool:
        return self.phase <= _REACT

    def default_action(self, seat: int) -> Move | None:
        """3.7 when time runs out: take the pending penalty (a Wild Draw Four too, unchallenged;
        ``timer_take`` where mandatory stacking leaves the seat no ``take`` of its own), else draw
        one and end the turn (``draw_keep``: "draw 1 card, and play moves on", the drawn card never
        played, even if it could be); after a draw keep the card (3.11.7); else pass; never a play.
        ``ready`` between rounds. ``None`` for a seat that is not awaited."""
        phase = self.phase
        if phase == _ROUND_OVER:
            return READY if 0 <= seat < self.seats and not self.ready[seat] else None
        if phase != _PLAY or seat != self.turn:
            return None
        legal = self.legal_actions(seat)
        for move in (TAKE, KEEP, DRAW, PASS):
            if move in legal:
                return DRAW_KEEP if move == DRAW else move
        if self.pending:
            # 3.7 timer 1, 3.11.7: mandatory stacking (3.11.4) with an answer in hand leaves only
            # answers (and a challenge) to choose; the timer takes the pile all the same, and plays nothing
            return TIMER_TAKE
        if self._nothing_to_draw(seat, legal):
            return DRAW_KEEP  # a playable card, but no card to draw: the turn moves on (3.7, 3.3.5)
        return None

    def _nothing_to_draw(self, seat: int, legal: tuple[Move, ...]) -> bool:
        """The seat on turn would draw, but both piles are spent (3.3.5): no draw is offered,
        and it holds a playable card, so no pass is either (the timer's corner, 3.7)."""
        return (
            self.phase == _PLAY
            and seat == self.turn
            and not self.pending
            and self.drawn < 0
            and DRAW not in legal
            and PASS not in legal
        )

    def timed_actions(self) -> tuple[Timed, ...]:
        """3.4, README decision 6: a Draw Two's victim draws by itself after ``reaction_ms``."""
        if self.phase == _REACT:
            return (Timed(self.turn, TAKE, self.options.reaction_ms, self.turn_v),)
        return ()

    def bot_rng(self, seat: int) -> Rng:
        """The RNG a bot in ``seat`` uses this round: derived from the round's seed and the seat,
        through a hash, so that a bot holding it cannot rebuild the deal."""
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        return Outcome(self.winners, self.scores)

    def carry(self) -> dict[str, Wire] | None:
        """The next match's dealer, once this one is over: the seat left of the last dealer (3.2.3)."""
        if self.phase != _MATCH_OVER:
            return None
        return {"dealer": (self.dealer + 1) % self.seats}

    def locations(self) -> tuple[Location, ...]:
        """Hands (to their seats; to all once the round is scored), the face-up discard pile,
        the face-down stock; a challenged hand shown to the challenger and the last round's
        scored hands, both uncounted (their cards lie elsewhere)."""
        shown_all = not self.in_round()
        name = _NAME.__getitem__
        out = [
            Location(f"hand/{s}", tuple(map(name, h)), "all" if shown_all else _SEAT[s])
            for s, h in enumerate(self.hands)
        ]
        out.append(Location("discard", tuple(map(name, self.discard)), "all"))
        out.append(Location("stock", tuple(map(name, self.stock)), ()))
        if self.shown_to >= 0:
            out.append(Location("shown", tuple(map(name, self.shown)), _SEAT[self.shown_to], counted=False))
        lr = self.last_round
        if lr is not None and lr.round < self.round:
            # 3.8.2: the last round's hands were revealed when it was scored; its cards are dealt again.
            out.append(Location("last_round", tuple(name(c) for h in lr.hands for c in h), "all", counted=False))
        return tuple(out)

    def legal_actions(self, seat: int) -> tuple[Move, ...]:
        """Every action ``seat`` may take now, sorted (see :class:`Kind` for the order)."""
        phase = self.phase
        if phase == _PLAY and seat == self.turn:
            # Cached on the (immutable) state: the policy asks, then apply checks.
            legal: tuple[Move, ...] | None = self.__dict__.get("_legal")
            if legal is None:
                legal = self.__dict__["_legal"] = self._turn_actions()
            return legal
        if phase <= _REACT:
            window = self.window
            if window < 0 or type(seat) is not int or not 0 <= seat < self.seats:
                return ()
            return _ONLY_CALL if seat == window else _ONLY_CATCH
        if phase == _ROUND_OVER and type(seat) is int and 0 <= seat < self.seats and not self.ready[seat]:
            return _ONLY_READY
        return ()

    def _answers(self) -> bytes | None:
        """3.7 stacking 1: which cards answer the pending penalty (``None``: stacking is off)."""
        if not self.options.stacking:
            return None
        return ANSWER_WD4 if SYM[self.discard[-1]] == WILD_DRAW_FOUR else ANSWER_D2

    def _turn_actions(self) -> tuple[Move, ...]:
        seat = self.turn
        hand = self.hands[seat]
        size = len(hand)
        out: list[Move] = []
        last = -1  # the name index of the last card added: copies share one play
        if self.pending:
            answers = self._answers()
            if answers is not None:
                for c in hand:
                    if answers[c] and NAMEIX[c] != last:
                        last = NAMEIX[c]
                        if size == 1:
                            out.append(PLAY_OF[c][NO_COLOUR])  # 3.6.5: going out names no colour
                        else:
                            out.extend(WILD_PLAYS[c] if IS_WILD[c] else PLAY_OF[c][NO_COLOUR : NO_COLOUR + 1])
            if not (out and self.options.stacking_mandatory):
                out.append(TAKE)  # 3.7 stacking 2-3, 3.11.4
            if self.challenge:
                out.append(CHALLENGE)  # 3.5.1, 3.7 stacking 6
        elif self.drawn >= 0:
            c = self.drawn  # 3.3.4: only the drawn card, or keep it
            out.extend(WILD_PLAYS[c] if IS_WILD[c] else PLAY_OF[c][NO_COLOUR : NO_COLOUR + 1])
            out.append(KEEP)
        else:
            playable = PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]]
            for c in hand:
                if playable[c] and NAMEIX[c] != last:
                    last = NAMEIX[c]
                    if not IS_WILD[c] or size == 1:
                        out.append(PLAY_OF[c][NO_COLOUR])
                    else:
                        out.extend(WILD_PLAYS[c])  # 3.11.1: a Wild and its colour are one action
            if self.stock or len(self.discard) > 1:
                out.append(DRAW)  # 3.3.3: always allowed, once a turn
            elif not out:
                out.append(PASS)  # 3.3.5, 3.11.6
        if size == 2 and self.called != seat:
            out.append(CALL)  # 3.6.1 a
        window = self.window
        if window >= 0:
            out.append(CALL if window == seat else CATCH)  # 3.6.1 b, 3.6.2
        return tuple(out)

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Move) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (state unchanged) if it is not legal."""
        if self.phase == 0 and type(action) is Move and seat == self.turn and type(seat) is int:
            # The hot path (playouts, search): a turn action by the seat on turn.
            legal = self.__dict__.get("_legal") or self.legal_actions(seat)
            if action in legal:
                if action < _KIND_STEP:
                    return self._play(seat, action)
                if action == DRAW:
                    return self._draw(seat)
                return self._dispatch(seat, action)
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        if not isinstance(action, Move):
            raise BadActionError(f"not a {TITLE} action: {action!r}")
        if self.phase == _REACT and action == TAKE and seat == self.turn:
            return self._take(seat)  # the timed penalty draw (or the victim taking it sooner)
        if action == TIMER_TAKE and self.phase == _PLAY and seat == self.turn and self.pending:
            return self._take(seat)  # the timer's take (3.7): mandatory stacking or not
        if action == DRAW_KEEP:  # the timer's draw: wherever a draw is legal
            legal = self.legal_actions(seat)
            if DRAW in legal:
                return self._draw(seat, keep=True)
            if self._nothing_to_draw(seat, legal):
                return self._pass(seat)  # 3.7 with 3.3.5: it draws none, and play moves on
            raise self._why_illegal(seat, DRAW)
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        return self._dispatch(seat, action)

    def _dispatch(self, seat: int, action: int) -> Transition:
        if action < _KIND_STEP:
            return self._play(seat, action)
        kind = action // _KIND_STEP
        if kind == 1:
            return self._draw(seat)
        if kind == 2:
            return self._end_turn(seat, [Keep.emit(seat=seat)], {"version": self.version + 1})
        if kind == 3:
            return self._pass(seat)
        if kind == 4:
            return self._take(seat)
        if kind == 5:
            return self._challenge(seat)
        if kind == 6:
            return self._call(seat)
        if kind == 7:
            return self._catch(seat)
        return self._ready(seat)

    def _why_illegal(self, seat: int, action: Move) -> IllegalActionError:
        """The error for an action that is not legal (``seat`` exists; ``action`` is a Move)."""
        phase = self.phase
        kind = action.kind
        if phase == _MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == _ROUND_OVER:
            if kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next round")
            return RoundOverError(f"round {self.round} is over; only 'ready' is accepted")
        if kind == Kind.READY:
            return IllegalActionError("'ready' is for the time between rounds; the round is in play")
        if kind == Kind.CATCH:
            if self.window == seat:
                return IllegalActionError(f"seat {seat} cannot catch itself; it may call instead")
            return IllegalActionError(
                "nobody is open to a catch: the window closes at the first catch, at the target's call,"
                " and at the next play, draw or challenge (3.6.2, 3.6.3)"
            )
        if kind == Kind.CALL:
            if self.called == seat:
                return IllegalActionError(f"seat {seat} has already called")
            if seat == self.turn and phase == _PLAY:
                return IllegalActionError(
                    f"a call is accepted on one's turn with exactly 2 cards (seat {seat} holds"
                    f" {len(self.hands[seat])}), or right after playing to one card while the window is open"
                )
            return IllegalActionError(
                f"seat {seat} may call only on its turn with 2 cards, or right after its play left it"
                " one card, while nobody has played, drawn or challenged since (3.6.1)"
            )
        if phase == _REACT:
            if seat == self.turn:
                return IllegalActionError(
                    f"seat {seat} loses this turn: it draws the {self.pending}-card penalty automatically (3.4)"
                )
            return NotYourTurnError(f"seat {self.turn} is drawing a penalty; it is nobody's turn to play")
        if seat != self.turn:
            return NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        hand = self.hands[seat]
        if kind == Kind.TIMER_TAKE:
            return IllegalActionError("the turn timer's take needs a penalty pending against the seat on turn")
        if kind == Kind.TAKE:
            if not self.pending:
                return IllegalActionError("there is no penalty to take")
            return IllegalActionError(
                "stacking is mandatory: a player who can answer the pending penalty must (3.11.4)"
            )
        if kind == Kind.CHALLENGE:
            if self.pending:
                return IllegalActionError(
                    "a challenge is offered only against a single Wild Draw Four that nobody stacked (3.7)"
                )
            return IllegalActionError("a challenge answers a Wild Draw Four played on you; none is pending")
        if kind == Kind.KEEP:
            return IllegalActionError("'keep' ends the turn after drawing a playable card; there is none")
        if self.pending:
            words = "take it or challenge" if self.challenge else "take it"
            if self.options.stacking:
                wd4 = SYM[self.discard[-1]] == WILD_DRAW_FOUR
                answer = "a Wild Draw Four" if wd4 else "a Draw Two or Wild Draw Four"
                words = f"answer with {answer} or {words}"
            return IllegalActionError(f"a {self.pending}-card penalty is pending: {words}")
        if kind == Kind.DRAW:
            if self.drawn >= 0:
                return IllegalActionError(f"one draw a turn: seat {seat} has drawn; play the drawn card or keep it")
            return IllegalActionError("there is nothing left to draw (3.3.5)")
        if kind == Kind.PASS:
            return IllegalActionError("pass only with no playable card and nothing to draw (3.11.6): play or draw")
        # a play
        name = action.card
        assert name is not None
        ids = IDS_OF[NAMEIX_OF[name]]
        if not any(c in hand for c in ids):
            return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
        card = next(c for c in ids if c in hand)
        if self.drawn >= 0 and NAMEIX[self.drawn] != NAMEIX[card]:
            return IllegalActionError(f"after a draw only the drawn card {_NAME[self.drawn]!r} may be played (3.3.4)")
        if not self.is_playable(card):
            return IllegalActionError(
                f"{name!r} matches neither the active colour {COLOUR_WORDS[self.colour]!r}"
                f" nor the symbol of {_NAME[self.discard[-1]]!r}"
            )
        if IS_WILD[card]:
            if action.colour is None:
                return IllegalActionError(f"playing {name!r} must name a colour: R, Y, G or B")
            return IllegalActionError(f"{name!r} played as the last card ends the round: name no colour")
        return IllegalActionError(f"only a Wild names a colour, not {name!r}")

    # ------------------------------------------------------------- the moves

    def _draw_cards(self, count: int, events: list[Event], changes: dict[str, Any]) -> list[int]:
        """Take up to ``count`` cards off the stock, rebuilding it from the discard pile when a card
        is needed and the stock is empty (3.3.5, 3.11.9); fewer if nothing is left. Updates ``changes``."""
        stock = changes.get("stock", self.stock)
        out: list[int] = []
        if len(stock) >= count:
            if count == 1:
                out.append(stock[-1])
                changes["stock"] = stock[:-1]
            else:
                out.extend(stock[-1 : -count - 1 : -1])
                changes["stock"] = stock[:-count]
            return out
        discard = changes.get("discard", self.discard)
        reshuffles = changes.get("reshuffles", self.reshuffles)
        while len(out) < count:
            if not stock:
                if len(discard) < 2:
                    break  # 3.3.5: both piles exhausted: draw what exists
                # 3.3.5: the cards under the top card become the stock; top and colour stay
                reshuffles += 1
                stock = reshuffled(self.seed, reshuffles, discard[:-1])
                discard = discard[-1:]
                events.append(Reshuffle.emit(moved=len(stock), count=reshuffles))
            out.append(stock[-1])
            stock = stock[:-1]
        changes["stock"] = stock
        changes["discard"] = discard
        changes["reshuffles"] = reshuffles
        return out

    def _give(self, seat: int, count: int, reason: str, events: list[Event], changes: dict[str, Any]) -> list[int]:
        """``seat`` draws ``count`` cards (fewer if none are left): the cards drawn; the hands in ``changes``."""
        cards = self._draw_cards(count, events, changes)
        hands = changes.get("hands", self.hands)
        hand = hands[seat]
        if len(cards) == 1:
            i = bisect.bisect(hand, cards[0])
            new_hand = hand[:i] + (cards[0],) + hand[i:]
        else:
            new_hand = tuple(sorted(hand + tuple(cards)))
        hl = list(hands)
        hl[seat] = new_hand
        changes["hands"] = tuple(hl)
        only = _SEAT[seat]
        n = len(cards)
        events.append(Draw.emit(only, (), seat=seat, cards=tuple(NAMEIX[c] for c in cards), count=n, reason=reason))
        events.append(Draw.emit(None, only, seat=seat, count=n, reason=reason))
        return cards

    def _play(self, seat: int, move: int) -> Transition:
        hand = self.hands[seat]
        name = move // 5
        slot = move % 5
        # the copy with the lowest id (copies share a name: the module docstring)
        i = bisect.bisect_left(hand, FIRST_ID[name])
        card = hand[i]
        sym = SYM[card]
        if (sym < SKIP or sym == WILD) and len(hand) > 2 and self.called != seat and self.shown_to < 0:
            # The common case, written out: a number or a Wild, two or more cards left, no call
            # to cancel, no challenged hand on show; the turn passes on (3.3.6). The next state's
            # dict is filled in place, without the changes dict of the general path.
            colour = slot if slot < 4 else COLOUR[card]
            hl = list(self.hands)
            hl[seat] = hand[:i] + hand[i + 1 :]
            v = self.version + 1
            nxt = (seat + self.direction) % self.seats
            new = object.__new__(KartuTerakhirState)
            nd = new.__dict__
            nd.update(self.__dict__)
            nd.pop("_legal", None)
            nd["version"] = nd["turn_v"] = v
            nd["hands"] = tuple(hl)
            nd["discard"] = self.discard + (card,)
            nd["colour"] = colour
            nd["turn"] = nxt
            nd["drawn"] = nd["window"] = -1  # 3.6.3: a play closes the window
            nd["epochs"] = None
            played = Play.emit(seat=seat, card=NAMEIX[card], colour=colour, drawn=self.drawn >= 0)
            return _tuple_new(Transition, (new, (played, Turn.emit(seat=nxt))))
        new_hand = hand[:i] + hand[i + 1 :]
        hl = list(self.hands)
        hl[seat] = new_hand
        v = self.version + 1
        colour = self.colour if slot == NO_COLOUR and sym >= WILD else (slot if slot < 4 else COLOUR[card])
        events = [Play.emit(seat=seat, card=NAMEIX[card], colour=colour, drawn=self.drawn >= 0)]
        changes: dict[str, Any] = {
            "version": v,
            "hands": tuple(hl),
            "discard": self.discard + (card,),
            "colour": colour,
            "drawn": -1,
            "window": -1,  # 3.6.3: a play closes the window
            "epochs": None,
        }
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        left = len(new_hand)
        pending = self.pending
        n = self.seats
        d = self.direction
        if not left:
            # 3.6.4, 3.11.8: out; the next seat draws a Draw Two's or Wild Draw Four's penalty first
            penalty = pending + (2 if sym == DRAW_TWO else 4 if sym == WILD_DRAW_FOUR else 0)
            if penalty:
                self._give((seat + d) % n, penalty, "penalty", events, changes)
            return self._evolve_with(changes)._end_round(seat, events)
        if left == 1:
            if self.called == seat:
                changes["called"] = -1  # 3.6.1 a: the call made before playing stands; no window
            else:
                changes["window"] = seat  # 3.6.3: the window opens
                events.append(Window.emit(seat=seat))
        elif self.called == seat:
            changes["called"] = -1  # 3.6.1: the turn ends with 2 or more cards (a stacking answer)
            events.append(CallCancelled.emit(seat=seat))
        changes["turn_v"] = v
        if sym < SKIP or sym == WILD:
            nxt = (seat + d) % n
        elif sym == SKIP:
            nxt = (seat + 2 * d) % n  # 3.4: the next seat loses its turn
            events.append(Skip.emit(seat=(seat + d) % n))
        elif sym == REVERSE:
            d = changes["direction"] = -d  # 3.4, 3.11.2: at 2 seats a Skip, and the direction flips
            nxt = seat if n == 2 else (seat + d) % n
            events.append(Reverse.emit(seat=seat, direction=d))
            if n == 2:
                events.append(Skip.emit(seat=(seat - d) % n))
        else:
            victim = (seat + d) % n
            changes["turn"] = victim
            if sym == WILD_DRAW_FOUR:
                # 3.5.3, 3.11.5: judged on this hand against the colour before the Wild Draw Four;
                # 3.7 stacking 6: only a single, unstacked one can be challenged
                single = not pending
                changes["challenge"] = single
                if single:
                    changes["wd4_by"] = seat
                    changes["evidence"] = new_hand
                    changes["bluff"] = not _OF_COLOUR[self.colour].isdisjoint(new_hand)
                pending += 4
            else:
                pending += 2
                changes["challenge"] = False
                if not self.options.stacking:
                    changes["phase"] = _REACT  # 3.4: the victim draws after reaction_ms
            changes["pending"] = pending
            events.append(Turn.emit(seat=victim, pending=pending))
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        changes["turn"] = nxt
        events.append(Turn.emit(seat=nxt))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _end_turn(self, seat: int, events: list[Event], changes: dict[str, Any]) -> Transition:
        """The seat's turn ends without a play: the next seat in the direction is on turn."""
        if self.called == seat:
            changes["called"] = -1  # 3.6.1: a call made before playing is cancelled by a turn ending with 2+
            events.append(CallCancelled.emit(seat=seat))
        nxt = (seat + self.direction) % self.seats
        changes["turn"] = nxt
        changes["turn_v"] = changes["version"]
        changes["drawn"] = -1
        changes["epochs"] = None
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        events.append(Turn.emit(seat=nxt))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _draw(self, seat: int, keep: bool = False) -> Transition:
        """3.3.3: draw one card; 3.3.4: a playable one may be played now or kept, else the turn ends.
        ``keep`` (the timer's draw, 3.7): the turn ends either way, a playable card kept, and the
        events are those of a draw that ended the turn, whatever the card."""
        changes: dict[str, Any] = {"version": self.version + 1, "window": -1, "epochs": None}
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        stock = self.stock
        if stock:
            # the common case, inlined (_give does the same for any count)
            card = stock[-1]
            changes["stock"] = stock[:-1]
            hand = self.hands[seat]
            i = bisect.bisect(hand, card)
            hl = list(self.hands)
            hl[seat] = hand[:i] + (card,) + hand[i:]
            changes["hands"] = tuple(hl)
            only = _SEAT[seat]
            events = [
                Draw.emit(only, (), seat=seat, cards=(NAMEIX[card],), count=1, reason="draw"),
                Draw.emit(None, only, seat=seat, count=1, reason="draw"),
            ]
        else:
            events = []
            got = self._give(seat, 1, "draw", events, changes)
            card = got[0] if got else -1
        if not keep and card >= 0 and PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]][card]:
            changes["drawn"] = card  # 3.3.4: play it now, or keep it
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        # 3.3.4: not playable: the turn ends. The timer's draw (3.7) ends it whatever the card, with
        # the same events either way: a ``keep`` would tell every seat the card could have been played.
        return self._end_turn(seat, events, changes)

    def _pass(self, seat: int) -> Transition:
        # 3.11.6; a pass is no play, draw or challenge: the window stays open (3.6.3)
        said = Pass.emit(seat=seat, colour=self.colour, top=NAMEIX[self.discard[-1]])
        return self._end_turn(seat, [said], {"version": self.version + 1})

    def _take(self, seat: int) -> Transition:
        """The victim takes the pending penalty and loses its turn (3.4, 3.5.1, 3.7 stacking 2)."""
        events: list[Event] = []
        changes: dict[str, Any] = {
            "version": self.version + 1,
            "window": -1,  # a penalty draw closes the window (3.6.3)
            "pending": 0,
            "challenge": False,
            "phase": _PLAY,
        }
        self._give(seat, self.pending, "penalty", events, changes)
        return self._end_turn(seat, events, changes)

    def _challenge(self, seat: int) -> Transition:
        """3.5: the victim challenges the Wild Draw Four of ``wd4_by``."""
        target = self.wd4_by
        events: list[Event] = []
        changes: dict[str, Any] = {
            "version": self.version + 1,
            "window": -1,  # a challenge closes the window (3.6.3)
            "pending": 0,
            "challenge": False,
            "shown": self.evidence,  # 3.5.2, 3.11.5: the hand the verdict was judged on
            "shown_to": seat,
        }
        bluff = self.bluff
        # 3.5.4: the bluffer draws 4; 3.5.5: else the challenger draws 6. The verdict comes first,
        # with the hand sizes after that draw: the draw's events are made first and follow it.
        drawn: list[Event] = []
        self._give(target if bluff else seat, 4 if bluff else 6, "challenge", drawn, changes)
        events.append(
            Challenge.emit(
                seat=seat,
                target=target,
                verdict="bluff" if bluff else "honest",
                hand_counts=tuple(len(h) for h in changes["hands"]),
            )
        )
        events.append(Shown.emit(_SEAT[seat], (), seat=target, cards=tuple(NAMEIX[c] for c in self.evidence)))
        events.extend(drawn)
        if bluff:
            # the challenger plays its turn normally, under the named colour
            changes["turn_v"] = changes["version"]
            changes["epochs"] = None
            events.append(Turn.emit(seat=seat))
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        # 3.5.5: the challenger loses its turn
        if self.called == seat:
            changes["called"] = -1
            events.append(CallCancelled.emit(seat=seat))
        nxt = (seat + self.direction) % self.seats
        changes.update(turn=nxt, turn_v=changes["version"], epochs=None)
        events.append(Turn.emit(seat=nxt))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _only_epochs(self, v: int, *moved: int) -> tuple[int, ...]:
        """Epochs where only ``moved`` seats' decisions go stale at version ``v``."""
        return tuple(v if s in moved else self.epoch(s) for s in range(self.seats))

    def _call(self, seat: int) -> Transition:
        v = self.version + 1
        changes: dict[str, Any] = {"version": v, "epochs": self._only_epochs(v, seat)}
        if self.window == seat:
            changes["window"] = -1  # 3.6.1 b: called in time: nobody may catch
            when = "after"
        else:
            changes["called"] = seat  # 3.6.1 a: before playing, with 2 cards
            when = "before"
        events = (Call.emit(seat=seat, when=when),)
        return _tuple_new(Transition, (self._evolve_with(changes), events))

    def _catch(self, seat: int) -> Transition:
        """3.6.2: the first valid catch: the target draws 2; the window closes."""
        target = self.window
        v = self.version + 1
        events = [Catch.emit(seat=seat, target=target)]
        # Only the catcher's and the target's decisions go stale: a second catcher's catch,
        # sent on the same version, is refused as illegal (the window closed), not as stale.
        changes: dict[str, Any] = {"version": v, "window": -1, "epochs": self._only_epochs(v, seat, target)}
        self._give(target, 2, "catch", events, changes)
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    # ------------------------------------------------------------- rounds

    def _end_round(self, winner: int, events: list[Event]) -> Transition:
        """3.8: the winner scores the others' cards; the match ends after one round, or at 500."""
        hands = self.hands
        points = sum(card_points(h) for h in hands)
        scores = tuple(t + (points if s == winner else 0) for s, t in enumerate(self.scores))
        result = RoundResult(self.round, winner, points, hands, self.deal_code)
        events.append(
            RoundOver.emit(
                round=self.round,
                winner=winner,
                points=points,
                hands=tuple(tuple(NAMEIX[c] for c in h) for h in hands),
                deal_code=result.deal_code,
                scores=scores,
            )
        )
        over = self.options.match == "round" or max(scores) >= MATCH_TARGET
        winners: tuple[int, ...] = ()
        if over:
            # 3.8.1, 3.8.3: the one who went out wins (only they scored this round, so only they
            # can have reached 500); not the best score, which a 0-point round ties at 0 for all.
            winners = (winner,)
            events.append(MatchOver.emit(winners=winners, scores=scores))
        state = self._evolve(
            scores=scores,
            last_round=result,
            phase=_MATCH_OVER if over else _ROUND_OVER,
            ready=(False,) * self.seats,
            winners=winners,
            drawn=-1,
            window=-1,
            called=-1,
            pending=0,
            challenge=False,
            shown=(),
            shown_to=-1,
            turn_v=self.version,
            epochs=None,
        )
        return Transition(state, tuple(events))

    def _ready(self, seat: int) -> Transition:
        ready = self.ready[:seat] + (True,) + self.ready[seat + 1 :]
        v = self.version + 1
        events = [Ready.emit(seat=seat)]
        if not all(ready):
            state = self._evolve(version=v, ready=ready, epochs=self._only_epochs(v, seat))
            return Transition(state, tuple(events))
        # 3.2.3: the deal passes to the left
        seed, match_rng = self.match_rng.bits(dealcode.SEED_BITS)
        state = self._evolve(version=v, ready=ready, match_rng=match_rng, round=self.round + 1, epochs=None)
        return state._deal((self.dealer + 1) % self.seats, seed, events)

    def _deal(self, dealer: int, seed: int, events: list[Event]) -> Transition:
        """Deal a round from ``seed`` (3.2): the deal is fixed by (seats, dealer, seed).

        The deck (card-id order) is shuffled with stream ``deal``; cards go out one at
        a time clockwise from the dealer's left; the next card is the starter while it
        is a number (3.2.2), else it goes back into the stock, which is shuffled again
        (the same stream), and the new first card is turned up. The rest is the stock,
        drawn in the shuffled order.
        """
        n = self.seats
        rng = Rng(seed, "deal")
        deck, rng = rng.shuffle(range(CARD_COUNT))
        first = (dealer + 1) % n
        dealt = n * HAND_SIZE
        hands = tuple(tuple(sorted(deck[(s - first) % n : dealt : n])) for s in range(n))
        starter = deck[dealt]
        rest = deck[dealt + 1 :]
        returned = 0
        while not _IS_NUMBER[starter]:
            returned += 1
            shuffled, rng = rng.shuffle((*rest, starter))
            starter, rest = shuffled[0], shuffled[1:]
        stock = tuple(reversed(rest))
        state = self._evolve(
            phase=_PLAY,
            dealer=dealer,
            seed=seed,
            reshuffles=0,
            hands=hands,
            stock=stock,
            discard=(starter,),
            colour=COLOUR[starter],
            direction=1,
            turn=first,
            turn_v=self.version,
            **_TURN_AT_REST,
            ready=(False,) * n,
            epochs=None,
        )
        state.__dict__.pop("_code", None)
        # ``returned`` (3.2.2): how often the turned-up card was not a number and went back (which
        # cards is not told); left off the wire when none did
        events.append(
            RoundStart.emit(
                round=state.round,
                dealer=dealer,
                first=first,
                starter=NAMEIX[starter],
                colour=state.colour,
                direction=1,
                hand_counts=(HAND_SIZE,) * n,
                stock_count=len(stock),
                returned=returned,
            )
        )
        for s in range(n):
            events.append(HandDealt.emit(_SEAT[s], (), seat=s, cards=tuple(NAMEIX[c] for c in hands[s])))
        events.append(Turn.emit(seat=first))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> KartuTerakhirView:
        """What ``seat`` may see (``None``: a spectator), chosen field by field."""
        hand, drawn, shown_seat, shown, legal = self._own(seat)
        return KartuTerakhirView(
            seat=seat,
            options=self.options,
            seats=self.seats,
            version=self.version,
            phase=self.phase,
            round=self.round,
            dealer=self.dealer,
            hand=hand,
            hand_counts=tuple(len(h) for h in self.hands),
            top=self.discard[-1],
            colour=self.colour,
            direction=self.direction,
            turn=self.turn,
            drew=self.drawn >= 0,
            drawn=drawn,
            pending=self.pending,
            can_challenge=self.challenge,
            window=None if self.window < 0 else self.window,
            called=None if self.called < 0 else self.called,
            shown_seat=shown_seat,
            shown=shown,
            stock_count=len(self.stock),
            discard_count=len(self.discard),
            legal=legal,
            scores=self.scores,
            ready=self.ready,
            last_round=self.last_round,
            winners=self.winners,
        )

    def own_view(self, seat: int | None) -> dict[str, Wire]:
        """What only ``seat`` sees of its view (``State.own_view``): its seat, hand, drawn card,
        the hand a challenge showed it, its legal moves."""
        return own_wire(seat, *self._own(seat))

    def _own(
        self, seat: int | None
    ) -> tuple[tuple[int, ...] | None, int | None, int | None, tuple[int, ...] | None, tuple[Move, ...]]:
        """The values of a view's fields that only ``seat`` sees (``None``: a spectator, who sees none)."""
        if seat is None:
            return None, None, None, None, ()
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        mine = seat == self.turn and self.phase == _PLAY
        shown = seat == self.shown_to
        return (
            self.hands[seat],
            self.drawn if mine and self.drawn >= 0 else None,
            self.wd4_by if shown else None,
            self.shown if shown else None,
            self.legal_actions(seat),
        )

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`KartuTerakhir.state_from_data` rebuilds this state."""
        lr = self.last_round
        return {
            "schema": 1,
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "seats": self.seats,
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "dealer": self.dealer,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            "reshuffles": self.reshuffles,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "colour": self.colour,
            "direction": self.direction,
            "turn": self.turn,
            "turn_v": self.turn_v,
            "drawn": self.drawn,
            "pending": self.pending,
            "challenge": self.challenge,
            "wd4_by": self.wd4_by,
            "evidence": list(self.evidence),
            "bluff": self.bluff,
            "window": self.window,
            "called": self.called,
            "shown": list(self.shown),
            "shown_to": self.shown_to,
            "scores": list(self.scores),
            "ready": list(self.ready),
            "last_round": None
            if lr is None
            else [lr.round, lr.winner, lr.points, [list(h) for h in lr.hands], lr.deal_code],
            "winners": list(self.winners),
            "epochs": None if self.epochs is None else list(self.epochs),
        }


#: What a new round's first turn starts with, besides its cards and whose turn it is: no card
#: drawn, no penalty or challenge pending, no catch window, nothing called or shown.
_TURN_AT_REST: Final[dict[str, Any]] = {
    "drawn": -1,
    "pending": 0,
    "challenge": False,
    "wd4_by": -1,
    "evidence": (),
    "bluff": False,
    "window": -1,
    "called": -1,
    "shown": (),
    "shown_to": -1,
}


def blank_state(options: KartuTerakhirOptions, seats: int, match_rng: Rng) -> KartuTerakhirState:
    """A state with every field set and no cards: what a deal or a stacked layout fills in.

    Built field by field into the instance dict, like ``_evolve``: the frozen
    ``__init__`` would cost more than the deal itself.
    """
    state = object.__new__(KartuTerakhirState)
    state.__dict__.update(
        options=options,
        seats=seats,
        version=0,
        phase=_PLAY,
        match_rng=match_rng,
        round=1,
        dealer=0,
        seed=0,
        reshuffles=0,
        hands=((),) * seats,
        stock=(),
        discard=(),
        colour=0,
        direction=1,
        turn=0,
        turn_v=0,
        **_TURN_AT_REST,
        scores=(0,) * seats,
        ready=(False,) * seats,
        last_round=None,
        winners=(),
        epochs=None,
    )
    return state
