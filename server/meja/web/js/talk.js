// @ts-check
// Talk at the table (PROTOCOL.md 16): reactions, the table chat, and the host's talk settings
// and mutes. Talk is the table's, never a game's: every table has it, and a game only says
// through the table map's `talk.now` how much of it its rules allow at the moment ("free",
// "neutral": the neutral reactions only, "none"). The server checks everything; the page
// only offers what would be accepted, and says why something is not.
//
// What the page keeps:
// * the lines of this table (chat lines and reactions) by `id`: a line may come twice (in
//   the history a connection gets after its `state`, and live), and is drawn once;
// * localStorage "meja.talk.hidden": for each table, the seats whose messages this person
//   hid for themselves (their chat lines and reactions are not shown here; nobody else knows);
// * whether the chat panel is open (closed, it counts the lines that came meanwhile).
//
// The history a connection gets after its `state` (`talk` with `history: true`) goes to the chat
// panel alone, reactions included, and never to the move log: it comes after the replayed game
// events of a reload (PROTOCOL.md 16.2), and its lines carry only the time they were said while
// the log's events carry none, so appended there they read as said after moves they came before
// (a new user's log after a reload). Live reactions go to the log as they come, in their place.
//
// A reaction shows for a few seconds as a bubble at the sender's seat on every screen that
// draws that seat (the lobby's list, the table's boxes, the player's own seat line, the
// shared screen); when the seat is not drawn (a phone showing the hand alone) it floats
// over the table with the sender's name. It goes into the move log ("Budi: Nice!"), and is
// announced once: by the log where the log is open on screen (a polite live region), else by
// this module's own live region. Chat lines are a `log` region of their own, read while the
// panel is open; closed, its button counts them.
//
// The parts (the talk bar: reactions, the chat button and the call's buttons; the chat panel)
// are built once per page and moved between the lobby and the table, so that a line being
// typed or the call's videos survive a screen change.

import { isolate, t } from "./strings.js";
import { el } from "./ui.js";

const HIDDEN_KEY = "meja.talk.hidden";
/** The reactions, in the order the server lists them (meja.protocol.messages.REACTIONS). */
export const REACTIONS = [
  "hello", "nice", "oops", "your_turn", "one_moment", "thanks", "good_game", "rematch", "laugh", "wow", "clap", "heart",
];
/** The reactions a game may allow during play: none says anything about anyone's cards. */
export const NEUTRAL = new Set(["hello", "one_moment", "thanks", "your_turn"]);
/** Reactions drawn as a picture; their words (talk.r.<id>) are what a screen reader and the log say beside it. */
/** @type {Record<string, string>} */
export const EMOJI = { laugh: "😄", wow: "😮", clap: "👏", heart: "❤️" };
/** A talk line (PROTOCOL.md 16.2): `id`, `seat`, `name`, and `text` or `reaction`. @typedef {Record<string, any>} Line */
/** The table's talk settings (PROTOCOL.md 7.1 `talk`). @typedef {Record<string, any>} Policy */
const BUBBLE_MS = 4000;
/** Lines kept in the panel (the server keeps its talk_keep, 50, for late comers; a long evening says more). */
const LINES_MAX = 300;
/** How many chat lines the shared screen shows (the last ones: a TV never scrolls). */
const TV_CHAT_LINES = 6;
/** @type {Policy} */
const DEFAULT_POLICY = { chat: "on", spectators: false, table_talk: false, relay: false, hints: true, muted: [], now: "free" };
/** From this share of the limit on, the chat's input shows how many characters it holds. */
const COUNT_FROM = 0.8;

/** The server's limits (welcome.limits), once a Talk knows the page's connection. */
/** @type {() => Record<string, any> | null} */
let serverLimits = () => null;

