// @ts-check
// The table screen's frame, for every game: the bar (the room, the round, what the match is
// played to, the rules, the sound), the seats placed around the table (name or a bot's badge,
// the game's count and score, presence, level, their last move, whose turn it is), the
// middle of the table (the game's centre, the direction of play, a caption of the latest
// moves, the hold notice), the player's own seat (hand widget and the game's actions), the
// move log beside the table (folded away on a phone), the round summary, the rules panel,
// and the choice dialog. What lies on the table is the game's: its page module's table (or
// the generic renderer) draws the centre and says what the frame shows (see the interface in
// contract.js).
//
// "Suggest a move" (where the host allows it, PROTOCOL.md 16.1) asks the server for one of the
// seat's legal actions and points at the control that sends it (controlFor: a card of the
// hand, else the game's own control); the player still makes the move.
//
// Nothing moves when the turn changes: every box has a fixed size (the turn is a border and
// a marker that are always there, shown or not), the hand is one line (hand.js), and what
// comes and goes (the hold notice, a short notice about a card) lies over the table instead
// of pushing it.
//
// Keyboard: the hand is one tab stop (hand.js), the game's actions follow it in the tab
// order, and the game may name single keys for its actions (listed on the page and in the
// rules panel, and switched off there). When a focused control goes away or is disabled,
// focus goes to the hand, never to the page. The choice dialog and the rules panel are
// modal <dialog>s (dialog.js). The log is a polite live region: each move is announced once.
//
// The shared screen (`/tv/<code>`, a spectator connection) uses the same frame with class
// `tv`: every seat around the table, no hand, no log, everything large.

import { ArrivedCards } from "./arrived.js";
import { ChoiceDialog } from "./dialog.js";
import { checkDeal } from "./fair.js";
import { GenericTable, actionLabel } from "./generic.js";
import { HandWidget } from "./hand.js";
import { MotionLayer } from "./motion.js";
import { SoundControl, moveSound } from "./sound.js";
import { hasText, isolate, textFor } from "./strings.js";
import { reactionWords } from "./talk.js";
import { copyText, el, fitWidth, sameAction, sleep, spacedCode } from "./ui.js";
import { replayLink } from "./replay.js";
import { boardPanel } from "./dealboard.js";
import { screenHosts } from "./tvhost.js";

/** @typedef {import("./contract.js").Action} Action */
/** @typedef {import("./contract.js").GameEvent} GameEvent */
/** @typedef {import("./contract.js").GameModule} GameModule */
/** @typedef {import("./contract.js").Frame} Frame */
/** @typedef {import("./contract.js").SeatFrame} SeatFrame */
/** @typedef {import("./contract.js").Summary} Summary */
/** @typedef {import("./contract.js").Move} Move */
/** @typedef {import("./contract.js").Key} Key */
/** @typedef {import("./contract.js").Host} Host */
/** @typedef {import("./contract.js").TableMap} TableMap */
/** @typedef {import("./contract.js").Text} Text */
/** @typedef {import("./games.js").GameDescription} GameDescription */
/** The App (app.js): its view, table, connection, sound, talk and call. @typedef {any} App */
/** A move as the frame keeps it: a log line's move has no short words (null). @typedef {Omit<Move, "short"> & {short?: string | Node | null}} ShownMove */
/** A round's result as the frame draws it: the game's, or the match's end from the table map (no round). @typedef {Omit<Summary, "round"> & {round?: number | null}} ShownSummary */

/** Lines the move log shows at most (a long match's oldest drop out; the numbers stay each line's own). */
const LOG_MAX = 1000;
/** Moves the caption shows: the latest and the one before; the shared screen, with no log, the last several. */
const CAPTION_MOVES = 2;
const TV_CAPTION_MOVES = 6;
/** A seat box narrower than this (in rem) has no room for a seat's points beside its cards (style.css scores-below). */
const NARROW_SEAT_REM = 8.5;
/** Table events (meja.rules.game.TABLE_EVENT_KINDS); the game's own are its module's. */
export const TABLE_EVENTS = new Set([
  "seat_changed", "connected", "away", "auto", "started", "rematch", "closed", "commitment", "reveal", "timeout", "act",
  // talk at the table (PROTOCOL.md 16): the host's settings and mutes, and a reaction (talk.js
  // puts those in the log; the colon keeps the name apart from any game's events)
  "talk_changed", "muted", "talk:reaction",
]);
/** Table events the log speaks of. */
const LOGGED_TABLE_EVENTS = new Set(["rematch", "seat_changed", "away", "connected", "auto", "timeout", "muted", "talk:reaction"]);

/** Whether the move log may have a line for this event (the game's own events, and a few of the table's). @param {GameEvent | null | undefined} ev */
export function isLogged(ev) {
  return !!ev && typeof ev.kind === "string" && (!TABLE_EVENTS.has(ev.kind) || LOGGED_TABLE_EVENTS.has(ev.kind));
}

/**
 * Which seats go on the left, across and on the right of a player, in the order of play.
 * @param {number[]} order
 * @returns {{left: number[], top: number[], right: number[]}}
 */
export function placeSeats(order) {
  const n = order.length;
  if (n <= 2) return { left: [], top: order, right: [] };
  const side = Math.floor(n / 3);
  return { left: order.slice(0, side), top: order.slice(side, n - side), right: order.slice(n - side) };
}

/**
 * The shared screen's seats: all down its two sides, the first half up the left and the rest down
 * the right, in the order of play (a spectator's order, from seat 0). A TV is wide and short: a
 * row of seats across its top took a fifth of its height from the cards in the middle, which now
 * have the middle's whole height.
 * @param {number[]} order
 * @returns {{left: number[], top: number[], right: number[]}}
 */
export function placeTvSeats(order) {
  const left = Math.ceil(order.length / 2);
  return { left: order.slice(0, left), top: [], right: order.slice(left) };
}

