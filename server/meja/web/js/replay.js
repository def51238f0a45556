// @ts-check
// The replay of a finished match (issue 21): `/replay/<id>`, the id the finished table's map
// names (`archive`). The shell knows no game: the server deals the match again from its archive
// and applies its moves through the rules (PROTOCOL.md 18), and sends, step by step, the view of
// the seat chosen (or every seat's, with every hand open) and the events of that step. The page
// applies no rule: it draws each view through the game's own page module, as the live table
// does, and says each step's move as the live table's caption does.
//
// * Steps: buttons (first, back, forward, last), the keys ← → Home End, and a slider; the step is
//   in the address (`?step=N&seat=S`, `seat=all` for every hand open), so a link points at one
//   moment. Steps come 50 at a time (`replay {first, count}`), kept per seat.
// * "Verify" recomputes every round's commitment from the code and salt the record reveals
//   (fair.js: SHA-256 in the page), and says whether the server's rules replayed every recorded
//   move to the recorded end (`match.check`): a record changed after the match fails it.
// * This browser's recent matches (localStorage "meja.replays", at most 20) are listed on the
//   home page; the summary of a finished match links here (app.js records them).

import { sha256Hex } from "./fair.js";
import { HandWidget } from "./hand.js";
import { STRINGS, isolate, t, textFor } from "./strings.js";
import { el } from "./ui.js";
import { REPLAY_STRINGS } from "./replay_strings.js";

for (const [lang, table] of Object.entries(REPLAY_STRINGS)) Object.assign(STRINGS[lang], table);

const RECENT_KEY = "meja.replays";
const RECENT_MAX = 20;
const PAGE = 50;
/** How many steps before the one shown the game's module hears again (a round's summary lists what its moves took). */
const HEARD = 100;

/** The archive id of a replay address (`/replay/<id>`), or undefined. */
/** @param {string} pathname */
export function replayId(pathname) {
  const m = /^\/replay\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname);
  return m ? m[1] : undefined;
}

/**
 * A replay's address; with `seat`, watched from that seat (a player's own, who opened it from
 * their table: a new user's replay opened on "The table (no hand)").
 * @param {string} id @param {number | null} [seat]
 */
export function replayHref(id, seat = null) {
  return `/replay/${encodeURIComponent(id)}${Number.isInteger(seat) ? `?seat=${seat}` : ""}`;
}

/** This browser's recent finished matches, newest first: [{id, game, at, names}]. */
export function recentReplays() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.id === "string") : [];
  } catch {
    return [];
  }
}

/** Remember a finished match of this browser (the table map of its end). */
/** @param {import("./contract.js").TableMap} table @param {number | null} [seat] the seat this browser held */
export function rememberReplay(table, seat = null) {
  if (!table || !table.archive) return;
  const before = recentReplays();
  const known = before.find((r) => r.id === table.archive);
  const list = before.filter((r) => r.id !== table.archive);
  const names = (table.seats || []).map((/** @type {{name?: string}} */ s) => s.name);
  // which seats bots played (their name is always "Bot"): listed as the table numbers them, "Bot 3"
  const bots = (table.seats || []).flatMap((/** @type {{kind?: string}} */ s, /** @type {number} */ i) => (s.kind === "bot" ? [i] : []));
  // (the update of leaving the finished table holds no seat: the seat seen before stays)
  const held = Number.isInteger(seat) ? seat : known && Number.isInteger(known.seat) ? known.seat : null;
  // When this browser first saw the match over (its end, near enough), kept: each later look at
  // the finished table moved it (a new user's trial found the list's times moving on a revisit).
  const at = known && Number.isFinite(known.at) ? known.at : Date.now();
  list.push({ id: table.archive, game: table.game, at, names, bots, ...(held !== null ? { seat: held } : {}) });
  list.sort((a, b) => (Number(b.at) || 0) - (Number(a.at) || 0));
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_MAX)));
  } catch {
    // storage full or off: the list is a convenience
  }
}

/**
 * A recent match's players, bots numbered as the table numbers them ("Sari, Dewi, Bot 3, Bot 4").
 * A match remembered before the list kept its bots' seats names them by their name, which is
 * always "Bot" (a person's name may not contain the word).
 * @param {{names?: string[], bots?: number[]}} r
 */
function recentNames(r) {
  const bots = Array.isArray(r.bots) ? new Set(r.bots) : null;
  return (r.names || [])
    .map((name, i) => ((bots ? bots.has(i) : name === "Bot") ? t("seat.bot_name", { n: i + 1 }) : name))
    .join(", ");
}

