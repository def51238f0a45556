"""Card names in wire messages, for the leak checks (tests/e2e/test_e2e_leaks.py, tests/fuzz/fuzz_leaks.py).

A card on the wire is its short name (PROTOCOL.md section 5): rank then suit,
``"10H"``, ``"QS"``, with ``".2"`` for the second deck's copy (``party`` with 6-8
seats).
"""

from __future__ import annotations

import re
from typing import Any

#: A card's wire name.
CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC](?:\.2)?$")


def cards_in(value: Any, *, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card string anywhere in ``value``, not looking under the keys in ``skip``."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if CARD.match(v):
                found.add(v)
        elif isinstance(v, dict):
            stack.extend(item for key, item in v.items() if key not in skip)
        elif isinstance(v, list):
            stack.extend(v)
    return found
