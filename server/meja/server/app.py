"""The asyncio shell: one process serving the websocket, ``/healthz`` and the web client.

:class:`MejaServer` owns every resource of a ``meja serve`` process and opens
and closes them in order (``async with``, as in the websockets tutorial's
``step3/app.py``):

1. the store (``--redis URL``, or the embedded in-memory store);
2. the first heartbeat, which gives timers back any time no server was running;
3. the hub (changes from the store to this process's connections), the timer
   runner and the heartbeat, as tasks owned here;
4. the websocket server (``websockets.asyncio.server.serve``) on one port:
   ``/ws`` is the websocket (binary msgpack frames, see PROTOCOL.md),
   ``/healthz`` answers JSON, ``/metrics`` the operators' metrics in the
   Prometheus text format (:mod:`meja.server.metrics`), and every other path is
   a static file of the web client (``server/meja/web/``), all through
   ``process_request``. A HEAD gets the status and headers its GET would get
   (Content-Length included) and no body; methods other than GET and HEAD get 405.

Shutdown (SIGTERM or SIGINT, or leaving the ``async with``): ``/healthz`` says
503 at once (a load balancer stops sending players here); the timer runner
stops claiming and finishes the timers it is running; the websocket server
stops accepting and closes every connection with 1001 (going away: clients
reconnect, to another process if there is one, and resume), each connection
handler finishing the request it is in (its commit included) and recording its
player as away; then the tasks stop and the store closes. Nothing is left
running after ``__aexit__``.

Hardening at this layer: frames over ``max_frame_bytes`` are refused by
websockets itself (close 1009); permessage-deflate is off (no decompression
bombs; our frames are small); the handshake is refused with HTTP 503 past
``max_connections``, and with HTTP 429 past ``max_connections_per_address``
open connections from one client address (:func:`address_key`: an IPv6
address counts by its /64; behind ``trust_proxy`` the address is the last
``X-Forwarded-For`` hop, as for the rate limits); the ``Server`` header names no versions. A room
code's QR image costs milliseconds to draw: the latest ones are kept (:data:`QR_CACHE`), and each
address may ask for :data:`QR_PER_S` a second (bursts of :data:`QR_BURST`), past it 429 (a flood
of them from one client had a process at 90% of a core: a hostile player's finding). Static files are
served only from inside the web root, with ``nosniff`` and a
Content-Security-Policy that lets the page talk only to its own origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import itertools
import json
import logging
import mimetypes
import secrets
import socket
from collections import OrderedDict
from collections.abc import Awaitable
from pathlib import Path
from types import TracebackType
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from meja import games
from meja.protocol.errors import CloseCode
from meja.qr import qr_svg
from meja.store import open_store
from meja.store.base import Store

from .hub import Hub
from .limits import Buckets
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .metrics import SOURCE, Metrics
from .pwa import service_worker
from .rooms import normalize_code
from .service import TableService
from .session import Session
from .settings import Settings
from .timers import DueRunner, Heartbeat

__all__ = ["CSP", "MejaServer", "StaticFiles", "address_key"]

#: QR images kept, by room code (a lobby, its shared screen and its guests ask for the same one)
QR_CACHE: Final = 256
#: QR images one client address may ask for, a second and at once (a page shows one per lobby)
QR_PER_S: Final = 2.0
QR_BURST: Final = 30

log = logging.getLogger("meja.server")

#: The page may load its own scripts, styles and images and talk to its own origin only.
CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
}
_MAX_STATIC_BYTES: Final = 8 * 1024 * 1024


def _response(status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> Response:
    import http

    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-cache"),
        ]
    )
    for key, value in (extra or {}).items():
        headers[key] = value
    return Response(status, http.HTTPStatus(status).phrase, headers, body)


def address_key(address: str) -> str:
    """What the per-address limits count a client address as: an IPv4 address itself (an
    IPv4-mapped IPv6 one as IPv4), an IPv6 address by its /64 (one subscriber's network, where
    every address is theirs to take), and anything that is no IP address as it is."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _headless(response: Response) -> Response:
    """``response`` as the answer to a HEAD: the same status and headers (its Content-Length
    included), no body."""
    return dataclasses.replace(response, body=b"")


