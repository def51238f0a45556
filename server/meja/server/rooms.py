"""Room codes, table ids and tokens: the secrets that open a table.

Room code
    6 characters of Crockford's base32 (``0-9 A-Z`` without ``I L O U``): 32**6 =
    2**30 codes, drawn with :mod:`secrets`. People read them aloud and type them
    on phones, so they are read in any case, spaces and hyphens are ignored, and
    the look-alikes ``I``/``L`` are read as ``1`` and ``O`` as ``0`` (Crockford's
    rules, as :func:`meja.rules.dealcode.normalize` reads deal codes). ``U`` is
    not in the alphabet (Crockford leaves it out to avoid accidental words).
    30 bits is not a password: guessing is slowed by a per-address limit on
    code lookups (``Settings.code_attempts``), and a code only opens a table
    while it lives.

Table id
    128 random bits (32 hex characters). The id also opens a table (``join`` and
    ``watch`` take it), so it must be unguessable; it is shown to everyone at
    the table, like the code. Given its room code, :func:`new_table_id` draws
    ids until one falls in the code's store bucket (:func:`meja.store.keys.bucket_of`,
    one of 16), so the table's keys and its code's key share a Redis Cluster
    slot; about 16 draws, and the id keeps 124 bits nobody can predict.

Seat token, host token
    128 random bits each (``secrets.token_urlsafe(16)``), sent only to their
    holder. The server stores only their SHA-256 (:func:`token_hash`) and
    compares hashes in constant time (:func:`same_token`), so a copy of the
    store (a Redis dump, a log) cannot act for anyone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from meja.store.keys import bucket_of

__all__ = [
    "CODE_ALPHABET",
    "CODE_CHARS",
    "new_code",
    "new_table_id",
    "new_token",
    "normalize_code",
    "same_token",
    "token_hash",
]

CODE_ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_CHARS: Final = 6
_READ: Final = {c: c for c in CODE_ALPHABET} | {"I": "1", "L": "1", "O": "0"}


def new_code() -> str:
    """A fresh room code: 6 characters, 30 random bits."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))


def normalize_code(text: str) -> str | None:
    """The canonical room code ``text`` stands for, or ``None`` if it cannot be one."""
    out = []
    for c in text.strip().upper():
        if c in "- ":
            continue
        mapped = _READ.get(c)
        if mapped is None:
            return None
        out.append(mapped)
    code = "".join(out)
    return code if len(code) == CODE_CHARS else None


def new_table_id(code: str | None = None) -> str:
    """A fresh table id: 128 random bits as 32 hex characters, in ``code``'s store bucket if given."""
    while True:
        table_id = secrets.token_hex(16)
        if code is None or bucket_of(table_id) == bucket_of(code):
            return table_id


def new_token() -> str:
    """A fresh seat or host token: 128 random bits, URL-safe base64 (22 characters)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (constant-time compare)."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
