"""The key layout's hash slots (server/meja/store/keys.py), which redis-py computes for us.

The bucket tags are part of the layout (schema 2): they must never move, or a
server would look for its tables' keys in other slots. They are pinned here, and
``key_slot`` is checked against slots Redis itself gives (``CLUSTER KEYSLOT``).
"""

from __future__ import annotations

from meja.store import keys

#: The 16 bucket tags of schema 2, as the hand-written CRC16 made them.
TAGS = (
    "0.13", "1.18", "2.20", "3.8", "4.63", "5.68", "6.43", "7.48",
    "8.20", "9.38", "10.48", "11.43", "12.1", "13.2", "14.38", "15.20",
)  # fmt: skip


def test_the_bucket_tags_do_not_move() -> None:
    assert tuple(keys.bucket_tag(b) for b in range(keys.BUCKETS)) == TAGS
    width = keys.SLOTS // keys.BUCKETS
    for bucket, tag in enumerate(TAGS):
        assert bucket * width + width // 4 <= keys.key_slot(tag) < (bucket + 1) * width - width // 4


def test_key_slot_is_the_one_redis_gives() -> None:
    # CLUSTER KEYSLOT answers, from the Redis Cluster specification and a real server.
    assert keys.key_slot("foo") == 12182
    assert keys.key_slot("somekey") == 11058
    # A hash tag: only what is between the first { and the next } is hashed; {} is no tag.
    assert keys.key_slot("{foo}bar") == keys.key_slot("foo") == keys.key_slot("x{foo}{bar}")
    assert keys.key_slot("{}foo") != keys.key_slot("foo")
    assert keys.key_slot(keys.Keys().table("T1").record) == keys.key_slot("5.68")
