"""What every game's ``meja bench bots`` shares: the figures of the duplicate method.

The method is ``docs/bots.md``'s (:mod:`meja.bench.bots` plays the deals of every game):
a bot named with tuning parameters, a mean over per-deal values with its 95%
confidence interval (SE = sd / sqrt(n)), and per-decision CPU time percentiles.
Nothing here plays a game; it only counts.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

__all__ = ["fmt_pct", "mean_ci", "parse_bot", "percentiles"]


def parse_bot(spec: str, known: Collection[str]) -> tuple[str, dict[str, Any]]:
    """``"hard"`` or ``"hard:work=20000,deadline=none"`` -> name and parameters (for tuning).

    Values are ints, floats, ``true``/``false`` or ``none``; ``ValueError`` for a name not in ``known``.
    """
    name, _, rest = spec.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, text = item.partition("=")
        value: Any
        if text in ("true", "false", "none"):
            value = {"true": True, "false": False, "none": None}[text]
        else:
            try:
                value = int(text)
            except ValueError:
                value = float(text)
        params[key] = value
    if name not in known:
        raise ValueError(f"unknown bot {name!r}; known: {list(known)}")
    return name, params


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval: ``(mean, low, high)``."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def percentiles(times: Sequence[int]) -> dict[str, float]:
    """Decision times in nanoseconds as milliseconds: ``n``, ``mean``, ``p50``, ``p95``, ``p99``, ``max``."""
    if not times:
        return {"n": 0}
    xs = sorted(times)
    n = len(xs)

    def pct(p: float) -> float:
        return xs[min(n - 1, max(0, math.ceil(p * n) - 1))] / 1e6

    return {
        "n": n,
        "mean": sum(xs) / n / 1e6,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": xs[-1] / 1e6,
    }


def fmt_pct(d: dict[str, Any]) -> str:
    """A share with its interval (``{"mean", "ci95"}``) as ``"57.2% [54.4, 60.1]"``."""
    lo, hi = d["ci95"]
    return f"{100 * d['mean']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
