"""A bot that sees the other hands beats the honest ``hard`` bot clearly: the honesty tests can fail.

If hiding the other hands made no difference, the invariance test
(``test_invariance.py``) could pass for a bot that peeks. Here the same search,
handed the true hands (:class:`tests.bots.cheater.CheatingBot`), plays the
honest one on duplicate deals and must win clearly. Small budgets keep it
quick; it costs about 12-20 s of CPU. 100 deals, not fewer: with 30, the
confidence interval of the share is about 0.23 wide and whether its low end
clears 0.5 depends on which deals the seed set happens to give (it failed when
deals moved to 128-bit seeds and the same 30 seeds named other deals).
"""

from __future__ import annotations

from meja.bench.bots import Bench, Tally
from meja.bench.bots import mean_ci as _mean_ci
from meja.games.crazy_eights.bots import make_bot

from .cheater import CheatingBot

BENCH = Bench("crazy_eights")


def test_seeing_the_other_hands_scores_clearly_higher() -> None:
    cheater = CheatingBot(playouts=120, deadline=None)
    honest = make_bot("hard", playouts=120, deadline=None)
    tally = Tally()
    results = [
        BENCH.play_deal(code, match_seed, cheater, honest, tally, preset="house", seats=2)
        for code, match_seed in BENCH.deals(100, "dev", 9000, preset="house", seats=2)
    ]
    share, low, _ = _mean_ci([r.share for r in results])
    margin, margin_low, _ = _mean_ci([r.margin for r in results])
    assert tally.illegal == 0
    assert share >= 0.58 and low > 0.5, (share, low)
    assert margin_low > 0.0, (margin, margin_low)
