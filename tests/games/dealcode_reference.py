"""The deal codes' check character, written again from the design (Luhn mod 32) as the games'
deal-code tests' independent reference: once for every game, apart from ``meja.rules.dealcode``."""

from __future__ import annotations


def luhn32(values: list[int]) -> int:
    """The check value of ``values`` (each 0-31): double every second value from the right, fold, sum."""
    total = 0
    for i, v in enumerate(reversed(values)):
        if i % 2 == 0:
            v *= 2
            v = v // 32 + v % 32
        total += v
    return (32 - total % 32) % 32