/** The home page's list of this browser's recent matches (null when there are none). */
/** @param {any} app the App (app.js) */
export function recentPanel(app) {
  const list = recentReplays();
  if (!list.length) return null;
  return el(
    "section",
    { class: "panel replay-recent", "aria-labelledby": "replay-recent-title" },
    el("h2", { id: "replay-recent-title" }, t("replay.recent")),
    el(
      "ul",
      { class: "replay-recent-list", id: "replay-recent" },
      ...list.map((r) => {
        const desc = app.games.get(r.game);
        const title = desc ? app.gameTitle(desc) : r.game;
        const when = new Date(r.at).toLocaleString(document.documentElement.lang || undefined);
        return el("li", {}, el("a", { href: replayHref(r.id, Number.isInteger(r.seat) ? r.seat : null) }, t("replay.recent.item", { game: title, when, names: recentNames(r) })));
      }),
    ),
  );
}

/** The link to a finished match's replay, for its summary (null without an archive). */
/** @param {import("./contract.js").TableMap} table @param {number | null} [seat] the viewer's seat */
export function replayLink(table, seat = null) {
  if (!table || !table.archive || table.status !== "finished") return null;
  return el("p", { class: "replay-link" }, el("a", { href: replayHref(table.archive, seat), id: "replay-link", class: "button-link" }, t("replay.watch")));
}

/** A match's replay answer, a step of it (PROTOCOL.md 18). @typedef {Record<string, any>} Wire */

export class Replay {
  /** @param {any} app the App (app.js) */
  constructor(app) {
    this.app = app;
    /** @type {string | null} */
    this.id = null;
    /** The match (its game, seats, rounds), as the wire has it; null before the first answer. @type {any} */
    this.match = null;
    /** Which game and viewer the module's table was made for. @type {string | null} */
    this.tableKey = null;
    this.step = 0;
    /** A seat, null (a spectator's view) or "all". @type {number | "all" | null} */
    this.seat = null;
    /** `${seat}:${n}` -> step. @type {Map<string, Wire>} */
    this.steps = new Map();
    this.asking = 0;
    /** @type {import("./contract.js").GameTable | null} */
    this.table = null;
    /** @type {import("./contract.js").GameTable[]} */
    this.tables = [];
    // The screen's parts, made by build() before any use (open() builds first).
    const late = /** @type {any} */ (null);
    /** @type {HTMLHeadingElement} */
    this.heading = late;
    /** @type {HTMLParagraphElement} */
    this.who = late;
    /** @type {HTMLUListElement} */
    this.opponents = late;
    /** @type {HTMLDivElement} */
    this.centreSlot = late;
    /** @type {HTMLParagraphElement} */
    this.caption = late;
    /** @type {HTMLParagraphElement} */
    this.turnStatus = late;
    /** @type {HTMLHeadingElement} */
    this.handTitle = late;
    /** @type {HandWidget} */
    this.hand = late;
    /** @type {HTMLDivElement} */
    this.openHands = late;
    /** @type {HTMLDivElement} */
    this.summary = late;
    /** @type {HTMLButtonElement} */
    this.first = late;
    /** @type {HTMLButtonElement} */
    this.back = late;
    /** @type {HTMLButtonElement} */
    this.forward = late;
    /** @type {HTMLButtonElement} */
    this.last = late;
    /** @type {HTMLLabelElement} */
    this.sliderLabel = late;
    /** @type {HTMLInputElement} */
    this.slider = late;
    /** @type {HTMLParagraphElement} */
    this.position = late;
    /** @type {HTMLLabelElement} */
    this.seatLabel = late;
    /** @type {HTMLSelectElement} */
    this.seatSelect = late;
    /** @type {HTMLButtonElement} */
    this.verifyButton = late;
    /** @type {HTMLDivElement} */
    this.verdict = late;
    /** @type {HTMLOListElement} */
    this.rounds = late;
    /** @type {HTMLHeadingElement} */
    this.roundsTitle = late;
    /** @type {HTMLParagraphElement} */
    this.status = late;
    /** @type {HTMLElement} */
    this.felt = late;
    /** @type {HTMLDivElement} */
    this.controls = late;
    /** @type {HTMLElement} */
    this.fair = late;
    /** @type {HTMLDivElement} */
    this.node = late;
    /** @param {KeyboardEvent} ev */
    this.onKeyDown = (ev) => this.key(ev);
    document.addEventListener("keydown", this.onKeyDown);
  }

