"""Kartu Terakhir's bots: legal, deterministic, honest, and the levels' reflexes as documented.

Games are played with :meth:`meja.bench.bots.Bench.play_game` (the game's bench hooks), which
runs the server's timers (a bot acts out of turn after a 400-1500 ms reflex, as on
a server), so catches and calls after a play race as they do at a real table.
The search bot plays with a small work budget and no CPU deadline here, so that
every test is quick and strictly deterministic.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from meja.bench.bots import Bench, Tally, mean_ci
from meja.bots.base import decision_rng
from meja.cli import main
from meja.games.kartu_terakhir.bots import LEVELS, YARDSTICK_VERSION, YARDSTICKS, make_bot
from meja.games.kartu_terakhir.bots.playout import playout
from meja.games.kartu_terakhir.bots.search import SearchBot, candidates, rollout, seen_of
from meja.games.kartu_terakhir.bots.yardsticks import greedy_choice

from ..honesty import permuted
from ..yardsticks import pinned_tests
from .kt_helpers import CALL, CATCH, CHALLENGE, GAME, PLUGIN, READY, TAKE, KartuTerakhirState, Phase

SMALL = {"work": 2500.0, "deadline": None}
BENCH = Bench("kartu_terakhir")


def _codes(seats: int, count: int, start: int = 0) -> list[str | None]:
    return [code for code, _ in BENCH.deals(count, "dev", start, seats=seats)]


def _bot(name: str) -> Any:
    return make_bot(name, **SMALL) if name == "hard" else make_bot(name)


class Recorder:
    """Wraps a bot: checks each answer is legal (or None out of turn) and keeps the events seen."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_history = True
        self.blocking = False
        self.sees_state = True
        self.bad: list[str] = []
        self.decisions = 0

    def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
        move = self.bot.choose(view, history, rng)
        self.decisions += 1
        assert state is not None
        awaited = view.seat in state.awaiting()
        if move is None and awaited:
            self.bad.append(f"None while awaited: {view.legal}")
        if move is not None and move not in view.legal:
            self.bad.append(f"{move!r} not in {view.legal}")
        return move


def _games(a: Any, b: Any, seats: int, count: int, start: int = 0) -> Tally:
    tally = Tally()
    for code in _codes(seats, count, start):
        BENCH.play_deal(code, 0, a, b, tally, seats=seats)
    return tally


# --------------------------------------------------------------------------- the search's playout


def _states_along_a_game(seats: int, stacking: bool, rnd: random.Random) -> list[KartuTerakhirState]:
    """Every state of one round played by uniformly random turn actions (draws by choice, Wild Draw
    Four bluffs, challenges, stacked penalties, kept cards, reshuffles: whatever comes)."""
    state = GAME.new_match(GAME.options(stacking=stacking), seats, rnd.randrange(seats)).state
    out = []
    while state.in_round() and len(out) < 400:
        out.append(state)
        if state.phase == Phase.REACT:
            state = state.apply(state.turn, TAKE).state
            continue
        legal = [m for m in state.legal_actions(state.turn) if m not in (CALL, CATCH)]
        state = state.apply(state.turn, rnd.choice(legal)).state
    return out


@pytest.mark.parametrize("stacking", [False, True])
@pytest.mark.parametrize("seats", [2, 4, 7, 10])
def test_the_fast_playout_ends_every_round_as_the_engine_rollout(seats: int, stacking: bool) -> None:
    """The search's list-based playout is the engine's rollout, faster: from every state of random
    rounds, played out or cut off, the same winner, points, final hands and number of actions."""
    rnd = random.Random(f"playout/{seats}/{stacking}")
    compared = cut = reshuffled = modelled = 0
    for _ in range(2):
        for state in _states_along_a_game(seats, stacking, rnd):
            for cap in (600, rnd.randrange(1, 30)):
                seed = rnd.getrandbits(64)
                # greedy in full (steering away from a near-out seat's colour, challenging on a sign) half the time
                seen = None
                if rnd.random() < 0.5:
                    seen = ([rnd.randrange(-1, 4) for _ in range(seats)], [rnd.randrange(-1, 5) for _ in range(seats)])
                final, steps = rollout(state, seed, cap, seen)
                lr = final.last_round
                over = not final.in_round()
                expected = (lr.winner if over and lr else -1, lr.points if over and lr else 0, steps)
                winner, points, hands, steps2 = playout(state, seed, cap, seen)
                assert (winner, points, steps2) == expected
                assert hands == [list(h) for h in final.hands]
                compared += 1
                cut += not over
                reshuffled += final.reshuffles > state.reshuffles
                modelled += seen is not None and (over or cap == 600)
    assert compared > 300 and cut > 50 and reshuffled > 0 and modelled > 50


