"""Eighty-Three: four players in two partnerships bid, name trumps, shed to six cards and play six tricks.

The rules are ``docs/rules/eighty-three.md`` (section 4) with the settled
decisions 1, 2 and 8 of ``docs/rules/README.md``; comments cite them
(``# 4.6.5``). It is a game of the Pedro / Cinch family.

Rules in brief
--------------
Seats 0 and 2 play against seats 1 and 3 (4.1.1); team 0 is seats (0, 2),
team 1 seats (1, 3). The deck is the 52 cards and one joker (4.1.4, decision
2). Each hand the dealer deals 12 cards to every seat and 5 to the face-down
kitty (4.2.2, 4.10.1); the first dealer is drawn from the match seed and the
deal then passes left (4.2.1), into a rematch too (``carry``). Starting at the dealer's left, each seat bids
(30-83, above the highest bid) or passes for good (4.5); three passes end the
auction, a bid of 83 ends it at once, and when the first three seats all pass
the dealer must bid (4.5.5). The bidder takes the kitty (compulsory, 4.10.3)
and names trumps (4.6.1): the named suit, the five of the other suit of the
same colour (the left pedro) and the joker are the 15 trumps, ranked (4.3.3)

    A K Q J 10 9 8 7 6 5(right pedro) 5(left pedro) 4 3 2 JK

the joker lowest, yet above every plain card. The left pedro is a trump for
every purpose, never a card of its printed suit (4.3.5). Then every seat comes
down to six cards at once (4.6, 4.10.4-4.10.6): trumps are kept, a seat with
more than six gives its excess to its partner face down, a team with more than
12 sheds the excess but never a trump that scores, and trumps shed are shown
face up. Six tricks follow (4.7): the bidder leads the first; on a trump lead a
seat must play a trump if it can; on a plain lead it follows suit or trumps
(never a third suit while it holds the led suit); the highest trump, else the
highest card of the led suit, wins and its winner leads next.

Scoring (4.8, 4.4)
------------------
Only trumps score, by :data:`POINT_TABLE` (README decision 1: one table of
data, 83 in all): A 1, K 30, J 1, 10 10, 9 9, right pedro 5, left pedro 5, 3 3,
2 1, joker 18. The defenders always score what they captured; the bidders score
everything they captured if it reaches their bid, else lose the bid (totals may
go negative). Every point card is played, so the two teams' captured points add
up to 83 in every hand (4.6.7). The first team at 200 or more after a hand wins;
if both are, the bidders win (4.8.4). With ``must_win_on_own_bid`` (4.10.7) only
the bidders can win, on a made bid that leaves them at 200 or more.

Options
-------
One preset, ``standard``, for exactly 4 seats, with one option a host may set:
``must_win_on_own_bid`` (bool, default false; 4.8.4, 4.10.7).

Cards on the wire
-----------------
The 52 cards are named as everywhere in Meja (``8H``, ``10C``, ``QS``: rank then
suit S H D C); the joker is ``JK``. Card order (hands, lists, legal actions):
spades, hearts, diamonds, clubs, each ``A 2 3 ... 10 J Q K``, then ``JK``: the
card ids 0-51 of :mod:`meja.rules.cards` and 52 for the joker. The order does
not depend on trumps, so it is the same in every view and every action list.

Actions (sorted by kind in this order, then by card, bid or suit)
-----------------------------------------------------------------
``bid VALUE`` (30-83) and ``pass`` in the auction; ``trump SUIT`` for the bidder;
in the discard phase ``auto_arrange`` (4.10.6: the whole decision at once),
``done`` (hand the decision in), ``discard CARD``, ``give CARD`` (to the
partner) and ``undo`` (take back the last step); in the trim phase the same
without ``give``; ``play CARD`` in the tricks; ``ready`` between hands. The
first legal action always moves the game on (``undo`` sorts last).

A discard decision is a set of cards, so a seat builds it step by step: each
``discard`` or ``give`` is refused at once if the decision could then no longer
end valid (4.10.4), so every listed step keeps a valid end within reach and a
seat can never get stuck; ``done`` is listed when the seat is down to 6 cards
(and the decision is valid); ``auto_arrange`` is always listed and completes
the decision from the steps the seat had taken (kept: a player's own picks are
not thrown away), then hands it in; the seat's view says beforehand what it
would hand in (``arranged``). Steps are private until all four seats are
done; then the decisions apply together (4.6.8, 4.10.4).

Phases: ``auction``, ``trump``, ``discard``, ``trim`` (only the seats that
received trumps trim back to 6), ``play``, ``hand_over``, ``match_over``.

What each seat sees (:meth:`EightyThreeState.view`, by allow-list)
------------------------------------------------------------------
Its own hand; every seat's card count; the auction so far; the bid, the bidder
and trumps; in the discard phase its partner's number of trumps and of point
trumps (4.10.5), its own steps so far, and who has decided; after the exchange
how many cards each seat passed, the cards it gave and received itself, its own
face-down discards, and every trump shed face up; the current trick with who
played what, the last trick, the tricks and points each team has taken; the
team scores, the dealer and whose turn it is. The kitty's cards reach the
bidder alone (an event), passed trumps the partner alone; no seat ever sees a
face-down discard of another, a seed, or the deal code of a hand in progress
(it is in the ``hand_over`` event and the view once the hand is over). A
spectator (``seat=None``) sees what every seat sees of the others.

Readings chosen where the rules are silent
------------------------------------------
- The hand's deck order is the card order above; it is shuffled with stream
  ``deal`` of the hand's 128-bit seed (:class:`~meja.rules.rng.Rng`), then dealt
  4 at a time in three rounds from the dealer's left; the last 5 cards are the
  kitty (4.10.1). The first dealer is ``randbelow(4)`` of the match seed's
  stream ``match``, then each hand's seed is its next 128 bits.
- The kitty is taken by the rules, not by an action: the auction's last call
  puts it into the bidder's hand (4.10.3), and the phase becomes ``trump``.
- Bids are whole numbers (4.5.2); the wire field is ``value``.
- In the discard phase a seat keeps ``min(6, T)`` of its own ``T`` trumps and
  splits its excess ``T - 6`` between gives and face-up discards; a seat with
  6 trumps or fewer gives and sheds no trump (4.6.3, 4.10.4). Since the team
  sheds no more than ``N - 12`` trumps (none when ``N <= 12``), a seat whose
  partner holds fewer than 6 trumps gives at least enough to fill it to 6, and
  when ``N <= 12`` it gives its whole excess.
- The refusals of 4.10.4, each with its own message: a point trump discarded;
  a trump discarded while the team holds 12 or fewer; the team shedding more
  than ``N - 12``; a trump shed by a seat not holding more than 6 beyond its
  gives; a give of a non-trump, from a seat with 6 trumps or fewer, or beyond
  its excess; a give the partner might not be able to trim (below); a step
  below 6 cards, and ``done`` above 6.
- A seat judges a give by what it may know (4.10.5): its partner's trump and
  point-trump counts at the start of the phase. A give is refused when the
  partner might then be unable to trim (4.10.4), assuming the partner keeps as
  many point trumps as it may (``min(points, 6)``): so any two decisions the
  rules accept can never fail together, whatever the partner decides.
- The trim: each seat that received ``r`` trumps discards exactly ``r`` cards,
  one ``discard`` at a time, non-trumps first (4.6.4), then non-point trumps
  (never a point trump, 4.6.5); trumps trimmed are shown face up. Seats that
  received nothing do not take part. When no seat received anything the trim
  phase is skipped.
- ``auto_arrange`` (4.10.6), from no step taken, gives the whole excess over 6 trumps, non-point
  trumps first (lowest in the trump ranking first), and discards non-trumps,
  lowest rank first (ties by card order); in the trim it discards non-trumps
  first, then non-point trumps, lowest first. When both partners hold more than
  6 trumps it therefore has them trade their excess and trim it (valid, if
  roundabout: the reading of 4.10.6 taken literally). From steps a seat took,
  it keeps them and adds, one at a time, the first listed step of that order
  for the cards left (else the first listed step), so it ends valid like any
  walk of listed steps (:meth:`EightyThreeState._auto_steps`).
- The partner counts (4.10.5) are the only thing a seat learns of its partner in
  the discard phase; others' steps are private, and the public ``hand_counts``
  stay those of the start of the phase until the exchange.
- Default actions (a present player out of time; absent players between hands):
  ``pass`` in the auction (``bid 30`` for a forced dealer), the trump suit that
  would give the bidder the most trumps (then the most trump points, then the
  first of S H D C), ``auto_arrange`` in the discard and trim phases, ``ready``
  between hands; in the tricks none (the game's bot chooses).
- Cards of finished tricks stay face up (seen by all); the points each team has
  taken so far are in every view.
- The target is 200 (4.1.2), not an option. There is no 52-card variant
  (4.1.4 allows one for experiments; it cannot total 83).
- ``Outcome.scores`` gives each seat its team's total; ``teams`` the winning team.

The contract (:mod:`meja.rules.game`)
-------------------------------------
``awaiting()`` is the seat on turn (auction, trump, play), every seat still to
decide (discard, trim) or not yet ready (between hands). ``epoch(seat)`` is the
version in the simultaneous phases at which the phase began or the seat last
stepped, so another seat's step never makes one's own decision stale; elsewhere
it is the version. ``period()`` is one decision period per turn, and one for a
whole discard (or trim) phase. Rounds are hands: ``hand_start`` and
``hand_over`` (:data:`INFO`). ``talk()`` is ``neutral`` during a hand (partners
may not signal each other: only reactions that say nothing about a hand) and
``free`` between hands.
"""