export class TableScreen {
  /**
   * @param {App} app the App (app.js)
   * @param {GameDescription} desc the table's game's catalog entry
   * @param {GameModule | null} module its page module, or null
   * @param {{tv?: boolean}} [options]
   */
  constructor(app, desc, module, { tv = false } = {}) {
    this.app = app;
    this.desc = desc;
    this.module = module;
    this.tv = tv;
    this.t = textFor(desc.name); // the game's words first: a game may say "hand" where the shell says "round"
    /** @type {string | null} */
    this.summaryShownFor = null;
    /** @type {Map<number, GameEvent>} */
    this.lastMoves = new Map(); // seat -> the latest move event of that seat (this round)
    /** @type {GameEvent[]} */
    this.recent = []; // the latest move events, newest last, for the caption
    /** @type {GameEvent | null} */
    this.lastLogged = null; // the last of the app's log events drawn
    /** @type {WeakMap<GameEvent, boolean>} an `auto` event -> whether the table waited for a person then (logLine) */
    this.autoWaited = new WeakMap();
    // seat -> performance.now() when this page learnt the seat went away (see notePresence)
    /** @type {Map<number, number>} */
    this.awaySince = new Map();
    // seat -> {at, end}: the table map's `bot_at` of an away seat, and the performance.now() it
    // comes at here (see noteBotAt)
    /** @type {Map<number, {at: number, end: number}>} */
    this.botAt = new Map();
    /** @type {ReturnType<typeof setInterval> | null} */
    this.awayTimer = null;
    /** @type {Frame | null} */
    this.frame = null;
    /** @type {{action: Action, version: unknown, why?: unknown} | null} */
    this.hint = null; // {action, version, why}: the suggested move (and its reason) shown until the next update
    this.hintAsking = false;
    /** The reason of a suggested move this seat has just sent, for its line in the log. @type {unknown} */
    this.followed = null;
    /** The log's own moves made on a suggestion, and its reason (this page's alone: docs/talk.md 3). @type {WeakMap<object, unknown>} */
    this.whyOf = new WeakMap();
    /** The game's single keys (renderKeys). @type {Key[]} */
    this.keys = [];
    /** Lines the log has had (their numbers). */
    this.logLines = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.noticeTimer = undefined;
    /** The round whose fair-deal box the player opened. @type {number | null | undefined} */
    this.fairOpen = undefined;
    // The frame's parts (built here so that their types are the constructor's).
    const t = this.t;
    this.title = el("h2", { id: "table-title" });
    this.roundLabel = el("p", { class: "round-label", id: "round-label" });
    this.targetLabel = el("p", { class: "target-label", id: "target-label" });
    this.chosenNote = el("p", { class: "chosen-note", id: "chosen-note", hidden: true });
    this.rulesButton = el("button", { type: "button", class: "small", id: "rules-button", onclick: () => this.openRules() });
    this.soundControl = new SoundControl(this.app.sound, el);
    // Leaving during a round (a new user found Leave only between rounds): asked first, as a
    // bot then takes the seat for good (PROTOCOL.md: `leave`).
    this.leaveButton = el("button", { type: "button", class: "small", id: "leave-button", hidden: true, onclick: () => this.askLeave() });
    this.bar = el(
      "div",
      { class: "table-bar" },
      el("div", { class: "bar-text" }, this.title, this.roundLabel, this.targetLabel, this.chosenNote),
      // The shared screen's chat: a strip in the bar at the foot, beside the room's line (talk.css),
      // never a column that squeezes the table.
      this.tv ? this.app.talk.tvChatNode() : null,
      el("div", { class: "bar-buttons" }, this.rulesButton, this.leaveButton, this.soundControl.node),
    );
    this.opponentsTitle = el("h3", { class: "visually-hidden", id: "opponents-title" });
    this.seatLists = {
      left: el("ul", { class: "seat-list side-left", "aria-labelledby": "opponents-title" }),
      top: el("ul", { class: "seat-list side-top", "aria-labelledby": "opponents-title" }),
      right: el("ul", { class: "seat-list side-right", "aria-labelledby": "opponents-title" }),
    };
    this.opponents = el(
      "div",
      { class: "opponents", id: "opponents" },
      this.opponentsTitle,
      this.seatLists.left,
      this.seatLists.top,
      this.seatLists.right,
    );
    this.centreSlot = el("div", { class: "game-slot", id: "game-centre" });
    this.direction = el("p", { class: "direction", id: "direction", hidden: true });
    this.holdBox = el("div", { class: "hold", id: "hold", role: "status", hidden: true });
    this.caption = el("div", { class: "move-caption", id: "move-caption" });
    this.centreArea = el("div", { class: "centre-area", id: "centre-area" }, this.centreSlot, this.holdBox, this.caption);
    this.turnStatus = el("p", { class: "turn-status", id: "turn-status" });
    // The turn timer (a table with a turn limit): seconds left for the seat whose turn it is.
    this.clock = el("span", { class: "turn-clock", id: "turn-clock", role: "timer", hidden: true });
    /** @type {ReturnType<typeof setInterval> | null} */
    this.clockTimer = null;
    /** The deadline the clock counts to (the table map's), its end here, and whether it is this seat's. @type {number | null} */
    this.clockDeadline = null;
    this.clockEnd = 0;
    this.clockMine = false;
    /** The round whose first turn of this seat brought its controls into view (revealTurn). @type {string | null} */
    this.revealedRound = null;
    // "Suggest a move" (PROTOCOL.md 16.1, `hint`): beside the turn line it answers, in a row of
    // fixed height, so nothing moves when it comes and goes with the seat's decisions.
    this.hintButton = el("button", { type: "button", class: "small hint-button", id: "hint-button", hidden: true, onclick: () => this.askHint() });
    this.hintLive = el("p", { class: "visually-hidden", id: "hint-live", "aria-live": "polite" });
    // The hint's reason (`why`), worded here; under the hand and the game's controls, where the
    // suggested move is, until the next update.
    this.hintWhy = el("p", { class: "hint hint-why", id: "hint-why", hidden: true });
    // ...and said after the move, in a live region of its own (the move's is said alone first).
    this.hintWhyLive = el("p", { class: "visually-hidden", id: "hint-why-live", "aria-live": "polite" });
    this.statusRow = el("div", { class: "status-row", id: "status-row" }, this.direction, this.turnStatus, this.clock, this.hintButton);
    this.spectatorNote = el("p", { class: "hint spectator-note", id: "spectator-note", hidden: true });
    this.handTitle = el("h3", { id: "hand-title" });
    this.myCount = el("span", { class: "my-count", id: "my-count" });
    this.myScore = el("span", { class: "seat-score", id: "my-score" });
    this.myTurn = el("span", { class: "turn-tag", "aria-hidden": "true" }, "▶");
    this.mySeatLine = el("div", { class: "my-seat", id: "my-seat" }, this.myTurn, this.handTitle, this.myCount, this.myScore);
    this.hand = new HandWidget({
      labelledBy: "hand-title",
      onChoose: (id) => this.game.play(id),
      emptyText: () => t("table.hand_empty"),
    });
    this.arrived = new ArrivedCards(); // the cards that just came into the hand, marked
    this.arrivedText = el("span", { class: "visually-hidden", id: "arrived-text" });
    this.actionsSlot = el("div", { class: "game-slot", id: "game-actions" });
    this.notice = el("p", { class: "play-notice", id: "play-notice", role: "status" });
    this.keysHint = el("p", { class: "keys-hint", id: "keys-hint" });
    this.handSection = el(
      "section",
      { class: "my-area", id: "my-area", "aria-labelledby": "hand-title" },
      this.mySeatLine,
      this.hand.node,
      this.arrivedText,
      this.notice,
      this.actionsSlot,
      this.hintWhy,
      this.keysHint,
    );
    this.summary = el("section", { class: "summary", id: "summary", hidden: true, "aria-labelledby": "summary-title" });
    this.felt = el(
      "section",
      { class: "felt", id: "felt", "aria-labelledby": "table-title" },
      this.opponents,
      this.centreArea,
      this.statusRow,
      this.spectatorNote,
      this.summary,
      this.handSection,
    );
    this.logTitle = el("span", { id: "log-title" });
    this.log = el("ol", {
      class: "log",
      id: "log",
      "aria-live": "polite",
      "aria-relevant": "additions",
      "aria-labelledby": "log-title",
      tabindex: "0", // the log scrolls: keyboard users must be able to reach it to scroll it
    });
    this.logBox = el(
      "details",
      { class: "log-box", id: "log-box" },
      el("summary", { class: "log-summary" }, this.logTitle),
      this.log,
    );
    // The log stays open beside the table on a wide screen, folded under it on a phone.
    this.wide = window.matchMedia("(min-width: 64rem)");
    this.logBox.open = this.wide.matches;
    this.onWide = () => {
      this.logBox.open = this.wide.matches;
    };
    this.wide.addEventListener("change", this.onWide);
    this.onResize = () => this.fitLabels();
    window.addEventListener("resize", this.onResize);
    this.dialog = new ChoiceDialog({
      held: (n) => this.t("choice.held", { n }),
      suggested: () => (this.hint && this.hint.version === this.app.version ? this.hint.action : null),
      restoreFocus: (returnTo) => {
        if (!this.hand.restoreFocus() && returnTo && returnTo.isConnected) /** @type {HTMLElement} */ (returnTo).focus();
      },
    });
    this.rulesTitle = el("h2", { id: "rules-title" });
    this.rulesBody = el("div", { class: "rules-body" });
    this.rulesClose = el("button", { type: "button", class: "primary", id: "rules-close", onclick: () => this.rulesDialog.close() });
    this.rulesDialog = el(
      "dialog",
      { class: "rules-dialog", id: "rules-dialog", "aria-labelledby": "rules-title" },
      el("div", { class: "dialog-head" }, this.rulesTitle, this.rulesClose),
      this.rulesBody,
    );
    this.rulesDialog.addEventListener("close", () => {
      if (this.rulesButton.isConnected) this.rulesButton.focus();
    });
    this.motion = new MotionLayer();
    // Talk at the table (talk.js, call.js): its bar and the chat beside the table with the log (on
    // a phone under the table: nothing of it pushes the hand below the fold or lies over it); the
    // shared screen shows who is in the call over the table. Reactions of seats not drawn float
    // over the felt.
    this.felt.append(el("div", { class: "talk-floats", id: "talk-floats" }));
    const talk = this.tv ? null : this.app.talk.parts();
    if (talk) this.app.talk.callSlot.append(this.app.call.node);
    this.node = el(
      "div",
      { class: `table-screen${this.tv ? " tv" : ""}`, dataset: { game: this.desc.name } },
      this.bar,
      talk ? null : this.app.call.node,
      el("div", { class: "table-layout" }, this.felt, talk ? el("div", { class: "side-col" }, talk.bar, this.logBox, talk.panel) : null),
      this.dialog.node,
      this.rulesDialog,
      this.motion.node,
      this.hintLive,
      this.hintWhyLive,
    );
    const host = this.host();
    /** @type {import("./contract.js").GameTable} */
    this.game = module && typeof module.createTable === "function" ? module.createTable(host) : new GenericTable(host, desc);
    this.centreSlot.replaceChildren(...(this.game.centre ? [this.game.centre] : []));
    this.actionsSlot.replaceChildren(...(this.game.actions ? [this.game.actions] : []));
    this.onKeyDown = (/** @type {KeyboardEvent} */ ev) => this.shortcut(ev);
    document.addEventListener("keydown", this.onKeyDown);
    // What happened before this screen was built (a reload's replay): the seats' last moves and the caption.
    for (const ev of this.app.logEvents) this.noteMove(ev);
  }

  /** What the game's table may call back (the interface in contract.js). @returns {Host} */
  host() {
    const screen = this;
    return {
      t: this.t,
      el,
      act: async (action) => {
        this.noteFollowed(action);
        const reply = await this.app.act(action);
        // Refused (or not sent): no line of the log is that move's, and a later one is not a suggestion's.
        if (reply === null) this.followed = null;
        return reply;
      },
      get seat() {
        return screen.mySeat;
      },
      get isHost() {
        return screen.app.isHost;
      },
      get table() {
        return screen.table;
      },
      tv: this.tv,
      seatName: (i) => this.seatName(i),
      say: (text) => this.say(text),
      choose: (spec) => this.dialog.open(spec),
      closeChoice: () => this.dialog.close(),
      focusHand: () => this.hand.wantFocus(),
      redraw: () => this.relabel(),
      sound: (name) => this.app.sound.play(name),
    };
  }


