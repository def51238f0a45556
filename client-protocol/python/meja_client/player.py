"""Play a seat automatically: a :class:`Player` watches its client's view and acts with a policy.

A policy is ``policy(view) -> action``: it gets the seat's view (a map, with
``legal``: the legal actions as wire maps, sorted as the rules sort them) and
returns one of them. Two come with the library:

- :func:`first_legal`: the first legal action (the lowest playable card, else
  draw, else pass; ``ready`` between rounds). Deterministic given the deal.
- :func:`random_policy`: a seeded choice that prefers playing a card (so rounds
  end), then any legal action. Same seed and same views: same choices.

The player acts only on the latest view, once per table version: it sends the
action at the version it saw, and if the table moved on first (``action/stale_version``)
it waits for the next view and decides again. Any other refusal is a failure: it
raises :class:`~meja_client.errors.ServerError` out of :meth:`Player.run`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container
from typing import Any

from .client import DEFAULT_TIMEOUT, Client
from .errors import ConnectionClosed, ServerError

__all__ = ["Player", "first_legal", "is_match_over", "is_my_decision", "random_policy"]

Policy = Callable[[dict[str, Any]], dict[str, Any]]


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    """The first legal action."""
    action: dict[str, Any] = view["legal"][0]
    return action


def random_policy(seed: int, play_bias: float = 0.9) -> Policy:
    """Seeded: with probability ``play_bias`` a random playable card, else any legal action."""
    rng = random.Random(seed)

    def choose(view: dict[str, Any]) -> dict[str, Any]:
        legal: list[dict[str, Any]] = view["legal"]
        plays = [a for a in legal if a["kind"] == "play"]
        if plays and rng.random() < play_bias:
            return rng.choice(plays)
        return rng.choice(legal)

    return choose


def is_match_over(client: Client) -> bool:
    """The match at this client's table is over (or the table finished)."""
    view = client.view
    return bool(
        (view is not None and view.get("phase") == "match_over") or client.status == "finished"
    )


def is_my_decision(client: Client) -> bool:
    """The table is playing and this connection's seat has a legal action."""
    view = client.view
    return bool(client.status == "playing" and view is not None and view.get("legal"))


class Player:
    """Plays ``client``'s seat with ``policy`` until ``until(client)`` (default: the match is over).

    ``tolerate``: error codes that mean "decide again on the next view"
    (``action/stale_version`` by default). What it sent, each as
    ``(version, action)``: ``actions`` (all), ``accepted`` (the server answered
    with the update that applied it), ``in_flight`` (sent, but the connection
    closed before any answer: it may or may not have been applied); ``refused``
    holds the tolerated errors it got. ``accepted_ids`` has the request id of
    each accepted action (the ``re`` of its answer), for audits.
    """

    def __init__(
        self,
        client: Client,
        policy: Policy = first_legal,
        *,
        until: Callable[[Client], bool] = is_match_over,
        tolerate: Container[str] = ("action/stale_version",),
        turn_timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.client = client
        self.policy = policy
        self.until = until
        self.tolerate = tolerate
        self.turn_timeout = turn_timeout
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.accepted: list[tuple[int, dict[str, Any]]] = []
        self.accepted_ids: list[int | str] = []
        self.in_flight: list[tuple[int, dict[str, Any]]] = []
        self.refused: list[ServerError] = []

    async def run(self) -> dict[str, Any] | None:
        """Play until ``until``; returns the last view. ``TimeoutError`` if nothing happens for
        ``turn_timeout`` seconds, :class:`ConnectionClosed` if the connection closes."""
        client = self.client
        acted_at: int | None = None

        def next_step(c: Client) -> bool:
            if self.until(c):
                return True
            return is_my_decision(c) and c.version != acted_at

        while True:
            await client.wait_for(next_step, self.turn_timeout)
            if self.until(client):
                return client.view
            view = client.view
            assert view is not None
            version = client.version
            action = self.policy(view)
            acted_at = version
            sent = (version if version is not None else -1, action)
            self.actions.append(sent)
            try:
                answer = await client.act(action, version=version, timeout=self.turn_timeout)
            except ServerError as exc:
                if exc.code not in self.tolerate:
                    raise
                self.refused.append(exc)
            except ConnectionClosed:
                self.in_flight.append(sent)
                raise
            else:
                self.accepted.append(sent)
                if answer is not None and "re" in answer:
                    self.accepted_ids.append(answer["re"])
