"""Issue 26, part 2: every game teaches itself ("Learn to play"), and the engine answers.

The guide's steps are each game's own positions (``games/<game>/lessons.py``, built with its
``stacked(...)`` scenario builder); the server answers ``learn`` and ``learn_try`` (PROTOCOL.md
17) from them, without a table. Checked here, for every game and every step: the step's right
answer is one of the learner's legal actions and the server says it is right, with the step's
explanation; every other legal action is said wrong with the step's own words; a card of the hand
that no legal action plays is refused in the game's words; the view is the learner's seat view
(nothing of another hand); and the request is checked like any other.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import meja.games
import pytest
from meja.rules.lessons import Lesson, judge
from table_truth import strings_in

GAMES = ("crazy_eights", "kartu_terakhir", "eighty_three")


def assert_no_leak(game: str, state: Any, seat: int, message: dict[str, Any]) -> None:
    """Every card the message names lies where the learner's seat may see it (the game's ``locations``)."""
    deck = set(meja.games.get_game(game).deck(state.options, state.seats))
    seen = {c for loc in state.locations() if loc.seen_by == "all" or seat in loc.seen_by for c in loc.cards}
    named = set(strings_in(message)) & deck
    assert named <= seen, f"{game}: {sorted(named - seen)} sent to seat {seat}, who may not see them"


def guide(game: str) -> Any:
    plugin = meja.games.get(game)
    assert plugin.lessons is not None, f"{game} has no guide"
    return plugin.lessons()


@pytest.mark.parametrize("game", GAMES)
def test_each_step_is_a_stacked_position_with_a_right_legal_answer(game: str) -> None:
    """Built by the scenario builder (a real state of the game's class), each step has a right answer
    among the learner's legal actions, a wrong legal one or a refused card to try, and no step repeats."""
    g = guide(game)
    state_type = type(meja.games.get_game(game).stacked(**_SMALL[game]))  # type: ignore[attr-defined]
    assert 4 <= len(g.steps) <= 8
    assert len({lesson.key for lesson in g.steps}) == len(g.steps)
    for lesson in g.steps:
        assert isinstance(lesson, Lesson) and type(lesson.state) is state_type
        legal = lesson.state.legal_actions(lesson.seat)
        assert any(lesson.right(lesson.state, a) for a in legal), lesson.key
        wrong = [a for a in legal if not lesson.right(lesson.state, a)]
        hand = lesson.state.view(lesson.seat).to_wire()["hand"]
        unplayable = [c for c in hand if not any(a.to_wire().get("card") == c for a in legal)]
        assert wrong or unplayable, f"{game} step {lesson.key}: nothing wrong to try"


@pytest.mark.parametrize("game", GAMES)
def test_every_step_is_a_state_the_scenario_builder_returned(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide is built afresh with the game's ``stacked`` watched: each step's state is one it returned
    (not a state put together some other way)."""
    rules = meja.games.get_game(game)
    built: list[Any] = []
    real = rules.stacked  # (a method, or a static function of the game's scenario module)

    def spy(*args: Any, **kwargs: Any) -> Any:
        state = real(*args, **kwargs)
        built.append(state)
        return state

    monkeypatch.setattr(type(rules), "stacked", staticmethod(spy))
    fresh = meja.games.get(game).lessons.__wrapped__()  # type: ignore[union-attr]
    assert all(any(lesson.state is b for b in built) for lesson in fresh.steps)


#: a small stacked position of each game, to learn its state class
_SMALL: dict[str, dict[str, Any]] = {
    "crazy_eights": {"hands": ["7S", "3H"], "discard": "7H"},
    "kartu_terakhir": {"hands": ["R1", "G2"], "discard": "R7"},
    "eighty_three": {
        "hands": [
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
            "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
            "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
            "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
        ],
        "kitty": "KS KH KD KC JK",
    },
}


@pytest.mark.parametrize("game", GAMES)
async def test_the_server_answers_every_step_from_the_engine(game: str, serve: Any, connect: Any) -> None:
    server = await serve()
    wire = await connect(server)
    g = guide(game)
    for step, lesson in enumerate(g.steps):
        shown = await wire.ok({"type": "learn", "game": game, "step": step})
        assert shown["type"] == "learn" and shown["steps"] == len(g.steps) and shown["seat"] == lesson.seat
        assert shown["ask"] == f"learn.{lesson.key}.ask"
        # Exactly the learner's seat view, as a table frame carries it: no other hand.
        assert shown["view"] == lesson.state.view(lesson.seat).to_wire()
        assert_no_leak(game, lesson.state, lesson.seat, shown)
        assert shown["table"]["game"] == game and len(shown["table"]["seats"]) == lesson.state.seats
        legal = shown["view"]["legal"]
        verdicts = []
        for action in legal:
            said = await wire.ok({"type": "learn_try", "game": game, "step": step, "action": action})
            assert said["type"] == "learn_try" and said["view"] is not None
            assert said["view"]["version"] == shown["view"]["version"] + 1  # the engine applied it
            decoded = meja.games.get_game(game).decode_action(action)
            assert said["why"] == judge(g, lesson, action=decoded).why
            assert said["why"].startswith(f"learn.{lesson.key}.")
            assert (said["why"] == f"learn.{lesson.key}.right") == said["right"]
            after = lesson.state.apply(lesson.seat, decoded).state
            assert_no_leak(game, after, lesson.seat, said)
            verdicts.append(said["right"])
        assert any(verdicts), f"{game} step {step}: no legal action is right"
        for card in shown["view"]["hand"]:
            if any(a.get("card") == card for a in legal):
                continue
            said = await wire.ok({"type": "learn_try", "game": game, "step": step, "card": card})
            assert said["right"] is False and said["view"] is None and said["events"] == []
            assert said["why"].startswith(("learn.why.", "reason.")), said


async def test_a_wrong_answer_gets_the_engines_reason(serve: Any, connect: Any) -> None:
    """Crazy Eights, 7♥ on top: K♣ is refused because it matches nothing; a draw is allowed but not
    the question; 8♣ names a suit (only an 8 may): right."""
    server = await serve()
    wire = await connect(server)
    g = "crazy_eights"
    said = await wire.ok({"type": "learn_try", "game": g, "step": 0, "card": "KC"})
    assert (said["right"], said["why"], said["view"]) == (False, "learn.why.no_match", None)
    said = await wire.ok({"type": "learn_try", "game": g, "step": 0, "action": {"kind": "draw"}})
    assert (said["right"], said["why"]) == (False, "learn.match.other")
    said = await wire.ok({"type": "learn_try", "game": g, "step": 0, "action": {"kind": "play", "card": "3H"}})
    assert (said["right"], said["why"]) == (True, "learn.match.right")
    assert said["view"]["top"] == "3H"
    assert [e["kind"] for e in said["events"]][:1] == ["play"] and said["events"][0]["card"] == "3H"
    eight = {"kind": "play", "card": "8C", "suit": "D"}
    said = await wire.ok({"type": "learn_try", "game": g, "step": 1, "action": eight})
    assert (said["right"], said["why"]) == (True, "learn.eight.right")
    # An action the rules refuse at this step (a pass with a playable card) is said in the game's words.
    said = await wire.ok({"type": "learn_try", "game": g, "step": 0, "action": {"kind": "pass"}})
    assert (said["right"], said["why"], said["view"]) == (False, "reason.has_playable", None)
    # Eighty-Three: with a trump led, a club is refused because a trump must follow.
    said = await wire.ok({"type": "learn_try", "game": "eighty_three", "step": 4, "card": "7C"})
    assert (said["right"], said["why"]) == (False, "learn.why.follow_trump")
    joker = {"kind": "play", "card": "JK"}
    said = await wire.ok({"type": "learn_try", "game": "eighty_three", "step": 3, "action": joker})
    assert said["right"] is True  # the joker, lowest trump, still beats the spades led


async def test_learn_requests_are_checked(serve: Any, connect: Any) -> None:
    server = await serve()
    wire = await connect(server)
    await wire.error({"type": "learn", "game": "nope", "step": 0}, "table/bad_options")
    await wire.error({"type": "learn", "game": "crazy_eights", "step": 63}, "table/bad_options")
    await wire.error({"type": "learn", "game": "crazy_eights", "step": -1}, "protocol/bad_message")
    await wire.error({"type": "learn_try", "game": "crazy_eights", "step": 0}, "protocol/bad_message")
    both = {"type": "learn_try", "game": "crazy_eights", "step": 0, "card": "KC", "action": {"kind": "draw"}}
    await wire.error(both, "protocol/bad_message")
    # A card the learner does not hold, and an action that is no action of the game.
    await wire.error({"type": "learn_try", "game": "crazy_eights", "step": 0, "card": "AS"}, "action/bad_action")
    fly = {"type": "learn_try", "game": "crazy_eights", "step": 0, "action": {"kind": "fly"}}
    await wire.error(fly, "action/bad_action")


def _keys_by_language(path: Path) -> dict[str, set[str]]:
    """The keys of each language's table in a strings.js (``  en: {`` ... ``  },``)."""
    out: dict[str, set[str]] = {}
    lang = None
    for line in path.read_text(encoding="utf-8").splitlines():
        start = re.match(r"^  (en|id|vi|nb): \{", line)
        if start:
            lang = start.group(1)
            out[lang] = set()
        elif lang and (key := re.match(r'^    "([^"]+)":', line)):
            out[lang].add(key.group(1))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_key_a_step_can_send_has_words_in_four_languages(game: str) -> None:
    """The question of every step, its explanations, and every refusal the engine can give for a card
    of its hand, are in the game's strings (or the shell's) in en, id, vi and nb."""
    plugin = meja.games.get(game)
    assert plugin.page is not None
    words = _keys_by_language(plugin.page / "strings.js")
    shell = _keys_by_language(Path(meja.games.__file__).parent.parent / "web" / "js" / "strings.js")
    g = guide(game)
    needed = set()
    for lesson in g.steps:
        needed |= {f"learn.{lesson.key}.ask", f"learn.{lesson.key}.right"}
        legal = lesson.state.legal_actions(lesson.seat)
        for a in legal:
            if not lesson.right(lesson.state, a):
                needed.add(judge(g, lesson, action=a).why)
        for card in lesson.state.view(lesson.seat).to_wire()["hand"]:
            if not any(a.to_wire().get("card") == card for a in legal):
                needed.add(judge(g, lesson, card=card).why)
    assert set(words) == {"en", "id", "vi", "nb"}
    for lang, keys in words.items():
        missing = {k for k in needed if k not in keys and k not in shell[lang]}
        assert not missing, f"{game} ({lang}) has no words for {sorted(missing)}"


def _words_by_language(path: Path) -> dict[str, dict[str, str]]:
    """The one-line texts of each language's table in a strings.js: {lang: {key: text}}."""
    out: dict[str, dict[str, str]] = {}
    lang = None
    for line in path.read_text(encoding="utf-8").splitlines():
        start = re.match(r"^  (en|id|vi|nb): \{", line)
        if start:
            lang = start.group(1)
            out[lang] = {}
        elif lang and (pair := re.match(r'^    "([^"]+)": "((?:[^"\\]|\\.)*)",$', line)):
            out[lang][pair.group(1)] = pair.group(2)
    return out


def test_eighty_three_guide_says_trump_and_pass_as_its_table_does() -> None:
    """The guide's words for a trump and for passing are the table's own in each language (its
    cards' "trump" and its Pass button): issue 26's trial found the Indonesian guide saying "truf"
    beside "trump" and asking "lewat?" above a button that says "Pass"."""
    plugin = meja.games.get("eighty_three")
    assert plugin.page is not None
    for lang, words in _words_by_language(plugin.page / "strings.js").items():
        trump = words["card.trump"].split()[-1].lower()
        assert words["action.pass"].lower() in words["learn.bid.ask"].lower(), lang
        for key, text in words.items():  # the guide and the table's other words alike ("bid.worth")
            said = re.findall(r"\w+", re.sub(r"\{\w+\}", "", text).lower())  # not its {placeholders}
            other = [w for w in said if w.startswith(trump[:3]) and not w.startswith(trump)]
            assert not other, f"{lang} {key} says {other} where the table says {trump!r}"


def test_eighty_three_says_what_happened_when_no_trump_was_passed() -> None:
    """Issue 26, point 2: "Nobody passed a trump" was jargon to a newcomer; the table says what
    happened, in each language: no trump went to a partner during the exchange."""
    plugin = meja.games.get("eighty_three")
    assert plugin.page is not None
    partner = {"en": "partner", "id": "pasangan", "vi": "đồng đội", "nb": "makker"}
    for lang, words in _words_by_language(plugin.page / "strings.js").items():
        assert partner[lang] in words["exchange.none"].lower(), lang


def test_eighty_three_guide_keeps_its_bid_and_says_what_the_real_table_does() -> None:
    """Issue 26, point 4: the first step took a bid of 30 and the next said "Bid 40 by You"; and
    the guide never said that at a real table one sheds down to six cards (it asks for one) nor
    that the bidder leads the first trick. The later steps carry the bid the first step's right
    answer makes (the engine's first right bid, as the page's bid field starts), and the words
    after the discard say both things in each language (the table's own words for six and lead)."""
    g = guide("eighty_three")
    first = g.steps[0]
    bid = next(a for a in first.state.legal_actions(0) if first.right(first.state, a)).to_wire()["value"]
    assert [lesson.state.bid for lesson in g.steps[1:]] == [bid] * (len(g.steps) - 1)
    plugin = meja.games.get("eighty_three")
    assert plugin.page is not None
    said = {
        "en": ("six", "leads"),
        "id": ("enam", "membuka"),
        "vi": ("sáu", "đánh trước"),
        "nb": ("seks", "spiller ut"),
    }
    for lang, words in _words_by_language(plugin.page / "strings.js").items():
        six, lead = said[lang]
        text = words["learn.discard.right"].lower()
        assert six in text and lead in text, (lang, text)
        assert lead in words["rules.play"].lower(), lang  # the same word as the table's rules


def test_kartu_terakhirs_last_card_step_says_what_a_play_and_a_draw_do() -> None:
    """A new user's trial (2026-12-07): the last step told a learner who played the red 4 first that
    it was wrong while its right answer allowed a call right after the play, and told one who drew
    of "one card left" (a draw leaves three). A play now hears that a call right after it is allowed
    but risky; a draw, that it leaves three cards."""
    g = guide("kartu_terakhir")
    lesson = next(step for step in g.steps if step.key == "last_card")
    kinds = {a.kind.wire: judge(g, lesson, action=a).why for a in lesson.state.legal_actions(lesson.seat)}
    assert kinds["call"] == "learn.last_card.right"
    assert kinds["draw"] == "learn.last_card.draw"
    assert kinds["play"] == "learn.last_card.other"
    words = _words_by_language(meja.games.get("kartu_terakhir").page / "strings.js")
    assert "right after" in words["en"]["learn.last_card.other"]
    assert "three cards" in words["en"]["learn.last_card.draw"]
