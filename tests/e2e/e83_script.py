"""The scripted people of the Eighty-Three end-to-end test: what they bid, discard and play, from the view alone.

The rules are ``docs/rules/eighty-three.md``; the wire is the game's
``PROTOCOL.md``. A person decides from its view's ``legal`` list and the
public fields (``trick``, ``trump``, ``high_bid``...): never from the rules
engine, so the script is a client as any other. It plays "sensibly", in the
sense that matters for the test's cost: it bids only on a strong trump suit,
never overbids its partner, and in the tricks wins cheaply or throws its
cheapest card, giving points to a partner who holds the trick. Its team then
scores in most hands and the match reaches 200 in a handful of hands whatever
the bots do.

For the test's goals two more rules: ``eager`` (bid the least on a first
call, so as to still be in the auction when the test wants a resume there)
and ``all_in`` (bid 83 on a first call with 7 trumps or more: the seat surely
takes the contract and has trumps to give its partner).

In the discard and trim phases the person builds its decision one step at a
time (``give`` first, then the lowest non-trumps, then ``done``), and on odd
hands takes its first step back once (``undo``), so that every step kind goes
over the wire; every step the server lists keeps a valid end within reach
(PROTOCOL.md section 5), so the script cannot get stuck.

:func:`dry_run` plays the script against the plugin's bots in this process,
through the rules engine alone: the in-process twin of the e2e match, used to
tell a changed bot or rule from a server failure, and to measure how many
hands a match takes (``python tests/e2e/e83_script.py 50`` prints the figures
over 50 match seeds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from script_kit import BotHistories, Message

SEATS = 4
#: Card ranks high to low outside trumps (PROTOCOL.md 2)
PLAIN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
#: Trump roles high to low (4.3.3): "left" is the left pedro
TRUMP_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "left", "4", "3", "2", "JK")
#: 4.4: only trumps score, 83 in all
POINTS = {"A": 1, "K": 30, "J": 1, "10": 10, "9": 9, "5": 5, "left": 5, "3": 3, "2": 1, "JK": 18}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def role(card: str, trump: str | None) -> str | None:
    """The card's trump role (a rank, ``left`` or ``JK``), or None for a plain card."""
    if card == "JK":
        return "JK"
    if trump is None:
        return None
    if card == "5" + SAME_COLOUR[trump]:
        return "left"
    return card[:-1] if card[-1] == trump else None


def is_trump(card: str, trump: str | None) -> bool:
    return role(card, trump) is not None


def points(card: str, trump: str | None) -> int:
    r = role(card, trump)
    return 0 if r is None else POINTS.get(r, 0)


def suit_of(card: str, trump: str | None) -> str:
    """The card's effective suit: ``T`` for every trump (4.3.5), else its printed suit."""
    return "T" if is_trump(card, trump) else card[-1]


def strength(card: str, trump: str | None, led: str) -> int:
    """How well ``card`` does in a trick whose led effective suit is ``led`` (4.7.5); -1: it cannot win."""
    r = role(card, trump)
    if r is not None:
        return 100 + len(TRUMP_ORDER) - TRUMP_ORDER.index(r)
    if card[-1] == led:
        return 50 - PLAIN_ORDER.index(card[:-1])
    return -1


def trump_worth(hand: Sequence[str], suit: str) -> tuple[int, int]:
    """(trumps, trump points) the hand would hold with ``suit`` trumps."""
    return sum(is_trump(c, suit) for c in hand), sum(points(c, suit) for c in hand)


def best_suit(hand: Sequence[str]) -> str:
    return max("SHDC", key=lambda s: trump_worth(hand, s))


def _of(legal: Sequence[Message], kind: str) -> list[Message]:
    return [a for a in legal if a["kind"] == kind]


def bid_or_pass(view: Message, legal: Sequence[Message], eager: bool = False, all_in: bool = False) -> Message:
    """4.5: bid the least allowed when the best suit is strong enough, never over the partner; a forced dealer
    bids 30. ``eager``: bid the least on a first call if it is 45 or less (the test wants the seat to stay in).
    ``all_in``: bid 83 on a first call with 7 trumps or more in the best suit (4.5.4: that ends the auction, so
    the seat surely takes the kitty, names trumps and holds more than 6 of them: it has trumps to give)."""
    bids = _of(legal, "bid")
    passes = _of(legal, "pass")
    seat = view["seat"]
    trumps, pts = trump_worth(view["hand"], best_suit(view["hand"]))
    first_call = not any(c["seat"] == seat for c in view["auction"])
    if all_in and first_call and trumps >= 7 and bids:
        return bids[-1]
    if not passes:
        return bids[0]  # 4.5.5: the dealer must bid
    if view["bidder"] == (seat + 2) % SEATS:
        return passes[0]
    cap = 30 + 3 * (trumps - 5) + pts // 3 if trumps >= 5 else 0
    lowest = bids[0]["value"] if bids else 99
    if lowest <= cap or (eager and first_call and lowest <= 45):
        return bids[0]
    return passes[0]


def name_trump(view: Message, legal: Sequence[Message]) -> Message:
    suit = best_suit(view["hand"])
    return next(a for a in legal if a.get("suit") == suit)


def step(view: Message, legal: Sequence[Message]) -> Message:
    """One step of a discard or trim decision (PROTOCOL.md 5): done when down to 6; else give (the cheapest
    trump first), else discard the lowest non-trump, else the cheapest trump the server allows."""
    trump = view["trump"]
    if _of(legal, "done"):
        return _of(legal, "done")[0]
    gives = _of(legal, "give")
    if gives:
        return min(gives, key=lambda a: (points(a["card"], trump), -strength(a["card"], trump, "T")))
    discards = _of(legal, "discard")
    plain = [a for a in discards if not is_trump(a["card"], trump)]
    if plain:
        return min(plain, key=lambda a: strength(a["card"], trump, a["card"][-1]))
    if discards:
        return min(discards, key=lambda a: (points(a["card"], trump), strength(a["card"], trump, "T")))
    return _of(legal, "auto_arrange")[0]  # never needed: listed steps always lead to done


