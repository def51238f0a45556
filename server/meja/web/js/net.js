// @ts-check
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

/** A message of the wire (msgpack map): `type` and its fields. @typedef {Record<string, any>} Message */

export class ServerError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * How long to wait before reconnection attempt ``attempt`` (0 first): a random half to all of a
 * ceiling that doubles each time, up to BACKOFF_CAP_MS.
 * @param {number} attempt
 * @param {() => number} [random]
 */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export class Connection {
  /**
   * handlers: onMessage(msg) for server pushes (state, update, unanswered errors),
   * onOpen(welcome) after each welcome (its `catalog` lists the server's games), onStatus({state, delayMs, code}) for the banner.
   * @param {{onMessage: (msg: Message) => void, onOpen: (welcome: Message) => void,
   *   onStatus: (status: {state: string, delayMs?: number, code?: number}) => void}} handlers
   */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    /** Requests waiting for their answer, by id. @type {Map<number, {resolve: (msg: Message) => void, reject: (err: Error) => void, timer: ReturnType<typeof setTimeout>}>} */
    this.pending = new Map();
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.stopped = false;
    this.ready = false;
    /** Requests waiting for the welcome before they are sent (`request(..., {wait})`). @type {Set<() => void>} */
    this.waiting = new Set();
    /** The welcome's `limits` (PROTOCOL.md 4). @type {Record<string, any> | null} */
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
    this.timer = undefined;
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

  /**
   * One frame from the socket: decoded, a patch made whole (``documents``), then answered or pushed.
   * @param {unknown} data
   * @param {Documents | null} [documents]
   */
  receive(data, documents = null) {
    if (typeof data === "string") return; // the protocol has only binary frames
    let msg;
    try {
      msg = /** @type {any} */ (decode(new Uint8Array(/** @type {ArrayBuffer} */ (data))));
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
      for (const go of [...this.waiting]) go();
      return;
    }
    const re = msg.re;
    if (re !== undefined && this.pending.has(re)) {
      const entry = /** @type {NonNullable<ReturnType<typeof this.pending.get>>} */ (this.pending.get(re));
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

  /**
   * @param {WebSocket} ws
   * @param {number} code
   */
  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    this.dropPending();
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

  /** The requests of a connection that is gone fail as closed (their answers cannot come). */
  dropPending() {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new ServerError("connection/closed", "the connection closed"));
    }
    this.pending.clear();
  }

  reconnectNow() {
    this.dropPending();
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

  /**
   * @param {Message} message
   * @param {boolean} [force] send before the welcome (the hello)
   */
  sendRaw(message, force = false) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.ready && !force)) return false;
    this.ws.send(encode(message));
    return true;
  }

  /**
   * Send a request; resolves with its first answer (which the app also receives) or rejects with ServerError.
   * @param {Message} message
   * @param {{wait?: boolean}} [options] `wait`: a request made before the connection has its
   *   welcome (a Join pressed as the page opens, on a slow phone) is sent once it has, instead of
   *   failing at once as "not connected"; it fails only if no welcome comes within the request's
   *   time (REQUEST_TIMEOUT_MS). Only for requests that start something (host, join, watch): a
   *   move made while the connection is down is refused, as the table may have moved on.
   * @returns {Promise<Message>}
   */
  async request(message, options = {}) {
    if (options.wait && !this.ready && !this.stopped) await this.welcomed();
    return this.send1(message);
  }

  /** Resolves at the next welcome, or rejects as "not connected" after REQUEST_TIMEOUT_MS. @returns {Promise<void>} */
  welcomed() {
    return new Promise((resolve, reject) => {
      const go = () => {
        this.waiting.delete(go);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.delete(go);
        reject(new ServerError("connection/closed", "not connected"));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.add(go);
    });
  }

  /**
   * @param {Message} message
   * @returns {Promise<Message>}
   */
  send1(message) {
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