#: The body websockets gives a GET of ``/ws`` that asks for no upgrade (for its HEAD's Content-Length).
_NO_UPGRADE: Final = (
    b"Failed to open a WebSocket connection: missing Connection header.\n\n"
    b"You cannot access a WebSocket server directly with a browser. You need a WebSocket client.\n"
)


def lan_address() -> str | None:
    """This machine's IPv4 address on the network its default route leaves by, else ``None``.

    A UDP socket "connected" to an address outside every network sends nothing; the
    kernel only chooses the source address a packet would leave with.
    """
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never routed to anyone
        address: str = probe.getsockname()[0]
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


class StaticFiles:
    """The web client's files, read once and kept (the client is a handful of small files).

    A path that names no file and has no extension (``/play``) is a page of the
    client: it gets ``index.html``, which routes on ``location``. A missing file with
    an extension is 404.
    """

    def __init__(self, root: Path, *, pages: bool = True) -> None:
        self.root = root.resolve()
        #: whether an extensionless path that names no file is a page of the client (index.html)
        self.pages = pages
        self._cache: dict[str, tuple[bytes, str] | None] = {}

    def respond(self, path: str) -> Response:
        found = self._load(path)
        if found is None:
            return _response(404, b"not found\n", "text/plain; charset=utf-8")
        body, content_type = found
        extra = {"Content-Security-Policy": CSP} if content_type.startswith("text/html") else None
        return _response(200, body, content_type, extra)

    def _load(self, path: str) -> tuple[bytes, str] | None:
        if path in self._cache:
            return self._cache[path]
        found = self._read(path)
        if found is None and self.pages and "." not in path.rsplit("/", 1)[-1]:
            # A page route of the client (``/play?deal=CODE``): the client's index.html.
            found = self._read("/")
        if len(self._cache) < 512:
            self._cache[path] = found
        return found

    def _read(self, path: str) -> tuple[bytes, str] | None:
        relative = unquote(path).lstrip("/")
        if "\x00" in relative or "\\" in relative:
            return None
        target = (self.root / relative).resolve()
        if target != self.root and self.root not in target.parents:
            return None  # outside the web root
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or target.name.startswith("."):
            return None
        data = target.read_bytes()
        if len(data) > _MAX_STATIC_BYTES:
            return None
        suffix = target.suffix.lower()
        content_type = _TYPES.get(suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return data, content_type


class MejaServer:
    """One ``meja serve`` process; see the module docstring. ``async with MejaServer(settings) as server``."""

    def __init__(self, settings: Settings, *, store: Store | None = None, process_id: str | None = None) -> None:
        self.settings = settings
        self.process_id = process_id or secrets.token_hex(6)
        self._own_store = store is None
        self._given_store = store
        self.sessions: dict[str, Session] = {}
        self.stopping = False
        self._cids = itertools.count(1)
        #: open connections by client address (address_key), from their handshake on
        self._per_address: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        #: (table, connection) whose seat is being committed back to it (_reclaim), and the task doing it
        self._reclaiming: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._server: Server | None = None
        self._store: Store | None = None
        self._hub: Hub | None = None
        self._service: TableService | None = None
        self.runner: DueRunner | None = None
        self.metrics = Metrics(process_id=self.process_id, store_kind=self.store_kind, process_collector=True)
        web_root = Path(settings.web_root) if settings.web_root else Path(__file__).resolve().parent.parent / "web"
        self.static = StaticFiles(web_root)
        self._qr_images: OrderedDict[str, bytes] = OrderedDict()
        self._qr_budget = Buckets(QR_PER_S, QR_BURST)
        for module in settings.game_modules():
            games.load(module)  # an operator's or a test's own games, beside the built-in ones
        if settings.default_game is not None and settings.default_game not in games.names():
            raise ValueError(f"default_game {settings.default_game!r} is not a game; known: {list(games.names())}")
        #: each game's page module, served at /games/<name>/ (meja.games.GamePlugin.page)
        self.game_pages = {p.name: StaticFiles(p.page, pages=False) for p in games.plugins() if p.page is not None}
        #: the service worker of the installable page (meja.server.pwa), written once: the files are read once too
        self.worker = service_worker(web_root, {p.name: p.page for p in games.plugins() if p.page is not None})

    @property
    def store(self) -> Store:
        assert self._store is not None, "not started"
        return self._store

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "not started"
        return self._hub

    @property
    def service(self) -> TableService:
        assert self._service is not None, "not started"
        return self._service

    def _wake(self, due_ms: int) -> None:
        if self.runner is not None:
            self.runner.wake(due_ms)

    @property
    def port(self) -> int:
        """The port actually bound (useful with ``port=0``)."""
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def store_kind(self) -> str:
        return "redis" if self.settings.redis_url else "memory"

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> MejaServer:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def start(self) -> None:
        """Bind, open the store, start the tasks and the websocket server (see the module docstring)."""
        sock = socket.create_server((self.settings.host, self.settings.port), reuse_port=False)
        if self.settings.port == 0:
            # Tests ask for any free port: links must name the one we got.
            self.settings = self.settings.replace(port=sock.getsockname()[1])
        if not self.settings.public_origin and self.settings.host in ("", "0.0.0.0", "::"):
            # Bound to every interface with no public origin: invite links and QR codes name
            # this machine's address on its network, which a phone in the room can open
            # (127.0.0.1 would be the phone itself).
            lan = lan_address()
            if lan is not None:
                self.settings = self.settings.replace(public_origin=f"http://{lan}:{self.settings.port}")
        settings = self.settings
        try:
            self._store = (
                self._given_store
                if self._given_store is not None
                else open_store(settings.redis_url, replica_wait_ms=settings.replica_wait_ms)
            )
            self._hub = Hub(self.store, settings, self.process_id)
            self._service = TableService(
                self.store,
                self.hub,
                settings,
                self.process_id,
                on_schedule=self._wake,
                on_commit=self.metrics.on_commit,
            )
            self.hub.on_orphan = self._reclaim
            self.runner = DueRunner(self.store, self.service, settings, metrics=self.metrics)
            heartbeat = Heartbeat(self.store, self.process_id, settings, metrics=self.metrics)
            self.service.reached_store_for = heartbeat.reached_store_for
            self.runner.on_unreachable = heartbeat.lost
            self.hub.on_error = lambda exc: self.metrics.redis_error("server.hub", exc)
            self.store.on_error = lambda exc: self.metrics.redis_error("store.redis", exc)
            hub = self.hub
            service = self.service
            self.metrics.bind(
                connections=self.sessions.__len__,
                tables=lambda: [cached.table for cached in list(hub.tables.values())],
                store=self.store,
                store_memory=lambda: service.store_memory,
                store_full=lambda: service.store_full,
                archives=lambda: (service.archiver.written, service.archiver.skipped),
            )
            await heartbeat.first()
            self._tasks = [
                asyncio.create_task(self.hub.run(), name="meja hub"),
                asyncio.create_task(self.runner.run(), name="meja timers"),
                asyncio.create_task(heartbeat.run(), name="meja heartbeat"),
                asyncio.create_task(self.service.watch_memory(), name="meja memory"),
            ]
            self._server = await serve(
                self._handler,
                sock=sock,
                process_request=self._http,
                max_size=settings.max_frame_bytes,
                compression=None,
                ping_interval=settings.ping_interval_s or None,
                ping_timeout=settings.ping_timeout_s or None,
                close_timeout=settings.close_timeout_s,
                server_header="meja",
            )
        except BaseException:
            sock.close()
            await self._stop_tasks()
            if self._own_store and self._store is not None:
                await self._store.aclose()
            raise
        where = f"ws://{settings.host}:{self.port}/ws"
        host = "127.0.0.1" if settings.host in ("", "0.0.0.0", "::") else settings.host
        page = settings.public_origin.rstrip("/") if settings.public_origin else f"http://{host}:{self.port}"
        # Said on stdout, not only in the log: it is the first thing a new user needs.
        print(f"Meja is up: open {page}/ in a browser", flush=True)
        if self.store_kind == "memory":
            log.warning(
                "meja %s serving %s on the embedded in-memory store: tables do not survive a restart "
                "(use --redis URL to keep them and to run several processes)",
                self.process_id,
                where,
            )
        else:
            log.info("meja %s serving %s; tables live in Redis", self.process_id, where)
        if not settings.public_origin:
            log.warning(
                "invite links use %s, which only this machine can open: serve with --host 0.0.0.0 to invite "
                "phones and friends on this network, or set --public-origin to the address players can reach",
                settings.origin,
            )

    async def stop(self) -> None:
        """Graceful shutdown; see the module docstring."""
        if self.stopping:
            return
        self.stopping = True
        settings = self.settings
        if self.runner is not None:
            await self.runner.stop()
        if self._server is not None:
            # Stop accepting, then drain: read no new requests, let the one in progress on each
            # connection commit and its reply reach the connection's queue, and only then close
            # with 1001 after what is queued. (Closing the sockets at once dropped the replies of
            # actions already committed: tests/faults/test_faults_processes.py.)
            # Every wait here is bounded; past the bounds the websockets server closes what is left.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + settings.shutdown_timeout_s
            for session in list(self.sessions.values()):
                session.draining = True
            while loop.time() < deadline and not all(s.is_settled() for s in list(self.sessions.values())):
                await asyncio.sleep(0.02)
            for session in list(self.sessions.values()):
                session.close_soon(CloseCode.GOING_AWAY, "server shutting down")
            # Let the writers flush what is queued and close; each handler removes its session.
            flushed = loop.time() + settings.close_timeout_s + 1.0
            while self.sessions and loop.time() < flushed:
                await asyncio.sleep(0.02)
            self._server.close(close_connections=True)
            try:
                await asyncio.wait_for(self._server.wait_closed(), settings.shutdown_timeout_s)
            except TimeoutError:
                log.warning("connections still open after %.0f s; closing anyway", settings.shutdown_timeout_s)
        await self._stop_tasks()
        if self._service is not None:
            # The deal boards of rounds that just ended are written before the store closes (bounded;
            # an archive is a timer: one not written stays due for the next process).
            try:
                await asyncio.wait_for(self._service.archived(), settings.shutdown_timeout_s)
            except TimeoutError:
                log.warning("deal boards still being written after %.0f s; left", settings.shutdown_timeout_s)
        if self._service is not None and self._service.bot_pool is not None:
            self._service.bot_pool.close()
        if self._service is not None:
            self._service.archiver.close()
        if self._own_store and self._store is not None:
            await self._store.aclose()
        log.info("meja %s stopped", self.process_id)

    async def _stop_tasks(self) -> None:
        self._tasks += list(self._reclaiming.values())
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Bounded, like every wait of the shutdown: a task that swallowed its cancellation
            # is reported and left, not waited for forever.
            done, pending = await asyncio.wait(self._tasks, timeout=self.settings.shutdown_timeout_s)
            for task in done:
                failure = None if task.cancelled() else task.exception()
                if failure is not None:
                    self.metrics.redis_error("server", failure)
                    log.error("task %r had failed", task.get_name(), exc_info=failure)
            for task in pending:
                log.error("task %r did not stop on cancel; left behind", task.get_name())
        self._tasks = []

    def _reclaim(self, table_id: str, member: Any) -> None:
        """The hub found a live member whose seat nobody holds: commit it back to it (a task)."""
        if member.token is None or member.seat is None or self.stopping:
            return
        key = (table_id, member.session.cid)
        if key in self._reclaiming:
            return
        seat, token, conn = member.seat, member.token, member.session.conn

        async def reclaim() -> None:
            try:
                await self.service.reclaim(table_id, seat=seat, token_hash_=token, conn=conn)
            except Exception:
                log.exception("could not give table %s seat %s back to its connection", table_id, seat)
            finally:
                self._reclaiming.pop(key, None)

        self._reclaiming[key] = asyncio.get_running_loop().create_task(reclaim(), name=f"meja reclaim {table_id}")

    # ------------------------------------------------------------------ HTTP

    def _http(self, connection: ServerConnection, request: Request) -> Response | Awaitable[Response] | None:
        """``process_request``: GET is served by :meth:`_get`; HEAD gets the headers of its GET and
        no body (RFC 9110 9.3.2); any other method 405."""
        if request.method == "GET":
            return self._get(connection, request)
        if request.method != "HEAD":
            return _response(405, b"only GET and HEAD\n", "text/plain; charset=utf-8", {"Allow": "GET, HEAD"})
        if urlsplit(request.path).path == "/ws":
            # What a GET without an upgrade gets from websockets (its reject(): 426), headers only.
            headers = Headers(
                [
                    ("Connection", "close"),
                    ("Content-Length", str(len(_NO_UPGRADE))),
                    ("Content-Type", "text/plain; charset=utf-8"),
                    ("Upgrade", "websocket"),
                ]
            )
            return Response(426, "Upgrade Required", headers, b"")
        answer = self._get(connection, request)
        if answer is None or isinstance(answer, Response):
            return None if answer is None else _headless(answer)

        async def headless(pending: Awaitable[Response]) -> Response:
            return _headless(await pending)

        return headless(answer)

    def _get(self, connection: ServerConnection, request: Request) -> Response | Awaitable[Response] | None:
        path = urlsplit(request.path).path
        if path == "/ws":
            if self.stopping:
                return _response(503, b"shutting down\n", "text/plain; charset=utf-8")
            if len(self.sessions) >= self.settings.max_connections:
                return _response(503, b"too many connections\n", "text/plain; charset=utf-8")
            return self._admit(connection, request)  # None: the websocket handshake goes on
        if path == "/healthz":
            body = {
                "status": "stopping" if self.stopping else "ok",
                "process": self.process_id,
                "store": self.store_kind,
                "tables": len(self.hub.tables),
                "connections": len(self.sessions),
            }
            return _response(503 if self.stopping else 200, json.dumps(body).encode(), "application/json")
        if path == "/metrics":
            return self._metrics()
        if path.startswith("/qr/") and path.endswith(".svg"):
            # The lobby's QR code of the invite link, built from the public origin (never the
            # Host header: a phone cannot reach 127.0.0.1). It encodes text only; no table lookup.
            code = normalize_code(path[len("/qr/") : -len(".svg")])
            if code is None:
                return _response(404, b"not a room code\n", "text/plain; charset=utf-8")
            if not self._qr_budget.bucket(self._address(connection, request)).take():
                return _response(429, b"too many QR codes asked for: wait a moment\n", "text/plain; charset=utf-8")
            svg = self._qr_images.get(code)
            if svg is None:
                svg = self._qr_images[code] = qr_svg(self.settings.invite_link(code)).encode()
                while len(self._qr_images) > QR_CACHE:
                    self._qr_images.popitem(last=False)
            self._qr_images.move_to_end(code)
            return _response(200, svg, "image/svg+xml")
        if path == "/sw.js" and self.worker is not None:
            return _response(200, self.worker, "text/javascript; charset=utf-8")
        if path.startswith("/games/"):
            name, _, rest = path[len("/games/") :].partition("/")
            pages = self.game_pages.get(name)
            if pages is None or not rest:
                return _response(404, b"not found\n", "text/plain; charset=utf-8")
            return pages.respond("/" + rest)
        return self.static.respond(path)

    async def _metrics(self) -> Response:
        # Answered while stopping too: the last scrape sees the drain.
        return _response(200, await self.metrics.render(), METRICS_CONTENT_TYPE)

    # ------------------------------------------------------------------ websocket

    def _admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """The per-address connection limit: count this handshake's address until its
        connection is lost, or refuse it with 429 past ``max_connections_per_address``.

        Counted from the handshake (not from the session, which starts a few awaits later),
        so that handshakes arriving together cannot all slip under the limit.
        """
        limit = self.settings.max_connections_per_address
        if not limit:
            return None
        address = self._address(connection, request)
        counts = self._per_address
        if counts.get(address, 0) >= limit:
            return _response(
                429, f"too many connections from this address (at most {limit})\n".encode(), "text/plain; charset=utf-8"
            )
        counts[address] = counts.get(address, 0) + 1

        def release(_: object) -> None:
            left = counts.get(address, 1) - 1
            if left > 0:
                counts[address] = left
            else:
                counts.pop(address, None)

        connection.connection_lost_waiter.add_done_callback(release)
        return None

    def _address(self, ws: ServerConnection, request: Request | None = None) -> str:
        """The client's address as the per-address limits count it (:func:`address_key`)."""
        request = request if request is not None else ws.request
        if self.settings.trust_proxy and request is not None:
            forwarded = request.headers.get("X-Forwarded-For")
            if forwarded:
                return address_key(forwarded.split(",")[-1].strip())
        remote: Any = ws.remote_address
        return address_key(str(remote[0]) if isinstance(remote, tuple) else str(remote))

    async def _handler(self, ws: ServerConnection) -> None:
        cid = f"c{next(self._cids)}"
        # This task's commits are a person's doing (metrics: the source of an action).
        SOURCE.set("person")
        raw = ws.transport.get_extra_info("socket")
        if raw is not None and raw.family in (socket.AF_INET, socket.AF_INET6):
            # No Nagle: an update right after a reply must not wait for the client's delayed ACK
            # (40 ms). asyncio sets this itself only on sockets it created with IPPROTO_TCP.
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        async def send(frame: bytes) -> None:
            await ws.send(frame)

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        session = Session(
            cid=cid,
            address=self._address(ws),
            settings=self.settings,
            service=self.service,
            hub=self.hub,
            send=send,
            close=close,
            metrics=self.metrics,
        )
        self.sessions[cid] = session
        if self.stopping:  # a handshake that finished while shutting down
            session.close_soon(CloseCode.GOING_AWAY, "server shutting down")
        writer = asyncio.create_task(self._write(session), name=f"meja writer {cid}")
        try:
            async for frame in ws:
                await session.receive(frame)
                if session.closing:
                    break
        except ConnectionClosed:
            pass
        finally:
            queued_close = session.closing
            try:
                await session.finish()
            finally:
                if queued_close:
                    # Let the writer send what is queued and the close code (bounded).
                    with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                        await asyncio.wait_for(asyncio.shield(writer), self.settings.close_timeout_s)
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
                self.sessions.pop(cid, None)
                _let_go(ws)

    async def _write(self, session: Session) -> None:
        with contextlib.suppress(ConnectionClosed):
            await session.write_loop()


def _let_go(ws: ServerConnection) -> None:
    """Break the reference cycle a closed connection leaves (issue 25, finding 2).

    websockets keeps the parser's last exception (``protocol.parser_exc``: the end of the
    stream, or a refused frame); its traceback holds the parser's generator frame, whose
    locals hold the last frame read (up to ``max_frame_bytes``), and that frame holds the
    protocol: a cycle that only the cyclic collector frees, which ``meja serve`` runs seldom.
    Dropping the traceback and the exception lets reference counting free it all at once.
    """
    protocol = ws.protocol
    exc = protocol.parser_exc
    if exc is not None:
        exc.__traceback__ = None
        exc.__context__ = exc.__cause__ = None
        protocol.parser_exc = None
    with contextlib.suppress(Exception):
        protocol.parser.close()  # the generator: its frame and locals go now