  /**
   * @param {string} id
   * @param {URLSearchParams} params
   */
  open(id, params) {
    this.id = id;
    const step = Number.parseInt(params.get("step") || "0", 10);
    this.step = Number.isFinite(step) && step >= 0 ? step : 0;
    const seat = params.get("seat");
    this.seat = seat === "all" ? "all" : seat !== null && /^\d+$/.test(seat) ? Number(seat) : null;
    if (!document.querySelector('link[href="/replay.css"]')) document.head.append(el("link", { rel: "stylesheet", href: "/replay.css" }));
    this.build();
    this.app.mount("replay", this.node);
  }

  /** The connection is (again) open and the catalog in: fetch what the screen shows. */
  onOpen() {
    if (this.app.screen === "replay") this.show(this.step);
  }

  build() {
    this.heading = el("h2", { id: "replay-title", tabindex: "-1" });
    this.who = el("p", { class: "replay-who", id: "replay-who" });
    this.opponents = el("ul", { class: "seat-list side-top", id: "replay-seats" });
    this.centreSlot = el("div", { class: "game-slot", id: "game-centre" });
    this.caption = el("p", { class: "move-caption", id: "move-caption", "aria-live": "polite" });
    this.turnStatus = el("p", { class: "turn-status", id: "turn-status" });
    this.handTitle = el("h3", { id: "hand-title" });
    this.hand = new HandWidget({ labelledBy: "hand-title", onChoose: () => {}, emptyText: () => this.gt("table.hand_empty") });
    this.openHands = el("div", { class: "replay-open-hands", id: "replay-open-hands" });
    this.summary = el("div", { class: "replay-summary", id: "replay-summary" });
    this.first = el("button", { type: "button", id: "replay-first", onclick: () => this.show(0) });
    this.back = el("button", { type: "button", id: "replay-back", onclick: () => this.show(this.step - 1) });
    this.forward = el("button", { type: "button", class: "primary", id: "replay-forward", onclick: () => this.show(this.step + 1) });
    this.last = el("button", { type: "button", id: "replay-last", onclick: () => this.show(this.total() - 1) });
    this.sliderLabel = el("label", { for: "replay-slider", id: "replay-slider-label" });
    this.slider = el("input", { type: "range", id: "replay-slider", min: "0", max: "0", value: "0", step: "1" });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.position = el("p", { class: "replay-position", id: "replay-position", "aria-live": "polite" });
    this.seatLabel = el("label", { for: "replay-seat", id: "replay-seat-label" });
    this.seatSelect = el("select", { id: "replay-seat", onchange: () => this.chooseSeat(this.seatSelect.value) });
    this.verifyButton = el("button", { type: "button", id: "replay-verify", onclick: () => this.verify() });
    this.verdict = el("div", { class: "replay-verdict", id: "replay-verdict", role: "status" });
    this.rounds = el("ol", { class: "replay-rounds", id: "replay-rounds" });
    this.roundsTitle = el("h3", { id: "replay-rounds-title" });
    this.status = el("p", { class: "notice", id: "replay-status", role: "alert" });
    this.felt = el(
      "section",
      { class: "felt replay-felt", id: "felt", "aria-labelledby": "replay-title" },
      el("div", { class: "opponents" }, this.opponents),
      el("div", { class: "centre-area", id: "centre-area" }, this.centreSlot, this.caption),
      el("div", { class: "status-row" }, this.turnStatus),
      el("section", { class: "my-area", id: "my-area", "aria-labelledby": "hand-title" }, this.handTitle, this.hand.node, this.openHands),
    );
    this.controls = el(
      "div",
      { class: "replay-controls", id: "replay-controls" },
      el("div", { class: "row replay-buttons" }, this.first, this.back, this.forward, this.last),
      el("div", { class: "replay-slider-row" }, this.sliderLabel, this.slider),
      this.position,
      el("div", { class: "replay-seat-row" }, this.seatLabel, this.seatSelect),
    );
    this.fair = el(
      "section",
      { class: "panel replay-fair", "aria-labelledby": "replay-rounds-title" },
      this.roundsTitle,
      this.rounds,
      this.verifyButton,
      this.verdict,
    );
    this.node = el("div", { class: "table-screen replay-screen" }, el("div", { class: "replay-head" }, this.heading, this.who), this.controls, this.felt, this.summary, this.fair, this.status);
    // The controls, the table and the fair deals show once there is a match to replay: at an
    // address with none (a match still in play, a mistyped id) a new user saw buttons that looked
    // as if they worked over an empty table.
    this.showParts(false);
    this.relabel();
  }