  /**
   * The turn timer from the table map's ``turn_deadline_ms`` (the server's clock). The time left
   * is taken once, when the deadline arrives, and never shown above the table's limit, so a
   * phone whose clock is ahead or behind shows about the right count; the server alone decides
   * when the time is up.
   * @param {{text: string, mine?: boolean} | null | undefined} status
   */
  renderClock(status) {
    const table = this.table;
    const deadline = table && table.status === "playing" ? table.turn_deadline_ms : null;
    if (!deadline || !status || !table.turn_limit_s) {
      clearInterval(this.clockTimer ?? undefined);
      this.clockTimer = null;
      this.clockDeadline = null;
      this.clock.hidden = true;
      return;
    }
    if (this.clockDeadline !== deadline) {
      this.clockDeadline = deadline;
      const left = Math.min(table.turn_limit_s * 1000, Math.max(0, deadline - Date.now()));
      this.clockEnd = performance.now() + left;
    }
    this.clockMine = !!status.mine;
    this.tickClock();
    this.clock.classList.toggle("mine", this.clockMine);
    this.clock.hidden = false;
    if (!this.clockTimer) this.clockTimer = setInterval(() => this.tickClock(), 1000);
  }

  tickClock() {
    const secs = Math.max(0, Math.ceil((this.clockEnd - performance.now()) / 1000));
    this.clock.textContent = this.t("table.time_left", { n: secs });
    this.clock.classList.toggle("urgent", this.clockMine && secs <= 10);
  }

  // ------------------------------------------------------------------ a suggested move

  /** Whether this seat may ask for a suggested move now: the host allows it, and the seat has something to decide. */
  get hintOffered() {
    const table = this.table;
    const v = this.view;
    return (
      !this.tv && !this.spectator && !!table && table.status === "playing" && !!(table.talk && table.talk.hints === true) &&
      !!v && Array.isArray(v.legal) && v.legal.length > 0
    );
  }

  renderHintButton() {
    this.hintButton.textContent = this.t("talk.hint");
    this.hintButton.hidden = !this.hintOffered;
  }

  /** Ask the server for a move (`hint`); an answer for a version no longer on screen is dropped. */
  async askHint() {
    if (this.hintAsking || !this.hintOffered) return;
    this.hintAsking = true;
    this.hintButton.setAttribute("aria-busy", "true");
    try {
      const answer = await this.app.conn.request({ type: "hint", table: this.app.tableId });
      if (!this.node.isConnected || !answer || answer.version !== this.app.version || !answer.action) return;
      this.showHint(answer.action, answer.why);
    } catch (err) {
      if (this.node.isConnected) this.say(this.app.talk.errorText(err));
    } finally {
      this.hintAsking = false;
      this.hintButton.removeAttribute("aria-busy");
    }
  }

