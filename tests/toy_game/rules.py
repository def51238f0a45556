"""Snap: a small game that lives in tests/ only and uses every part of the game contract.

It exists to prove that a game can be added to Meja from its own folder alone
(this one is registered from tests/, through ``MEJA_GAMES=toy_game``), and that
the server carries, with no special case, everything Kartu Terakhir and
Eighty-Three need:

- **a phase where several seats act in any order**: every round opens with each
  seat *picking* one card of its hand, face down (``pick``); the picks are
  revealed together when the last seat has picked. Another seat's pick never
  makes one's own decision stale (``epoch``);
- **an event for one seat only**: a seat's hand, its own pick, the card it took;
- **an out-of-turn action that bots take**: after a seat *takes* the top card of
  the pile, every other seat may ``snap`` while the window is open (the first
  snap wins a point for the snapper's team);
- **a timed automatic action**: if nobody snaps, the window closes by itself
  after ``window_ms`` (``timed_actions``: a ``close`` for the taker);
- **teams**: the ``pairs`` preset seats 0 and 2 against 1 and 3; ``solo`` has
  every seat for itself;
- **between rounds**, every seat says ``ready`` (``default_action``).

Cards: ``C1`` .. ``C16`` (value 1..16); 3 each; the rest is the face-down pile.
A turn: ``take`` (the card goes to your hand, then the snap window) or
``burn`` (the top card goes face up, no window). The round ends when the pile
is empty and no window is open; a pick is worth a point to the team of the
highest pick. A match ends when a team reaches ``target``.
No deal codes (the contract's path for a game without them).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any, Final

from meja.rules.errors import (
    BadActionError,
    BadDealCodeError,
    BadOptionsError,
    BadSeatError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
)
from meja.rules.game import (
    DealInfo,
    Event,
    GameInfo,
    Location,
    OptionSpec,
    Outcome,
    PresetInfo,
    StateDefaults,
    Timed,
    Transition,
    Wire,
    check_options,
)
from meja.rules.rng import Rng

NAME: Final = "snap"
CARDS: Final = tuple(f"C{v}" for v in range(1, 17))
_ID: Final = {name: i for i, name in enumerate(CARDS)}
HAND: Final = 3

INFO: Final = GameInfo(
    name=NAME,
    title="Snap (test game)",
    presets=(
        PresetInfo(
            "pairs",
            4,
            4,
            4,
            (OptionSpec("target", "int", 3, min=1, max=20), OptionSpec("window_ms", "int", 300, min=0, max=5000)),
        ),
        PresetInfo(
            "solo",
            2,
            4,
            2,
            (OptionSpec("target", "int", 3, min=1, max=20), OptionSpec("window_ms", "int", 300, min=0, max=5000)),
        ),
    ),
    teams="partners",
)


@dataclass(frozen=True, slots=True)
class Options:
    preset: str = "pairs"
    target: int = 3
    window_ms: int = 300

    def to_wire(self) -> dict[str, Wire]:
        return {"preset": self.preset, "target": self.target, "window_ms": self.window_ms}


class Phase(IntEnum):
    PICK = 0
    TURN = 1
    WINDOW = 2
    ROUND_OVER = 3
    MATCH_OVER = 4


@dataclass(frozen=True, slots=True, order=True)
class Act:
    """An action: ``kind`` and, for ``pick``, a card id."""

    kind: str
    card: int = -1

    def to_wire(self) -> dict[str, Wire]:
        out: dict[str, Wire] = {"kind": self.kind}
        if self.card >= 0:
            out["card"] = CARDS[self.card]
        return out


TAKE: Final = Act("take")
BURN: Final = Act("burn")
SNAP: Final = Act("snap")
CLOSE: Final = Act("close")
READY: Final = Act("ready")
_KINDS: Final = ("pick", "take", "burn", "snap", "close", "ready")


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    data: dict[str, Wire]
    legal: tuple[Act, ...]

    def to_wire(self) -> dict[str, Wire]:
        return {**self.data, "legal": [a.to_wire() for a in self.legal]}


def teams_of(options: Options, seats: int) -> tuple[tuple[int, ...], ...]:
    if options.preset == "pairs":
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(seats))


@dataclass(frozen=True, slots=True)
class State(StateDefaults):
    options: Options
    seats: int
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    seed: int
    leader: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]  # pile[-1] is the top card
    shown: tuple[int, ...]  # face up: revealed picks and burned cards
    picks: tuple[int, ...]  # -1: not picked yet
    turn: int
    taker: int  # the seat whose take opened the window (-1: none)
    window_v: int  # the version at which the window opened
    phase_v: int  # the version at which the phase began
    team_scores: tuple[int, ...]
    ready: tuple[bool, ...]

    # ------------------------------------------------------------------ the contract

    @property
    def deal_code(self) -> str | None:
        return None

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return teams_of(self.options, self.seats)

    def team_of(self, seat: int) -> int:
        return next(i for i, t in enumerate(self.teams()) if seat in t)

    def awaiting(self) -> tuple[int, ...]:
        if self.phase == Phase.PICK:
            return tuple(s for s in range(self.seats) if self.picks[s] < 0)
        if self.phase == Phase.TURN:
            return (self.turn,)
        if self.phase == Phase.ROUND_OVER:
            return tuple(s for s in range(self.seats) if not self.ready[s])
        return ()  # the window: nobody holds the game up; the clock closes it

    def actors(self) -> tuple[int, ...]:
        if self.phase == Phase.WINDOW:
            return tuple(s for s in range(self.seats) if s != self.taker)
        return self.awaiting()

    def epoch(self, seat: int) -> int:
        # Simultaneous phases: another seat's pick or ready leaves one's own decision alone.
        if self.phase in (Phase.PICK, Phase.ROUND_OVER):
            return self.phase_v
        return self.version

    def period(self) -> Hashable:
        return (self.round, int(self.phase), self.turn if self.phase == Phase.TURN else -1, self.phase_v)

    def in_round(self) -> bool:
        return self.phase in (Phase.PICK, Phase.TURN, Phase.WINDOW)

    def default_action(self, seat: int) -> Act | None:
        if self.phase == Phase.ROUND_OVER:
            return READY if not self.ready[seat] else None
        if self.phase == Phase.TURN and seat == self.turn:
            return BURN
        return None  # a pick: the game's bot decides

    def timed_actions(self) -> tuple[Timed, ...]:
        if self.phase == Phase.WINDOW:
            return (Timed(self.taker, CLOSE, self.options.window_ms, self.window_v),)
        return ()

    def bot_rng(self, seat: int) -> Rng:
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.MATCH_OVER:
            return None
        best = max(self.team_scores)
        won = tuple(i for i, s in enumerate(self.team_scores) if s == best)
        teams = self.teams()
        winners = tuple(sorted(s for i in won for s in teams[i]))
        scores = tuple(self.team_scores[self.team_of(s)] for s in range(self.seats))
        return Outcome(winners, scores, won, self.team_scores)

    def locations(self) -> tuple[Location, ...]:
        out = [Location(f"hand/{s}", tuple(CARDS[c] for c in h), (s,)) for s, h in enumerate(self.hands)]
        out += [Location(f"pick/{s}", (CARDS[c],), (s,)) for s, c in enumerate(self.picks) if c >= 0]
        out.append(Location("shown", tuple(CARDS[c] for c in self.shown), "all"))
        out.append(Location("pile", tuple(CARDS[c] for c in self.pile), ()))
        return tuple(out)

    # ------------------------------------------------------------------ actions

    def legal_actions(self, seat: int) -> tuple[Act, ...]:
        if not 0 <= seat < self.seats:
            return ()
        phase = self.phase
        if phase == Phase.PICK:
            return tuple(Act("pick", c) for c in self.hands[seat]) if self.picks[seat] < 0 else ()
        if phase == Phase.TURN:
            return (BURN, TAKE) if seat == self.turn else ()
        if phase == Phase.WINDOW:
            return (SNAP,) if seat != self.taker else ()
        if phase == Phase.ROUND_OVER:
            return (READY,) if not self.ready[seat] else ()
        return ()

    def apply(self, seat: int, action: Any) -> Transition:
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        if not isinstance(action, Act):
            raise BadActionError(f"not an action of {NAME}: {action!r}")
        if action == CLOSE and self.phase == Phase.WINDOW and seat == self.taker:
            return self._close()  # only ever the game's own timed action
        if action not in self.legal_actions(seat):
            if self.phase == Phase.MATCH_OVER:
                raise RoundOverError("the match is over")
            if self.phase == Phase.ROUND_OVER and action != READY:
                raise RoundOverError("the round is over: only ready")
            if seat not in self.actors():
                raise NotYourTurnError(f"seat {seat} may not act now")
            raise IllegalActionError(f"{action.to_wire()!r} is not legal for seat {seat} now")
        v = self.version + 1
        if action.kind == "pick":
            return self._pick(seat, action.card, v)
        if action.kind in ("take", "burn"):
            return self._turn(seat, action.kind, v)
        if action.kind == "snap":
            team = self.team_of(seat)
            scores = self._plus(team)
            events = [Event("snap", {"seat": seat, "team": team})]
            return self._after_window(replace(self, version=v, team_scores=scores), events)
        return self._ready(seat, v)

    def _plus(self, team: int) -> tuple[int, ...]:
        return tuple(s + (i == team) for i, s in enumerate(self.team_scores))

    def _pick(self, seat: int, card: int, v: int) -> Transition:
        picks = self.picks[:seat] + (card,) + self.picks[seat + 1 :]
        hand = tuple(c for c in self.hands[seat] if c != card)
        hands = self.hands[:seat] + (hand,) + self.hands[seat + 1 :]
        events = [
            Event("picked", {"seat": seat}, hidden_from=(seat,)),
            Event("you_picked", {"seat": seat, "card": CARDS[card]}, only=(seat,)),
        ]
        state = replace(self, version=v, picks=picks, hands=hands)
        if min(picks) < 0:
            return Transition(state, tuple(events))
        best = max(range(self.seats), key=lambda s: picks[s])
        team = self.team_of(best)
        events.append(Event("shown", {"picks": [CARDS[c] for c in picks], "team": team}))
        events.append(Event("turn", {"seat": self.leader}))
        state = replace(
            state,
            picks=(-1,) * self.seats,
            shown=self.shown + tuple(picks),
            team_scores=self._plus(team),
            phase=Phase.TURN,
            phase_v=v,
            turn=self.leader,
        )
        return Transition(state, tuple(events))

    def _turn(self, seat: int, kind: str, v: int) -> Transition:
        card = self.pile[-1]
        pile = self.pile[:-1]
        if kind == "burn":
            events = [Event("burn", {"seat": seat, "card": CARDS[card]})]
            return self._next(replace(self, version=v, pile=pile, shown=self.shown + (card,)), events)
        hand = tuple(sorted(self.hands[seat] + (card,)))
        hands = self.hands[:seat] + (hand,) + self.hands[seat + 1 :]
        events = [
            Event("took", {"seat": seat, "card": CARDS[card]}, only=(seat,)),
            Event("took", {"seat": seat}, hidden_from=(seat,)),
            Event("window", {"seat": seat}),
        ]
        state = replace(self, version=v, pile=pile, hands=hands, phase=Phase.WINDOW, taker=seat, window_v=v, phase_v=v)
        return Transition(state, tuple(events))

    def _close(self) -> Transition:
        return self._after_window(replace(self, version=self.version + 1), [Event("close", {"seat": self.taker})])

    def _after_window(self, state: State, events: list[Event]) -> Transition:
        return state._next(replace(state, phase=Phase.TURN, taker=-1), events)

    def _next(self, state: State, events: list[Event]) -> Transition:
        if not state.pile:
            return state._end_round(events)
        turn = (self.turn + 1) % self.seats
        events.append(Event("turn", {"seat": turn}))
        return Transition(replace(state, phase=Phase.TURN, turn=turn, phase_v=state.version), tuple(events))

    def _end_round(self, events: list[Event]) -> Transition:
        over = max(self.team_scores) >= self.options.target
        events.append(Event("round_over", {"round": self.round, "team_scores": list(self.team_scores)}))
        state = replace(
            self,
            phase=Phase.MATCH_OVER if over else Phase.ROUND_OVER,
            phase_v=self.version,
            taker=-1,
            ready=(False,) * self.seats,
        )
        if over:
            out = state.outcome()
            assert out is not None
            events.append(Event("match_over", {"teams": list(out.teams), "team_scores": list(out.team_scores)}))
        return Transition(state, tuple(events))

    def _ready(self, seat: int, v: int) -> Transition:
        ready = self.ready[:seat] + (True,) + self.ready[seat + 1 :]
        events = [Event("ready", {"seat": seat})]
        state = replace(self, version=v, ready=ready)
        if not all(ready):
            return Transition(state, tuple(events))
        seed, match_rng = self.match_rng.bits(64)
        state = replace(state, match_rng=match_rng, round=self.round + 1, leader=(self.leader + 1) % self.seats)
        return state._deal(seed, events)

    def _deal(self, seed: int, events: list[Event]) -> Transition:
        deck, _ = Rng(seed, "deal").shuffle(tuple(range(len(CARDS))))
        n = self.seats
        hands = tuple(tuple(sorted(deck[s * HAND : (s + 1) * HAND])) for s in range(n))
        pile = tuple(deck[n * HAND :])
        state = replace(
            self,
            seed=seed,
            hands=hands,
            pile=pile,
            shown=(),
            picks=(-1,) * n,
            phase=Phase.PICK,
            phase_v=self.version,
            turn=self.leader,
            taker=-1,
            ready=(False,) * n,
        )
        events.append(Event("round_start", {"round": self.round, "hand_counts": [HAND] * n, "pile": len(pile)}))
        events += [Event("hand", {"seat": s, "cards": [CARDS[c] for c in hands[s]]}, only=(s,)) for s in range(n)]
        return Transition(state, tuple(events))

    # ------------------------------------------------------------------ what a seat sees

    def view(self, seat: int | None) -> View:
        if seat is not None and not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        mine = seat is not None
        data: dict[str, Wire] = {
            "game": NAME,
            "seat": seat,
            "seats": self.seats,
            "version": self.version,
            "phase": self.phase.name.lower(),
            "round": self.round,
            "hand": [CARDS[c] for c in self.hands[seat]] if mine else None,
            "hand_counts": [len(h) for h in self.hands],
            "picked": [p >= 0 for p in self.picks],
            "my_pick": CARDS[self.picks[seat]] if mine and self.picks[seat] >= 0 else None,
            "pile_count": len(self.pile),
            "shown": [CARDS[c] for c in self.shown],
            "turn": self.turn,
            "taker": None if self.taker < 0 else self.taker,
            "teams": [list(t) for t in self.teams()],
            "team_scores": list(self.team_scores),
            "target": self.options.target,
            "ready": list(self.ready),
        }
        return View(seat, data, self.legal_actions(seat) if mine else ())

    def to_data(self) -> dict[str, Wire]:
        return {
            "schema": 1,
            "game": NAME,
            "options": self.options.to_wire(),
            "seats": self.seats,
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "seed": self.seed,
            "leader": self.leader,
            "hands": [list(h) for h in self.hands],
            "pile": list(self.pile),
            "shown": list(self.shown),
            "picks": list(self.picks),
            "turn": self.turn,
            "taker": self.taker,
            "window_v": self.window_v,
            "phase_v": self.phase_v,
            "team_scores": list(self.team_scores),
            "ready": list(self.ready),
        }


class Snap:
    name: Final = NAME
    info: Final = INFO

    def options_from_wire(self, data: Any) -> Options:
        preset, values = check_options(INFO, data)
        return Options(preset.name, **values)

    def seat_range(self, options: Options) -> range:
        return INFO.preset(options.preset).seat_range()

    def teams(self, options: Options, seats: int) -> tuple[tuple[int, ...], ...]:
        return teams_of(options, seats)

    def new_match(
        self, options: Options, seats: int, seed: int, deal_code: str | None = None, carry: Any = None
    ) -> Transition:
        if deal_code is not None:
            raise BadDealCodeError(f"{NAME} has no deal codes")
        if seats not in self.seat_range(options):
            raise BadOptionsError(f"{options.preset} is for {self.seat_range(options)} seats, not {seats!r}")
        match_rng = Rng(seed, "match")
        round_seed, match_rng = match_rng.bits(64)
        state = State(
            options=options,
            seats=seats,
            version=0,
            phase=Phase.PICK,
            match_rng=match_rng,
            round=1,
            seed=0,
            leader=0,
            hands=((),) * seats,
            pile=(),
            shown=(),
            picks=(-1,) * seats,
            turn=0,
            taker=-1,
            window_v=0,
            phase_v=0,
            team_scores=(0,) * len(teams_of(options, seats)),
            ready=(False,) * seats,
        )
        return state._deal(round_seed, [])

    def read_deal_code(self, code: str) -> DealInfo:
        raise BadDealCodeError(f"{NAME} has no deal codes")

    def deck(self, options: Options, seats: int) -> tuple[str, ...]:
        return CARDS

    def decode_action(self, data: Any) -> Act:
        if not isinstance(data, dict) or data.get("kind") not in _KINDS:
            raise BadActionError(f"not a {NAME} action: {data!r}")
        kind = data["kind"]
        if kind == "pick":
            if set(data) != {"kind", "card"} or data["card"] not in _ID:
                raise BadActionError(f"a pick names one card of {NAME}, not {data!r}")
            return Act("pick", _ID[data["card"]])
        if set(data) != {"kind"}:
            raise BadActionError(f"a {kind!r} action has no other field: {data!r}")
        return Act(kind)

    def state_from_data(self, data: Mapping[str, Any]) -> State:
        return State(
            options=Options(**data["options"]),
            seats=data["seats"],
            version=data["version"],
            phase=Phase(data["phase"]),
            match_rng=Rng.from_data(data["match_rng"]),
            round=data["round"],
            seed=data["seed"],
            leader=data["leader"],
            hands=tuple(tuple(h) for h in data["hands"]),
            pile=tuple(data["pile"]),
            shown=tuple(data["shown"]),
            picks=tuple(data["picks"]),
            turn=data["turn"],
            taker=data["taker"],
            window_v=data["window_v"],
            phase_v=data["phase_v"],
            team_scores=tuple(data["team_scores"]),
            ready=tuple(data["ready"]),
        )

    def stacked(self, preset: str = "pairs", *, hands: list[str], pile: str, **options: Any) -> State:
        """A round laid out by hand, in the pick phase (cards by name; each at most once)."""
        opts = self.options_from_wire({"preset": preset, **options})
        names = [c for h in hands for c in h.split()] + pile.split()
        if any(c not in _ID for c in names) or len(set(names)) != len(names):
            raise BadOptionsError(f"a stacked deal names each card of {NAME} at most once: {names}")
        if len(hands) not in self.seat_range(opts):
            raise BadOptionsError(f"{preset} is not for {len(hands)} seats")
        start = self.new_match(opts, len(hands), 0).state
        return replace(
            start,
            hands=tuple(tuple(sorted(_ID[c] for c in h.split())) for h in hands),
            pile=tuple(_ID[c] for c in reversed(pile.split())),
        )


GAME: Final = Snap()
