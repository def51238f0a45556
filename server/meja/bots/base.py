"""The bot interface every game's bots implement, and what all bots share.

A bot is a policy: ``choose(view, history, rng) -> action | None``, a pure
function of what one seat has seen and an :class:`~meja.rules.rng.Rng`:

- ``view`` is the game's ``state.view(seat)``; ``view.legal`` lists the seat's
  legal actions (:class:`meja.rules.game.View`);
- ``history`` holds the wire dicts (``Event.to_wire()``) of the events this seat
  saw since its round began (the game's events only, oldest first);
- ``rng`` is :func:`decision_rng`, unique to (round, seat, decision).

A bot keeps no memory between calls (any server process may ask), never sees
more than the seat may, and returns the same action for the same inputs. It is
asked for every seat the state lists in ``actors()``: for a seat the game
awaits it returns one of ``view.legal``; for a seat that may act out of turn (a
catch) it may return ``None``, meaning "not now".

**A reason** (optional, issue 23 point 4): :func:`choose_why` asks a bot for its action and a
short reason from its own evaluation, as plain data a page words in its player's language
(:data:`Why`). A bot may give one itself (an optional ``choose_why(view, history, rng) ->
(action, why)``: a search's figures, :class:`meja.bots.search.SearchBot`); otherwise its game
may explain the action after the fact, in a module ``explain`` beside the bot's own module
(``meja/games/<name>/bots/explain.py``: ``why(bot, view, history, action) -> Why | None``, the
tip the bot followed). A bot that gives no reason works as before (``None``). A reason is
built from what the seat may know (the same view and history the bot chose from), and names
no action but the seat's own legal ones.

Each game keeps its bots in its own folder (``meja/games/<name>/bots``) and names
them in its :class:`meja.games.GamePlugin`: the levels a host chooses (``easy``,
``normal``, ``hard``) and frozen yardsticks to measure them against.
"""

from __future__ import annotations

import functools
import importlib
import logging
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..rules.game import State
from ..rules.rng import Rng

__all__ = ["Bot", "History", "RandomAnyBot", "Why", "choose_why", "decision_rng", "search_why", "tip", "why_is_sound"]

History = Sequence[Mapping[str, Any]]

#: A reason for a decision, as plain wire data (PROTOCOL.md 16.1, ``hint.why``): either a tip the
#: bot followed, ``{"kind": "tip", "tip": name}`` (a short ``snake_case`` name its game words on the
#: page), or a search's own figures, ``{"kind": "search", "deals": n, ...}`` (:func:`search_why`).
Why = dict[str, Any]

log = logging.getLogger("meja.bots")

#: what a tip's name may be (PROTOCOL.md 16.1)
_TIP = re.compile(r"[a-z0-9_]{1,40}")


@runtime_checkable
class Bot(Protocol):
    """A policy over one seat's information (see the module docstring)."""

    name: str
    #: whether ``choose`` reads ``history`` (a server reads the round's log only for bots that do)
    needs_history: bool
    #: whether ``choose`` takes long enough (a search) to be run off a server's event loop
    blocking: bool

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None: ...


def decision_rng(state: State, seat: int) -> Rng:
    """The rng for ``seat``'s decision now: unique to (round, seat, version), as the server passes it.

    Kept here so that the server, the benchmarks and the tests derive it the same way.
    """
    return state.bot_rng(seat).derive(f"decision/{state.version}")


def tip(name: str) -> Why:
    """The reason of a rule-of-thumb bot: the tip it followed (its game words it on the page)."""
    return {"kind": "tip", "tip": name}


def search_why(
    deals: int,
    *,
    won: float | None = None,
    alt: Any = None,
    alt_won: float | None = None,
    ahead: float | None = None,
    behind: float | None = None,
) -> Why:
    """A search's reason from its own figures: ``deals`` it compared the moves on (worlds drawn
    from what the seat can see); ``won``, the share of them the chosen move won (0-100, where the
    game tells wins); ``alt``, the next best move (an action) and ``alt_won`` its share; without
    wins, ``ahead``/``behind``: the shares of deals where the choice did better/worse than ``alt``."""
    out: Why = {"kind": "search", "deals": int(deals)}
    for key, value in (("won", won), ("alt_won", alt_won), ("ahead", ahead), ("behind", behind)):
        if value is not None:
            out[key] = max(0, min(100, round(value)))
    if alt is not None:
        out["alt"] = alt.to_wire() if hasattr(alt, "to_wire") else alt
    return out


def _explainer(bot: Any) -> Callable[..., Why | None] | None:
    """The ``why`` of the ``explain`` module beside the bot's own module (``None``: there is none)."""
    module_name = type(bot).__module__
    own = sys.modules.get(module_name)
    # a bot defined in its package's __init__ has the package itself as its folder
    package = module_name if hasattr(own, "__path__") else module_name.rpartition(".")[0]
    return _explain_in(package) if package else None