def test_the_playouts_model_reads_what_greedy_reads() -> None:
    """With the opponent model on, a playout's seat steers from :func:`seen_of`'s colours: at every
    turn of greedy games, the colour to avoid found there is the one greedy itself reads from the
    history, and so is its move (a play, a Wild's colour, a draw)."""
    from meja.games.kartu_terakhir.bots.common import avoid_colour, greedy_turn

    checked = steered = 0

    class Check(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            nonlocal checked, steered
            move = super().choose(view, history, rng, state)
            if view.seat == view.turn and view.phase == Phase.PLAY and CALL not in view.legal:
                if CATCH in view.legal or CHALLENGE in view.legal or view.hand is None:
                    return move
                made, _ = seen_of(history, view.seats)
                avoid = -1
                for k in range(1, view.seats):
                    t = (view.seat + k * view.direction) % view.seats
                    if view.hand_counts[t] <= 2:
                        avoid = made[t]
                        break
                counts = view.hand_counts
                assert avoid == avoid_colour(history, view.seats, view.seat, view.direction, counts)
                assert move == greedy_turn(view.hand, view.legal, view.seats, view.seat, view.direction, counts, avoid)
                checked += 1
                steered += avoid >= 0
            return move

    _games(Check(make_bot("greedy")), make_bot("greedy"), 4, 6, start=300)
    assert checked > 100 and steered > 10


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("seats", [2, 4, 10])
@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_every_bot_plays_only_legal_actions(name: str, seats: int) -> None:
    mine = Recorder(_bot(name))
    others = Recorder(make_bot("random"))
    tally = _games(mine, others, seats, 2 if seats < 10 else 1, start=100)
    assert tally.illegal == 0
    assert mine.bad == [] and others.bad == []
    assert mine.decisions > 10 * seats


def test_stacking_games_stay_legal() -> None:
    options = GAME.options(stacking=True)
    for name in ("hard", "greedy", "easy", "random"):
        bot = Recorder(_bot(name))
        for seed in range(3):
            tr = GAME.new_match(options, 3, seed)
            tally = Tally()
            timing = random.Random(seed)
            res = BENCH.play_game(tr.state, tr.events, [bot] * 3, ["A"] * 3, tally, options=options, timing=timing)
            assert tally.illegal == 0 and bot.bad == []
            assert res.rounds[0].winner >= 0


def test_the_plugin_names_the_bots() -> None:
    assert PLUGIN.levels == ("easy", "normal", "hard")
    assert set(PLUGIN.yardsticks) == {"random-any", "random", "greedy"}
    assert PLUGIN.bench_bots == "meja.games.kartu_terakhir.bench_bots"
    assert PLUGIN.bot("hard").blocking is True
    assert PLUGIN.bot("easy").blocking is False
    with pytest.raises(ValueError):
        PLUGIN.bot("nobody")


# --------------------------------------------------------------------------- determinism


def _trace(name: str) -> list[str]:
    out: list[str] = []

    class Tap(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            move = super().choose(view, history, rng, state)
            out.append(f"{view.seat}:{move}")
            return move

    _games(Tap(_bot(name)), Tap(make_bot("greedy")), 3, 2, start=300)
    return out


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_same_seed_same_game(name: str) -> None:
    first = _trace(name)
    assert len(first) > 30
    assert _trace(name) == first


# --------------------------------------------------------------------------- honesty


def _permuted(state: KartuTerakhirState, seat: int, rnd: random.Random) -> KartuTerakhirState:
    """The cards ``seat`` cannot see shuffled among those places (tests/games/honesty.py)."""
    data = permuted(state, seat, rnd)
    data["evidence"] = list(data["evidence"])
    return GAME.state_from_data(data)


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_hidden_cards_do_not_change_the_action(name: str, seats: int) -> None:
    """Permute what the seat cannot see: the view is the same, and so must the action be."""
    bot = _bot(name)
    rnd = random.Random(f"{name}/{seats}")
    checked = moved = 0

    class Probe(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            nonlocal checked, moved
            assert state is not None
            move = self.bot.choose(view, history, rng)
            if len(view.legal) > 1 and state.shown_to < 0 and checked < 40:
                other = _permuted(state, view.seat, rnd)
                moved += other.hands != state.hands or other.stock != state.stock
                assert other.view(view.seat) == view
                assert self.bot.choose(other.view(view.seat), list(history), rng) == move
                checked += 1
            return move

    _games(Probe(bot), make_bot("greedy"), seats, 3, start=500)
    assert checked >= 15
    assert moved >= checked - 1  # the hidden cards really moved


def test_worlds_hold_what_greedy_players_hold() -> None:
    """Against players of the seed's tips (greedy), every reading of the infoset holds, the soft ones
    included: each card an opponent really holds is allowed by its groups (or known), though the
    readings did exclude cards (the tips' reading of plays among them)."""
    from meja.games.kartu_terakhir.bots.common import NAMEIX
    from meja.games.kartu_terakhir.bots.infoset import _ALL, read_infoset

    checked = narrowed = 0

    class Reader(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            nonlocal checked, narrowed
            assert state is not None
            if view.seat == view.turn and view.phase == Phase.PLAY:
                info = read_infoset(view, history)
                assert info.consistent
                for s in range(view.seats):
                    if s == view.seat:
                        continue
                    allowed = 0
                    for _, mask in info.groups[s]:
                        allowed |= mask
                        narrowed += mask != _ALL
                    known = [NAMEIX[c] for c in info.known[s]]
                    for c in state.hands[s]:
                        assert NAMEIX[c] in known or allowed >> NAMEIX[c] & 1, (s, c, history[-3:])
                    checked += 1
            return self.bot.choose(view, history, rng)

    _games(Reader(make_bot("greedy")), make_bot("greedy"), 4, 25, start=700)
    assert checked > 200 and narrowed > checked


class CheatingBot(SearchBot):
    """The ``hard`` search whose worlds deal the others their *true* hands (only the stock order is
    sampled): a test yardstick that must do clearly better, or the honesty tests are blind."""

    sees_state = True

    def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:  # type: ignore[override]
        assert state is not None
        if view.seat is None or view.seat != view.turn or view.phase != Phase.PLAY or view.window is not None:
            return super().choose(view, history, rng)
        if CALL in view.legal or any(m.kind.wire == "challenge" for m in view.legal):
            return super().choose(view, history, rng)
        cands = candidates(view)
        if len(cands) <= 1 or len(view.hand or ()) == 1:
            return super().choose(view, history, rng)
        truth = state

        class Peek:
            @staticmethod
            def world(rnd: random.Random, seed: int) -> KartuTerakhirState:
                stock = list(truth.stock)
                rnd.shuffle(stock)
                return truth._evolve(stock=tuple(stock), seed=seed, window=-1, shown=(), shown_to=-1)

        seed, _ = rng.bits(64)
        from meja.games.kartu_terakhir.bots.infoset import read_infoset

        return self.search(
            view, cands, read_infoset(view, history), random.Random(seed), worlds_of=Peek, history=history
        )


def test_seeing_the_other_hands_scores_clearly_higher() -> None:
    cheater = CheatingBot(work=4000.0, deadline=None)
    honest = make_bot("hard", work=4000.0, deadline=None)
    tally = Tally()
    results = [BENCH.play_deal(code, 0, cheater, honest, tally, seats=2) for code in _codes(2, 70, start=9000)]
    share, low, _ = mean_ci([r.share for r in results])
    assert tally.illegal == 0
    assert share >= 0.58 and low > 0.5, (share, low)


# --------------------------------------------------------------------------- reflexes


def _reflexes(name: str, seats: int, count: int) -> dict[str, int]:
    """Over duplicate games of ``name`` against ``random``: how often it was caught (a call missed),
    and how often it caught or let pass a catch it could make (asked with ``catch`` legal)."""
    out = {"caught": 0, "catches": 0, "missed_catches": 0}

    class Watch(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            move = super().choose(view, history, rng, state)
            if CATCH in view.legal:
                out["catches" if move == CATCH else "missed_catches"] += 1
            return move

    me = Watch(_bot(name))
    tally = _games(me, make_bot("random"), seats, count, start=700)
    assert tally.illegal == 0 and me.bad == []
    out["caught"] = tally.counts["A_caught"]
    return out


def test_easy_sometimes_forgets_to_call_and_to_catch() -> None:
    easy = _reflexes("easy", 2, 25)
    assert easy["caught"] > 0  # it forgot to call, and was caught
    assert easy["missed_catches"] > 0 and easy["catches"] > 0  # it misses some catches, not all


def test_hard_and_normal_never_miss_a_call_or_a_catch() -> None:
    for name in ("hard", "normal"):
        r = _reflexes(name, 2, 15)
        assert r["caught"] == 0, name
        assert r["missed_catches"] == 0 and r["catches"] > 0, (name, r)


def test_hard_calls_before_playing_its_second_to_last_card() -> None:
    # seat 0: R5 R7 (on turn)   seat 1: B3 G4 Y9   top: R2
    state = GAME.stacked(hands=["R5 R7", "B3 G4 Y9"], discard="R2")
    bot = make_bot("hard", **SMALL)
    assert bot.choose(state.view(0), [], decision_rng(state, 0)) == CALL
    state = state.apply(0, CALL).state
    move = bot.choose(state.view(0), [], decision_rng(state, 0))
    assert move.kind.wire == "play"
    after = state.apply(0, move).state
    assert after.window == -1  # called in time: nobody may catch


def test_a_bot_catches_out_of_turn_and_declines_with_none() -> None:
    # seat 1 played to one card without calling; seat 2 is not on turn: it may catch.
    state = GAME.stacked(hands=["R5 R7 G1", "B3", "Y1 Y2"], discard="R2", window=1, turn=2)
    view = state.view(0)  # seat 0 is out of turn
    assert view.legal == (CATCH,)
    assert make_bot("hard", **SMALL).choose(view, [], decision_rng(state, 0)) == CATCH
    assert make_bot("greedy").choose(view, [], decision_rng(state, 0)) == CATCH
    # nothing to do out of turn: None ("not now"), never an illegal action
    quiet = GAME.stacked(hands=["R5 R7 G1", "B3 B4", "Y1 Y2"], discard="R2", turn=2)
    for name in LEVELS + YARDSTICKS:
        if name != "random-any":  # it acts whenever anything is legal; here nothing is
            assert _bot(name).choose(quiet.view(0), [], decision_rng(quiet, 0)) is None, name


def test_every_bot_says_ready_between_rounds_of_a_500_match() -> None:
    state = GAME.stacked(GAME.options(match="500"), hands=["R5", "B3 B4"], discard="R2")
    state = state.apply(0, state.legal_actions(0)[0]).state
    assert state.phase == Phase.ROUND_OVER
    for name in LEVELS + YARDSTICKS:
        for seat in (0, 1):
            assert _bot(name).choose(state.view(seat), [], decision_rng(state, seat)) == READY, name


# --------------------------------------------------------------------------- the yardsticks are frozen

#: Decisions of the yardsticks on fixed games (tests/games/yardsticks.py says what a failure means).
PINNED = {
    "random-any": "ef15bb4faa2ab988",
    "random": "68e46171c9b2f203",
    "greedy": "fd0cb085f97cf40b",
}


def _digest(name: str) -> str:
    h = hashlib.sha256()

    class Tap(Recorder):
        def choose(self, view: Any, history: Any, rng: Any, state: KartuTerakhirState | None = None) -> Any:
            move = super().choose(view, history, rng, state)
            h.update(f"{view.seat}:{move};".encode())
            return move

    bot = Tap(make_bot(name))
    for seats in (2, 4):
        for code in _codes(seats, 3, start=1234):
            tr = GAME.new_match(None, seats, 0, deal_code=code)
            BENCH.play_game(tr.state, tr.events, [bot] * seats, ["A"] * seats, Tally(), timing=random.Random(code))
    return h.hexdigest()[:16]


test_yardstick_version, test_yardstick_decisions_are_pinned = pinned_tests(YARDSTICK_VERSION, PINNED, _digest)


def test_greedy_by_the_book() -> None:
    # Top R2. Playable: R5, R9, RS (20 points), W: the most expensive non-Wild first: RS.
    state = GAME.stacked(hands=["R5 R9 RS W G3", "B1 B2 B3 B4"], discard="R2")
    assert str(greedy_choice(state.view(0), [], decision_rng(state, 0))) == "play RS"
    # Only a Wild and a Wild Draw Four play: the Wild Draw Four, naming the colour held most (G).
    state = GAME.stacked(hands=["W WD4 G3 G5 B1", "B1 B2 B3 B4"], discard="R2")
    assert str(greedy_choice(state.view(0), [], decision_rng(state, 0))) == "play WD4 G"
    # Next seat holds 2 cards: the Skip before the 9.
    state = GAME.stacked(hands=["R9 RS G3", "B1 B2"], discard="R2")
    assert str(greedy_choice(state.view(0), [], decision_rng(state, 0))) == "play RS"
    # Nothing plays: draw (never a voluntary draw otherwise).
    state = GAME.stacked(hands=["G3 B5", "B1 B2 B3"], discard="R2", stock="Y7")
    assert str(greedy_choice(state.view(0), [], decision_rng(state, 0))) == "draw"


# --------------------------------------------------------------------------- the benchmark command


def test_bench_help_and_a_tiny_json_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "bots", "--game", "kartu_terakhir", "--help"])
    assert exit_.value.code == 0
    assert "--seed-set" in capsys.readouterr().out
    code = main(
        ["bench", "bots", "--game", "kartu_terakhir", "--json", "--deals", "3", "--seats", "4",
         "--a", "hard:work=2000,deadline=none", "--b", "random", "--seed-set", "heldout"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["illegal_actions"] == 0 and out["deals"] == 3 and out["games"] == 12
    lo, hi = out["round_win_share"]["ci95"]
    assert lo <= out["round_win_share"]["mean"] <= hi
    assert out["decision_cpu_ms"]["a"]["n"] > 0




def test_hard_challenges_a_seat_it_has_seen_bluff() -> None:
    """hard takes a Wild Draw Four's player for one who keeps its Wilds (a bluff with other cards to
    play is unlikely) until it has seen that seat found bluffing: then every world counts in full
    (a new user bluffed three times in seven against hard bots and was never challenged)."""
    from meja.games.kartu_terakhir.bots.infoset import read_infoset
    from meja.games.kartu_terakhir.bots.search import bluffers

    from .kt_helpers import play

    # What counts as found bluffing: the verdict the seat saw, against its target.
    # seat 0: WD4 R1 G2   seat 1: B1 B2 R9 (to play)   discard: R3   stock: Y1..Y4
    state = GAME.stacked(hands=["WD4 R1 G2", "B1 B2 R9"], discard="R3", stock="Y1 Y2 Y3 Y4", turn=1)
    seen: list[dict[str, Any]] = []
    for seat, move in ((1, play("R9")), (0, play("WD4", "G")), (1, CHALLENGE)):
        t = state.apply(seat, move)
        seen.extend(e.to_wire() for e in t.events if e.is_seen_by(1))
        state = t.state
    assert bluffers(seen) == {0} and bluffers([e for e in seen if e["kind"] != "challenge"]) == set()

    # The odds: along real rounds (random play, so Wild Draw Fours with other cards in hand), the
    # first challengeable one seat 1 faces, with and without seat 0 known for a bluffer.
    bot = make_bot("hard", **SMALL)
    wary = make_bot("hard", model_eps=1.0, **SMALL)
    rnd = random.Random(11)
    found = raised = 0
    for game in range(40):
        t = GAME.new_match(GAME.options(), 2, game)
        state, history = t.state, [e.to_wire() for e in t.events if e.is_seen_by(1)]
        while state.in_round():
            if state.turn == 1 and CHALLENGE in state.legal_actions(1):
                view = state.view(1)
                info = read_infoset(view, history)
                marked = [*history, {"kind": "challenge", "seat": 1, "target": 0, "verdict": "bluff"}]
                plain = bot.bluff_odds(view, history, info, random.Random(1))
                known = bot.bluff_odds(view, marked, info, random.Random(1))
                assert known == wary.bluff_odds(view, history, info, random.Random(1)) and known >= plain
                found += 1
                raised += known > plain
                break
            seat = state.turn
            if state.phase == Phase.REACT:
                move = TAKE
            else:
                move = rnd.choice([m for m in state.legal_actions(seat) if m not in (CALL, CATCH, CHALLENGE)])
            t = state.apply(seat, move)
            history.extend(e.to_wire() for e in t.events if e.is_seen_by(1))
            state = t.state
    assert found >= 5 and raised >= found // 2, (found, raised)
