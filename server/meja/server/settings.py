"""Every limit, timeout and address of the table server, in one frozen object.

Each setting has a name, a default, a unit and a sentence saying what happens
past it (after the ``serve()`` docstring of python-websockets and its
``docs/topics/security.rst``). A setting is read, in order of precedence, from:

1. the ``meja serve`` command line (only the few settings that have a flag:
   ``--host``, ``--port``, ``--redis``, ``--public-origin``);
2. the environment: ``MEJA_<NAME>`` with the setting's name in upper case
   (``MEJA_GRACE_S=90``); an empty value means the default;
3. the default below.

Durations carry their unit in the name (``_s`` seconds, ``_ms`` milliseconds).
:func:`settings_table` renders the table the README shows; ``meja serve
--settings`` prints it.

Limits fixed by the protocol itself (name length, room code length, message id
length) are not settings: they live in :mod:`meja.protocol.messages`, the same
on every server.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

from meja.protocol.codec import CodecLimits
from meja.store import URL_SCHEMES

__all__ = ["ENV_PREFIX", "Settings", "SettingsError", "settings_table"]

ENV_PREFIX: Final = "MEJA_"


class SettingsError(ValueError):
    """A setting's value does not read, or is out of range."""


def _s(default: Any, unit: str, doc: str) -> Any:
    return field(default=default, metadata={"unit": unit, "doc": doc})