@functools.cache
def _explain_in(package: str) -> Callable[..., Why | None] | None:
    """The ``why`` of ``package.explain``, looked up once per package (a package without one, too:
    a hint would otherwise ask the import system again at every request, on the event loop for a
    bot that does not block)."""
    try:
        module = importlib.import_module(f"{package}.explain")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.explain":
            raise
        return None
    why = getattr(module, "why", None)
    return why if callable(why) else None


def choose_why(bot: Any, view: Any, history: History, rng: Rng) -> tuple[Any | None, Why | None]:
    """``bot``'s action for ``view`` and its reason (``None``: it gives none); see the module docstring.

    The action is the one ``bot.choose`` would return for the same inputs. A reason that fails to
    build is logged and left out: a reason never costs a decision."""
    own = getattr(bot, "choose_why", None)
    try:
        if callable(own):
            action, why = own(view, history, rng)
        else:
            action, why = bot.choose(view, history, rng), None
        if why is None and action is not None:
            try:
                explain = _explainer(bot)
                why = explain(bot, view, history, action) if explain is not None else None
            except Exception:
                log.exception("bot %r could not explain its action", getattr(bot, "name", bot))
                why = None
    finally:
        # a searching bot keeps its search for the explainer (``searched``) until now
        forget = getattr(bot, "forget_search", None)
        if callable(forget):
            forget()
    return action, why


def why_is_sound(why: Any, legal: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``why`` is a reason of the form :data:`Why` names whose only action (``alt``) is one
    of the seat's ``legal`` actions (wire form): nothing the seat could not know."""
    if not isinstance(why, dict):
        return False
    kind = why.get("kind")
    if kind == "tip":
        name = why.get("tip")
        return set(why) == {"kind", "tip"} and isinstance(name, str) and _TIP.fullmatch(name) is not None
    if kind != "search" or not set(why) <= {"kind", "deals", "won", "alt", "alt_won", "ahead", "behind"}:
        return False
    numbers = [why.get(k) for k in ("won", "alt_won", "ahead", "behind") if k in why]
    if not isinstance(why.get("deals"), int) or why["deals"] < 1:
        return False
    if not all(isinstance(n, int) and 0 <= n <= 100 for n in numbers):
        return False
    return "alt" not in why or why["alt"] in legal


class RandomAnyBot:
    """A yardstick for any game: uniform over every legal action (out of turn too: it never declines)."""

    name = "random-any"
    needs_history = False
    blocking = False

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None:
        if not view.legal:
            return None
        action, _ = rng.choice(view.legal)
        return action


class Roster:
    """A game's bots by name: its levels (what players choose), then its yardsticks (frozen bots
    the levels are measured against), each made by its factory with tuning parameters. A game's
    ``bots`` module publishes ``LEVELS``, ``YARDSTICKS``, ``names`` and ``make_bot`` from one
    (:meth:`of` and :meth:`exports`: two lines)."""

    def __init__(
        self, levels: tuple[str, ...], yardsticks: tuple[str, ...], factories: Mapping[str, Callable[..., Bot]]
    ) -> None:
        if set(factories) != set(levels) | set(yardsticks):
            raise ValueError(f"the factories {sorted(factories)} are not the levels and yardsticks")
        self.levels, self.yardsticks, self._factories = levels, yardsticks, dict(factories)

    @classmethod
    def of(cls, levels: Mapping[str, Callable[..., Bot]], yardsticks: Mapping[str, Callable[..., Bot]]) -> Roster:
        """A roster from the levels' factories and the yardsticks', each in its order."""
        return cls(tuple(levels), tuple(yardsticks), {**levels, **yardsticks})

    def exports(
        self,
    ) -> tuple[tuple[str, ...], tuple[str, ...], Callable[[], tuple[str, ...]], Callable[..., Bot]]:
        """What a game's ``bots`` module publishes: ``LEVELS, YARDSTICKS, names, make_bot = ROSTER.exports()``."""
        return self.levels, self.yardsticks, self.names, self.make_bot

    def names(self) -> tuple[str, ...]:
        """Every bot name: the levels, then the yardsticks."""
        return self.levels + self.yardsticks

    def make_bot(self, name: str, **params: Any) -> Bot:
        """The bot called ``name``, with parameters for tuning and tests (``make_bot("hard", playouts=400)``)."""
        try:
            factory = self._factories[name]
        except KeyError:
            raise ValueError(f"unknown bot {name!r}; known: {list(self.names())}") from None
        return factory(**params)