  /**
   * Point at the suggested move: its control ringed and focused (a press sends it), and said to
   * a screen reader in the words of the game's control ("Suggested move: 7 of hearts", "...: Bid
   * 45"). Not as a notice over the hand: that lay over the very card it named. The ring goes
   * with the next update. The bot's reason, where it gave one, shows under the hand and the
   * game's controls and is said after the move (its own live region).
   * @param {Action} action
   * @param {unknown} [why] the answer's `why` (PROTOCOL.md 16.1)
   */
  showHint(action, why) {
    this.clearHint();
    const reason = this.whyText(why);
    this.hint = { action, version: this.app.version, why: reason ? why : undefined };
    const control = this.controlFor(action);
    if (control) {
      control.classList.add("hint-target");
      control.focus();
      if (control.closest("#hand")) control.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    this.hintWhy.textContent = reason;
    this.hintWhy.hidden = !reason;
    this.revealTurn();
    const shown = this.hintShown(action, control);
    // Cleared first, so that the same suggestion twice is said twice.
    this.hintLive.textContent = "";
    this.hintWhyLive.textContent = "";
    requestAnimationFrame(() => {
      if (!this.hint) return;
      this.hintLive.textContent = shown;
      this.hintWhyLive.textContent = reason;
    });
  }

  /** The ring goes with the update that follows; a redraw of the same version (a language, a toggle) keeps it. */
  /** @param {boolean} relabelOnly */
  paintHint(relabelOnly) {
    if (this.hint && (!relabelOnly || this.hint.version !== this.app.version)) {
      this.clearHint();
      return;
    }
    if (!this.hint) return;
    const control = this.controlFor(this.hint.action);
    if (control) control.classList.add("hint-target");
    this.hintWhy.textContent = this.whyText(this.hint.why); // in the language chosen since
    this.hintWhy.hidden = !this.hintWhy.textContent;
    // The hidden words a screen reader reads again, in that language too (they stayed in the old).
    if (this.hintLive.textContent) this.hintLive.textContent = this.hintShown(this.hint.action, control);
    if (this.hintWhyLive.textContent) this.hintWhyLive.textContent = this.hintWhy.textContent;
  }

  /** The suggested move in words ("Suggested move: 7 of hearts"). @param {Action} action @param {HTMLElement | null} control */
  hintShown(action, control) {
    return this.t("talk.hint.shown", { what: (control && spokenName(control)) || actionLabel(action) });
  }

  clearHint() {
    for (const node of document.querySelectorAll(".hint-target")) node.classList.remove("hint-target");
    this.hintLive.textContent = "";
    this.hintWhyLive.textContent = "";
    this.hintWhy.textContent = "";
    this.hintWhy.hidden = true;
    this.hint = null;
  }

  /**
   * An action this seat sends: the suggested move, at the version it was for, keeps its reason
   * for the log's line of the move (the next line of this seat's).
   * @param {Action} action
   */
  noteFollowed(action) {
    const hint = this.hint;
    this.followed = hint && hint.why && hint.version === this.app.version && sameAction(hint.action, action) ? hint.why : null;
  }

  /**
   * A bot's reason (a hint's `why`, PROTOCOL.md 16.1) in the player's words: a tip by its name
   * (the game's words for it, else the shell's), a search by its own figures, naming the closest
   * other move only by its control on screen (never its wire form). "" for none, or a tip or
   * form this page has no words for.
   * @param {unknown} why
   * @returns {string}
   */
  whyText(why) {
    if (!why || typeof why !== "object") return "";
    const w = /** @type {Record<string, any>} */ (why);
    if (w.kind === "tip") {
      const key = `why.tip.${w.tip}`;
      return typeof w.tip === "string" && hasText(this.desc.name, key) ? String(this.t(key)) : "";
    }
    /** @param {unknown} n */
    const share = (n) => Number.isInteger(n) && /** @type {number} */ (n) >= 0 && /** @type {number} */ (n) <= 100;
    if (w.kind !== "search" || !Number.isInteger(w.deals) || w.deals < 1) return "";
    const control = w.alt && typeof w.alt === "object" ? this.controlFor(w.alt) : null;
    const alt = control ? spokenName(control) : "";
    const deals = w.deals;
    if (share(w.won)) {
      return String(alt && share(w.alt_won) ? this.t("why.search.won.alt", { deals, won: w.won, alt, alt_won: w.alt_won }) : this.t("why.search.won", { deals, won: w.won }));
    }
    if (alt && share(w.ahead) && share(w.behind)) {
      const same = w.ahead === 0 && w.behind === 0; // the two moves came out alike in every deal
      return String(same ? this.t("why.search.same", { deals, alt }) : this.t("why.search.ahead", { deals, alt, ahead: w.ahead, behind: w.behind }));
    }
    return String(this.t("why.search.plain", { deals }));
  }

  /**
   * The control on screen that sends `action` (one of the view's legal actions), or null: the
   * hand's card the action names (`card`), else the game's own control (its table's optional
   * `controlFor`, the interface in contract.js), else the round summary's "Next round".
   * Only a control a press would work on: shown, and not disabled.
   * @param {Action} action
   * @returns {HTMLElement | null}
   */
  controlFor(action) {
    if (!action || typeof action !== "object") return null;
    /** @param {any} node @returns {node is HTMLElement} */
    const usable = (node) =>
      node instanceof Element && node.isConnected && !(/** @type {any} */ (node).disabled) && node.getAttribute("aria-disabled") !== "true" &&
      !node.closest("[hidden]") && (typeof node.checkVisibility !== "function" || node.checkVisibility());
    if (typeof action.card === "string") {
      const card = this.hand.buttons().find((b) => b.dataset.card === action.card);
      if (usable(card)) return card;
    }
    const own = typeof this.game.controlFor === "function" ? this.game.controlFor(action) : null;
    if (usable(own)) return own;
    const next = this.frame && this.frame.summary && this.frame.summary.next;
    if (next && sameAction(next, action)) {
      const button = this.summary.querySelector("#next-round");
      if (usable(button)) return button;
    }
    return null;
  }

  destroy() {
    clearInterval(this.clockTimer ?? undefined);
    clearInterval(this.awayTimer ?? undefined);
    this.game.destroy();
    this.hand.destroy();
    this.motion.clear();
    document.removeEventListener("keydown", this.onKeyDown);
    this.wide.removeEventListener("change", this.onWide);
    window.removeEventListener("resize", this.onResize);
    if (this.dialog.isOpen) this.dialog.close();
    if (this.rulesDialog.open) this.rulesDialog.close();
    this.app.attention.setWaiting(false);
  }

  relabel() {
    this.render([], false, true);
  }

  // ------------------------------------------------------------------ data

  get view() {
    return this.app.view;
  }

  get table() {
    return this.app.table;
  }

  get mySeat() {
    return this.app.seat;
  }

  get spectator() {
    return this.mySeat === null || this.mySeat === undefined;
  }

  /** @param {number} i */
  seatName(i) {
    if (i === this.mySeat) return this.t("table.you");
    const s = ((this.table && this.table.seats) || [])[i];
    if (!s) return this.t("seat.label", { n: i + 1 });
    if (s.kind === "bot") return this.t("seat.bot_name", { n: i + 1 });
    // isolated (strings.js): the name goes into sentences and lists ("A, B") of the game's too
    return s.name ? isolate(s.name) : this.t("seat.label", { n: i + 1 });
  }

  /** @param {string} text */
  say(text) {
    this.notice.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice.textContent = "";
    }, 6000);
  }

  // ------------------------------------------------------------------ updates

  /**
   * Called once an update is drawn: hold the table there (the next messages wait) while each
   * event the game holds for (its GameInfo.hold_events) is shown, the way the game's table
   * says (`hold`).
   * @param {GameEvent[]} events
   */
  async holdFor(events) {
    const declared = Array.isArray(this.desc.hold_events) ? this.desc.hold_events : null;
    for (const ev of events) {
      if (TABLE_EVENTS.has(ev.kind)) continue;
      // Without the game's list, only a module can know its own held events; the generic renderer holds for none.
      if (declared ? !declared.includes(ev.kind) : this.game instanceof GenericTable) continue;
      const how = this.game.hold(ev);
      if (!how || !how.node) continue;
      this.holdBox.replaceChildren(how.node);
      this.holdBox.hidden = false;
      await sleep(how.ms ?? 1500);
      this.holdBox.hidden = true;
      this.holdBox.replaceChildren();
    }
  }

  /** A move event in the game's words: {seat, text, short, motion} or null (not a move). @param {GameEvent | null | undefined} ev @returns {ShownMove | null} */
  describe(ev) {
    if (!ev || TABLE_EVENTS.has(ev.kind)) return null;
    if (typeof this.game.move === "function") return this.game.move(ev) || null;
    const text = this.game.logLine(ev);
    return text ? { seat: typeof ev.seat === "number" ? ev.seat : null, text, short: null, motion: null } : null;
  }

  /** Keep a move for the caption and its seat's box; a new round starts both afresh. @param {GameEvent | null | undefined} ev */
  noteMove(ev) {
    if (!ev) return null;
    if (ev.kind === this.desc.round_start || ev.kind === "rematch") {
      this.lastMoves.clear();
      this.recent = [];
    }
    const move = this.describe(ev);
    if (!move) return null;
    if (typeof move.seat === "number") this.lastMoves.set(move.seat, ev);
    this.recent.push(ev);
    if (this.recent.length > (this.tv ? TV_CAPTION_MOVES : CAPTION_MOVES)) this.recent.shift();
    return move;
  }

  /**
   * @param {GameEvent[]} events
   * @param {boolean} first
   */
  render(events, first, relabelOnly = false) {
    const v = this.view;
    const table = this.table;
    if (!v || !table) return;
    const t = this.t;
    const focusWasHere = this.node.contains(document.activeElement);
    /** @type {ShownMove[]} */
    const moving = []; // moves with a piece to fly, placed once the seats are drawn anew
    /** @type {(string | null)[]} */
    const sounds = []; // the moments of these events (sound.js)
    // An update's events sound (the first screen's too: the update that started the game deals
    // the round; its moves were noted when the screen was built); a reload's state brings none.
    if (!relabelOnly) {
      for (const ev of events) {
        const move = first ? this.describe(ev) : this.noteMove(ev);
        if (!first && move && move.motion && move.motion.piece) moving.push(move);
        sounds.push(moveSound(move, ev, this.desc.round_start));
      }
    }
    if (!relabelOnly) this.notePresence(events);
    this.noteBotAt();
    const frame = /** @type {Frame} */ (this.game.render(v) || {});
    this.frame = frame;
    this.renderLog(relabelOnly);
    this.renderBar();
    this.opponentsTitle.textContent = this.tv ? t("tv.seats") : t("table.opponents");
    this.handTitle.textContent = t("table.your_hand");
    this.logTitle.textContent = t("table.log");
    this.renderSeats(frame.seats || []);
    // The shared screen's result lists every seat: the seats' boxes above it would push it off a screen nobody scrolls.
    this.opponents.hidden = (!!frame.handOnly && !this.spectator && !this.tv) || (this.tv && !!(frame.summary || this.outcomeSummary()));
    // The hand alone (a phone beside a shared screen): its cards drawn large (style.css).
    this.node.classList.toggle("hand-only", !!frame.handOnly && !this.spectator && !this.tv);
    this.renderDirection(frame.direction);
    this.renderCaption();
    const summary = frame.summary || this.outcomeSummary();
    const status = table.status === "finished" ? null : frame.status; // a match over waits for nobody
    // With no person connected the bots wait (README): a shared screen or a spectator is told so,
    // instead of a turn that never ends (a new user's TV read "Ani's turn" for minutes).
    const waiting = this.waitingForPeople();
    const gone = waiting && this.people().length === 0; // everyone left: nobody will come back to it
    this.turnStatus.textContent = gone ? t("table.everyone_left") : waiting ? t("table.waiting_people") : status ? status.text : "";
    this.turnStatus.classList.toggle("mine", !waiting && !!(status && status.mine));
    this.turnStatus.classList.toggle("waiting-people", waiting);
    this.turnStatus.hidden = !!summary || !(waiting || (status && status.text));
    this.statusRow.hidden = !!summary;
    // (a result has its own Leave table, and a match over or a spectator has nothing to leave)
    this.leaveButton.hidden = this.tv || this.spectator || !!summary || table.status !== "playing";
    this.renderClock(status && !summary && !waiting ? status : null); // the clock waits too
    this.renderHintButton();
    this.app.attention.setWaiting(!this.tv && !!(status && status.mine));
    const spectator = this.spectator;
    this.spectatorNote.hidden = !spectator || this.tv;
    this.spectatorNote.textContent = t("table.spectating");
    this.centreArea.hidden = !!summary;
    this.handSection.hidden = spectator || !!summary;
    const hasHand = Array.isArray(frame.hand);
    this.hand.node.hidden = !hasHand;
    if (!spectator && hasHand) {
      const cards = /** @type {import("./contract.js").HandCard[]} */ (frame.hand);
      this.hand.set(cards, frame.handMost ?? null);
      // A rematch's deal marks nothing, as a new round's does (a new user's trial: 6 of 7 cards
      // were marked, compared with the last match's final hand in a round of the same number).
      const dealt = events.some((ev) => ev && (ev.kind === "rematch" || ev.kind === this.desc.round_start));
      this.arrived.update(cards.map((card) => card.id), frame.round, dealt);
      this.arrived.paint(this.hand.buttons(), this.arrivedText.id);
    }
    this.arrivedText.textContent = t("table.arrived");
    const mine = spectator ? null : (frame.seats || [])[this.mySeat] || null;
    this.myCount.textContent = mine && mine.count ? mine.count : "";
    this.myScore.textContent = mine && mine.score ? mine.score : "";
    this.mySeatLine.classList.toggle("on-turn", !!(mine && mine.active));
    this.renderKeys(frame.keys || []);
    if (!relabelOnly && !first && summary && this.summary.hidden && (this.tv || summary.won || this.iWon(summary))) sounds.push("win");
    this.app.sound.playAll(sounds.filter(Boolean));
    this.renderSummary(summary);
    if (this.rulesDialog.open) this.fillRules();
    // A result covers the piles: what was still in flight to them lands at once.
    if (summary) this.motion.clear();
    else this.motion.fly(moving.map((move) => this.resolveFlight(move)), this.readable());
    // The seats were drawn anew: the reactions and the call's tiles go back to them.
    this.app.talk.paint();
    this.app.call.paint();
    this.paintHint(relabelOnly);
    this.fitLabels();
    this.keepFocus(first, focusWasHere);
    // Once a round (a hand), at the seat's first turn: the page then stays where it is for the
    // rest of it (the hand keeps its place on the screen from one decision to the next).
    const round = `${frame.round ?? ""}`;
    if (!relabelOnly && status && status.mine && !summary && this.revealedRound !== round) {
      this.revealedRound = round;
      requestAnimationFrame(() => this.revealTurn());
    }
  }

  /**
   * What this seat must do now in view without scrolling (a new-user trial: a phone's Draw and
   * Pass lay at 843 on 844 under five seats' boxes, the suggestion's reason further down; a
   * 1280x800 desktop's at 837): at its first turn of a round, and when a suggestion's reason shows, the page
   * scrolls down just so far that the game's controls and the reason end on the screen, never
   * so far that the seat's own area (its line and hand) leaves it at the top. It does not move
   * what the player scrolled to below the table (the log, the chat), nor while they type.
   */
  revealTurn() {
    if (this.tv || !this.node.isConnected || this.handSection.hidden || this.dialog.isOpen || this.rulesDialog.open) return;
    const active = document.activeElement;
    if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) return;
    const parts = [this.hand.node, this.actionsSlot, this.hintWhy].filter((n) => !n.hidden && n.getClientRects().length);
    if (!parts.length) return;
    const bottom = Math.max(...parts.map((n) => n.getBoundingClientRect().bottom));
    const top = this.handSection.getBoundingClientRect().top;
    const margin = 8;
    const by = Math.min(bottom + margin - window.innerHeight, top - margin);
    if (by > 0) window.scrollBy({ top: Math.ceil(by), behavior: "instant" });
  }

  /**
   * The table's one-line words made smaller to fit rather than cut (issue 20: "Suggest …" beside
   * a long turn line, a shared screen's "Last ca…" on a seat, a seat's roles): the seats' lines,
   * the caption, the turn line, the hint button and the indicator of what follows now (a long
   * word in a narrow centre at ten seats on a shared screen), and any line a game's table marks
   * "fit-line" (a team's name in a phone's narrow box, cut where it held a person's long name).
   */
  fitLabels() {
    if (!this.node.isConnected) return;
    // A seat's points in a box too narrow for them beside its cards (a phone's three boxes across
    // gave "0 pts" 3 px): every seat's go on a line of their own under them, the boxes grown to
    // hold it (style.css). Chosen by the boxes' width, never by the words: the boxes keep one
    // height as the words change (a bid, a role, more points; a hand's box stays put through
    // every phase of a round). Points whose words are longer than the room beside the
    // cards ("104 poin" in a phone's box wide enough for "104 pts") are drawn smaller to fit
    // (fitWidth, below), never cut.
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const scores = /** @type {NodeListOf<HTMLElement>} */ (this.opponents.querySelectorAll(".seat-score"));
    // A call's tile beside the lines takes the box's left padding: the room left is measured
    // (a shared screen's "27 pts" was cut to "2" beside a tile, a desktop's lost altogether).
    const narrow = Array.from(scores).some((n) => {
      const box = n.closest(".seat-box");
      if (!box || box.clientWidth <= 0) return false;
      const pad = getComputedStyle(box);
      const room = box.clientWidth - parseFloat(pad.paddingLeft) + parseFloat(pad.paddingRight);
      if (room < NARROW_SEAT_REM * rem) return true;
      // Beside a tile, what the line holds, measured: a shared screen's large count leaves less
      // room than the rem say (its words' widths, whichever line the points are on now).
      const line = n.parentElement;
      if (!box.classList.contains("with-tile") || !line) return false;
      const parts = Array.from(line.children).filter((c) => c.getClientRects().length);
      const range = document.createRange();
      const widths = parts.map((c) => {
        range.selectNodeContents(c);
        return range.getBoundingClientRect().width;
      });
      const gap = parseFloat(getComputedStyle(line).columnGap) || 0;
      const need = widths.reduce((sum, w) => sum + w, 0) + gap * Math.max(0, parts.length - 1);
      return need > box.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
    });
    this.opponents.classList.toggle("scores-below", narrow);
    for (const box of this.opponents.querySelectorAll(".seat-box.badge-below")) box.classList.remove("badge-below");
    const nodes = this.node.querySelectorAll(".seat-box > p, .seat-stats > .seat-score, .seat-stats > .seat-badge, .move-caption p, .turn-status, .hint-button, .my-seat > *, .indicator, .fit-line");
    for (const node of nodes) if (node instanceof HTMLElement) fitWidth(node);
    // The shared screen's list of moves wraps its lines in a box of fixed height: a line that
    // would be cut at its foot is not drawn (a new user's trial saw half of "Bot 4 played blue 7").
    const lines = /** @type {NodeListOf<HTMLElement>} */ (this.caption.querySelectorAll("p"));
    for (const line of lines) line.style.removeProperty("visibility");
    const foot = this.caption.getBoundingClientRect().bottom;
    for (const line of lines) if (line.getBoundingClientRect().bottom > foot + 0.5) line.style.visibility = "hidden";
    // A tag ("Last card!") that does not fit beside the cards even drawn smaller (a phone's three
    // boxes across, a shared screen's large count: "Last car", "L…" in a new user's trial) takes
    // the line under them, in place of the seat's last move (the caption says the moves).
    for (const badge of /** @type {NodeListOf<HTMLElement>} */ (this.opponents.querySelectorAll(".seat-stats > .seat-badge"))) {
      const box = badge.closest(".seat-box");
      const line = badge.parentElement;
      if (!box || !line) continue;
      const over = badge.getBoundingClientRect().right > line.getBoundingClientRect().right + 0.5;
      if (!over && badge.scrollWidth <= badge.clientWidth + 0.5) continue;
      box.classList.add("badge-below");
      fitWidth(badge);
    }
  }

  /**
   * Focus never falls to the page: after the table first appears (the lobby's Start is gone)
   * and whenever the focused control disappeared or was disabled, it goes to the hand.
   * @param {boolean} first
   * @param {boolean} focusWasHere
   */
  keepFocus(first, focusWasHere) {
    if (this.tv) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || /** @type {any} */ (active).disabled === true;
    const fromApp = first && (lost || this.app.root.contains(active));
    if (!(fromApp || (focusWasHere && (lost || !this.node.contains(active))))) return;
    if (this.dialog.isOpen || this.rulesDialog.open) return;
    if (this.hand.restoreFocus()) return;
    if (!this.summary.hidden) {
      const title = document.getElementById("summary-title");
      if (title) title.focus();
      return;
    }
    this.app.root.focus();
  }

  /** The words a travelling piece must not hide (motion.js): the caption, the turn line, the seats' lines. */
  readable() {
    return [this.caption, this.turnStatus, this.mySeatLine, ...this.opponents.querySelectorAll(".seat-box")];
  }

  /** @param {ShownMove} move @returns {import("./motion.js").Flight} */
  resolveFlight(move) {
    /** @param {string | Element | undefined} where @returns {Element | null} */
    const place = (where) => {
      if (where && where !== "seat") return /** @type {Element} */ (where);
      if (move.seat === null || move.seat === undefined) return null;
      if (move.seat === this.mySeat && !this.tv) return this.hand.node;
      return this.opponents.querySelector(`[data-seat="${move.seat}"]`);
    };
    const motion = /** @type {NonNullable<ShownMove["motion"]>} */ (move.motion);
    return { piece: motion.piece, from: place(motion.from), to: place(motion.to) };
  }

  renderBar() {
    const t = this.t;
    const table = this.table;
    const frame = /** @type {Frame} */ (this.frame || {});
    this.title.textContent = this.tv ? t("tv.title", { code: spacedCode(table.code) }) : t("table.title", { code: spacedCode(table.code) });
    const round = frame.round;
    this.roundLabel.hidden = round === null || round === undefined;
    this.roundLabel.textContent = this.roundLabel.hidden ? "" : t("table.round", { n: round });
    this.targetLabel.hidden = !frame.target;
    this.targetLabel.textContent = frame.target || "";
    const chosen = !!(table.commitment && table.commitment.chosen);
    this.chosenNote.hidden = !chosen;
    // Whole at every size: a phone shows the short words (the round is beside it in the bar), the
    // wide screens the long ones (a phone once cut "Hand 1 is a deal the ho…" with an ellipsis).
    // (the short words are the style sheet's, from data-short: the note's text stays its long words)
    this.chosenNote.replaceChildren(chosen ? el("span", { class: "note-long" }, t("table.deal_chosen", { n: table.commitment.round })) : "");
    this.chosenNote.dataset.short = chosen ? t("table.deal_chosen.short") : "";
    this.rulesButton.textContent = t("table.rules");
    this.leaveButton.textContent = t("table.leave");
    this.soundControl.render(t);
  }

  /**
   * When each away seat went away, for a server whose table map gives no `bot_at` (see
   * noteBotAt): an event carries no time, so an `away` event's time is taken to be when its
   * update came, which is within a moment of the real one. Events replayed after a reload (their
   * time unknown) set none: such a seat says "away" without a countdown.
   * @param {GameEvent[] | null | undefined} events
   */
  notePresence(events) {
    for (const ev of events || []) {
      if (!ev || typeof ev.seat !== "number") continue;
      if (ev.kind === "away") this.awaySince.set(ev.seat, performance.now());
      else if (ev.kind === "connected" || ev.kind === "auto") this.awaySince.delete(ev.seat);
    }
  }

  /**
   * When a bot takes over each away seat: the table map's `bot_at` (PROTOCOL.md 7.1, the
   * server's epoch ms), the same on every page and after a reload. As with the turn timer, the
   * time left is taken once, when a seat's `bot_at` first comes, and never above the table's
   * grace time, so a phone whose clock is off shows about the right count; the server alone
   * decides when the bot comes.
   */
  noteBotAt() {
    const seats = (this.table && this.table.seats) || [];
    const grace = ((this.table && this.table.grace_s) || 0) * 1000;
    for (const [i, known] of this.botAt) {
      if (!seats[i] || seats[i].bot_at !== known.at) this.botAt.delete(i);
    }
    seats.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
      if (!s || !Number.isFinite(s.bot_at) || this.botAt.has(i)) return;
      const left = Math.max(0, s.bot_at - Date.now());
      this.botAt.set(i, { at: s.bot_at, end: performance.now() + (grace ? Math.min(grace, left) : left) });
    });
  }

  /**
   * Whether the table waits for a person to come back: while a match is played and no person
   * holds a connected seat, its bots and its clock wait (README, "Choices we made"; the server's
   * TIMERS), so a shared screen or a spectator would otherwise watch a turn that never ends.
   */
  waitingForPeople() {
    const table = this.table;
    if (!table || table.status !== "playing") return false;
    // With no person seated at all (the last one left) the bots wait too: the match has stopped.
    return !this.people().some((/** @type {any} */ s) => s.connected);
  }

  /** The seats a person holds (connected or not). @returns {any[]} */
  people() {
    return ((this.table && this.table.seats) || []).filter((/** @type {any} */ s) => s && s.kind === "human");
  }

  /** "0:42": the time until a bot plays for an away seat, or null when it is not known. */
  /** @param {number} i */
  awayLeft(i) {
    let ms;
    const known = this.botAt.get(i);
    if (known) {
      ms = known.end - performance.now();
    } else {
      const since = this.awaySince.get(i);
      const grace = this.table && this.table.grace_s;
      if (since === undefined || !grace) return null;
      ms = grace * 1000 - (performance.now() - since);
    }
    const secs = Math.max(0, Math.ceil(ms / 1000));
    return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  }

  /** Count the away seats' time down each second, while there is one to count. */
  tickAway() {
    const shown = /** @type {NodeListOf<HTMLElement>} */ (this.opponents.querySelectorAll(".away-countdown"));
    for (const node of shown) this.paintCountdown(node, this.awayLeft(Number(node.dataset.seat)) || "0:00");
    if (shown.length && !this.awayTimer) this.awayTimer = setInterval(() => this.tickAway(), 1000);
    if (!shown.length && this.awayTimer) {
      clearInterval(this.awayTimer);
      this.awayTimer = null;
    }
  }

  /**
   * An away seat's countdown: its words ("away · bot in 0:57"), and the short ones a narrow seat
   * box shows instead (style.css: a phone's box cut the long ones to "away · bot in 0:57 …").
   * @param {HTMLElement} node @param {string} time
   */
  paintCountdown(node, time) {
    node.replaceChildren(el("span", { class: "away-long" }, this.t("seat.away.countdown", { time })));
    node.dataset.short = this.t("seat.away.countdown.short", { time });
  }

  /** @param {SeatFrame[]} seatInfo */
  renderSeats(seatInfo) {
    const seats = this.table.seats || [];
    const n = seats.length;
    const start = this.spectator ? 0 : this.mySeat + 1;
    /** @type {number[]} */
    const order = [];
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      if (i !== this.mySeat || this.spectator) order.push(i);
    }
    const place = this.tv ? placeTvSeats(order) : placeSeats(order);
    for (const side of /** @type {("left" | "top" | "right")[]} */ (["left", "top", "right"])) {
      this.seatLists[side].replaceChildren(...place[side].map((i) => this.seatBox(i, seats[i] || {}, seatInfo[i] || {})));
      this.seatLists[side].hidden = !place[side].length;
    }
    this.opponents.dataset.count = String(order.length);
    this.tickAway();
  }

  /**
   * @param {number} i
   * @param {Record<string, any>} s the table map's seat
   * @param {SeatFrame} info
   */
  seatBox(i, s, info) {
    const t = this.t;
    const turn = !!info.active;
    /** @type {[string, string][]} */
    const presence = [];
    if (s.kind === "human" && s.left) presence.push(["left", t("seat.left")]);
    else if (s.kind === "human" && s.auto) presence.push(["auto", t(this.waitingForPeople() ? "seat.auto.waiting" : "seat.auto")]);
    else if (s.kind === "human" && !s.connected && this.awayLeft(i)) presence.push(["away away-countdown", t("seat.away.countdown", { time: this.awayLeft(i) })]);
    else if (s.kind === "human" && !s.connected) presence.push(["away", t("seat.away")]);
    const last = this.lastMoves.get(i);
    const move = last ? this.describe(last) : null;
    // The game may draw the short words itself (a Node: a colour's sign in its colour); the box's
    // title reads its text.
    const shown = move ? move.short || move.text : "";
    const lastText = typeof shown === "string" ? shown : shown.textContent || "";
    return el(
      "li",
      { class: `seat-box seat-${s.kind || "empty"}${turn ? " on-turn" : ""}`, dataset: { seat: i }, "aria-current": turn ? "true" : null },
      el("span", { class: "turn-tag", "aria-hidden": "true" }, "▶"),
      el(
        "p",
        { class: "seat-who" },
        seatLabel(t, s, i, this.app.levelName(this.desc, s.level)),
        s.kind === "bot" ? el("span", { class: "seat-level" }, this.app.levelName(this.desc, s.level)) : null,
      ),
      el(
        "p",
        { class: "seat-stats" },
        cardBacks(info.cards),
        info.count !== undefined && info.count !== null ? el("span", { class: "opp-count" }, String(info.count)) : null,
        info.score ? el("span", { class: "seat-score" }, String(info.score)) : null,
        info.badge ? el("span", { class: "seat-badge" }, String(info.badge)) : null,
      ),
      // Away or played by a bot heads the last line, before the last move: beside the name, in
      // a phone's narrow box, it was cut to "Budi a…".
      el(
        "p",
        { class: "seat-last", title: lastText || null },
        presence.map(([cls, text]) => el("span", { class: `presence ${cls}`, dataset: { seat: i } }, text)),
        presence.length && lastText ? " · " : null,
        shown,
      ),
      turn ? el("span", { class: "visually-hidden" }, t("seat.their_turn")) : null,
    );
  }

  /** @param {number | null | undefined} direction */
  renderDirection(direction) {
    const t = this.t;
    if (direction !== 1 && direction !== -1) {
      this.direction.hidden = true;
      return;
    }
    const seats = (this.table.seats || []).length;
    const from = this.spectator ? 0 : this.mySeat;
    /** @type {string[]} */
    const order = [];
    for (let k = 0; k < seats; k++) order.push(this.seatName((((from + direction * k) % seats) + seats) % seats));
    const word = direction === 1 ? t("table.direction.cw") : t("table.direction.ccw");
    this.direction.hidden = false;
    this.direction.replaceChildren(
      el("span", { class: "direction-arrow", "aria-hidden": "true" }, direction === 1 ? "↻" : "↺"),
      el("span", { class: "direction-word", "aria-hidden": "true" }, word),
      el("span", { class: "visually-hidden" }, t("table.direction.order", { word, order: order.join(", ") })),
    );
  }

  renderCaption() {
    const lines = this.recent
      .map((ev) => this.describe(ev))
      .filter((m) => m !== null)
      .map((m) => m.text)
      .reverse(); // newest first
    this.caption.replaceChildren(...lines.map((text, k) => el("p", { class: k === 0 ? "latest" : "earlier" }, text)));
  }

  /** @param {Key[]} keys */
  renderKeys(keys) {
    const t = this.t;
    this.keys = keys.filter((k) => k && k.key && k.button);
    for (const k of this.keys) k.button.setAttribute("aria-keyshortcuts", k.key.toUpperCase());
    const on = this.app.shortcuts;
    const parts = this.hand.buttons().length ? [t("keys.hand")] : [];
    // R for the reactions, where it opens them (a new user's trial found it missing from the list).
    const react = this.app.talk && this.app.talk.keyReacts() ? [t("keys.one", { key: "R", label: t("talk.react") })] : [];
    if (on) parts.unshift(...this.keys.map((k) => t("keys.one", { key: k.key.toUpperCase(), label: k.label })), ...react);
    this.keysHint.textContent = parts.length ? `${t("keys.title")}: ${parts.join(" · ")}` : "";
    this.keysHint.hidden = !parts.length;
  }

  /** A key the game named for one of its buttons (unless a field, a dialog or the player's setting says no). @param {KeyboardEvent} ev */
  shortcut(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || !this.app.shortcuts) return;
    const target = /** @type {HTMLElement | null} */ (ev.target);
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    if (this.dialog.isOpen || this.rulesDialog.open || !this.node.isConnected) return;
    const key = String(ev.key || "").toLowerCase();
    const match = (this.keys || []).find((k) => k.key.toLowerCase() === key);
    if (!match) return;
    ev.preventDefault();
    if (!(/** @type {HTMLButtonElement} */ (match.button).disabled) && !match.button.closest("[hidden]")) match.button.click();
  }

  /** Leave the table mid-round, once the player said yes (a bot takes the seat for good). */
  async askLeave() {
    const t = this.t;
    const answer = await this.dialog.open({
      id: "leave-dialog",
      title: t("leave.title"),
      // the last person seated is told that the match stops with them (no bot plays for nobody)
      text: t(this.people().length <= 1 ? "leave.text_last" : "leave.text"),
      choices: [{ value: "leave", content: [t("leave.confirm")], className: "leave-confirm" }],
      cancel: t("leave.stay"),
    });
    if (answer === "leave") await this.app.leave();
  }

  // ------------------------------------------------------------------ the log

  /** The log's line for an event (the table's own events, or the game's words). @param {GameEvent} ev @returns {string | null} */
  logLine(ev) {
    const t = this.t;
    const me = this.mySeat;
    const who = (/** @type {number | null | undefined} */ seat) => this.seatName(/** @type {number} */ (seat));
    switch (ev.kind) {
      case "rematch":
        return t("log.rematch");
      case "seat_changed":
        // A person gave their seat up (leave): the others read who, and that a bot plays it now
        // (a new user saw a friend's seat turn into a bot without a word).
        if (typeof ev.left !== "string" || !ev.left || ev.seat === me) return null;
        return t(ev.to === "bot" ? "log.left.bot" : "log.left", { who: isolate(ev.left) });
      case "away":
        return ev.seat !== me ? t("log.away", { who: who(ev.seat) }) : null;
      case "connected":
        return ev.seat !== me && ev.seat !== undefined ? t("log.back", { who: who(ev.seat) }) : null;
      case "auto": {
        if (ev.seat === me || ev.seat === undefined) return null;
        // Whether the table waited for a person when this page first showed the takeover: then
        // no bot plays yet, and the line says so (it keeps its words after a language switch).
        if (!this.autoWaited.has(ev)) this.autoWaited.set(ev, this.waitingForPeople());
        return t(this.autoWaited.get(ev) ? "log.auto.waiting" : "log.auto", { who: who(ev.seat) });
      }
      case "timeout":
        return t(ev.limit === "ready" ? "log.timeout.ready" : "log.timeout.turn", { who: who(ev.seat) });
      case "talk:reaction":
        return t("talk.log", { who: ev.seat === me ? who(ev.seat) : ev.name || who(ev.seat), what: reactionWords(ev.reaction) });
      case "muted":
        return Number.isInteger(ev.seat) ? t(ev.muted === false ? "log.unmuted" : "log.muted", { who: who(ev.seat) }) : null;
      default:
        return TABLE_EVENTS.has(ev.kind) ? null : this.game.logLine(ev);
    }
  }

  /** Whether the log is on screen, so that what enters it is announced (a polite live region). */
  logAnnounces() {
    return !this.tv && this.logBox.open && this.node.isConnected;
  }

  /** Draw the log from the app's events (all again after a language switch; else the new ones). */
  /** @param {boolean} all */
  renderLog(all) {
    const events = this.app.logEvents;
    // The app keeps a bounded list (the oldest drop out): find where the last event drawn is now.
    let from = this.lastLogged ? events.lastIndexOf(this.lastLogged) + 1 : 0;
    if (all || (this.lastLogged && from === 0)) {
      this.log.replaceChildren();
      this.logLines = 0;
      from = 0;
    }
    for (let i = from; i < events.length; i++) {
      const ev = events[i];
      const text = this.logLine(ev);
      if (!text) continue;
      const mine = ev.seat === this.mySeat && !this.spectator;
      if (mine && this.followed && !TABLE_EVENTS.has(ev.kind)) {
        this.whyOf.set(ev, this.followed);
        this.followed = null;
      }
      const why = mine ? this.whyText(this.whyOf.get(ev)) : "";
      this.log.append(el("li", { class: mine ? "mine" : "" }, why ? `${text} ${this.t("log.why", { why })}` : text));
      this.logLines = (this.logLines || 0) + 1;
    }
    this.lastLogged = events.length ? events[events.length - 1] : null;
    while (this.log.children.length > LOG_MAX) /** @type {Element} */ (this.log.firstElementChild).remove();
    // An ordered list numbers from its first item: once the oldest lines dropped out, it starts
    // at the number the first one kept had, so no line changes its number.
    this.log.start = (this.logLines || 0) - this.log.children.length + 1;
    this.log.style.setProperty("--log-digits", String(String(this.logLines || 0).length));
    this.log.scrollTop = this.log.scrollHeight;
  }

  // ------------------------------------------------------------------ the rules panel

  openRules() {
    this.fillRules();
    if (!this.rulesDialog.open) this.rulesDialog.showModal();
    this.rulesClose.focus();
  }

  fillRules() {
    const t = this.t;
    const lines = this.app.rulesLines(this.desc, this.table);
    /** @type {Key[]} */
    const keys = this.keys || [];
    const shortcuts = el("input", {
      type: "checkbox",
      id: "shortcuts",
      checked: this.app.shortcuts,
      onchange: (/** @type {Event} */ ev) => {
        this.app.setShortcuts(/** @type {HTMLInputElement} */ (ev.target).checked);
        this.renderKeys(this.keys || []);
      },
    });
    this.rulesTitle.textContent = t("rules.title");
    this.rulesClose.textContent = t("rules.close");
    // (the parts left out are dropped: replaceChildren writes a null as the text "null")
    const parts = [
      el("p", { class: "rules-game" }, this.app.tableGameLine(this.desc, this.table)),
      // the bar's note in its long words (a phone's bar has the short ones)
      this.chosenNote.hidden ? null : el("p", { class: "chosen-note", id: "rules-chosen-note" }, this.chosenNote.textContent),
      lines.length ? el("ul", { class: "rules", id: "rules-list" }, lines.map((/** @type {string} */ l) => el("li", {}, l))) : el("p", {}, t("rules.none")),
      this.tv
        ? null
        : el(
            "section",
            { class: "keys-box", "aria-labelledby": "keys-title" },
            el("h3", { id: "keys-title" }, t("keys.title")),
            el(
              "ul",
              { class: "keys-list" },
              keys.map((k) => el("li", {}, el("kbd", {}, k.key.toUpperCase()), ` ${k.label}`)),
              el("li", {}, t("keys.hand")),
              el("li", {}, t("keys.tab")),
            ),
            el("div", { class: "field check" }, shortcuts, el("label", { for: "shortcuts" }, t("keys.single"))),
          ),
      // Leaving mid-round from here too: a phone's bar has no room for the bar's Leave (style.css).
      this.leaveButton.hidden
        ? null
        : el(
            "p",
            { class: "rules-leave" },
            el(
              "button",
              {
                type: "button",
                id: "rules-leave",
                onclick: () => {
                  this.rulesDialog.close();
                  this.askLeave();
                },
              },
              t("nav.leave"),
            ),
          ),
    ];
    this.rulesBody.replaceChildren(...parts.filter((part) => part !== null));
  }

  // ------------------------------------------------------------------ the round summary

  /** The end of a match as the table map says it (`outcome`), for a game whose table gives no summary. @returns {ShownSummary | null} */
  outcomeSummary() {
    const t = this.t;
    const table = this.table;
    const outcome = table.outcome;
    if (table.status !== "finished" || !outcome) return null;
    const teams = Array.isArray(outcome.team_scores) && outcome.team_scores.length ? table.teams || [] : null;
    let rows;
    let head;
    if (teams) {
      head = [t("outcome.team"), t("outcome.seats"), t("outcome.score")];
      rows = outcome.team_scores.map((/** @type {unknown} */ score, /** @type {number} */ i) => [
        t("outcome.team.n", { n: i + 1 }),
        (teams[i] || []).map((/** @type {number} */ s) => this.seatName(s)).join(", "),
        String(score),
        (outcome.teams || []).includes(i),
      ]);
    } else {
      head = [t("outcome.player"), t("outcome.score")];
      rows = (outcome.scores || []).map((/** @type {unknown} */ score, /** @type {number} */ i) => [this.seatName(i), String(score), (outcome.winners || []).includes(i)]);
    }
    const details = el(
      "table",
      { class: "scores", id: "outcome" },
      el("caption", {}, t("outcome.scores")),
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        rows.map((/** @type {any[]} */ cells) => {
          const won = cells.pop();
          const [first, ...rest] = cells;
          return el("tr", { class: won ? "winner" : "" }, el("th", { scope: "row" }, first), rest.map((/** @type {string} */ c) => el("td", {}, c)));
        }),
      ),
    );
    return { round: null, details, dealCode: null, match: true, winners: outcome.winners || [], next: null };
  }

  /** Whether this page's seat is among a summary's winners (the match's). @param {ShownSummary} summary */
  iWon(summary) {
    return !this.spectator && /** @type {unknown[]} */ (summary.winners || []).includes(this.mySeat);
  }

  /** @param {ShownSummary | null} summary */
  renderSummary(summary) {
    const t = this.t;
    if (!summary) {
      // The next round: the table again, from the top (the result, focused or brought up, had
      // scrolled the page: a phone's hand came back 90 px up).
      if (!this.summary.hidden) window.scrollTo(0, 0);
      this.summary.hidden = true;
      this.summary.replaceChildren();
      return;
    }
    const v = this.view;
    const focusedId = this.summary.contains(document.activeElement) ? /** @type {Element} */ (document.activeElement).id : null;
    const hasRound = summary.round !== null && summary.round !== undefined;
    const winners = /** @type {number[]} */ (summary.winners || []);
    const iWon = this.iWon(summary);
    // The winners one team of the table's (partners): the team won, it is no shared win (a new
    // user's trial read "Bot 2, Bot 4 share the win" and "Co-winners" for a partnership's win).
    const teams = /** @type {number[][]} */ ((this.table && this.table.teams) || []);
    const oneTeam = winners.length > 1 && teams.some((team) => Array.isArray(team) && team.length === winners.length && winners.every((s) => team.includes(s)));
    let heading;
    if (summary.match) {
      if (oneTeam) heading = iWon ? t("summary.team_you_win") : t("summary.team_won", { names: winners.map((s) => this.seatName(s)).join(" + ") });
      else if (iWon) heading = winners.length > 1 ? t("summary.you_share") : t("summary.you_win");
      else heading = t("summary.match_won", { n: winners.length, names: winners.map((s) => this.seatName(s)).join(", ") });
    } else {
      heading = t("summary.title", { n: summary.round });
    }
    const banner = el(
      "div",
      { class: `result-banner${summary.match ? " match" : ""}${iWon ? " won" : ""}` },
      el("h2", { id: "summary-title", tabindex: "-1" }, heading),
      // The heading names a single winner already ("Bot 4 wins the match"): the line is for co-winners.
      summary.match && winners.length > 1 && !oneTeam
        ? el("p", { class: "winners", id: "winners" }, t("summary.winners", { n: winners.length, names: winners.map((s) => this.seatName(s)).join(", ") }))
        : null,
      summary.headline ? el("p", { class: "headline", id: "summary-headline" }, summary.headline) : null,
      summary.match && hasRound ? el("p", { class: "headline" }, t("summary.last_round", { n: summary.round })) : null,
    );
    /** @type {HTMLElement[]} */
    const main = [];
    /** @type {HTMLElement[]} */
    const side = [];
    if (summary.match) {
      if (this.app.isHost) {
        // (a shared screen that hosts the room without a seat has the host's button too)
        main.push(el("button", { type: "button", class: "primary big", id: "rematch", onclick: () => this.app.send({ type: "rematch" }) }, t("summary.rematch")));
      } else if (!this.tv) {
        // The host who left a finished match took the rematch with them (PROTOCOL.md 5, leave).
        const table = this.table;
        const hostSeat = table && typeof table.host_seat === "number" ? (table.seats || [])[table.host_seat] : null;
        const key = hostSeat && hostSeat.left ? "summary.rematch.host_left" : table && screenHosts(table) ? "summary.rematch.wait.screen" : "summary.rematch.wait";
        main.push(el("p", { class: "hint", id: "rematch-wait" }, t(key)));
      } /* else: the shared screen shows the result; the players' phones have the buttons */
      if (!this.tv) side.push(el("button", { type: "button", id: "leave-table", onclick: () => this.app.leave() }, t("nav.leave")));
      // the finished match's replay (replay.js), watched from this player's seat
      const replay = replayLink(this.table, this.spectator ? null : this.mySeat);
      if (replay) side.push(replay);
    } else if (summary.next) {
      const next = summary.next;
      main.push(el("button", { type: "button", class: "primary big", id: "next-round", onclick: () => this.app.act(next) }, t("summary.next")));
      // Between the rounds of a longer match one may leave too (a bot takes the seat).
      if (!this.tv && !this.spectator) side.push(el("button", { type: "button", id: "leave-table", onclick: () => this.app.leave() }, t("nav.leave")));
    } else if (!this.spectator) {
      main.push(el("p", { class: "hint", id: "waiting", role: "status" }, t("summary.waiting")));
    }
    /** @type {Node[]} */
    const parts = [banner];
    if (main.length || side.length) parts.push(el("div", { class: "summary-actions" }, el("div", { class: "main" }, main), el("div", { class: "side" }, side)));
    if (summary.details) parts.push(summary.details);
    // How everyone who played this deal did (dealboard.js): its code is revealed now the round is over.
    if (hasRound && summary.dealCode && !this.tv) parts.push(boardPanel(this.app, this.table, summary.dealCode));
    if (hasRound) parts.push(this.dealBox(/** @type {number} */ (summary.round), summary.dealCode));
    this.summary.replaceChildren(...parts);
    this.summary.hidden = false;
    const key = `${summary.round}/${summary.match}/${v ? v.phase : ""}`;
    if (this.tv) {
      // Nobody scrolls a TV: the result is brought up to the top of the screen when it comes
      // (below ten seats' boxes it lay under the fold, the scores unseen).
      if (this.summaryShownFor !== key) {
        this.summaryShownFor = key;
        this.summary.scrollIntoView({ block: "start" });
        // A shared screen that hosts: its remote's Enter starts the rematch.
        const rematch = document.getElementById("rematch");
        if (rematch) rematch.focus({ preventScroll: true });
      } else if (focusedId && document.getElementById(focusedId)) {
        // Drawn again (the replay's link arrives a moment after the result): the remote's focus
        // stays where it was, not lost to the page (Enter then did nothing).
        /** @type {HTMLElement} */ (document.getElementById(focusedId)).focus({ preventScroll: true });
      }
      return;
    }
    if (focusedId && document.getElementById(focusedId)) {
      /** @type {HTMLElement} */ (document.getElementById(focusedId)).focus();
    } else if (this.summaryShownFor !== key) {
      // Move focus to the summary when it appears, so keyboard and screen reader users land on it.
      this.summaryShownFor = key;
      /** @type {HTMLElement} */ (document.getElementById("summary-title")).focus();
    }
  }

  /**
   * The round's deal code (to share and replay) and the fair-deal check, behind a disclosure, in plain words.
   * @param {number} round
   * @param {string | null | undefined} code
   */
  dealBox(round, code) {
    const t = this.t;
    const fair = (this.app.fair || {})[round] || {};
    const check = checkDeal(fair, code);
    const chosen = !!fair.chosen;
    const status = el("p", { class: "commitment", id: "commitment", dataset: { check } });
    let headline;
    if (check === "none") {
      headline = t("fair.none.short");
      status.textContent = t("fair.none");
    } else if (check === "wait") {
      headline = t("fair.wait");
      status.textContent = t("fair.wait");
    } else if (check === "ok") {
      headline = chosen ? t("fair.ok_chosen.short") : t("fair.ok.short");
      status.textContent = chosen ? t("fair.ok_chosen") : t("fair.ok");
    } else {
      headline = t("fair.bad.short");
      status.textContent = t("fair.bad");
    }
    status.classList.toggle("bad", check === "bad");
    /** @type {Node[]} */
    const parts = [status];
    if (fair.hash) parts.push(el("p", { class: "hint fingerprint" }, t("fair.fingerprint", { hash: fair.hash.slice(0, 16) })));
    if (code) {
      const link = dealLink(this.table, code);
      const fallback = el("input", { type: "text", readonly: true, hidden: true, class: "copy-fallback", "aria-label": t("summary.deal") });
      const copied = el("span", { class: "form-status", role: "status" });
      parts.push(
        el("p", {}, el("span", { class: "label" }, `${t("summary.deal")}: `), el("code", { id: "deal-code-shown" }, code)),
        el("p", { class: "hint" }, t("summary.deal.hint")),
        el(
          "button",
          {
            type: "button",
            id: "copy-deal",
            dataset: { link },
            onclick: async () => {
              const ok = await copyText(link, fallback);
              copied.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
            },
          },
          t("summary.copy_deal"),
        ),
        copied,
        fallback,
      );
    }
    // Open if the check failed, or if the player opened it (an update draws the summary again:
    // the box on the page says so at once, before its toggle event has been handled).
    const shown = /** @type {HTMLDetailsElement | null} */ (document.getElementById("fair-box"));
    if (shown && shown.open && shown.dataset.round === String(round)) this.fairOpen = round;
    const open = check === "bad" || this.fairOpen === round;
    const box = el(
      "details",
      { class: `deal fair-box${check === "bad" ? " bad" : ""}`, id: "fair-box", open, dataset: { round: String(round) } },
      el("summary", { id: "fair-summary" }, headline),
      parts,
    );
    box.addEventListener("toggle", () => {
      this.fairOpen = box.open ? round : null;
    });
    return box;
  }
}