def play_card(view: Message, legal: Sequence[Message]) -> Message:
    """4.7: lead the top trump when holding the ace of trumps, else the lowest plain card; follow by giving
    points to a partner who holds the trick, winning as cheaply as possible, or throwing the cheapest card."""
    trump = view["trump"]
    seat = view["seat"]
    plays = _of(legal, "play")
    cards = [a["card"] for a in plays]
    trick = view["trick"]

    def pick(card: str) -> Message:
        return plays[cards.index(card)]

    def cheap(card: str, led: str) -> tuple[int, int]:
        return (points(card, trump), strength(card, trump, led))

    if not trick:
        trumps = [c for c in cards if is_trump(c, trump)]
        if trumps and any(role(c, trump) == "A" for c in trumps):
            return pick(max(trumps, key=lambda c: strength(c, trump, "T")))
        plain = [c for c in cards if not is_trump(c, trump)]
        if plain:
            return pick(min(plain, key=lambda c: strength(c, trump, c[-1])))
        return pick(max(trumps, key=lambda c: strength(c, trump, "T")))
    led = suit_of(trick[0]["card"], trump)
    best = max(trick, key=lambda p: strength(p["card"], trump, led))
    top = strength(best["card"], trump, led)
    if best["seat"] == (seat + 2) % SEATS:
        if len(trick) == SEATS - 1:  # the partner has it for sure: give it points
            return pick(max(cards, key=lambda c: (points(c, trump), -strength(c, trump, led))))
        return pick(min(cards, key=lambda c: cheap(c, led)))
    winners = [c for c in cards if strength(c, trump, led) > top]
    if winners:
        return pick(min(winners, key=lambda c: strength(c, trump, led)))
    return pick(min(cards, key=lambda c: cheap(c, led)))


def decide(view: Message, *, undo: bool = False, eager: bool = False, all_in: bool = False) -> Message | None:
    """The person's next action in this view, or None when it has nothing to do. ``undo``: take the last
    discard-phase step back now (the caller says when); ``eager``, ``all_in``: see :func:`bid_or_pass`."""
    legal: list[Message] = view.get("legal") or []
    if not legal:
        return None
    phase = view["phase"]
    if phase == "auction":
        return bid_or_pass(view, legal, eager, all_in)
    if phase == "trump":
        return name_trump(view, legal)
    if phase in ("discard", "trim"):
        if undo and _of(legal, "undo"):
            return _of(legal, "undo")[0]
        return step(view, legal)
    if phase == "play":
        return play_card(view, legal)
    if _of(legal, "ready"):
        return _of(legal, "ready")[0]
    return legal[0]


# --------------------------------------------------------------------------- the dry run


def dry_run(
    seed: int,
    people: Sequence[int] = (0, 2),
    level: str | None = None,
    deal_code: str | None = None,
    all_in: int | None = None,
    max_actions: int = 5000,
) -> dict[str, Any]:
    """Play a match in-process from match seed ``seed`` (and hand 1 from ``deal_code``): the script in
    ``people`` (seat ``all_in`` all in on hand 1), the plugin's bot ``level`` (default: its first) elsewhere,
    each seat answering in seat order. What it gives: hands, actions, scores, hand 1's result."""
    from meja import games
    from meja.bots import decision_rng

    plugin = games.get("eighty_three")
    game = plugin.game
    level = level or plugin.levels[0]
    bots = {s: plugin.bots(level) for s in range(SEATS) if s not in people}
    transition = game.new_match(game.options_from_wire({"preset": "standard"}), SEATS, seed, deal_code)
    state = transition.state
    histories = BotHistories(bots, game.info.round_start)
    deliver, seen = histories.deliver, histories.seen

    deliver(transition.events)
    actions = 0
    undone: set[tuple[int, int]] = set()
    first: Message | None = None
    while state.outcome() is None:
        actions += 1
        assert actions <= max_actions, "the match does not end"
        for seat in state.awaiting() or state.actors():
            if seat in bots:
                move = bots[seat].choose(state.view(seat), seen[seat], decision_rng(state, seat))
            else:
                view = state.view(seat).to_wire()
                key = (view["round"], seat)
                undo = (
                    view["round"] % 2 == 1
                    and key not in undone
                    and bool(view.get("selected") and (view["selected"]["discards"] or view["selected"]["gives"]))
                )
                if undo:
                    undone.add(key)
                wire = decide(view, undo=undo, all_in=seat == all_in and view["round"] == 1)
                move = None if wire is None else game.decode_action(wire)
            if move is not None:
                break
        else:
            raise AssertionError(f"nobody acts at version {state.version}")
        step_ = state.apply(seat, move)
        state = step_.state
        deliver(step_.events)
        if first is None and state.phase.wire == "hand_over":
            first = state.view(None).to_wire()["last_hand"]
    outcome = state.outcome()
    return {
        "hands": state.round,
        "actions": actions,
        "scores": list(outcome.team_scores),
        "winning_team": outcome.teams[0],
        "hand_1": first,
    }


if __name__ == "__main__":
    import statistics
    import sys

    runs = [dry_run(seed) for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 50)]
    hands = [r["hands"] for r in runs]
    print("hands p50", statistics.median(hands), "max", max(hands), "mean", statistics.mean(hands))
    print("actions p50", statistics.median(r["actions"] for r in runs), "max", max(r["actions"] for r in runs))
    print("people's team won", sum(r["winning_team"] == 0 for r in runs), "of", len(runs))