  /**
   * @param {string} key
   * @param {Record<string, any>} [params]
   */
  gt(key, params) {
    return this.match ? textFor(this.match.game)(key, params) : t(key, params);
  }

  relabel() {
    const desc = this.match ? this.app.games.get(this.match.game) : null;
    this.heading.textContent = desc ? t("replay.heading", { game: this.app.gameTitle(desc) }) : t("replay.title");
    this.first.textContent = t("replay.first");
    this.back.textContent = t("replay.back");
    this.forward.textContent = t("replay.forward");
    this.last.textContent = t("replay.last");
    this.first.setAttribute("aria-keyshortcuts", "Home");
    this.back.setAttribute("aria-keyshortcuts", "ArrowLeft");
    this.forward.setAttribute("aria-keyshortcuts", "ArrowRight");
    this.last.setAttribute("aria-keyshortcuts", "End");
    this.sliderLabel.textContent = t("replay.slider");
    this.seatLabel.textContent = t("replay.seat");
    this.verifyButton.textContent = t("replay.verify");
    this.roundsTitle.textContent = t("replay.rounds");
    this.handTitle.textContent = this.seat === "all" ? t("replay.hands_open") : this.seat === null ? t("replay.no_hand") : t("replay.hand_of", { name: this.seatName(this.seat) });
    if (this.match) {
      this.who.textContent = t("replay.players", { names: this.match.seats.map((/** @type {unknown} */ _, /** @type {number} */ i) => this.seatName(i)).join(", ") });
      this.fillSeats();
      this.fillRounds();
      this.draw();
    }
  }

  /** @param {number} i */
  seatName(i) {
    const s = this.match && this.match.seats[i];
    if (!s) return "";
    return s.kind === "bot" ? t("seat.bot_name", { n: i + 1 }) : isolate(s.name); // as the live table names it
  }

  total() {
    return this.match ? this.match.steps : 1;
  }

  fillSeats() {
    const options = [el("option", { value: "" }, t("replay.spectator"))];
    this.match.seats.forEach((/** @type {unknown} */ _, /** @type {number} */ i) => options.push(el("option", { value: String(i) }, this.seatName(i))));
    options.push(el("option", { value: "all" }, t("replay.all")));
    this.seatSelect.replaceChildren(...options);
    this.seatSelect.value = this.seat === null ? "" : String(this.seat);
  }

  fillRounds() {
    this.rounds.replaceChildren(
      ...this.match.rounds.map((/** @type {Record<string, any>} */ r) =>
        el("li", { dataset: { round: String(r.round) } }, t("replay.round", { round: this.roundWord(r.round) }), " ", el("code", { class: "deal-code" }, r.code || ""), r.chosen ? ` (${t("replay.chosen")})` : ""),
      ),
    );
  }

  /** @param {string} value */
  chooseSeat(value) {
    this.seat = value === "all" ? "all" : value === "" ? null : Number(value);
    this.relabel();
    this.show(this.step);
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    if (this.app.screen !== "replay" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target instanceof Element && target.closest("input, select, textarea, dialog[open]")) return;
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.total() - 1 };
    const to = moves[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.show(to);
  }

  seatField() {
    if (this.seat === "all") return { open: true };
    return this.seat === null ? {} : { seat: this.seat };
  }

  /** @param {number} n */
  async fetch(n) {
    const first = Math.floor(n / PAGE) * PAGE;
    const answer = await this.app.conn.request({ type: "replay", archive: this.id, first, count: PAGE, ...this.seatField() });
    this.match = answer.match;
    for (const s of answer.steps) this.steps.set(`${this.seat}:${s.n}`, s);
  }

  /** Show or hide what only a match has: the controls, the table and the fair deals. @param {boolean} on */
  showParts(on) {
    for (const part of [this.controls, this.felt, this.fair]) part.hidden = !on;
  }