from .actions import AUTO, DONE, PASS, READY, UNDO, Action, Kind, Phase, discard, give, play
from .decisions import Counts, auto_decision, auto_trim, decision_problems, infeasible
from .game import GAME, EightyThree
from .options import INFO, EightyThreeOptions
from .state import EightyThreeState
from .tables import (
    DECK,
    ESUIT,
    GAME_NAME,
    HAND,
    JOKER,
    KEEP,
    KITTY,
    MAX_BID,
    MIN_BID,
    NAMES,
    PLAIN,
    POINT_TABLE,
    POINTS,
    POWER,
    SEATS,
    TARGET,
    TEAM_TRUMPS,
    TEAMS,
    TRICKS,
    TRUMP_RANKING,
    card_name,
    is_trump,
    parse_card,
    parse_cards,
    playable,
    points,
    trick_winner,
    trump_power,
)
from .view import EightyThreeView, HandResult

__all__ = [
    "AUTO",
    "DECK",
    "DONE",
    "ESUIT",
    "GAME",
    "GAME_NAME",
    "HAND",
    "INFO",
    "JOKER",
    "KEEP",
    "KITTY",
    "MAX_BID",
    "MIN_BID",
    "NAMES",
    "PASS",
    "PLAIN",
    "POINTS",
    "POINT_TABLE",
    "POWER",
    "READY",
    "SEATS",
    "TARGET",
    "TEAMS",
    "TEAM_TRUMPS",
    "TRICKS",
    "TRUMP_RANKING",
    "UNDO",
    "Action",
    "Counts",
    "EightyThree",
    "EightyThreeOptions",
    "EightyThreeState",
    "EightyThreeView",
    "HandResult",
    "Kind",
    "Phase",
    "auto_decision",
    "auto_trim",
    "card_name",
    "decision_problems",
    "discard",
    "give",
    "infeasible",
    "is_trump",
    "parse_card",
    "parse_cards",
    "play",
    "playable",
    "points",
    "trick_winner",
    "trump_power",
]