function loadHidden() {
  try {
    return JSON.parse(localStorage.getItem(HIDDEN_KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

/** A reaction as drawn: its picture, or its words. */
/** @param {string} id */
export function reactionFace(id) {
  return EMOJI[id] || t(`talk.r.${id}`);
}

/** A reaction as said (the log, a screen reader): the picture and the words, or the words. */
/** @param {string} id */
export function reactionWords(id) {
  return EMOJI[id] ? `${EMOJI[id]} ${t(`talk.r.${id}`)}` : t(`talk.r.${id}`);
}

export class Talk {
  /** app: the App (app.js): its table map, seat, connection, screens and move log. */
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    serverLimits = () => (app.conn && app.conn.limits) || null;
    /** @type {string | null} */
    this.tableId = null;
    /** Chat lines and reactions in the order they came. @type {Line[]} */
    this.lines = [];
    /** Line ids. @type {Set<string>} */
    this.seen = new Set();
    /** Ids of the lines that came as history (drawn in the chat, not the log). @type {Set<string>} */
    this.fromHistory = new Set();
    this.unread = 0;
    /** seat -> {id, reaction, name, until}. @type {Map<number, {id: string, reaction: string, name?: string, until: number}>} */
    this.bubbles = new Map();
    /** The line ids drawn in the chat. @type {Set<string>} */
    this.drawn = new Set();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.bubbleTimer = undefined;
    /** @type {HTMLElement | null} */
    this.tvChat = null;
    /** @type {HTMLOListElement | null} */
    this.tvChatList = null;
    // The panel's parts, made by build() below.
    const late = /** @type {any} */ (null);
    /** @type {HTMLDivElement} */
    this.bar = late;
    /** @type {HTMLDivElement} */
    this.callSlot = late;
    /** @type {HTMLParagraphElement} */
    this.chatError = late;
    /** @type {HTMLParagraphElement} */
    this.count = late;
    /** @type {HTMLParagraphElement} */
    this.hiddenNote = late;
    /** @type {HTMLInputElement} */
    this.input = late;
    /** @type {HTMLLabelElement} */
    this.inputLabel = late;
    /** @type {HTMLOListElement} */
    this.list = late;
    /** @type {HTMLDivElement} */
    this.listBox = late;
    /** @type {HTMLDivElement} */
    this.menu = late;
    /** @type {HTMLDivElement} */
    this.menuItems = late;
    /** @type {HTMLParagraphElement} */
    this.menuKeys = late;
    /** @type {HTMLParagraphElement} */
    this.menuNote = late;
    /** @type {HTMLParagraphElement} */
    this.mutedNote = late;
    /** @type {HTMLParagraphElement} */
    this.note = late;
    /** @type {HTMLHeadingElement} */
    this.panelTitle = late;
    /** @type {HTMLDetailsElement} */
    this.people = late;
    /** @type {HTMLUListElement} */
    this.peopleList = late;
    /** @type {HTMLElement} */
    this.peopleSummary = late;
    /** @type {HTMLDivElement} */
    this.reactBox = late;
    /** @type {HTMLButtonElement} */
    this.reactButton = late;
    /** @type {HTMLButtonElement} */
    this.sendButton = late;
    /** @type {HTMLDivElement} */
    this.settingsBox = late;
    /** @type {HTMLButtonElement} */
    this.toggle = late;
    /** @type {HTMLFormElement} */
    this.form = late;
    /** @type {HTMLElement} */
    this.panel = late;
    this.open = window.matchMedia("(min-width: 64rem)").matches;
    this.live = el("p", { class: "visually-hidden", id: "talk-live", "aria-live": "polite" });
    /** The words last said there, to word again in another language. @type {(() => string) | null} */
    this.said = null;
    document.body.append(this.live);
    this.build();
    /** @param {KeyboardEvent} ev */
    this.onKeyDown = (ev) => this.shortcut(ev);
    document.addEventListener("keydown", this.onKeyDown);
    // The reactions' menu closes on a tap or click anywhere else (a phone has no focus to lose
    // there: it stayed open over the table), and follows its button when the window changes.
    /** @param {PointerEvent} ev */
    this.onPointerDown = (ev) => {
      if (!this.menu.hidden && !this.reactBox.contains(/** @type {Node} */ (ev.target))) this.closeMenu(false);
    };
    document.addEventListener("pointerdown", this.onPointerDown, true);
    this.onResize = () => {
      if (!this.menu.hidden) this.placeMenu();
    };
    window.addEventListener("resize", this.onResize);
  }

  // ------------------------------------------------------------------ state

  /** The table's talk (PROTOCOL.md 7.1), with the defaults for a server that sends none. */
  get policy() {
    const talk = this.app.table && this.app.table.talk;
    return { ...DEFAULT_POLICY, ...(talk && typeof talk === "object" ? talk : {}) };
  }

  get seated() {
    return !this.app.spectating && this.app.seat !== null && this.app.seat !== undefined;
  }

  get mutedMe() {
    return this.seated && (this.policy.muted || []).includes(this.app.seat);
  }

  /** Whether this page may read the chat (a seat, or a spectator the host lets read). */
  get readsChat() {
    const p = this.policy;
    return p.chat === "on" && (this.seated || p.spectators);
  }

  /**
   * The shared screen's chat (issue 20): the room's last chat lines, read from the sofa, where the
   * host lets those who watch read the chat (a room the TV hosts does so unless its form said
   * no: tvhost.js). Only lines the server sent this screen, so nothing a spectator may not read.
   * Drawn by the TV's lobby and table (tvChatNode); hidden while there is nothing to show.
   */
  renderTvChat() {
    if (!this.tvChat || !this.tvChatList) return;
    const hidden = this.hiddenSeats();
    const lines = this.readsChat ? this.lines.filter((l) => typeof l.text === "string" && !hidden.has(l.seat)).slice(-TV_CHAT_LINES) : [];
    this.tvChatList.replaceChildren(
      ...lines.map((line) =>
        el(
          "li",
          { dataset: { seat: line.seat, id: line.id } },
          el("span", { class: "chat-who" }, `${this.who(line.seat, line.name)}: `),
          el("span", { class: "chat-text" }, line.text),
        ),
      ),
    );
    this.tvChat.hidden = !lines.length;
    // The table keeps the chat's strip while this screen reads the chat, a line or none: the first
    // line never moves the table (talk.css).
    this.tvChat.classList.toggle("reserved", this.readsChat);
  }

  /** The shared screen's chat box (made once; its lobby and its table each place it). */
  tvChatNode() {
    if (!this.tvChat) {
      const title = el("h2", { id: "tv-chat-title", class: "visually-hidden" }, t("talk.chat"));
      this.tvChatList = el("ol", { class: "tv-chat-lines", id: "tv-chat-lines" });
      this.tvChat = el("aside", { class: "tv-chat", id: "tv-chat", "aria-labelledby": "tv-chat-title", hidden: true }, title, this.tvChatList);
    }
    this.renderTvChat();
    return this.tvChat;
  }

  /** Whether the chat panel is offered: to the host (its settings), to a reader, and to every seat (it says why there is no chat). */
  get offersPanel() {
    return !this.app.tv && (this.app.isHost || this.readsChat || this.seated);
  }

  /** The most characters of a chat line (welcome.limits.chat_max_chars). */
  get maxChars() {
    return (this.app.conn.limits && this.app.conn.limits.chat_max_chars) || 200;
  }

  /** Whether a chat line would be accepted now (the server decides; the page only offers it then). */
  get canSay() {
    const p = this.policy;
    return this.seated && !this.mutedMe && p.chat === "on" && p.now === "free";
  }

  /** @param {string} id */
  canReact(id) {
    const p = this.policy;
    if (!this.seated || this.mutedMe || p.chat === "off" || p.now === "none") return false;
    return p.now !== "neutral" || NEUTRAL.has(id);
  }

  hiddenSeats() {
    return new Set((loadHidden()[String(this.tableId)] || []).filter(Number.isInteger));
  }

  /** @param {Set<number>} set the seats hidden at this table */
  saveHidden(set) {
    const all = loadHidden();
    const key = String(this.tableId); // as the store has always keyed it (null: "null")
    all[key] = [...set];
    if (!all[key].length) delete all[key];
    try {
      localStorage.setItem(HIDDEN_KEY, JSON.stringify(all));
    } catch (err) {
      /* private mode: hidden for this page only */
    }
  }

  /**
   * Hidden messages are a person's, kept by their seat: a move in the lobby (``seat_changed`` with
   * ``moved_from``, PROTOCOL.md 7.3) takes them to the new seat, and someone new at a seat is not
   * hidden for who sat there before (a hostile review: the hidden person showed again after a
   * move, and the next one at their old seat was hidden unawares).
   * @param {ReadonlyArray<import("./contract.js").GameEvent | null> | undefined} events
   */
  followSeats(events) {
    const before = this.hiddenSeats();
    if (!before.size || !events) return;
    const set = new Set(before);
    for (const e of events) {
      if (!e || e.kind !== "seat_changed" || typeof e.seat !== "number") continue;
      if (typeof e.moved_from === "number") {
        const was = set.delete(e.moved_from);
        if (was) set.add(e.seat);
        else set.delete(e.seat);
      } else if (e.to === "human") set.delete(e.seat);
    }
    if (set.size !== before.size || [...set].some((n) => !before.has(n))) this.saveHidden(set);
  }

  /**
   * @param {number} seat
   * @param {boolean} hide
   */
  setHidden(seat, hide) {
    const set = this.hiddenSeats();
    if (hide) set.add(seat);
    else set.delete(seat);
    this.saveHidden(set);
    if (hide) this.bubbles.delete(seat);
    this.renderLines(true);
    this.renderPeople();
    this.paint();
  }

  /** A new table (or none): what was said at the last one goes. @param {string | null} tableId */
  reset(tableId) {
    if (tableId === this.tableId) return;
    this.tableId = tableId;
    this.lines = [];
    this.seen.clear();
    this.fromHistory.clear();
    this.unread = 0;
    this.bubbles.clear();
    this.chatError.textContent = "";
    this.renderLines(true);
    this.refresh();
  }

  // ------------------------------------------------------------------ messages

  /** A `talk` message: new lines (by id) to the panel, reactions to the seats and the log. */
  /** @param {Record<string, any>} msg */
  onTalk(msg) {
    if (!msg || (this.tableId && msg.table && msg.table !== this.tableId)) return;
    const history = !!msg.history;
    const hidden = this.hiddenSeats();
    const fresh = [];
    for (const line of Array.isArray(msg.lines) ? msg.lines : []) {
      if (!line || typeof line.id !== "string" || this.seen.has(line.id)) continue;
      this.seen.add(line.id);
      if (history) this.fromHistory.add(line.id);
      this.lines.push(line);
      fresh.push(line);
    }
    if (this.lines.length > LINES_MAX) this.lines.splice(0, this.lines.length - LINES_MAX);
    if (!fresh.length) return;
    /** @type {{kind: string, seat: number, name: string | undefined, reaction: string, id: unknown}[]} */
    const events = [];
    for (const line of fresh) {
      const mine = this.seated && line.seat === this.app.seat;
      if (hidden.has(line.seat) && !mine) continue;
      if (typeof line.reaction === "string") {
        // History: in the chat alone (the top of this module says why).
        if (history) continue;
        events.push({ kind: "talk:reaction", seat: line.seat, name: line.name, reaction: line.reaction, id: line.id });
        this.showReaction(line);
      } else if (typeof line.text === "string" && !history && !mine && !(this.open && this.panelShown())) {
        this.unread += 1;
      }
    }
    if (events.length) {
      this.app.addTalkLog(events);
      // Said once: by the move log where it is open on screen, else here.
      if (!this.app.logAnnounces()) {
        this.announce(() => events.map((ev) => t("talk.log", { who: this.who(ev.seat, ev.name), what: reactionWords(ev.reaction) })).join(" "));
      }
    }
    this.renderLines(false);
    this.renderTvChat();
    this.renderToggle();
  }

  /** @param {Line} line */
  showReaction(line) {
    this.bubbles.set(line.seat, { id: line.id, reaction: line.reaction, name: line.name, until: Date.now() + BUBBLE_MS });
    this.paint();
    clearTimeout(this.bubbleTimer);
    const next = Math.min(...[...this.bubbles.values()].map((b) => b.until));
    this.bubbleTimer = setTimeout(() => this.expire(), Math.max(50, next - Date.now()));
  }

  expire() {
    const now = Date.now();
    for (const [seat, b] of this.bubbles) if (b.until <= now) this.bubbles.delete(seat);
    this.paint();
    if (this.bubbles.size) {
      const next = Math.min(...[...this.bubbles.values()].map((b) => b.until));
      this.bubbleTimer = setTimeout(() => this.expire(), Math.max(50, next - now));
    }
  }

  /**
   * Say `words()` once to a screen reader (cleared first, so the same words twice are read twice);
   * a language switch words the last of them again (`relabel`): they stayed in the old language.
   * @param {() => string} words
   */
  announce(words) {
    this.said = words;
    this.live.textContent = "";
    requestAnimationFrame(() => {
      this.live.textContent = words();
    });
  }

  /** The last words said, in the language chosen since. */
  relabel() {
    if (this.said && this.live.textContent) this.live.textContent = this.said();
  }

  /**
   * Who said a line: "You", or the seat's name as it was when said. "You" goes by the name the
   * line was said under where it has one (names at a table are one each): a person who moved
   * seats in the lobby said their earlier lines from another seat, and whoever sat in this one
   * before them was not this person.
   * @param {number} seat
   * @param {string | undefined} name
   */
  who(seat, name) {
    const mine = this.seated ? ((this.app.table && this.app.table.seats) || [])[this.app.seat] : null;
    if (mine && (name && mine.name ? name === mine.name : seat === this.app.seat)) return t("table.you");
    // isolated (strings.js): "<name>: <words>" keeps its order whatever the name's direction
    return name ? isolate(name) : this.app.seatDisplayName(seat);
  }

  // ------------------------------------------------------------------ sending

  /** @param {string} id */
  async react(id) {
    this.closeMenu(true);
    if (!this.canReact(id)) return;
    try {
      await this.app.conn.request({ type: "react", table: this.app.tableId, reaction: id });
    } catch (err) {
      this.app.showToast(this.errorText(err));
    }
  }

  /** @param {string} text */
  async say(text) {
    const line = text.trim();
    if (!line || this.overLimit()) return;
    this.chatError.textContent = "";
    this.sendButton.disabled = true;
    try {
      await this.app.conn.request({ type: "say", table: this.app.tableId, text: line });
      this.input.value = "";
    } catch (err) {
      this.chatError.textContent = this.errorText(err);
    } finally {
      this.sendButton.disabled = false;
      this.renderForm();
    }
  }

  /** A refusal in plain words (never the wire's code). */
  /** @param {any} err */
  errorText(err) {
    if (err && err.code === "limit/exceeded") return t("talk.slow");
    if (err && err.code === "connection/closed") return t("conn.not_sent");
    return this.app.errorText(err);
  }

  /** @param {Policy} fields */
  policyChange(fields) {
    this.app.send({ type: "talk_policy", ...fields });
  }

  // ------------------------------------------------------------------ the parts

  build() {
    // The reactions: a button, and a compact menu of the set under it.
    this.reactButton = el("button", {
      type: "button",
      class: "small",
      id: "react-button",
      "aria-haspopup": "menu",
      "aria-expanded": "false",
      "aria-controls": "react-menu",
      "aria-keyshortcuts": "R",
      onclick: () => (this.menu.hidden ? this.openMenu() : this.closeMenu(true)),
    });
    this.menuNote = el("p", { class: "react-note", id: "react-note" });
    this.menuItems = el("div", { class: "react-items", role: "menu", id: "react-items", "aria-labelledby": "react-button" });
    this.menuKeys = el("p", { class: "react-keys", id: "react-keys" });
    this.menu = el("div", { class: "react-menu", id: "react-menu", hidden: true }, this.menuNote, this.menuItems, this.menuKeys);
    this.menu.addEventListener("keydown", (ev) => this.menuKey(ev));
    this.menu.addEventListener("focusout", (ev) => {
      if (!this.menu.hidden && ev.relatedTarget && !this.reactBox.contains(/** @type {Node} */ (ev.relatedTarget))) this.closeMenu(false);
    });
    this.reactBox = el("div", { class: "react-box" }, this.reactButton, this.menu);

    this.toggle = el("button", {
      type: "button",
      class: "small",
      id: "chat-toggle",
      // Says from the first draw whether the panel is open (a wide screen's opens by itself).
      "aria-expanded": this.open ? "true" : "false",
      "aria-controls": "chat-panel",
      onclick: () => this.pressToggle(),
    });
    this.callSlot = el("div", { class: "call-slot", id: "call-slot" });
    // A muted person is told here, once, where the bar is (the chat panel may be closed, and
    // the call's buttons are beside it): the chat's note and the call's status said it twice.
    this.mutedNote = el("p", { class: "talk-note talk-muted-note", id: "talk-muted-note", hidden: true });
    this.bar = el("div", { class: "talk-bar", id: "talk-bar" }, this.reactBox, this.toggle, this.callSlot, this.mutedNote);

    // The chat panel.
    this.panelTitle = el("h2", { id: "chat-title" });
    this.note = el("p", { class: "talk-note", id: "chat-note" });
    this.list = el("ol", { class: "chat-lines", id: "chat-lines" });
    // The lines are a log (read as they come while the panel is open), and scroll: a tab stop.
    this.listBox = el("div", { class: "chat-scroll", id: "chat-log", role: "log", "aria-labelledby": "chat-title", tabindex: "0" }, this.list);
    this.inputLabel = el("label", { for: "chat-input", class: "visually-hidden", id: "chat-input-label" });
    // No maxlength: a pasted line longer than the limit was cut without a word. The counter
    // shows near the limit and past it, and Send waits until the line fits.
    this.input = el("input", {
      type: "text",
      id: "chat-input",
      autocomplete: "off",
      enterkeyhint: "send",
      "aria-describedby": "chat-count",
      oninput: () => this.renderCount(),
    });
    this.sendButton = el("button", { type: "submit", class: "small", id: "chat-send" });
    this.count = el("p", { class: "chat-count", id: "chat-count", hidden: true });
    this.hiddenNote = el("p", { class: "chat-hidden-note", id: "chat-hidden-note", hidden: true });
    this.chatError = el("p", { class: "form-status", id: "chat-error", role: "alert" });
    this.form = el(
      "form",
      {
        class: "chat-form",
        id: "chat-form",
        onsubmit: (/** @type {SubmitEvent} */ ev) => {
          ev.preventDefault();
          this.say(this.input.value);
        },
      },
      this.inputLabel,
      el("div", { class: "chat-input-row" }, this.input, this.sendButton),
      this.count,
    );
    this.peopleSummary = el("summary", { id: "talk-people-summary" });
    this.peopleList = el("ul", { class: "talk-people", id: "talk-people" });
    this.settingsBox = el("div", { class: "talk-settings", id: "talk-settings" });
    this.people = el("details", { class: "talk-people-box", id: "talk-people-box" }, this.peopleSummary, this.peopleList, this.settingsBox);
    this.panel = el(
      "section",
      { class: "talk-panel", id: "chat-panel", "aria-labelledby": "chat-title", hidden: true },
      this.panelTitle,
      this.note,
      this.listBox,
      this.hiddenNote,
      this.form,
      this.chatError,
      this.people,
    );
  }

  /** The page's parts of talk for a screen: {bar, panel} (nothing on the shared screen). */
  parts() {
    this.refresh();
    return { bar: this.bar, panel: this.panel };
  }

  panelShown() {
    return this.panel.isConnected && !this.panel.hidden;
  }

  /**
   * The Chat button. Open but out of sight (a wide screen opens the panel by itself, beside or
   * under the table), a press brings it to the person, ready to type: it closed what they came to
   * use (a new user's trial on a laptop). Otherwise it opens or closes the panel.
   */
  pressToggle() {
    if (this.open && this.panelShown()) {
      const r = (this.canSay ? this.input : this.listBox).getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) {
        this.setOpen(true, true);
        return;
      }
    }
    this.setOpen(!this.open, true);
  }

  /**
   * @param {boolean} open
   * @param {boolean} [byHand]
   */
  setOpen(open, byHand) {
    this.closeMenu(false);
    this.open = open;
    this.renderToggle();
    if (this.open && this.panelShown()) {
      this.unread = 0;
      this.renderToggle();
      this.listBox.scrollTop = this.listBox.scrollHeight;
      if (byHand) {
        this.panel.scrollIntoView({ block: "nearest" });
        (this.canSay ? this.input : this.listBox).focus();
      }
    }
  }

  /** Draw every part again from the table map (its talk, its seats) and the page's language. */
  refresh() {
    const p = this.policy;
    const tv = this.app.tv;
    this.reactButton.textContent = t("talk.react");
    this.reactBox.hidden = tv || !this.seated || p.chat === "off";
    this.reactButton.disabled = this.mutedMe || p.now === "none";
    if (!this.menu.hidden) this.fillMenu();
    this.panelTitle.textContent = t("talk.chat.title");
    this.inputLabel.textContent = t("talk.chat.input");
    this.input.placeholder = t("talk.chat.placeholder");
    this.sendButton.textContent = t("talk.chat.send");
    this.peopleSummary.textContent = this.app.isHost ? t("talk.people.host") : t("talk.people");
    this.renderToggle();
    this.renderNote();
    this.renderForm();
    this.renderLines(true);
    this.renderTvChat();
    this.renderPeople();
    this.renderSettings();
    this.paint();
  }

  renderToggle() {
    // The host keeps the settings and mutes in the panel whatever the chat; others open it to read.
    // A seat whose host allows no chat gets the panel too, saying so: it vanished without a word.
    const shows = this.offersPanel;
    this.toggle.hidden = !shows;
    this.panel.hidden = !shows || !this.open;
    const n = this.unread;
    this.toggle.setAttribute("aria-expanded", this.open ? "true" : "false");
    const count = n ? [el("span", { class: "unread", id: "chat-unread", "aria-hidden": "true" }, String(n)), el("span", { class: "visually-hidden" }, `, ${t("talk.chat.unread", { n })}`)] : [];
    this.toggle.replaceChildren(el("span", {}, t("talk.chat")), ...count);
  }

  renderNote() {
    const p = this.policy;
    let key = null;
    if (this.mutedMe) key = null; // said in the bar (mutedNote)
    else if (p.chat === "off") key = "talk.off";
    else if (p.chat === "reactions") key = "talk.reactions_only";
    else if (!this.seated) key = this.readsChat ? "talk.chat.spectator" : "talk.chat.not_spectators";
    else if (p.now !== "free") key = p.now === "neutral" ? "talk.chat.neutral" : "talk.none";
    this.note.textContent = key ? t(key) : "";
    this.note.hidden = !key;
    this.mutedNote.textContent = this.mutedMe ? t("talk.muted_me") : "";
    this.mutedNote.hidden = !this.mutedMe || this.app.tv;
  }

  renderForm() {
    const p = this.policy;
    this.form.hidden = !this.seated || p.chat !== "on";
    this.listBox.hidden = !this.readsChat;
    this.input.disabled = !this.canSay;
    this.renderCount();
  }

  /** The line's length as the server counts it (code points, after NFKC and folding white space; PROTOCOL.md 16.4). */
  lineLength() {
    return [...this.input.value.normalize("NFKC").replace(/\s+/g, " ").trim()].length;
  }

  overLimit() {
    return this.lineLength() > this.maxChars;
  }

  /** "180/200" near the limit, marked past it (Send waits); nothing while there is room. */
  renderCount() {
    const n = this.lineLength();
    const max = this.maxChars;
    const over = n > max;
    this.count.hidden = n < Math.floor(max * COUNT_FROM);
    this.count.classList.toggle("over", over);
    this.count.textContent = over ? t("talk.chat.too_long", { n, max }) : t("talk.chat.count", { n, max });
    this.sendButton.disabled = !this.canSay || over;
  }

  /** @param {boolean} all */
  renderLines(all) {
    if (all) {
      this.list.replaceChildren();
      this.drawn = new Set();
    }
    if (!this.readsChat) return;
    const hidden = this.hiddenSeats();
    for (const line of this.lines) {
      // Chat lines, and the reactions that came as history (the move log has the live ones).
      const reaction = typeof line.reaction === "string" && this.fromHistory.has(line.id);
      if ((typeof line.text !== "string" && !reaction) || this.drawn.has(line.id)) continue;
      this.drawn.add(line.id);
      const mine = this.seated && line.seat === this.app.seat;
      if (hidden.has(line.seat) && !mine) continue;
      const classes = [mine ? "mine" : "", reaction ? "chat-reaction" : ""].filter(Boolean).join(" ");
      this.list.append(
        el(
          "li",
          { class: classes, dataset: { seat: line.seat, id: line.id } },
          el("span", { class: "chat-who" }, `${this.who(line.seat, line.name)}: `),
          el("span", { class: "chat-text" }, reaction ? reactionWords(line.reaction) : line.text),
        ),
      );
    }
    while (this.list.firstElementChild && this.list.children.length > LINES_MAX) this.list.firstElementChild.remove();
    if (!this.list.children.length) this.list.append(el("li", { class: "chat-empty" }, t("talk.chat.empty")));
    else this.list.querySelectorAll(".chat-empty").forEach((n) => n.remove());
    this.listBox.scrollTop = this.listBox.scrollHeight;
  }

  /** Each other person at the table: hide their messages here; the host mutes them for everyone. */
  renderPeople() {
    const table = this.app.table;
    const seats = (table && table.seats) || [];
    const hidden = this.hiddenSeats();
    const muted = new Set(this.policy.muted || []);
    const rows = [];
    const hiddenNames = [];
    // Hide and mute say what they are and what a press does ("Messages hidden · Show", "Unmute
    // for everyone"), marked on: a label that changes with its state is not a toggle's (WAI-ARIA
    // APG: a toggle's name stays), so they carry no aria-pressed. Without either, a press showed
    // nothing for it.
    /**
     * @param {string} id
     * @param {boolean} on
     * @param {string} words
     * @param {string} name
     * @param {() => void} onclick
     */
    const control = (id, on, words, name, onclick) =>
      el("button", { type: "button", class: `small talk-toggle${on ? " on" : ""}`, id, "aria-label": `${words}: ${name}`, onclick }, words);
    for (const s of seats) {
      if (s.kind !== "human" || (this.seated && s.seat === this.app.seat)) continue;
      const name = s.name || t("seat.label", { n: s.seat + 1 });
      const hide = hidden.has(s.seat);
      if (hide) hiddenNames.push(name);
      const controls = [control(`talk-hide-${s.seat}`, hide, hide ? t("talk.hidden") : t("talk.hide"), name, () => this.setHidden(s.seat, !hide))];
      if (this.app.isHost && !this.app.tv) {
        const on = muted.has(s.seat);
        controls.push(
          control(`talk-mute-${s.seat}`, on, on ? t("talk.unmute") : t("talk.mute"), name, () => this.app.send({ type: "mute", seat: s.seat, muted: !on })),
        );
      }
      rows.push(
        el(
          "li",
          { dataset: { seat: s.seat } },
          el("span", { class: "person-name" }, name),
          muted.has(s.seat) ? el("span", { class: "talk-muted-tag" }, t("talk.muted_tag")) : null,
          el("span", { class: "talk-person-controls" }, controls),
        ),
      );
    }
    this.peopleList.replaceChildren(...(rows.length ? rows : [el("li", { class: "hint" }, t("talk.people.none"))]));
    this.people.hidden = this.app.tv || (!rows.length && !this.app.isHost);
    // The chat says whose messages it leaves out here (else a quiet seat looks merely quiet).
    this.hiddenNote.textContent = hiddenNames.length ? t("talk.hidden_note", { names: hiddenNames.join(", ") }) : "";
    this.hiddenNote.hidden = !hiddenNames.length || !this.readsChat;
  }

  /** The host's talk settings (the same as the host form's), sent as they change. */
  renderSettings() {
    if (!this.app.isHost || this.app.tv) {
      this.settingsBox.replaceChildren();
      this.settingsBox.hidden = true;
      return;
    }
    const active = document.activeElement;
    const focused = active && this.settingsBox.contains(active) ? active.id : null;
    this.settingsBox.hidden = false;
    this.settingsBox.replaceChildren(
      talkFields(this.policy, "live", (/** @type {Policy} */ fields) => this.policyChange(fields)),
    );
    const again = focused ? document.getElementById(focused) : null;
    if (again) again.focus();
  }

  // ------------------------------------------------------------------ the reaction menu

  fillMenu() {
    const p = this.policy;
    const touch = window.matchMedia("(hover: none) and (pointer: coarse)").matches;
    const items = REACTIONS.map((id, i) => {
      const allowed = this.canReact(id);
      return el(
        "button",
        {
          type: "button",
          role: "menuitem",
          class: `react-item${EMOJI[id] ? " emoji" : ""}`,
          id: `react-${id}`,
          tabindex: "-1",
          "aria-disabled": allowed ? null : "true",
          "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
          dataset: { reaction: id },
          onclick: () => {
            if (allowed) this.react(id);
          },
        },
        touch || i >= 9 ? null : el("span", { class: "react-num", "aria-hidden": "true" }, String(i + 1)),
        el("span", { class: "react-face", "aria-hidden": EMOJI[id] ? "true" : null }, reactionFace(id)),
        EMOJI[id] ? el("span", { class: "visually-hidden" }, t(`talk.r.${id}`)) : null,
      );
    });
    this.menuItems.replaceChildren(...items);
    let note = null;
    if (p.now === "neutral" && p.chat !== "off") note = t("talk.neutral");
    else if (p.now === "none") note = t("talk.none");
    this.menuNote.textContent = note || "";
    this.menuNote.hidden = !note;
    this.menuKeys.textContent = t("talk.react.keys");
    this.menuKeys.hidden = touch;
  }

  openMenu() {
    if (this.reactBox.hidden || this.reactButton.disabled) return;
    this.fillMenu();
    this.menu.hidden = false;
    this.placeMenu();
    this.reactButton.setAttribute("aria-expanded", "true");
    const first = this.menuButtons().find((b) => !b.getAttribute("aria-disabled")) || this.menuButtons()[0];
    if (first) first.focus();
  }

  /**
   * Within the window at every size: the menu opens under its button, moved left as far as it
   * would pass the right edge (in the side column of a laptop's table it ran off the screen,
   * and the page scrolled sideways). A style property from the script (CSSOM): the page's
   * policy forbids inline style attributes, not this.
   */
  placeMenu() {
    this.menu.style.removeProperty("left");
    const margin = 8;
    const width = document.documentElement.clientWidth;
    const box = this.reactBox.getBoundingClientRect();
    const menu = this.menu.getBoundingClientRect();
    const left = Math.max(margin - box.left, Math.min(0, width - margin - box.left - menu.width));
    if (left) this.menu.style.left = `${Math.round(left)}px`;
  }

  /** @param {boolean} refocus */
  closeMenu(refocus) {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.reactButton.setAttribute("aria-expanded", "false");
    if (refocus && this.reactButton.isConnected) this.reactButton.focus();
  }

  menuButtons() {
    return [...this.menuItems.querySelectorAll("button")];
  }

  /** @param {KeyboardEvent} ev */
  menuKey(ev) {
    const buttons = this.menuButtons();
    const i = buttons.indexOf(/** @type {any} */ (document.activeElement));
    if (ev.key === "Escape") {
      ev.preventDefault();
      this.closeMenu(true);
      return;
    }
    if (/^[1-9]$/.test(ev.key) && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      const b = buttons[Number(ev.key) - 1];
      if (b) b.click();
      return;
    }
    // A grid of four columns on a wide screen: left/right step, up/down jump a row.
    const cols = Math.max(1, Math.round(this.menuItems.clientWidth / Math.max(1, (buttons[0] && buttons[0].offsetWidth) || 1)));
    /** @type {Record<string, number>} */
    const steps = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -buttons.length, End: buttons.length };
    const step = steps[ev.key];
    if (step === undefined) {
      if (ev.key === "Tab") this.closeMenu(false);
      return;
    }
    ev.preventDefault();
    const next = Math.min(buttons.length - 1, Math.max(0, (i < 0 ? 0 : i) + step));
    buttons[next].focus();
  }

  /** "R" opens the reactions (a keyboard's single key, unless the game uses it or a field has the focus). */
  /** @param {KeyboardEvent} ev */
  shortcut(ev) {
    if (ev.defaultPrevented) return;
    // Escape closes the menu wherever the focus went (the menu's own keys handle it inside).
    if (ev.key === "Escape" && !this.menu.hidden) {
      ev.preventDefault();
      this.closeMenu(this.menu.contains(document.activeElement));
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !this.app.shortcuts) return;
    if (String(ev.key).toLowerCase() !== "r") return;
    const target = /** @type {HTMLElement | null} */ (ev.target);
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    if (document.querySelector("dialog[open]") || !this.keyReacts()) return;
    ev.preventDefault();
    // R when no reaction may be sent says why, briefly (it did nothing, as if the key were broken).
    const why = this.whyNoReactions();
    if (why) this.app.showToast(why);
    else this.openMenu();
  }

  /** Whether R is the reactions' key here (a seat's page, not the shared screen, and no key of the
   * game's own is R): the table's keys line lists it then. */
  keyReacts() {
    if (!this.app.shortcuts || !this.reactButton.isConnected || this.app.tv || !this.seated) return false;
    const screen = this.app.tableScreen;
    return !(screen && (screen.keys || []).some((/** @type {{key: string}} */ k) => k.key.toLowerCase() === "r"));
  }

  /** Why this seat may send no reaction now, in plain words; null when it may send one. */
  whyNoReactions() {
    const p = this.policy;
    if (this.mutedMe) return t("talk.react.muted");
    if (p.chat === "off") return t("talk.off");
    if (p.now === "none") return t("talk.none");
    return null;
  }

  // ------------------------------------------------------------------ bubbles at the seats

  /** Put the reactions of the last seconds at their seats on the screen as it is drawn now. */
  paint() {
    const root = this.app.root;
    root.querySelectorAll(".talk-bubble").forEach((/** @type {Element} */ n) => n.remove());
    const floats = root.querySelector("#talk-floats");
    if (floats) floats.replaceChildren();
    const now = Date.now();
    const hidden = this.hiddenSeats();
    for (const [seat, b] of this.bubbles) {
      if (b.until <= now) continue;
      const mine = this.seated && seat === this.app.seat;
      if (hidden.has(seat) && !mine) continue;
      const targets = [...root.querySelectorAll(`.seat-box[data-seat="${seat}"], li.seat[data-seat="${seat}"]`)];
      if (mine) targets.push(...root.querySelectorAll("#my-area"));
      const shown = targets.filter((n) => !n.closest("[hidden]"));
      const face = reactionFace(b.reaction);
      for (const target of shown) {
        target.append(el("span", { class: `talk-bubble${EMOJI[b.reaction] ? " emoji" : ""}`, "aria-hidden": "true", dataset: { seat, reaction: b.reaction } }, face));
      }
      if (!shown.length && floats) {
        floats.append(
          el("p", { class: "talk-bubble float", "aria-hidden": "true", dataset: { seat, reaction: b.reaction } }, `${this.who(seat, b.name)}: ${face}`),
        );
      }
    }
  }

  destroy() {
    document.removeEventListener("keydown", this.onKeyDown);
    document.removeEventListener("pointerdown", this.onPointerDown, true);
    window.removeEventListener("resize", this.onResize);
  }
}

/**
 * The talk settings as form fields: the host form's (`prefix` "host": read by the form) and the
 * lobby's or table's (`onChange(fields)`: sent as `talk_policy` at once).
 */
/**
 * @param {Policy | null} policy
 * @param {string} prefix
 * @param {((fields: Policy) => void) | null} [onChange]
 */
export function talkFields(policy, prefix, onChange = null) {
  const p = { ...DEFAULT_POLICY, ...(policy || {}) };
  // "Hide addresses" only where the server has a relay (welcome.limits.call_relay): without
  // one, a relay-only call never connects, and a new user was offered it on such a server. A
  // table that has it on anyway keeps the box, so that its host can turn it off.
  const limits = serverLimits();
  const relay = p.relay || !!(limits && limits.call_relay === true);
  const legendId = `${prefix}-talk-chat-legend`;
  const radios = ["on", "reactions", "off"].map((mode) => {
    const id = `${prefix}-talk-chat-${mode}`;
    return el(
      "span",
      { class: "choice" },
      el("input", {
        type: "radio",
        name: `${prefix}_talk_chat`,
        id,
        value: mode,
        checked: p.chat === mode,
        onchange: onChange ? () => onChange({ chat: mode }) : null,
      }),
      el("label", { for: id }, t(`talk.mode.${mode}`)),
    );
  });
  /** @param {string} name */
  const check = (name) => {
    const id = `${prefix}-talk-${name}`;
    return el(
      "div",
      { class: "field check" },
      el("input", {
        type: "checkbox",
        id,
        name: `${prefix}_talk_${name}`,
        checked: !!p[name],
        "aria-describedby": name === "relay" ? `${prefix}-talk-relay-hint` : null,
        onchange: onChange ? (/** @type {Event} */ ev) => onChange({ [name]: /** @type {HTMLInputElement} */ (ev.target).checked }) : null,
      }),
      el("label", { for: id }, t(`talk.${name}`)),
    );
  };
  return el(
    "fieldset",
    { class: "talk-fields", id: `${prefix}-talk` },
    el("legend", {}, t("talk.settings")),
    el("div", { class: "field", role: "radiogroup", "aria-labelledby": legendId }, el("p", { class: "label", id: legendId }, t("talk.mode")), radios),
    check("spectators"),
    check("table_talk"),
    check("hints"),
    relay ? check("relay") : null,
    relay ? el("p", { class: "hint", id: `${prefix}-talk-relay-hint` }, t("talk.relay.hint")) : null,
  );
}

/** The host form's talk settings as a `host` message's `talk` map: what differs from the defaults, or null. */
/**
 * @param {HTMLFormElement} form
 * @param {string} [prefix]
 */
export function talkFromForm(form, prefix = "host") {
  /** @type {Policy} */
  const talk = {};
  /** @type {HTMLInputElement | null} */
  const chat = form.querySelector(`input[name="${prefix}_talk_chat"]:checked`);
  if (chat) talk.chat = chat.value;
  // Only the boxes the form has (it offers "hide addresses" where a relay is, section 16.6).
  for (const name of ["spectators", "table_talk", "hints", "relay"]) {
    /** @type {HTMLInputElement | null} */
    const box = form.querySelector(`input[name="${prefix}_talk_${name}"]`);
    if (box) talk[name] = box.checked;
  }
  const changed = Object.entries(talk).filter(([name, value]) => value !== DEFAULT_POLICY[name]);
  return changed.length ? Object.fromEntries(changed) : null;
}