  /**
   * Go to step `n` (clamped), fetching it first if needed.
   * @param {number} n
   * @returns {Promise<void>}
   */
  async show(n) {
    const asking = ++this.asking;
    const known = this.match !== null;
    const want = Math.max(0, Math.min(n, this.total() - 1));
    try {
      if (!this.steps.has(`${this.seat}:${want}`)) await this.fetch(known ? want : n);
      // The page before too: the module hears the round's earlier moves (drawn()).
      const before = Math.max(0, Math.min(n, this.total() - 1) - PAGE);
      if (!this.steps.has(`${this.seat}:${before}`)) await this.fetch(before);
    } catch (/** @type {any} */ err) {
      if (asking === this.asking) this.status.textContent = err && err.code === "archive/not_found" ? t("replay.not_found") : this.app.errorText(err);
      return;
    }
    if (asking !== this.asking) return;
    if (!known) {
      this.showParts(true);
      this.node.dataset.game = this.match.game; // the game's stylesheet styles its screen
      this.relabel();
      this.heading.focus();
    }
    this.step = Math.max(0, Math.min(n, this.total() - 1));
    if (!this.steps.has(`${this.seat}:${this.step}`)) return this.show(this.step);
    this.status.textContent = "";
    this.draw();
    const query = `?step=${this.step}${this.seat === null ? "" : `&seat=${this.seat}`}`;
    if (location.search !== query) history.replaceState(null, "", `${replayHref(this.id || "")}${query}`);
  }

  tableMap() {
    const m = this.match;
    return {
      game: m.game,
      preset: m.preset,
      options: m.options,
      teams: m.teams,
      status: "finished",
      seats: m.seats.map((/** @type {Record<string, any>} */ s, /** @type {number} */ i) => ({ seat: i, kind: s.kind, name: s.name, level: s.level, connected: true, auto: false })),
    };
  }

  /** "Round 2" in the game's own word for a round ("Hand 2" where a round is a hand). @param {number} n */
  roundWord(n) {
    return textFor(this.match.game)("table.round", { n });
  }

  /** @param {number | null} seat */
  makeTable(seat) {
    const module = this.app.games.module(this.match.game);
    if (!module || typeof module.createTable !== "function") return null;
    const screen = this;
    const table = module.createTable({
      t: textFor(this.match.game),
      el,
      act: () => {},
      seat,
      isHost: false,
      get table() {
        return screen.tableMap();
      },
      tv: false,
      seatName: (/** @type {number} */ i) => this.seatName(i),
      say: () => {},
      choose: () => {},
      closeChoice: () => {},
      focusHand: () => {},
      redraw: () => {},
    });
    return table;
  }

  /** The move of a step in the game's words, as the live table's caption says it. */
  /**
   * @param {import("./contract.js").GameTable} table
   * @param {import("./contract.js").GameEvent[]} events
   */
  moveWords(table, events) {
    const said = [];
    for (const ev of events) {
      const move = typeof table.move === "function" ? table.move(ev) : null;
      const text = move ? move.text : table.logLine(ev);
      if (text) said.push(text);
    }
    return said.join(" · ");
  }

