// The connection to the table server: one WebSocket at /ws on the page's origin, binary
// msgpack frames (client-protocol/PROTOCOL.md section 1), requests with ids answered by
// `re`, and automatic reconnection.
//
// Reconnection: after an unexpected close the client waits min(cap, base * 2^attempt)
// with full jitter (a random delay between half of it and all of it, so that a server
// restart is not met by every client at the same instant), then opens a new socket and
// says `hello`; the app then `resume`s its seat. The backoff grows with every failure and
// is reset only by the app's `healthy()`, once what it came back for worked (its resume
// got the table's state), not by the `welcome` alone: a server that welcomes and then
// closes on every resume (4004: its outbox overflowed) must not be met again every
// quarter second for ever. Close 4001 (the seat was opened by
// another connection) and 4003 (unsupported protocol) are final: no reconnection, the
// app says why. A page restored from the back/forward cache has a dead socket:
// `pageshow` with `persisted` reconnects at once (docs/architecture.md 5).

import { encode } from "../vendor/msgpack/encode.mjs";
import { decode } from "../vendor/msgpack/decode.mjs";
import { Documents } from "./patch.js";

export const PROTOCOL = 1;
export const CLIENT = "meja-web/1";
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10000;
const REQUEST_TIMEOUT_MS = 15000;
/** Close codes after which reconnecting cannot help (PROTOCOL.md section 5). */
const FINAL_CLOSES = new Set([4001, 4003]);

export class ServerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export class Connection {
  /**
   * handlers: onMessage(msg) for server pushes (state, update, unanswered errors),
   * onOpen(welcome) after each welcome (its `catalog` lists the server's games), onStatus({state, delayMs, code}) for the banner.
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.ready = false;
    this.limits = null;
    this.url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
    window.addEventListener("pageshow", (ev) => {
      if (ev.persisted) this.reconnectNow();
    });
    window.addEventListener("online", () => {
      if (!this.ready && !this.stopped) this.reconnectNow();
    });
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    this.handlers.onStatus({ state: "connecting" });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    // Updates come as patches of what this socket was last sent (PROTOCOL.md 7.5): applied here,
    // so the page sees whole updates. A new socket starts from its own state messages.
    const documents = new Documents();
    ws.onopen = () => {
      this.sendRaw({ type: "hello", protocol: PROTOCOL, client: CLIENT, diffs: true }, true);
    };
    ws.onmessage = (ev) => this.receive(ev.data, documents);
    ws.onclose = (ev) => this.closed(ws, ev.code);
    ws.onerror = () => {}; // a close follows; it decides what to do
  }

  receive(data, documents = null) {
    if (typeof data === "string") return; // the protocol has only binary frames
    let msg;
    try {
      msg = decode(new Uint8Array(data));
    } catch (err) {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    try {
      if (documents) msg = documents.take(msg);
    } catch (err) {
      // A patch that does not fit (a server bug): start again from a whole state.
      this.reconnectNow();
      return;
    }
    if (msg.type === "welcome") {
      this.limits = msg.limits || null;
      this.ready = true;
      this.handlers.onStatus({ state: "open" });
      this.handlers.onOpen(msg);
      return;
    }
    const re = msg.re;
    if (re !== undefined && this.pending.has(re)) {
      const entry = this.pending.get(re);
      this.pending.delete(re);
      clearTimeout(entry.timer);
      // The first answer settles the request: `joined` for host/join/resume (their
      // `state` follows, without `re`), `update` for act/seat/start, `state` for watch.
      if (msg.type === "error") {
        entry.reject(new ServerError(msg.code, msg.message));
        return;
      }
      entry.resolve(msg);
    }
    if (msg.type !== "pong") this.handlers.onMessage(msg);
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new ServerError("connection/closed", "the connection closed"));
    }
    this.pending.clear();
    if (this.stopped) return;
    if (FINAL_CLOSES.has(code)) {
      this.stopped = true;
      this.handlers.onStatus({ state: "closed", code });
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    this.handlers.onStatus({ state: "waiting", delayMs: delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** What the connection was opened for worked (a resume got its state): the next failure waits the least again. */
  healthy() {
    this.attempt = 0;
  }

  reconnectNow() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      try {
        old.close();
      } catch (err) {
        /* already closed */
      }
    }
    this.ready = false;
    this.connect();
  }

  /** Close for good (leaving): no reconnection. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }

  sendRaw(message, force = false) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.ready && !force)) return false;
    this.ws.send(encode(message));
    return true;
  }

  /** Send a request; resolves with its first answer (which the app also receives) or rejects with ServerError. */
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.sendRaw({ ...message, id })) {
        reject(new ServerError("connection/closed", "not connected"));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ServerError("connection/timeout", "no answer from the server"));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
    });
  }
}
