"""Token buckets: the rate limits of one connection (session.py), of one table's changes (service.py),
and per client address (:class:`Buckets`: the replay of missed versions, the QR codes)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["Buckets", "TokenBucket"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        return self.take_up_to(1) == 1

    def available(self) -> float:
        """The tokens there are now (none spent)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def spend(self, n: float) -> bool:
        """Spend ``n`` tokens if there are that many (all or none); whether they were."""
        if self.available() < n:
            return False
        self.tokens -= n
        return True

    def take_up_to(self, n: int) -> int:
        """Spend as many of ``n`` tokens as there are (whole ones); how many."""
        granted = max(0, min(n, int(self.available())))
        self.tokens -= granted
        return granted


class Buckets:
    """A :class:`TokenBucket` per key (a client address), the least recently used dropped past
    ``keep`` keys (a dropped bucket was idle long enough to be full again, or nearly)."""

    def __init__(
        self, rate: float, burst: int, keep: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.keep, self.clock = rate, burst, keep, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, key: str) -> TokenBucket:
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
            while len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(key)
        return found

    def carry(self, old: str, new: str) -> None:
        """Key ``old``'s bucket as ``new`` (what was spent under the one is spent under the other),
        ``old`` then starting afresh: a budget kept by seat follows a person who moved seats."""
        found = self._buckets.pop(old, None)
        if found is not None:
            self._buckets[new] = found
            self._buckets.move_to_end(new)
