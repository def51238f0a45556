"""Kartu Terakhir ("Last Card"): GatherPlay's UNO-like shedding game for 2-10 seats.

The rules are ``docs/rules/kartu-terakhir.md`` (sections 3.1-3.11) with the
decisions 6 and 7 of ``docs/rules/README.md``; comments cite their numbers.

Rules in brief
--------------
One 108-card deck in four colours, red, yellow, green and blue (3.1.2): per
colour one 0, two each of 1-9, two Skips, two Reverses and two Draw Twos; and
four Wilds and four Wild Draw Fours, which have no colour. Each seat is dealt 7
(3.2.1); the first *number* card of the stock is turned up as the starter
(3.2.2: a Skip, Reverse, Draw Two or Wild turned up goes back into the stock,
which is reshuffled, until a number comes up); its colour is the active colour.
The first dealer is drawn from the match seed; the seat to the dealer's left
(the next seat, ``dealer + 1``) plays first, clockwise (3.2.3). The deal passes to
the left for the next game: the next round of a match to 500, and a rematch
(``carry``), one game being one round of the default match (3.8.1).

On a turn a seat plays one card that matches the active colour, or the number
or symbol of the top card, or any Wild or Wild Draw Four (3.3.1, 3.3.2: a Wild
Draw Four is always accepted; whether it was a bluff is judged only by a
challenge, 3.5). Instead it may draw one card, even with a playable card
(3.3.3); a drawn card that can be played may be played at once or kept, and no
other card may be played after a draw (3.3.4); a drawn card that cannot be
played ends the turn. A seat with no playable card and nothing to draw passes
(3.3.5, 3.11.6). A Skip skips the next seat; a Reverse turns the direction (at
2 seats it acts as a Skip, and the stored direction still flips: 3.11.2); a
Draw Two makes the next seat draw 2 and lose its turn; a Wild names the next
colour, a Wild Draw Four names it and makes the next seat draw 4 and lose its
turn unless it challenges (3.4). When the stock is empty and a draw needs a
card, the discard pile under its top card is shuffled into a new stock (3.3.5,
3.11.9); with nothing left to draw, a draw takes what exists, possibly nothing.

**Challenge** (3.5): the victim of a Wild Draw Four may ``challenge`` instead of
taking four. The challenged seat bluffed if, right after the Wild Draw Four left
its hand, it held a card of the colour in force just before it (3.5.3, 3.11.5;
Wilds have no colour; a card matching only the top card's number or symbol does
not count). Bluff: the challenged seat draws 4 and the challenger plays its
turn normally, under the colour the Wild Draw Four named (3.5.4). No bluff: the
challenger draws 6 and loses its turn (3.5.5). Only the challenger is shown the
challenged hand, as it was right after the Wild Draw Four (3.5.2, 3.11.5).

**Last card** (3.6): a seat on its turn holding exactly 2 cards may ``call``
before it plays (3.6.1 a); the call is cancelled if its turn ends with 2 or
more cards (a draw instead of a play). A seat whose own play leaves it with one
card without having called is *open to a catch*: the catch window opens (3.6.3)
and, while it is open, the seat may still ``call`` (3.6.1 b) and any other seat
may ``catch`` it (3.6.2): the first catch wins, and the caught seat draws 2. The
window closes at the next play, draw (voluntary, penalty or catch penalty) or
challenge by anyone, or when the target's hand size changes; a skipped seat
takes no action, so a Skip does not close it, and neither does a pass or a call
before a play.

**Going out** (3.6.4, 3.11.8): playing the last card ends the round at once, no
call needed. If that card is a Draw Two or Wild Draw Four the next seat draws the
penalty (the whole pending total with stacking) before the hands are scored;
no challenge or stacking answer is offered.

Options (preset ``standard``; all off by default, 3.7)
-------------------------------------------------------
=======================  =================  ===============================================
option                   default            meaning
=======================  =================  ===============================================
``stacking``             ``false``          3.7 stacking 1-6: a pending Draw Two may be
                                            answered with a Draw Two or a Wild Draw Four, a
                                            pending Wild Draw Four only with a Wild Draw Four;
                                            the total grows (2 or 4 each) until a seat takes it
``stacking_mandatory``   ``false``          3.7 stacking 3, 3.11.4: a seat that holds an answer
                                            may not take the pile (no effect without stacking)
``match``                ``"round"``        ``"round"``: one round is the match (3.8.1);
                                            ``"500"``: rounds until a score reaches 500 (3.8.3)
``reaction_ms``          ``1500``           0-5000: the automatic penalty draw of a Draw Two
                                            (stacking off) waits this long, so that the catch
                                            window can be used first (3.4, README decision 6)
=======================  =================  ===============================================

The per-turn time limit (3.7) is the table's turn limit (``turn_limit_s`` of the
host request), not an option of the game; when it runs out the server applies
:meth:`KartuTerakhirState.default_action`.

Cards (wire names)
------------------
A card is its colour letter, ``R`` ``Y`` ``G`` ``B``, and its symbol: ``0``-``9``,
``S`` (Skip, *Lewati*), ``R`` (Reverse, *Putar Balik*), ``D2`` (Draw Two, *Ambil
Dua*): ``"R7"``, ``"GS"``, ``"BR"``, ``"YD2"``. The Wild (*Ganti Warna*) is ``"W"``,
the Wild Draw Four (*Ganti Warna Ambil Empat*) ``"WD4"``. Physical copies share
their name (two ``"R7"``, four ``"W"``): they are the same card in play, and a
``play`` names the card, not the copy. Inside the engine every physical card has
its own id, 0-107: per colour (R, Y, G, B) 0, 1, 1, 2, 2, ... 9, 9, S, S, R, R, D2,
D2, then W x4, WD4 x4. Hands are kept, and sent, in that order.

Actions (sorted in this order: plays by card id then colour, draw, keep, pass,
take, challenge, call, catch, ready)
---------------------------------------------------------------------------
``play CARD [COLOUR]`` (a Wild or Wild Draw Four names the colour with the card,
3.11.1, except as the seat's last card, which ends the round and names none);
``draw`` (one card, once a turn); ``keep`` (after drawing a playable card: keep it
and end the turn); ``pass`` (3.11.6); ``take`` (take the pending penalty and lose
the turn); ``challenge`` (3.5); ``call`` (last card, 3.6.1 a or b); ``catch``
(3.6.2); ``ready`` (between rounds of a ``500`` match).

How it maps onto the game contract (:mod:`meja.rules.game`)
-----------------------------------------------------------
- ``awaiting()`` is the seat on turn (a Wild Draw Four's victim choosing,
  a stacking victim answering); between rounds, the seats not yet ready. While a
  Draw Two's automatic penalty waits (phase ``react``) nobody is awaited: a bot
  victim would otherwise draw after its thinking pause, before anyone could catch.
- ``actors()`` adds, while a catch window is open, every seat: the target may
  ``call``, every other seat may ``catch``.
- ``timed_actions()``: in phase ``react``, the victim's ``take`` after
  ``reaction_ms``, listed from the version of the Draw Two (a catch in between does
  not restart it). A ``take`` sent by the victim itself during the wait is the same
  action and is accepted: it only takes its penalty sooner.
- ``epoch(seat)``: a ``call``, a ``catch`` and a ``ready`` make only the acting seat's
  decision (and a caught seat's) stale; every other action concerns everyone. So a
  second catch that lost the race is refused as illegal (the window is closed),
  not as stale.
- ``period()``: a new turn (a bluffed challenger's own turn too), the wait in
  ``react``, the wait for ``ready``. A draw and the play or keep after it share one
  turn, and one clock.
- ``default_action(seat)``: 3.7: take the pending penalty, else draw one and end the
  turn (``draw_keep``: the drawn card kept even if playable, "play moves on"), else
  keep a drawn card (3.11.7), else pass; never a play, never a challenge, and never
  ``None`` on a turn (the default bot is not asked). ``draw_keep`` and ``timer_take``
  (the take where mandatory stacking removed ``take``) are the two actions ``legal``
  never lists (they are the timer's, no choices to offer); ``apply`` accepts
  ``draw_keep`` wherever ``draw`` is legal and ``timer_take`` wherever a penalty is
  pending against the seat on turn, so that the log replays them like any action.

What each seat sees (``view``)
------------------------------
Its own hand (sorted by card id); every seat's count; the top card, the active
colour and the direction; whose turn it is, the phase, whether the seat on turn
has drawn (and, to that seat only, which card); the pending penalty and whether
it can be challenged; whether a catch window is open and for whom; who has
called; the stock and discard sizes (never the stock order); scores, the last
round's result, the options; and ``legal``. To the challenger only, the
challenged hand until the next play, draw, take, pass or challenge. Never another
hand, the stock, a seed, or the deal code of the round in progress (the server adds
that code to the view of a seat every other seat of which is a bot: core protocol 12).

Scoring (3.8)
-------------
The round winner scores the cards left in the other hands: a number its face
value, a Skip, Reverse or Draw Two 20, a Wild or Wild Draw Four 50 (3.8.2,
3.11.10). ``round``: the match is that round. ``500``: rounds are dealt by the next
seat to the left each time until a total reaches 500 (only the winner scores, so
one seat reaches it).

Readings settled here where the rules are silent
------------------------------------------------
- **Copies share a name** (``"R7"`` twice): identical cards are interchangeable, so
  a ``play`` of a name plays the copy with the lowest id, and ``legal`` lists each
  name once.
- **Going out on a Wild** names no colour (as an 8 in Crazy Eights): the round is over.
- **One catch window at a time**: a window opens only with a play, and any play
  closes the one before, so ``catch`` names no target.
- **A pass does not close the window** (3.6.3 lists play, draw and challenge only);
  nor does a call (a) by the seat on turn.
- **The call (a) is allowed whenever it is the seat's turn and it holds 2 cards**,
  after a draw too, and while facing a pending penalty (it may answer with a
  stacking card to one card); any turn that ends with 2 or more cards cancels it
  (event ``call_cancelled``). A seat that called (a) and plays to one card opens no
  window.
- **Catch by any other seat**, the seat on turn and a penalty's victim included; a
  failed catch (none open, the target called, the window closed) is refused and
  costs nothing (3.6.2).
- **Draw Two with stacking on** waits for the victim (it may answer, take or call);
  only the stacking-off Draw Two draws automatically (3.4, README decision 6).
- **The challenged hand stays in the challenger's view** until the next play, draw,
  take, pass or challenge, so that a client that reconnects still sees the evidence.
- **Timeout corners** (3.7, 3.11.7): with a playable card and nothing to draw (all
  other cards in hands), the timer's ``draw_keep`` draws none and ends the turn (3.3.5:
  "as many cards as exist, possibly none"; on the wire a ``pass``, which keeps a catch
  window open as any pass does). With mandatory stacking and an answer held, ``take``
  is not legal (the seat may not choose to take, 3.11.4), and the timer takes the pile
  all the same with ``timer_take`` (3.7 timer 1: "the player takes the pending penalty
  if there is one"; 3.11.7: the timer never plays a card, so it cannot stack for the
  seat, and a bot's choice would stack or challenge).
- **The timer's draw tells nobody whether the card was playable**: it ends the turn
  whatever the card, so its events are those of a draw that ended the turn (``draw``,
  ``turn``), with no ``keep``, which would say the card could have been played.
- **A voluntary draw does tell** (decided, not overlooked): 3.3.4 ends the turn at once
  on an unplayable card and leaves a playable one's drawer a choice, and whose turn it
  is is public (the turn, the table's ``awaiting``, the turn clock), so a drawer still
  on turn has drawn a playable card; the view's ``drew`` and the ``keep`` event only
  say it outright. A real table shows the same (everyone sees whether the player who
  drew stops to consider the card); hiding it would need every draw to wait for a
  ``keep``, a step 3.3.4 does not have and a tap for every unplayable draw.
- **A starter that is not a number** goes back unseen: the ``round_start`` event says
  how often it happened (``returned``), not which cards (3.2.2 has them turned up; on a
  server that would only tell everyone which cards lie in the stock).
- **The table pauses** (``hold_events``) after a rebuilt stock and after a challenge's
  verdict, so that people see them before the bots move on.
- **The round result reveals every hand** (they are scored) and the finished
  round's deal code, as the core protocol's fair-deal section says; the view never
  carries the code of the round in progress.

Determinism
-----------
All chance comes from :class:`~meja.rules.rng.Rng`. The match seed draws the first
dealer and each round's 128-bit seed; a round deals with stream ``deal`` of its
seed (the starter's reshuffles continue that stream) and the k-th rebuild of the
stock uses stream ``reshuffle/k``, so a deal code (seats, dealer, seed) fixes the
hands, starter and stock, and the same moves give the same reshuffles.

Speed
-----
Like the Crazy Eights engine: actions are ints (:class:`Move`, interned, so
sorting and membership are C comparisons); legal actions of the seat on turn are
cached on the immutable state; the next state is an instance-dict copy, not
``dataclasses.replace``; playability is a precomputed table per (active colour,
top symbol). ``meja bench rules --game kartu_terakhir`` measures it.
"""

