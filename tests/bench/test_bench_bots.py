"""``meja bench bots`` over every registered game (the test-only one too): one harness, the games' hooks.

Each run is a few deals between cheap bots: the figures are not asserted
beyond their consistency with what was played; what is checked is that every
game gets the benchmark by registering, that its hooks shape the command
(table sizes, the round's name, the partner mode) and its own columns, and
that a run is repeatable.
"""

from __future__ import annotations

import json

import pytest
from meja import games
from meja.bench.bots import Bench, Tally
from meja.bots.measure import mean_ci
from meja.cli import main


def _cheap(bench: Bench) -> str:
    """The cheapest bot of the game: a yardstick if it has one."""
    return (bench.plugin.yardsticks or bench.plugin.levels)[0]


@pytest.mark.parametrize("name", games.names())
def test_every_game_is_measured(name: str) -> None:
    bench = Bench(name)
    cheap = _cheap(bench)
    fig = bench.measure(3, cheap, cheap, seed_set="dev", start=50)
    sides = len(bench.game.teams(bench.options(), fig["seats"]))
    assert fig["illegal_actions"] == 0 and fig["deals"] == 3 and fig["games"] == 3 * sides
    assert fig[f"{bench.hooks.unit}s_played"] == 3 * sides  # one round a game by default
    share = fig["round_win_share"]
    assert share["ci95"][0] <= share["mean"] <= share["ci95"][1]
    if bench.hooks.pauses is None:  # the same bot on every side plays every seating alike: even
        assert fig[bench.hooks.margin]["mean"] == pytest.approx(0.0)
    assert fig["match_win_rate"] is None  # one round a game
    assert set(bench.hooks.report({}, fig)) <= set(fig)  # the game's own columns are in
    again = bench.measure(3, cheap, cheap, seed_set="dev", start=50)
    assert {k: v for k, v in again.items() if k not in ("wall_seconds", "decision_cpu_ms")} == {
        k: v for k, v in fig.items() if k not in ("wall_seconds", "decision_cpu_ms")
    }


def test_a_game_with_no_hooks_gets_the_defaults() -> None:
    plugin = next(p for p in games.plugins() if p.bench_bots is None)
    bench = Bench(plugin.name)
    assert bench.hooks.unit == "round" and bench.hooks.margin == "points_margin" and bench.hooks.pauses is None
    assert bench.seat_choices() == tuple(bench.game.seat_range(bench.options()))
    deals = bench.deals(4, "heldout")
    assert deals == bench.deals(4, "heldout") and len({seed for _, seed in deals}) == 4
    assert not {s for _, s in deals} & {s for _, s in bench.deals(4, "dev")}
    with pytest.raises(ValueError, match="seed set"):
        bench.deals(1, "test")


def test_teams_are_seated_as_teams_and_partners_beside_them() -> None:
    teamed = [Bench(n) for n in games.names() if Bench(n).teamed]
    assert teamed, "a game that plays in teams"
    bench = teamed[0]
    seats = bench.seat_choices()[0]
    teams = bench.game.teams(bench.options(), seats)
    seatings = bench.seatings(seats)
    assert len(seatings) == len(teams)
    for i, (labels, sides) in enumerate(seatings):
        assert labels == sides and [s for s in range(seats) if sides[s] == "A"] == list(teams[i])
    for labels, sides in bench.seatings(seats, partner=True):
        for team in teams:
            assert labels[team[0]] == sides[team[0]] and all(labels[s] == "P" for s in team[1:])
    solo = next(Bench(n) for n in games.names() if not Bench(n).teamed)
    n = solo.seat_choices()[0]
    assert [[s for s in range(n) if sides[s] == "A"] for _, sides in solo.seatings(n)] == [[s] for s in range(n)]


