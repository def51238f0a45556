"""Bots for Eighty-Three: three levels for players, a frozen yardstick to measure them, and random-any.

The interface is :mod:`meja.bots.base`: ``choose(view, history, rng)``, where
``view`` is ``state.view(seat)``, ``history`` the wire events the seat saw since
the hand began (``hand_start`` on) and ``rng`` :func:`meja.bots.base.decision_rng`.
Every bot reads only that: it knows its partner from its seat number (partners
sit opposite, 4.1.1), and nothing passes between partners but the table's own
events. In the discard and trim phases every bot takes ``auto_arrange`` (4.10.6),
except ``hard``, which searches its discard decision (:mod:`.discard`).

Levels (:data:`LEVELS`)
-----------------------
``easy`` (:class:`.levels.EasyBot`)
    A casual player: bids its hand-points estimate give or take 12, plays the
    yardstick's card but a random legal card 40% of the time.
``normal`` (:class:`.levels.NormalBot`)
    Bids its estimate plus 22 for the kitty (not over its partner unless 10
    stronger, never once both opponents passed), and plays a cooperative policy (:mod:`.sim`): throws point cards
    on its partner's sure winner, never trumps it, wins tricks worth fighting
    for, leads the highest trump still out.
``hard`` (:class:`.search.SearchBot`)
    Reads the calls as evidence (:mod:`.auction`: worlds weighted by how likely
    each seat's bids and passes are with the cards it is dealt there), searches
    how far to bid on those worlds with the rest of the auction played out,
    allowing for how boldly the others may bid (a mixture of styles), its
    partner playing the yardstick's lowest card where its calls read as timid,
    searches its discard decision (which cards to keep, which trumps to hand
    its partner) on worlds holding its partner's trump counts,
    names trumps and plays by determinized search over worlds consistent with
    what its seat saw, every candidate on the same worlds (each decision the
    shared search of every game, :mod:`meja.bots.search`, on this game's hooks);
    values a hand in the match where one can end it (a playout that ends the
    match is a win or a loss, ``must_win_on_own_bid`` read as the rules do:
    :class:`.auction.Match`), and searches a forced dealer's bid too;
    a CPU deadline caps a decision.

Yardsticks (:data:`YARDSTICKS`)
-------------------------------
``yardstick`` (:class:`.yardstick.YardstickBot`, frozen, ``YARDSTICK_VERSION``):
bids from a stated hand-points estimate, names the suit it holds best,
auto-arranges, plays the highest trump that wins the trick, else its lowest
card. ``random-any``: uniform over the legal actions (the floor).

How they were measured
----------------------
``meja bench bots --game eighty_three`` (:mod:`meja.games.eighty_three.bench_bots`):
duplicate deals, each played with pair A in seats 0 and 2 and again in seats
1 and 3 against pair B, one hand a game (``--hands 0``: whole matches to 200),
95% confidence intervals over deals, on the ``heldout`` seed set (tuning used
``dev``). Held out, 2026-12-01 and -06, this project's 2-core machine under load
(margin: A's team hand score minus B's, points per hand; bids: the share of
A's contracts it made, and of the hands it won the auction; CPU: A's
milliseconds per decision with more than one legal action)::

    A vs B              deals hands  margin [95% CI]          A made (bid in)  B made  CPU mean/p50/p95/p99/max
    hard vs yardstick     185   370  +53.37 [+48.22, +58.51]  92.0% (97.6%)    88.9%   40.1/50.5/60.9/61.1/61.7
    normal vs easy        500  1000  +57.48 [+54.73, +60.23]  94.6% (97.3%)    63.0%   0.05/0.04/0.12/0.20/7.25
    hard vs normal        134   268  +18.57 [+10.54, +26.59]  80.3% (54.9%)    60.3%   44.8/57.9/60.9/61.2/62.0
    hard vs normal (*)    241   482   +3.84 [-1.39, +9.07]    74.5% (47.9%)    71.3%   45.3/55.3/60.9/61.1/61.7
    normal vs yardstick   500  1000  +55.35 [+52.45, +58.25]  94.2% (94.4%)    73.2%   0.06/0.05/0.13/0.22/23.9
    easy vs yardstick     500  1000   -6.87 [-10.20, -3.55]   78.3% (37.3%)    77.0%   0.03/0.03/0.08/0.16/0.44

(*) ``--partner yardstick``: each partnering the yardstick. The ``hard`` lines are of
2026-12-06 (the auction search), cut short at the deals shown under heavy load; before
it (2026-12-01, 500 deals): hard vs normal +23.07 [+18.86, +27.29], hard vs yardstick
+53.82 [+50.86, +56.78].
The discard search and the uncertain boldness that came after (2026-12-06): their figures
and the commands to measure them longer are in docs/bots.md, section 4, with the later
held-out runs (from deal 150) and two auction options measured and left off (``bid_edge``,
``last_bids``).

Whole matches (``--hands 0``, match win rate of A): hard vs yardstick 98.8%
[96.3, 100] over 40 deals (80 matches, 298 hands); normal vs easy 100.0% over
200 deals (400 matches, 1373 hands). Illegal actions: 0 in every run.
Reproduce a line with, e.g.::

    meja bench bots --game eighty_three --a hard --b yardstick --deals 500 --seed-set heldout

The margins are large because the yardstick and ``easy`` bid only up to
their estimate (about 40 for a fair hand) and so let a bolder partnership take
almost every contract; between two bold bidders (``hard`` vs ``normal``) the
auction is contested and the margin is the play's and the bids' judgement.

Determinism and the deadline
----------------------------
``easy``, ``normal`` and the yardsticks are deterministic functions of their
inputs. ``hard`` counts its work (playouts) instead of timing it, so the same
inputs give the same action on any machine, unless its CPU deadline (60 ms of
the calling thread's CPU time) cuts a search short; ``make_bot("hard",
deadline=None)`` is strictly deterministic (the tests use it).
"""

from __future__ import annotations

from typing import Final

from meja.bots.base import RandomAnyBot, Roster

from .levels import EasyBot, NormalBot
from .search import SearchBot
from .yardstick import YARDSTICK_VERSION, YardstickBot

__all__ = ["LEVELS", "YARDSTICKS", "YARDSTICK_VERSION", "make_bot", "names"]

#: What a host chooses for empty seats, easiest first.
LEVELS: Final = ("easy", "normal", "hard")
#: Frozen bots to measure the levels against.
YARDSTICKS: Final = ("yardstick", "random-any")

#: (the names and the factories, checked to be the same: meja.bots.Roster)
_ROSTER: Final = Roster(
    LEVELS,
    YARDSTICKS,
    {
        "easy": EasyBot,
        "normal": NormalBot,
        "hard": SearchBot,
        "yardstick": YardstickBot,
        "random-any": RandomAnyBot,
    },
)
names = _ROSTER.names
make_bot = _ROSTER.make_bot
