"""A bot's reason for its move (issue 23 point 4): :func:`meja.bots.base.choose_why`.

Every game's default (hint) level and its ``hard`` level play first rounds here, and at every
decision the reason is checked:

- the action is the one ``choose`` gives for the same inputs (asking for a reason changes nothing);
- the reason is of a form PROTOCOL.md 16.1 names (:func:`meja.bots.base.why_is_sound`), and its
  only action is one of the seat's legal ones;
- it names no card but the seat's own (every string of it that is a card of the game's deck is
  in the seat's hand): nothing the seat could not know;
- a tip is one the page words in all four of its languages (``why.tip.<name>`` in web/js/strings.js);
- every real decision (two legal actions or more) has one, and ``hard``'s searches give their
  own figures.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from meja import games
from meja.bots.base import RandomAnyBot, Why, choose_why, decision_rng, search_why, tip, why_is_sound
from meja.bots.search import Budget, Result, SearchBot, result_why
from table_truth import strings_in

STRINGS = Path(__file__).resolve().parents[2] / "server" / "meja" / "web" / "js" / "strings.js"
SEATS = {"crazy_eights": 2, "kartu_terakhir": 4, "eighty_three": 4}
#: the hard bots' tuning for a test: deterministic (no CPU deadline), smaller where it is slow
HARD = {
    "crazy_eights": {"deadline": None, "work": 8000},
    "kartu_terakhir": {"deadline": None, "work": 8000},
    "eighty_three": {"deadline": None, "playouts": 120, "bid_playouts": 40, "trump_playouts": 80},
}


def worded_tips() -> set[str]:
    """The tips the page words in every one of its four languages."""
    counts = Counter(re.findall(r'"why\.tip\.([a-z0-9_]+)"', STRINGS.read_text(encoding="utf-8")))
    return {name for name, n in counts.items() if n == 4}


def play_round(name: str, level: str, seed: int, limit: int = 160) -> list[tuple[Any, Any, Any, Why | None]]:
    """A first round with ``level`` at every seat (the server's timers firing where nobody acts); each
    decision's (view, history, action, reason)."""
    plugin = games.get(name)
    game = plugin.game
    seats = SEATS[name]
    start = game.new_match(game.options_from_wire({}), seats, seed)
    state = start.state
    bot = plugin.bot(level, **(HARD[name] if level == "hard" else {}))
    history: list[list[dict[str, Any]]] = [[e.to_wire() for e in start.events if e.is_seen_by(s)] for s in range(seats)]
    out: list[tuple[Any, Any, Any, Why | None]] = []
    while state.in_round() and len(out) < limit:
        moved = False
        timed = getattr(state, "timed_actions", lambda: ())()
        for seat in state.actors():
            view = state.view(seat)
            if not view.legal:
                continue
            seen = list(history[seat])
            action, why = choose_why(bot, view, seen, decision_rng(state, seat))
            if action is None:
                continue
            assert action == bot.choose(view, seen, decision_rng(state, seat)), (name, level, action)
            out.append((view, seen, action, why))
            transition = state.apply(seat, action)
            moved = True
            break
        if not moved and timed:  # nobody acts: the server's timer fires (a catch window closes)
            transition = state.apply(timed[0].seat, timed[0].action)
        elif not moved:
            break
        for event in transition.events:
            if event.kind == game.info.round_start:
                for h in history:
                    h.clear()
            for s in range(seats):
                if event.is_seen_by(s):
                    history[s].append(event.to_wire())
        state = transition.state
    return out


@pytest.mark.parametrize("level", ["default", "hard"])
@pytest.mark.parametrize("name", sorted(SEATS))
def test_every_reason_is_sound_and_the_seats_own(name: str, level: str) -> None:
    plugin = games.get(name)
    level = plugin.default_level if level == "default" else level
    deck = set(plugin.game.deck(plugin.game.options_from_wire({}), SEATS[name]))
    worded = worded_tips()
    decisions = given = 0
    kinds: Counter[str] = Counter()
    for seed in (1, 2):
        for view, _, action, why in play_round(name, level, seed):
            wire = view.to_wire()
            legal = wire["legal"]
            real = len(legal) > 1
            decisions += real
            if why is None:
                continue
            given += real
            kinds[why["kind"]] += 1
            assert why_is_sound(why, legal), (name, level, action, why)
            cards = set(strings_in(why)) & deck
            assert cards <= set(wire.get("hand") or ()), (name, level, why, wire.get("hand"))
            if why["kind"] == "tip":
                assert why["tip"] in worded, f"the page has no words for the tip {why['tip']!r}"
    assert decisions > 10, decisions
    assert given == decisions, (name, level, given, decisions, kinds)  # every real decision says why
    if level == "hard":
        assert kinds["search"] > 0, kinds


def test_a_search_reason_is_its_own_figures() -> None:
    """With wins counted, the share won of the choice and of the closest other candidate; without,
    the shares of deals where the choice did better and worse than it."""
    result: Result[str] = Result(
        "a", 0, 4, 10, 1.0, [0.5, 0.25, 0.0], [[1, 0, 1, 0], [0, 0, 1, 0], [0, 0]], [2, 1, 0], ["a", "b", "c"]
    )
    assert result_why(result) == search_why(4, won=50, alt="b", alt_won=25)
    assert result_why(result) == {"kind": "search", "deals": 4, "won": 50, "alt": "b", "alt_won": 25}
    plain: Result[str] = Result("a", 0, 4, 8, 1.0, [0.5, 0.25], [[1, 0, 1, 0], [0, 0, 1, 1]], [], ["a", "b"])
    assert result_why(plain) == {"kind": "search", "deals": 4, "ahead": 25, "behind": 25, "alt": "b"}
    assert result_why(Result("a", 0, 0, 0, 0.0, [], [], [], ["a"])) is None


def test_a_reason_naming_another_action_or_an_odd_form_is_refused() -> None:
    legal = [{"kind": "play", "card": "9H"}, {"kind": "draw"}]
    assert why_is_sound(tip("most_held"), legal)
    assert why_is_sound(search_why(40, won=60, alt={"kind": "draw"}, alt_won=40), legal)
    assert not why_is_sound(search_why(40, won=60, alt={"kind": "play", "card": "QS"}), legal)  # not the seat's
    assert not why_is_sound({"kind": "tip", "tip": "Your opponent holds QS"}, legal)
    assert not why_is_sound({"kind": "tip", "tip": "most_held", "card": "QS"}, legal)
    assert not why_is_sound({"kind": "search", "deals": 40, "won": 140}, legal)
    assert not why_is_sound({"kind": "search", "deals": 0}, legal)
    assert not why_is_sound({"kind": "feeling"}, legal)


class _Quiet:
    """A bot of no game that gives no reason: it still works."""

    name = "quiet"
    needs_history = False
    blocking = False

    def choose(self, view: Any, history: Any, rng: Any) -> Any:
        return "x"


def test_a_bot_without_a_reason_still_works() -> None:
    assert choose_why(_Quiet(), None, [], None) == ("x", None)  # type: ignore[arg-type]


class _Counting:
    """A search game whose candidate 1 always wins: the reason says so."""

    def sample(self, rnd: Any) -> int:
        return int(rnd.random() * 100)

    def world_cost(self, world: int) -> float:
        return 1.0

    def play(self, world: int, candidate: int) -> int:
        return candidate

    def evaluate(self, outcome: int) -> float:
        return float(outcome)

    def cost(self, outcome: int) -> float:
        return 1.0

    def won(self, outcome: int) -> bool:
        return outcome == 1


class _Searcher(SearchBot):
    BUDGET = Budget(work=200.0, min_worlds=4, batch=4)

    def choose(self, view: Any, history: Any, rng: Any) -> Any:
        import random

        return self.run(_Counting(), [0, 1], random.Random(1))


def test_a_searching_bot_gives_its_searchs_figures() -> None:
    action, why = _Searcher().choose_why(None, [], None)
    assert action == 1
    assert why is not None and why["kind"] == "search" and why["won"] == 100 and why["alt"] == 0
    assert why["alt_won"] == 0 and why["deals"] >= 4


class _SearcherByCandidate(_Searcher):
    """Candidates that are not the seat's actions: the reason is left to an explainer (``searched``)."""

    def action_of(self, candidate: Any) -> Any:
        return f"action {candidate}"


def test_a_search_is_kept_only_while_a_reason_is_being_made() -> None:
    # A reviewer's finding: every search of every ordinary choose stayed in the bot, per thread.
    bot = _Searcher()
    assert bot.choose(None, [], None) == 1
    assert bot.searched() is None and not bot._mine, "an ordinary choose kept its search"
    assert choose_why(bot, None, [], None)[1] is not None
    assert not bot._mine, "the search behind a reason was kept after it"
    # Where the explainer must read it (no reason of the search's own), it is there until then.
    seen: list[Any] = []
    other = _SearcherByCandidate()

    def explain(bot: Any, view: Any, history: Any, action: Any) -> Why:
        seen.append(bot.searched())
        return tip("x")

    import meja.bots.base as base

    original = base._explainer
    base._explainer = lambda bot: explain  # type: ignore[assignment]
    try:
        assert choose_why(other, None, [], None) == (1, tip("x"))
    finally:
        base._explainer = original
    assert seen and seen[0] is not None and seen[0].worlds > 0
    assert not other._mine and other.searched() is None


def test_the_explain_module_is_looked_up_once_per_package(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reviewer's finding: a bot whose package has no explain.py asked the import system at every hint.
    import importlib

    import meja.bots.base as base

    base._explain_in.cache_clear()
    asked: list[str] = []
    real = importlib.import_module

    def counted(name: str, package: str | None = None) -> Any:
        asked.append(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", counted)
    # meja.bots has no explain.py: looked up once, found missing, not asked again.
    for _ in range(3):
        assert base._explainer(RandomAnyBot()) is None
    assert asked == ["meja.bots.explain"], asked
    # A game's bots with an explain.py beside them: looked up once, the same function each time.
    found = {id(base._explainer(games.get(name).bot("normal"))) for name in SEATS for _ in range(3)}
    assert len(asked) <= 1 + len(SEATS), asked
    assert len(found) <= len(SEATS)
    base._explain_in.cache_clear()