def _flags(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "bots", "--game", name, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_the_command_offers_what_the_game_has(capsys: pytest.CaptureFixture[str]) -> None:
    for name in games.names():
        bench = Bench(name)
        text = _flags(name, capsys)
        assert "--seed-set" in text and "--deals" in text
        assert ("--partner" in text) == bench.teamed, name
        assert (f"--{bench.hooks.unit}s" in text) == bench.hooks.matches, name
        assert ("--seats" in text) == (len(bench.all_seat_choices()) > 1), name
        assert ("--preset" in text) == (len(bench.game.info.presets) > 1), name


def test_the_command_prints_json_and_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    name = games.names()[0]
    bench = Bench(name)
    cheap = _cheap(bench)
    assert main(["bench", "bots", "--game", name, "--json", "--deals", "2", "--a", cheap, "--b", cheap]) == 0
    fig = json.loads(capsys.readouterr().out)
    assert fig["game"] == name and fig["illegal_actions"] == 0 and fig["command"].startswith("meja bench bots")
    assert main(["bench", "bots", "--game", name, "--deals", "2", "--a", cheap, "--b", cheap]) == 0
    text = capsys.readouterr().out
    assert "round-win share" in text and bench.hooks.margin.split("_per_")[0].replace("_", " ") in text
    assert "illegal actions  0" in text
    assert main(["bench", "bots", "--game", name, "--deals", "1", "--a", "no-such-bot"]) == 2


def test_a_game_is_measured_at_every_size_its_preset_seats() -> None:
    """The table sizes follow the preset: Crazy Eights' party rules seat 8, its house rules 3."""
    bench = Bench("crazy_eights")
    assert bench.seat_choices("party")[-1] == 8 and bench.seat_choices("house") == (2, 3)
    fig = bench.measure(1, "greedy", "random-card", preset="party", seats=8)
    assert fig["seats"] == 8 and fig["illegal_actions"] == 0
    with pytest.raises(ValueError, match="house"):
        bench.measure(1, "greedy", "random-card", preset="house", seats=8)


def test_compare_pairs_the_two_candidates_deal_by_deal() -> None:
    """``--compare A2``: A - A2 is the difference of the two bots' results on each deal, with the
    interval of those differences; the game on timers (Kartu Terakhir) pairs the pauses too."""
    for name, a, a2, b in (("crazy_eights", "greedy", "random-card", "random-card"),
                           ("kartu_terakhir", "greedy", "random", "random")):  # fmt: skip
        bench = Bench(name)
        seats = bench.seat_choices()[-1] if name == "crazy_eights" else 3
        fig = bench.measure(4, a, b, seed_set="dev", start=50, seats=seats, compare=a2)
        tally = Tally()
        mine = [bench.play_deal(c, ms, bench.make(a), bench.make(b), tally, seats=seats)
                for c, ms in bench.deals(4, "dev", 50, seats=seats)]  # fmt: skip
        theirs = [bench.play_deal(c, ms, bench.make(a2), bench.make(b), tally, seats=seats)
                  for c, ms in bench.deals(4, "dev", 50, seats=seats)]  # fmt: skip
        pair, margin = fig["paired"], bench.hooks.margin
        for key, attr in (("round_win_share", "share"), (margin, "margin")):
            diffs = [getattr(x, attr) - getattr(y, attr) for x, y in zip(mine, theirs, strict=True)]
            assert pair[key]["per_deal"] == diffs, (name, key)
            mean, lo, hi = mean_ci(diffs)
            assert pair[key]["mean"] == mean and pair[key]["ci95"] == [lo, hi]
            assert fig[key]["mean"] - fig["compare"][key]["mean"] == pytest.approx(mean)
        assert any(pair[margin]["per_deal"]), "the two candidates played differently somewhere"
        assert fig["compare"]["a"] == a2 and "--compare" in fig["command"] and fig["compare"]["illegal_actions"] == 0


def test_a_bot_compared_with_itself_differs_by_exactly_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """The pairing is exact: the same bot in both runs plays every deal alike (the timers' pauses, the
    deal codes and the bots' own randomness are the same), so A - A is 0 with a zero-width interval,
    where the unpaired interval of the same runs is wide."""
    argv = ["bench", "bots", "--game", "kartu_terakhir", "--seats", "3", "--deals", "4", "--start", "50"]
    assert main([*argv, "--a", "random", "--b", "greedy", "--compare", "random", "--json"]) == 0
    fig = json.loads(capsys.readouterr().out)
    pair = fig["paired"]
    for key in ("round_win_share", "points_margin"):
        assert pair[key]["per_deal"] == [0.0] * 4 and pair[key]["mean"] == 0.0 and pair[key]["ci95"] == [0.0, 0.0]
        assert fig["compare"][key] == fig[key]
        assert pair[key]["unpaired_ci95"][1] > 0.0  # A's own results vary from deal to deal
    assert pair["deals_a_ahead_level_behind"] == [0, 4, 0]
    assert main([*argv, "--a", "random", "--b", "greedy", "--compare", "random"]) == 0
    text = capsys.readouterr().out
    assert "random - random, paired per deal (4 deals):" in text
    assert "round-win share  +0.0 [+0.0, +0.0] pts" in text


def test_a_comparison_prints_with_a_games_own_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """Eighty-Three's own lines (bid success) name both bots: a comparison's second run printed
    nothing and ended in a KeyError after a long run (a helper's 420-deal experiment), because its
    figures did not say whom it played."""
    argv = ["bench", "bots", "--game", "eighty_three", "--deals", "1", "--start", "50", "--b", "yardstick"]
    assert main([*argv, "--a", "easy", "--compare", "normal"]) == 0
    text = capsys.readouterr().out
    assert "easy - normal, paired per deal (1 deals):" in text
    assert text.count("bid success") == 2