/** Backs a seat's box draws at most: beyond, the count beside them says how many. */
const MAX_BACKS = 8;

/**
 * A seat's hand as the others see it: its cards face down, fanned (at most MAX_BACKS of them),
 * drawn by the style sheet; decorative, the count beside it says the number in words.
 * @param {number | undefined} n
 */
function cardBacks(n) {
  if (n === undefined || !Number.isInteger(n) || n <= 0) return null;
  const shown = Math.min(n, MAX_BACKS);
  return el(
    "span",
    { class: `seat-backs${n > MAX_BACKS ? " more" : ""}`, "aria-hidden": "true", dataset: { cards: String(n) } },
    Array.from({ length: shown }, () => el("span", { class: "seat-back" })),
  );
}

/**
 * How a seat is named on the table and in the lobby: a person's name in its own element;
 * a bot by a badge whose words the style sheet draws (so no text, and no name a person
 * types, can pass for it; copying the page copies none of it) and whose accessible name
 * says it; an empty seat in words.
 * @param {Text} t
 * @param {Record<string, any>} s the table map's seat
 * @param {number} i
 * @param {string} levelName
 */
export function seatLabel(t, s, i, levelName) {
  if (s.kind === "bot") {
    const name = t("seat.bot_name", { n: i + 1 });
    return el("span", {
      class: "bot-badge",
      role: "img",
      "aria-label": t("seat.bot_spoken", { name, level: levelName }),
      dataset: { badge: name },
    });
  }
  if (s.kind === "human") return el("span", { class: "person-name seat-name" }, s.name || t("seat.label", { n: i + 1 }));
  return el("span", { class: "seat-name empty-name" }, t("seat.empty"));
}

/**
 * The deal's link on the table's public origin: /play?deal=CODE (the server answers /play
 * with the page; the page reads `deal` on any path and opens the host form with it).
 * @param {TableMap | null | undefined} table
 * @param {string} code
 */
export function dealLink(table, code) {
  let origin = location.origin;
  try {
    if (table && table.link) origin = new URL(table.link).origin;
  } catch (err) {
    /* keep the page's origin */
  }
  return `${origin}/play?deal=${encodeURIComponent(code)}`;
}

/** What a screen reader names a control: its label, else its words, each part apart (a shape and a word, "♥ Hearts"). @param {Element} node */
export function spokenName(node) {
  const label = node.getAttribute("aria-label");
  if (label) return label.trim();
  /** @type {string[]} */
  const parts = [];
  /** @param {Node} n */
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) parts.push(/** @type {string} */ (n.textContent));
    else if (n.nodeType === Node.ELEMENT_NODE && /** @type {Element} */ (n).getAttribute("aria-hidden") !== "true") n.childNodes.forEach(walk);
  };
  walk(node);
  return parts.map((p) => p.trim()).filter(Boolean).join(" ");
}