@dataclass(frozen=True, slots=True)
class Settings:
    """The server's configuration. Build it with :meth:`from_env`; it never changes while running."""

    # ------------------------------------------------------------------ addresses and store
    host: str = _s("127.0.0.1", "address", "interface to listen on (`0.0.0.0`: every interface)")
    port: int = _s(8000, "port", "TCP port for the websocket (`/ws`), `/healthz` and the web client (0: any free port)")
    redis_url: str | None = _s(
        None,
        "URL",
        "Redis shared by every process (`redis://host:6379/0`; a Redis Cluster: "
        "`redis+cluster://host:7000,host:7001`); unset: the embedded in-memory store, and tables do not "
        "survive a restart",
    )
    public_origin: str | None = _s(
        None,
        "URL",
        "origin that invite links are built from (`https://cards.example.org`); unset: "
        "`http://<this machine's network address>:<port>` when `host` is 0.0.0.0, else "
        "`http://<host>:<port>`, with a warning, since a phone cannot reach 127.0.0.1",
    )
    trust_proxy: bool = _s(
        False,
        "bool",
        "take the client address from the last `X-Forwarded-For` hop (set it only "
        "behind a proxy that sets that header): used by the per-address limits",
    )
    web_root: str | None = _s(None, "path", "directory of the static web client; unset: the packaged one")
    games: str | None = _s(
        None,
        "modules",
        "comma-separated Python modules of extra games to load (each exports a `PLUGIN`), besides the "
        "built-in ones; unset: the built-in games only",
    )
    default_game: str | None = _s(None, "game", "the game of a `host` that names none; unset: the first built-in game")
    log_level: str = _s("INFO", "name", "logging level: DEBUG, INFO, WARNING or ERROR")

    # ------------------------------------------------------------------ frames and connections
    max_frame_bytes: int = _s(
        32 * 1024,
        "bytes",
        "largest client frame; a bigger one closes the connection (1009). The largest message needs about "
        "17 KB (a call signal of `max_signal_chars`); everything else fits in 2 KB",
    )
    max_str_bytes: int = _s(1024, "bytes", "longest string in a client frame; past it: close 4000")
    max_array_len: int = _s(256, "items", "longest array in a client frame; past it: close 4000")
    max_map_len: int = _s(64, "entries", "largest map in a client frame; past it: close 4000")
    max_depth: int = _s(8, "levels", "deepest nesting in a client frame (top map = 1); past it: close 4000")
    rate_per_s: float = _s(
        20.0,
        "messages/s",
        "sustained messages per connection; past it: `protocol/rate_limited`, the message is dropped",
    )
    rate_burst: int = _s(40, "messages", "messages a connection may send at once before the rate applies")
    flood_close_s: float = _s(3.0, "s", "a connection over the rate limit for this long is closed (4002)")
    outbox_max: int = _s(
        1024,
        "messages",
        "messages queued for a client that does not read; past it: close 4004",
    )
    outbox_max_bytes: int = _s(
        8 * 1024 * 1024,
        "bytes",
        "bytes of messages queued for a client that does not read (whatever their number); past it: close 4004",
    )
    max_connections: int = _s(
        10_000,
        "connections",
        "open websockets per process; past it the handshake gets HTTP 503",
    )
    max_connections_per_address: int = _s(
        64,
        "connections",
        "open websockets per client address and process (IPv6: per /64; behind `trust_proxy`, the "
        "forwarded address); past it the handshake gets HTTP 429 (0: no limit)",
    )
    max_tables_per_connection: int = _s(
        8,
        "tables",
        "tables one connection may sit at or watch; past it: `limit/exceeded`",
    )
    max_spectators: int = _s(
        200,
        "connections",
        "spectators of one table on one process; past it: `limit/exceeded`",
    )
    max_screens: int = _s(
        4,
        "screens",
        "shared screens per table and process that watch with the table's screen token (the host's own TVs), "
        "in places of their own: neither `max_spectators` nor the per-address limit takes them; past it: "
        "`limit/exceeded`",
    )
    max_spectators_per_address: int = _s(
        8,
        "connections",
        "spectators of one table on one process from one client address (IPv6: per /64), so that "
        "a few addresses cannot take every seat in the stands (the shared screen is one); past it: "
        "`limit/exceeded`",
    )
    ping_interval_s: float = _s(20.0, "s", "websocket keepalive ping interval (0: none)")
    ping_timeout_s: float = _s(
        20.0,
        "s",
        "a connection whose ping is not answered in this time is closed (seat goes away)",
    )
    close_timeout_s: float = _s(5.0, "s", "time allowed for a closing handshake")
    code_attempts: int = _s(
        20,
        "attempts",
        "room-code lookups (join or watch by code) per address per window; past it: `table/code_rate_limited`",
    )
    code_window_s: int = _s(60, "s", "window of `code_attempts`")
    hosts_per_window: int = _s(
        30,
        "tables",
        "tables hosted per address per window; past it: `limit/exceeded`",
    )
    host_window_s: int = _s(600, "s", "window of `hosts_per_window`")
    max_resume_updates: int = _s(
        500,
        "updates",
        "most missed versions replayed on `resume`/`watch` with `since`, and never more than half of "
        "`outbox_max` (the oldest are left out past it; the `state` that follows is the whole picture)",
    )
    replay_per_s: float = _s(
        250.0,
        "versions/s",
        "missed versions replayed per second to one client address (all its `resume`s and `watch`es "
        "with `since` on one process): past it fewer are replayed, down to none (the `state` is the "
        "whole picture), so that asking for them again and again cannot load a process",
    )
    replay_burst: int = _s(
        2000, "versions", "missed versions replayed to one address at once before `replay_per_s` applies"
    )
    replay_steps_per_s: float = _s(
        200.0,
        "views/s",
        "views of archived matches' steps built for one client address per second (`replay`: a step costs "
        "one view, or one per seat with every hand open; a match no longer in memory is first played "
        "again, one view plus one per ten of its actions): past it `limit/exceeded`, so that one client "
        "cannot keep a process busy building replays",
    )
    replay_steps_burst: int = _s(
        2000, "views", "views of `replay` steps one address may ask for at once before `replay_steps_per_s` applies"
    )
    replay_queue: int = _s(
        16,
        "requests",
        "`replay` requests waiting for the process's replay thread (steps are built there, off the event "
        "loop, one request at a time); past it: `limit/exceeded`",
    )

    # ------------------------------------------------------------------ tables
    grace_s: int = _s(
        60,
        "s",
        "default time an absent player keeps the seat before a bot plays for them (per table: `host.grace_s`)",
    )
    grace_min_s: int = _s(0, "s", "smallest `grace_s` a host may ask for")
    grace_max_s: int = _s(3600, "s", "largest `grace_s` a host may ask for")
    turn_limit_s: int | None = _s(
        None,
        "s",
        "default turn time limit (per table: `host.turn_limit_s`); unset or 0: none",
    )
    turn_limit_min_s: int = _s(5, "s", "smallest turn limit a host may ask for")
    turn_limit_max_s: int = _s(600, "s", "largest turn limit a host may ask for")
    ready_timeout_s: int = _s(
        30,
        "s",
        "a present player who does not say `ready` between rounds is made ready after this",
    )
    bot_level: str = _s("normal", "level", "default bot level for empty seats (per table: `host.bots`)")
    bot_delay_min_ms: int = _s(600, "ms", "shortest pause before a bot takes a decision the game waits for")
    bot_delay_max_ms: int = _s(1200, "ms", "longest bot thinking pause")
    bot_react_min_ms: int = _s(400, "ms", "shortest pause before a bot acts out of turn (a reflex, such as a catch)")
    bot_react_max_ms: int = _s(1500, "ms", "longest pause before a bot acts out of turn")
    hold_delay_ms: int = _s(
        1000,
        "ms",
        "extra pause before a bot acts after an event the table holds for (each game names its own: "
        "a pile turned over, say), so that people see it",
    )
    bot_workers: int = _s(
        1,
        "processes",
        "worker processes for bots that search (a `hard` level), so that their thinking never holds "
        "up other tables' moves; 0: they think in a thread of the server process",
    )
    bot_nice: int = _s(
        10,
        "niceness",
        "how much lower the bot workers' CPU priority is than the server's (0 to 19): where the "
        "machine has no spare core, people's moves go first and a search waits (a search counts its "
        "own CPU, so its choice is unchanged, only later; a hint asked of a searching level waits "
        "likewise); 0: the same priority",
    )
    ready_delay_ms: int = _s(
        1500,
        "ms",
        "pause before a bot (or a bot playing for an absent player) is ready for the next round",
    )
    table_changes_per_s: float = _s(
        5.0,
        "changes/s",
        "joins and seat moves one table accepts per second from one process, and resumes each of "
        "its seats accepts (a refused join counts nothing); past it: `limit/exceeded`, nothing "
        "changes (game actions are not counted)",
    )
    table_changes_burst: int = _s(20, "changes", "changes a table accepts at once before `table_changes_per_s` applies")
    seat_moves_per_min: float = _s(
        6.0,
        "moves/min",
        "moves to another seat in the lobby (`sit`) one person makes per minute, per process, before "
        "the table's `table_changes_per_s`; past it: `limit/exceeded`, nothing changes (a person "
        "hopping between seats drained the budget the host's requests share)",
    )
    seat_moves_burst: int = _s(4, "moves", "moves a person may make at once before `seat_moves_per_min` applies")
    private_steps_per_s: float = _s(
        4.0,
        "steps/s",
        "steps a seat takes that nobody else sees (a step of a decision made in any order, or its undo), per "
        "seat and process; past it: `limit/exceeded`",
    )
    private_steps_burst: int = _s(
        40, "steps", "private steps a seat may take at once before `private_steps_per_s` applies"
    )
    seat_resumes_per_min: int = _s(
        30,
        "resumes",
        "returns to one seat in a minute, counted in the store across processes (0: no limit); past "
        "it: `limit/exceeded`",
    )
    log_keep: int = _s(
        2000,
        "versions",
        "log entries a table keeps (the latest; older ones are dropped as new ones come): a table's "
        "storage stays bounded however long it lives; at least `max_resume_updates`",
    )
    store_full_pct: int = _s(
        80,
        "percent",
        "of the store's memory limit (Redis `maxmemory`); above it new tables get `server/full` while "
        "live ones play on in the room left (a Redis at its limit with `noeviction` refuses every write)",
    )
    memory_check_s: float = _s(5.0, "s", "how often the store's memory use is read (`store_full_pct`)")
    table_ttl_s: int = _s(86_400, "s", "a lobby or match with no change for this long expires")
    finished_ttl_s: int = _s(
        3600,
        "s",
        "a finished match (or a closed lobby) expires after this with no change",
    )
    archive_ttl_s: int = _s(
        2_592_000,
        "s",
        "a finished match's archive (its replay, `/replay/<id>`) is kept this long, whatever becomes of its "
        "table (0: matches are not archived)",
    )
    archive_full_pct: int = _s(
        70,
        "percent",
        "of the store's memory limit; above it finished matches are no longer archived (below "
        "`store_full_pct`: archives give way before new tables, and both before live games)",
    )
    deal_board_ttl_s: int = _s(
        2_592_000,
        "s",
        "a deal's board (the results of every round played from it, `/deal/<code>`) is kept this long after "
        "its last round (0: no board is kept)",
    )
    deal_board_size: int = _s(50, "rounds", "a deal's board keeps the results of its newest rounds, this many")
    replica_wait_ms: int = _s(
        1000,
        "ms",
        "a commit is acknowledged once a replica of its Redis master has it (`WAIT 1`), when the master "
        "has replicas: how long one wait lasts (after 10 a commit is acknowledged anyway, logged); "
        "0: acknowledged once the master has it",
    )
    commit_attempts: int = _s(
        5,
        "attempts",
        "compare-and-set retries of one change under contention; past it: `internal`",
    )

    # ------------------------------------------------------------------ processes and timers
    heartbeat_s: float = _s(2.0, "s", "how often a process says it is alive")
    heartbeat_ttl_s: float = _s(6.0, "s", "a process silent for this long is dead: its players count as away")
    downtime_s: float = _s(
        10.0,
        "s",
        "a gap with no live server longer than this is given back to every timer at start",
    )
    due_lease_s: float = _s(
        10.0,
        "s",
        "a claimed timer whose process dies comes due again after this; also the period of the dead-process check",
    )
    due_poll_s: float = _s(
        0.25,
        "s",
        "longest sleep of the timer loop (timers set by other processes are seen within it)",
    )
    due_batch: int = _s(32, "timers", "timers claimed at once")
    due_slack_ms: int = _s(
        20,
        "ms",
        "timers may run this much late, so that those falling due close together are claimed in one round trip",
    )
    presence_check_s: float = _s(
        10.0,
        "s",
        "a player awaited this long is checked: if their server process is dead, they count as away",
    )
    shutdown_timeout_s: float = _s(
        10.0,
        "s",
        "time to finish in-flight work on SIGTERM before closing anyway",
    )

    # ------------------------------------------------------------------ talk at the table and the call
    chat_max_chars: int = _s(200, "characters", "longest chat line (after NFKC); past it: `talk/bad_text`")
    talk_keep: int = _s(50, "lines", "chat lines and reactions a table keeps for late comers and reloads")
    talk_per_s: float = _s(
        1.0, "messages/s", "chat lines and reactions per seat and process; past it: `limit/exceeded`"
    )
    talk_burst: int = _s(5, "messages", "chat lines and reactions a seat may send at once before `talk_per_s` applies")
    signal_per_s: float = _s(10.0, "messages/s", "call signals per connection; past it: `limit/exceeded`")
    signal_burst: int = _s(40, "messages", "call signals a connection may send at once")
    call_per_s: float = _s(
        3.0,
        "messages/s",
        "`call` messages (joining, leaving, microphone, camera, speaking) per connection; each is sent to "
        "everyone at the table; past it: `limit/exceeded`",
    )
    call_burst: int = _s(10, "messages", "`call` messages a connection may send at once")
    max_signal_chars: int = _s(16_000, "characters", "most characters in one call signal; past it: `limit/exceeded`")
    signal_in_bytes_per_s: int = _s(
        32_000,
        "bytes/s",
        "call signals one connection receives, from everyone in the call together (bursts of four times "
        "as much); past it they are dropped, so that a flood never drowns a slow link",
    )
    ice_servers: str | None = _s(
        None,
        "URLs",
        "comma-separated STUN/TURN URLs for the call (`turn:turn.example.org:3478?transport=udp`); unset: none "
        "(host candidates only: people on one network). Never a public server by default",
    )
    turn_secret: str | None = _s(
        None,
        "secret",
        "shared secret of the TURN server (coturn `static-auth-secret` with `use-auth-secret`): each connection "
        "in the call gets its own credentials for `turn_ttl_s`; unset: TURN URLs get no credentials",
    )
    turn_ttl_s: int = _s(3600, "s", "how long the TURN credentials given to one connection are valid")

    # ------------------------------------------------------------------ derived
    @property
    def codec_limits(self) -> CodecLimits:
        return CodecLimits(
            max_frame_bytes=self.max_frame_bytes,
            max_str_len=self.max_str_bytes,
            max_array_len=self.max_array_len,
            max_map_len=self.max_map_len,
            max_depth=self.max_depth,
        )

    @property
    def origin(self) -> str:
        """The public origin invite links use (no trailing slash)."""
        if self.public_origin:
            return self.public_origin.rstrip("/")
        host = "127.0.0.1" if self.host in ("", "0.0.0.0", "::") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def game_modules(self) -> tuple[str, ...]:
        """The modules named by ``games``, in order."""
        return tuple(m.strip() for m in (self.games or "").split(",") if m.strip())

    def ice_urls(self) -> tuple[str, ...]:
        """The URLs of ``ice_servers``, in order."""
        return tuple(u.strip() for u in (self.ice_servers or "").split(",") if u.strip())

    def invite_link(self, code: str) -> str:
        return f"{self.origin}/?join={code}"

    def limits(self) -> dict[str, Any]:
        """What ``welcome.limits`` tells clients."""
        from meja.protocol import messages

        return {
            "max_frame_bytes": self.max_frame_bytes,
            # the encoding limits of a client frame (breaking one closes the connection, 4000)
            "max_str_bytes": self.max_str_bytes,
            "max_array_len": self.max_array_len,
            "max_map_len": self.max_map_len,
            "max_depth": self.max_depth,
            "rate_per_s": self.rate_per_s,
            "rate_burst": self.rate_burst,
            "max_name_chars": messages.MAX_NAME_CHARS,
            "room_code_chars": 6,
            "max_tables_per_connection": self.max_tables_per_connection,
            "grace_s": [self.grace_min_s, self.grace_max_s],
            "turn_limit_s": [self.turn_limit_min_s, self.turn_limit_max_s],
            "chat_max_chars": self.chat_max_chars,
            "talk_per_s": self.talk_per_s,
            "talk_burst": self.talk_burst,
            "signal_per_s": self.signal_per_s,
            "signal_burst": self.signal_burst,
            "max_signal_chars": self.max_signal_chars,
            "call_per_s": self.call_per_s,
            "call_burst": self.call_burst,
            # whether a TURN relay is configured: without one, "hide addresses" cannot connect a call
            "call_relay": any(u.startswith(("turn:", "turns:")) for u in self.ice_urls()),
        }

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (checked like the environment)."""
        new = dataclasses.replace(self, **changes)
        new.check()
        return new

    def check(self) -> None:
        """Refuse combinations that cannot work."""
        problems = []
        if not 0 <= self.port < 65536:
            problems.append(f"port {self.port!r} is not a TCP port")
        if self.bot_delay_min_ms > self.bot_delay_max_ms:
            problems.append("bot_delay_min_ms is above bot_delay_max_ms")
        if not 1 <= self.store_full_pct <= 100:
            problems.append("store_full_pct must be 1-100")
        if self.deal_board_ttl_s < 0 or not 1 <= self.deal_board_size <= 1000:
            problems.append("deal_board_ttl_s must be at least 0 and deal_board_size 1-1000")
        if not 1 <= self.archive_full_pct <= 100 or self.archive_ttl_s < 0:
            problems.append("archive_full_pct must be 1-100 and archive_ttl_s at least 0")
        if self.log_keep < max(self.max_resume_updates, 1):
            problems.append("log_keep must be at least max_resume_updates (and 1)")
        if self.bot_react_min_ms > self.bot_react_max_ms:
            problems.append("bot_react_min_ms is above bot_react_max_ms")
        if not self.grace_min_s <= self.grace_s <= self.grace_max_s:
            problems.append(f"grace_s {self.grace_s} is outside {self.grace_min_s}..{self.grace_max_s}")
        if self.turn_limit_s is not None and not self.turn_limit_min_s <= self.turn_limit_s <= self.turn_limit_max_s:
            problems.append(
                f"turn_limit_s {self.turn_limit_s} is outside {self.turn_limit_min_s}..{self.turn_limit_max_s}"
            )
        if self.heartbeat_ttl_s <= self.heartbeat_s:
            problems.append("heartbeat_ttl_s must be longer than heartbeat_s")
        if self.rate_per_s <= 0 or self.rate_burst < 1:
            problems.append("rate_per_s and rate_burst must be positive")
        if self.replay_steps_per_s <= 0 or self.replay_steps_burst < 1:
            problems.append("replay_steps_per_s and replay_steps_burst must be positive")
        if not 0 <= self.bot_nice <= 19:
            problems.append("bot_nice must be 0-19")
        if self.outbox_max_bytes < 64 * 1024:
            problems.append("outbox_max_bytes must be at least 65536")
        rates = (self.talk_per_s, self.signal_per_s, self.call_per_s)
        if min(rates) <= 0 or min(self.talk_burst, self.signal_burst, self.call_burst) < 1:
            problems.append("talk_per_s, signal_per_s, call_per_s and their bursts must be positive")
        from meja.protocol.messages import MAX_CHAT_CHARS

        if not 1 <= self.chat_max_chars <= MAX_CHAT_CHARS:
            problems.append(f"chat_max_chars must be 1-{MAX_CHAT_CHARS}")
        for url in self.ice_urls():
            if not url.startswith(("stun:", "turn:", "turns:")):
                problems.append(f"ice_servers: {url!r} must start with stun:, turn: or turns:")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
                problems.append(f"{f.name} may not be negative")
        if self.redis_url and self.redis_url.partition("://")[0] not in URL_SCHEMES:
            schemes = ", ".join(f"{s}://" for s in URL_SCHEMES)
            problems.append(f"redis_url {self.redis_url!r} must start with one of {schemes}")
        if self.public_origin and not self.public_origin.startswith(("http://", "https://")):
            problems.append(f"public_origin {self.public_origin!r} must start with http:// or https://")
        if problems:
            raise SettingsError("; ".join(problems))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``MEJA_*`` variables (``os.environ`` by default), then ``overrides``."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None or raw.strip() == "":
                continue
            values[f.name] = _parse(f.name, f.type, raw.strip())
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = cls(**values)
        if settings.turn_limit_s == 0:
            settings = dataclasses.replace(settings, turn_limit_s=None)
        settings.check()
        return settings


def _parse(name: str, kind: Any, raw: str) -> Any:
    kind = str(kind)
    try:
        if kind.startswith("bool"):
            low = raw.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if kind.startswith("int"):
            return int(raw)
        if kind.startswith("float"):
            return float(raw)
        return raw
    except ValueError:
        raise SettingsError(f"{ENV_PREFIX}{name.upper()}={raw!r} does not read as {kind}") from None


def settings_table() -> str:
    """The settings as a Markdown table: name, variable, default, unit, meaning."""
    lines = ["| setting | environment | default | unit | meaning |", "|---|---|---|---|---|"]
    for f in fields(Settings):
        default = f.default
        shown = "unset" if default is None else f"`{default}`"
        lines.append(
            f"| `{f.name}` | `{ENV_PREFIX}{f.name.upper()}` | {shown} | {f.metadata['unit']} | {f.metadata['doc']} |"
        )
    return "\n".join(lines)
