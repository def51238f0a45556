"""The scripted people of the Kartu Terakhir end-to-end test: what they play, from the view alone.

The rules are ``docs/rules/kartu-terakhir.md``; the wire is the game's
``PROTOCOL.md``. A person decides from its view (``legal``, ``hand``, ``turn``,
``window``, ``pending``...) and the goals the test still has, never from the
rules engine: the script is a client as any other.

Two people sit at a table of four, side by side (``ANN`` then ``BOB``, the
bots after them), and steer the round into the situations the test wants,
each time the moment comes (:data:`GOALS`; a goal is struck off when the
public events show it happened, :func:`achieved`):

- ``bot_catch``: a person at 2 cards whose partner is next plays a number card
  (or a Wild) without calling: the catch window opens on it; neither it nor the
  partner (on turn) acts until the window has closed: only a bot can catch it.
- ``resume``: the same opening, and the partner on turn drops its connection and
  resumes on the other process while the window is open, then catches
  (``human_catch``) from the resumed view.
- ``human_catch``: any window of a bot (random bots call after a reflex pause;
  a person catches at once); the resume above also catches.
- ``challenge_won`` / ``challenge_lost``: a person whose partner is next plays a
  Wild Draw Four when its hand then holds a card of the active colour (a bluff:
  the partner's challenge wins) or when it holds none (honest: the challenge
  loses); the partner, facing a single Wild Draw Four, challenges. A bot's Wild
  Draw Four against a person is challenged too while either goal is open.
- ``stack``: a person facing a pending penalty answers it with a Draw Two or a
  Wild Draw Four (stacking is on); to make the moment, a person plays a Draw
  Two on its partner.
- ``timeout``: ``BOB`` lets one turn run out (the turn timer is on): the server
  plays his default move.

While goals remain a person does not go out (it draws instead, keeping what it
draws); once they are all met it plays to win: sheds its highest cards first,
keeps Wilds for last and calls "last card" at 2 cards.

:func:`dry_run` plays the script against the plugin's bots in this process,
through the rules engine alone, with a crude schedule (the people act at once
where they act; a bot on turn before a bot out of turn): the in-process twin of
the e2e match, to tell a changed bot or rule from a server failure, and to
measure a match (``python tests/e2e/kt_script.py 50`` prints the figures over
50 match seeds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from script_kit import BotHistories, Message

SEATS = 4
ANN, BOB = 0, 1
PEOPLE = (ANN, BOB)
GOALS = frozenset({"bot_catch", "resume", "human_catch", "challenge_won", "challenge_lost", "stack", "timeout"})
#: the person who lets a turn run out
TIMEOUT_SEAT = BOB
COLOURS = "RYGB"
#: 3.8.2: what a card scores (the order a person sheds them in)
POINTS = {"S": 20, "R": 20, "D2": 20}


def partner(seat: int) -> int:
    return BOB if seat == ANN else ANN


def colour_of(card: str) -> str | None:
    return None if card.startswith("W") else card[0]


def symbol(card: str) -> str:
    return card if card.startswith("W") else card[1:]


def points(card: str) -> int:
    if card.startswith("W"):
        return 50
    s = symbol(card)
    return POINTS.get(s) or int(s)


def next_after(view: Message, seat: int, card: str) -> int:
    """The seat on turn after ``seat`` plays ``card`` (no penalty pending): 3.4."""
    n, d = view["seats"], view["direction"]
    s = symbol(card)
    if s == "S":
        return (seat + 2 * d) % n
    if s == "R":
        return seat if n == 2 else (seat - d) % n
    return (seat + d) % n  # a number, a Wild; a Draw Two's victim


def best_colour(hand: Sequence[str]) -> str:
    counts = Counter(c for c in map(colour_of, hand) if c is not None)
    return max(COLOURS, key=lambda c: (counts[c], -COLOURS.index(c)))


def bluffs(view: Message) -> bool:
    """3.5.3: a Wild Draw Four played now would be a bluff: the hand left holds a card of the active colour."""
    return any(colour_of(c) == view["colour"] for c in view["hand"])


def _plays(legal: Sequence[Message]) -> list[Message]:
    return [a for a in legal if a["kind"] == "play"]


def _one(legal: Sequence[Message], kind: str) -> Message | None:
    return next((a for a in legal if a["kind"] == kind), None)


def _play_of(legal: Sequence[Message], card: str, colour: str | None) -> Message | None:
    return next(
        (a for a in legal if a["kind"] == "play" and a["card"] == card and a.get("colour") in (colour, None)), None
    )


def decide(view: Message, goals: Iterable[str]) -> tuple[str, Message | None]:
    """The person's next step: ``("act", action)``, ``("wait", None)`` (nothing to do, or holding
    back on purpose until the table changes), ``("resume", None)`` (drop the connection and resume
    elsewhere, now: the partner's window is open), ``("timeout", None)`` (let this turn run out)."""
    goals = set(goals)
    legal: list[Message] = view.get("legal") or []
    if not legal:
        return "wait", None
    me = view["seat"]
    mate = partner(me)
    if view["phase"] == "round_over":
        return "act", _one(legal, "ready")
    window = view["window"]
    catch = _one(legal, "catch")
    if window is not None and window != me and catch is not None:
        if window != mate:
            return "act", catch  # a bot: caught at once (human_catch)
        if "resume" in goals and view["turn"] == me:
            return "resume", None
        if "bot_catch" in goals or "resume" in goals:
            return "wait", None  # the partner's window is for a bot to catch (or a resume still to come)
        return "act", catch
    if window == me:
        if goals & {"bot_catch", "resume"}:
            return "wait", None  # open on purpose: no call
        return "act", _one(legal, "call")
    if view["turn"] != me or view["phase"] != "play":
        return "wait", None
    if me == TIMEOUT_SEAT and "timeout" in goals and not view["pending"]:
        return "timeout", None
    return "act", turn_action(view, legal, goals)


def turn_action(view: Message, legal: list[Message], goals: set[str]) -> Message:
    """The person's move on its own turn."""
    me, hand = view["seat"], view["hand"]
    mate = partner(me)
    plays = _plays(legal)
    if view["pending"]:
        if view["can_challenge"] and goals & {"challenge_won", "challenge_lost"}:
            return {"kind": "challenge"}
        answers = sorted(plays, key=lambda a: a["card"] == "WD4")  # a Draw Two first: keep Wild Draw Fours
        if answers and ("stack" in goals or not goals & {"challenge_won", "challenge_lost"}):
            return answers[0]
        take = _one(legal, "take")
        return take if take is not None else answers[0]
    if view["drew"]:
        return _one(legal, "keep") if goals else (plays[0] if plays else _one(legal, "keep"))  # type: ignore[return-value]
    colour = best_colour(hand)
    if goals:
        if len(hand) == 2 and goals & {"bot_catch", "resume"}:
            # open a window on purpose: a number card or a Wild, so the partner is on turn next
            for a in plays:
                card = a["card"]
                opens = card != "WD4" and symbol(card) not in ("S", "R", "D2") and next_after(view, me, card) == mate
                if opens and (card != "W" or a.get("colour") == best_colour([c for c in hand if c != card] or hand)):
                    return a
        if "WD4" in hand and len(hand) > 2 and next_after(view, me, "WD4") == mate:
            rest = list(hand)
            rest.remove("WD4")
            bluff = any(colour_of(c) == view["colour"] for c in rest)
            if ("challenge_won" in goals and bluff) or ("challenge_lost" in goals and not bluff):
                wd4 = _play_of(legal, "WD4", best_colour(rest))
                if wd4 is not None:
                    return wd4
        if "stack" in goals and len(hand) > 2:
            d2 = next((a for a in plays if symbol(a["card"]) == "D2" and next_after(view, me, a["card"]) == mate), None)
            if d2 is not None:
                return d2
    call = _one(legal, "call")
    if call is not None and len(hand) == 2:
        return call  # 3.6.1 a: before playing to one card
    if goals and len(hand) == 1:
        draw = _one(legal, "draw")
        if draw is not None:
            return draw  # not out yet: the goals need the round to go on
    keep_wild4 = bool(goals & {"challenge_won", "challenge_lost"})
    candidates = [a for a in plays if not (keep_wild4 and a["card"] == "WD4" and len(hand) > 1)]
    if candidates:

        def rank(a: Message) -> tuple[int, int, int]:
            card = a["card"]
            wild = card.startswith("W")
            right_colour = a.get("colour") in (None, colour)
            return (0 if wild else 1, points(card), 1 if right_colour else 0)

        return max(candidates, key=rank)
    for kind in ("draw", "pass", "take"):
        action = _one(legal, kind)
        if action is not None:
            return action
    return legal[0]


# --------------------------------------------------------------------------- what happened


def achieved(events: Sequence[Message], people: Sequence[int] = PEOPLE) -> dict[str, int]:
    """Which goals the public events (a spectator's) show met: goal -> how many times.

    ``resume`` is not in the events (the test judges it); ``timeout`` is the table's ``timeout`` event
    of :data:`TIMEOUT_SEAT`."""
    out: Counter[str] = Counter()
    pending: dict[int, int] = {}
    for e in events:
        kind = e["kind"]
        if kind == "turn":
            pending = {e["seat"]: e.get("pending", 0)}
        elif kind == "catch":
            if e["seat"] in people:
                out["human_catch"] += 1
            elif e["target"] in people:
                out["bot_catch"] += 1
        elif kind == "challenge" and e["seat"] in people:
            out["challenge_won" if e["verdict"] == "bluff" else "challenge_lost"] += 1
        elif kind == "play" and e["seat"] in people and pending.get(e["seat"], 0) > 0:
            out["stack"] += 1
        elif kind == "timeout" and e["seat"] == TIMEOUT_SEAT and e.get("limit") == "turn":
            out["timeout"] += 1
    return dict(out)


# --------------------------------------------------------------------------- the dry run


def dry_run(
    seed: int,
    deal_code: str | None = None,
    options: Message | None = None,
    level: str | None = None,
    max_actions: int = 20000,
    jitter: int | None = None,
    matches: int = 1,
) -> dict[str, Any]:
    """Play matches in-process: the script at :data:`PEOPLE`, the plugin's bot ``level`` (any name a
    table may seat) elsewhere; after a match, another (from ``seed + 1``...) while goals remain, up to
    ``matches`` (the e2e test's rematches).

    The schedule: a person that acts does so first; then a bot on turn; then a bot out of turn (its
    reflex is slower than a bot's thinking pause in the e2e servers); a person waiting for its turn to
    run out gets its default move; a resume is instant. ``jitter``: a seed; with it, one step in ten lets
    the bots move before the people (a person's network lag). What it gives: matches and rounds played,
    actions, the action at which every goal was met (None: never), the goals left, scores."""
    import random

    from meja import games
    from meja.bots import decision_rng

    lag = random.Random(jitter) if jitter is not None else None
    plugin = games.get("kartu_terakhir")
    game = plugin.game
    level = level or plugin.levels[0]
    bots = {s: plugin.bot(level) for s in range(SEATS) if s not in PEOPLE}
    opts = game.options_from_wire(options or {"preset": "standard", "stacking": True})
    public: list[Message] = []
    histories = BotHistories(bots, game.info.round_start)
    goals = set(GOALS)
    done_at: int | None = None
    actions = 0
    rounds = 0
    met_at: dict[str, int] = {}

    def deliver(events: Sequence[Any], extra: Sequence[Message] = ()) -> None:
        public.extend(extra)
        public.extend(e.to_wire() for e in events if e.is_seen_by(None))
        histories.deliver(events)

    played = 0
    while True:
        transition = game.new_match(opts, SEATS, seed + played, deal_code if played == 0 else None)
        state = transition.state
        deliver(transition.events)
        while state.outcome() is None:
            assert actions <= max_actions, "the match does not end"
            met = set(achieved(public))
            for g in goals & met:
                met_at[g] = actions
            goals -= met
            if not goals and done_at is None:
                done_at = actions
            move: Any = None
            by: int | None = None
            extra: list[Message] = []
            holding_turn: int | None = None
            lagging = lag is not None and lag.random() < 0.1
            for seat in () if lagging else PEOPLE:
                step, action = decide(state.view(seat).to_wire(), goals)
                if step == "act":
                    assert action is not None
                    move, by = game.decode_action(action), seat
                    break
                if step == "resume":
                    goals.discard("resume")
                    met_at["resume"] = actions
                    move, by = game.decode_action({"kind": "catch"}), seat
                    break
                if step == "timeout":
                    holding_turn = seat
            if move is None:
                awaited = [s for s in state.awaiting() if s in bots]
                out_of_turn = [s for s in state.actors() if s in bots and s not in awaited]
                for seat in (*awaited, *out_of_turn):
                    move = bots[seat].choose(state.view(seat), histories.seen[seat], decision_rng(state, seat))
                    if move is not None:
                        by = seat
                        break
            if move is None and lagging:
                continue
            if move is None and holding_turn is None:
                # Nobody chose to act (a person waiting for a catch a bot declined): on the server
                # the table's turn timer then plays the turn seat's default move, as here.
                holding_turn = next((s for s in state.awaiting() if s in PEOPLE), None)
            if move is None and holding_turn is not None:
                move, by = state.default_action(holding_turn), holding_turn
                extra = [{"kind": "timeout", "seat": holding_turn, "limit": "turn"}]
            if move is None or by is None:
                raise AssertionError(f"nobody acts at version {state.version}: {state.view(None).to_wire()}")
            step_ = state.apply(by, move)
            state = step_.state
            actions += 1
            deliver(step_.events, extra)
        played += 1
        rounds += state.round
        goals -= set(achieved(public))
        if not goals or played >= matches:
            break
    if not goals and done_at is None:
        done_at = actions
    return {
        "matches": played,
        "rounds": rounds,
        "actions": actions,
        "goals_done_at": done_at,
        "goals_left": sorted(goals),
        "met_at": met_at,
        "scores": list(state.scores),
        "met": achieved(public),
    }


if __name__ == "__main__":
    import statistics
    import sys

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    level = sys.argv[2] if len(sys.argv) > 2 else None
    runs = [dry_run(seed, level=level, matches=4) for seed in range(count)]
    for key in ("matches", "rounds", "actions"):
        values = [r[key] for r in runs]
        print(key, "p50", statistics.median(values), "max", max(values), "mean", statistics.mean(values))
    print("goals all met", sum(not r["goals_left"] for r in runs), "of", len(runs))
    print("met in match 1", sum(r["matches"] == 1 and not r["goals_left"] for r in runs), "of", len(runs))
    print("left", Counter(g for r in runs for g in r["goals_left"]))