  draw() {
    if (!this.match) return;
    const step = this.steps.get(`${this.seat}:${this.step}`);
    if (!step) return;
    // Every hand open is nobody's view: the module draws it as a spectator's (seat 0's view in
    // hand), so its headline and captions name each seat ("Mira went out"), never "You".
    const viewer = this.seat === "all" ? null : this.seat;
    const key = `${this.match.game}:${viewer}`;
    if (!this.table || this.tableKey !== key) {
      if (this.table) this.table.destroy();
      this.table = this.makeTable(viewer);
      this.tableKey = key;
      this.centreSlot.replaceChildren(...(this.table && this.table.centre ? [this.table.centre] : []));
    }
    if (!this.table) return;
    const view = this.seat === "all" ? step.views[0] : step.view;
    // The module hears the moves before this one, oldest first, as the live table's did (a round
    // summary lists what the round's moves took); a module takes each event into account once.
    for (let k = Math.max(0, this.step - HEARD); k <= this.step; k++) {
      const earlier = this.steps.get(`${this.seat}:${k}`);
      if (earlier) for (const ev of earlier.events) this.table.logLine(ev);
    }
    const frame = this.table.render(view) || {};
    const seats = frame.seats || [];
    this.opponents.replaceChildren(
      ...this.match.seats.map((/** @type {unknown} */ _, /** @type {number} */ i) => {
        const s = seats[i] || {};
        return el(
          "li",
          { class: `seat-box${s.active ? " on-turn" : ""}${i === step.seat ? " last-mover" : ""}`, dataset: { seat: String(i) } },
          el("p", { class: "seat-who" }, this.seatName(i)),
          el("p", { class: "seat-stats" }, el("span", { class: "opp-count" }, s.count || ""), s.score ? el("span", { class: "seat-score" }, " ", s.score) : null),
        );
      }),
    );
    this.caption.textContent = this.step === 0 ? t("replay.deal") : this.moveWords(this.table, step.events) || t("replay.moved", { name: this.seatName(step.seat) });
    // The game words a decision of the seat watched from as the player's own ("Your turn"): a
    // replay's viewer is not that player, so the line names the seat instead.
    const status = frame.status && frame.status.mine && typeof this.seat === "number" ? { text: t("replay.to_move", { name: this.seatName(this.seat) }) } : frame.status;
    this.turnStatus.textContent = status ? status.text : "";
    this.turnStatus.hidden = !(status && status.text);
    const hasHand = this.seat !== "all" && Array.isArray(frame.hand);
    this.hand.node.hidden = !hasHand;
    if (hasHand) this.hand.set((frame.hand || []).map((card) => ({ ...card, playable: false })));
    this.drawOpenHands(step);
    this.summary.replaceChildren(...(frame.summary && frame.summary.details ? [el("h3", {}, frame.summary.headline || t("replay.summary")), frame.summary.details] : []));
    const n = this.total();
    this.slider.max = String(n - 1);
    this.slider.value = String(this.step);
    this.slider.setAttribute("aria-valuetext", t("replay.position", { n: this.step, total: n - 1 }));
    // and the round (or hand) the move belongs to, in the game's word: a new user stepping through
    // seven rounds could not tell which one a move was in
    const round = Number.isInteger(view && view.round) ? view.round : frame.round;
    const position = t("replay.position", { n: this.step, total: n - 1 });
    this.position.textContent = Number.isInteger(round) ? `${position} · ${this.gt("table.round", { n: round })}` : position;
    this.first.disabled = this.back.disabled = this.step <= 0;
    this.forward.disabled = this.last.disabled = this.step >= n - 1;
  }

  /** Every hand open: each seat's hand as its own view shows it (by the game's module). */
  /** @param {Wire} step */
  drawOpenHands(step) {
    if (this.seat !== "all") {
      this.openHands.replaceChildren();
      this.openHands.hidden = true;
      this.tables.forEach((table) => table.destroy());
      this.tables = [];
      return;
    }
    this.openHands.hidden = false;
    if (this.tables.length !== this.match.seats.length) this.tables = this.match.seats.map((/** @type {unknown} */ _, /** @type {number} */ i) => this.makeTable(i));
    this.openHands.replaceChildren(
      ...this.match.seats.map((/** @type {unknown} */ _, /** @type {number} */ i) => {
        const frame = (this.tables[i] && this.tables[i].render(step.views[i])) || {};
        const cards = Array.isArray(frame.hand) ? frame.hand : [];
        return el(
          "div",
          { class: "replay-open-hand", dataset: { seat: String(i) } },
          el("h4", {}, this.seatName(i)),
          el("ul", { class: "replay-cards", "aria-label": t("replay.hand_of", { name: this.seatName(i) }) }, ...cards.map((c) => el("li", { class: "replay-card" }, c.label))),
        );
      }),
    );
  }

  /** Recompute every round's commitment from its revealed code and salt, and read the server's replay check. */
  verify() {
    if (!this.match) return;
    const lines = [];
    let ok = true;
    for (const r of this.match.rounds) {
      const opens = !!(r.code && r.salt) && sha256Hex(`${r.code}:${r.salt}`) === r.hash;
      ok = ok && opens;
      lines.push(el("li", { class: opens ? "ok" : "bad" }, t(opens ? "replay.verify.round_ok" : "replay.verify.round_bad", { round: this.roundWord(r.round) })));
    }
    const check = this.match.check || {};
    if (!check.replays) {
      ok = false;
      lines.push(el("li", { class: "bad" }, check.at ? t("replay.verify.move_bad", { n: check.at }) : t("replay.verify.end_bad")));
    } else lines.push(el("li", { class: "ok" }, t("replay.verify.moves_ok", { n: this.match.moves })));
    this.verdict.replaceChildren(
      el("p", { class: ok ? "verdict-ok" : "verdict-bad", id: "replay-verdict-text" }, ok ? t("replay.verify.ok") : t("replay.verify.bad")),
      el("ul", {}, ...lines),
    );
    this.verdict.dataset.result = ok ? "ok" : "bad";
  }
}