from .actions import (
    ALL_MOVES,
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    KEEP,
    PASS,
    PLAY_OF,
    READY,
    TAKE,
    TIMER_TAKE,
    WILD_PLAYS,
    Kind,
    Move,
    Phase,
)
from .game import GAME, KartuTerakhir
from .options import INFO, OPTION_SPECS, KartuTerakhirOptions, MatchMode
from .state import KartuTerakhirState, blank_state
from .tables import (
    ANSWER_D2,
    ANSWER_WD4,
    CARD_COUNT,
    COLOUR,
    COLOUR_WORDS,
    COLOURS,
    DECK,
    DRAW_TWO,
    FIRST_ID,
    GAME_NAME,
    HAND_SIZE,
    IDS_OF,
    IS_WILD,
    MATCH_TARGET,
    MAX_SEATS,
    MIN_SEATS,
    NAMEIX,
    NAMEIX_OF,
    NAMES,
    NO_COLOUR,
    PLAYABLE,
    POINTS,
    REVERSE,
    SKIP,
    SYM,
    TITLE,
    WILD,
    WILD_DRAW_FOUR,
    card_name,
    card_points,
    describe,
    reshuffled,
)
from .view import KartuTerakhirView, RoundResult

__all__ = [
    "ALL_MOVES",
    "ANSWER_D2",
    "ANSWER_WD4",
    "CALL",
    "CARD_COUNT",
    "CATCH",
    "CHALLENGE",
    "COLOUR",
    "COLOURS",
    "COLOUR_WORDS",
    "DECK",
    "DRAW",
    "DRAW_KEEP",
    "DRAW_TWO",
    "FIRST_ID",
    "GAME",
    "GAME_NAME",
    "HAND_SIZE",
    "IDS_OF",
    "INFO",
    "IS_WILD",
    "KEEP",
    "MATCH_TARGET",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAMEIX",
    "NAMEIX_OF",
    "NAMES",
    "NO_COLOUR",
    "OPTION_SPECS",
    "PASS",
    "PLAYABLE",
    "PLAY_OF",
    "POINTS",
    "READY",
    "REVERSE",
    "SKIP",
    "SYM",
    "TAKE",
    "TIMER_TAKE",
    "TITLE",
    "WILD",
    "WILD_DRAW_FOUR",
    "WILD_PLAYS",
    "KartuTerakhir",
    "KartuTerakhirOptions",
    "KartuTerakhirState",
    "KartuTerakhirView",
    "Kind",
    "MatchMode",
    "Move",
    "Phase",
    "RoundResult",
    "blank_state",
    "card_name",
    "card_points",
    "describe",
    "reshuffled",
]
