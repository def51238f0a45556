// @ts-check
// "Learn to play" (issue 26, part 2): a short guide per game that asks as it goes, from the home
// page (`/?learn=<game>`) and the lobby. The shell knows no game: a game whose catalog entry
// says `lessons` has a guide, and everything of a step comes from the server (PROTOCOL.md 17):
//
// * `learn {game, step}` answers with the step's position: the learner's seat view exactly as a
//   table frame carries it (the game's own scenario, built by its rules), a table map for the
//   page module's words, and the key of the question in the game's strings;
// * the step is drawn by the game's own page module (`createTable(host).render(view)`, the
//   interface in contract.js), with the same hand widget and the game's own buttons as
//   the live table: the learner's tap goes out as `learn_try {game, step, action}`, or, for a
//   card of the hand that no legal action plays, `learn_try {game, step, card}`;
// * the server's engine answers right or wrong and why (a key of the game's strings), and, when
//   the rules allow the move, the view after it, which is drawn ("Next" comes then).
//
// At the end, "Deal me in" hosts a table of that game with bots at the easiest level and starts it.
// Keyboard: the hand is one tab stop (arrows, Enter), the game's buttons and their single keys
// work as at the table, the verdict is a polite live region, and "Next" takes the focus.

import { ChoiceDialog } from "./dialog.js";
import { HandWidget } from "./hand.js";
import { t, textFor } from "./strings.js";
import { el } from "./ui.js";

/** @typedef {import("./contract.js").GameTable} GameTable */
/** @typedef {import("./contract.js").Key} Key */
/** A `learn` answer (PROTOCOL.md 17). @typedef {Record<string, any>} Step */

/** The address of a game's guide. @param {string} game */
export function learnHref(game) {
  return `/?learn=${encodeURIComponent(game)}`;
}

export class Learn {
  /** @param {any} app the App (app.js) */
  constructor(app) {
    this.app = app;
    /** The game being learnt (its catalog name). @type {string} */
    this.game = "";
    /** The last `learn` answer. @type {Step | null} */
    this.data = null;
    /** The last `learn_try` answer, for this step. @type {Record<string, any> | null} */
    this.verdict = null;
    /** The page module's table. @type {GameTable | null} */
    this.table = null;
    this.asking = 0; // which request the screen waits for (a later one wins)
    this.step = 0;
    /** The view drawn (the step's, or the one after a right move). @type {import("./contract.js").View | null} */
    this.view = null;
    /** @type {import("./contract.js").Frame | null} */
    this.frame = null;
    /** @type {Key[]} */
    this.keys = [];
    /** @type {HTMLUListElement | null} */
    this.panelList = null;
    // The screen's parts, made by build() before any use (open() builds first).
    const late = /** @type {any} */ (null);
    /** @type {import("./contract.js").Text} */
    this.t = late;
    /** @type {HTMLHeadingElement} */
    this.heading = late;
    /** @type {HTMLParagraphElement} */
    this.progress = late;
    /** @type {HTMLParagraphElement} */
    this.ask = late;
    /** @type {HTMLUListElement} */
    this.opponents = late;
    /** @type {HTMLDivElement} */
    this.centreSlot = late;
    /** @type {HTMLParagraphElement} */
    this.turnStatus = late;
    /** @type {HTMLParagraphElement} */
    this.caption = late;
    /** @type {HTMLHeadingElement} */
    this.handTitle = late;
    /** @type {HandWidget} */
    this.hand = late;
    /** @type {HTMLDivElement} */
    this.actionsSlot = late;
    /** @type {HTMLParagraphElement} */
    this.notice = late;
    /** @type {HTMLParagraphElement} */
    this.keysHint = late;
    /** @type {HTMLDivElement} */
    this.verdictBox = late;
    /** @type {HTMLButtonElement} */
    this.nextButton = late;
    /** @type {HTMLButtonElement} */
    this.backButton = late;
    /** @type {HTMLButtonElement} */
    this.skipButton = late;
    /** @type {HTMLButtonElement} */
    this.dealButton = late;
    /** @type {HTMLParagraphElement} */
    this.doneText = late;
    /** @type {HTMLParagraphElement} */
    this.status = late;
    /** @type {ChoiceDialog} */
    this.dialog = late;
    /** @type {HTMLDivElement} */
    this.answer = late;
    /** @type {HTMLElement} */
    this.felt = late;
    /** @type {HTMLDivElement} */
    this.node = late;
    /** @param {KeyboardEvent} ev */
    this.onKeyDown = (ev) => this.shortcut(ev);
    document.addEventListener("keydown", this.onKeyDown);
    if (!document.querySelector('link[href="/learn.css"]')) document.head.append(el("link", { rel: "stylesheet", href: "/learn.css" }));
  }

  // ------------------------------------------------------------------ ways in

  /** The home page's panel: one link per game that has a guide (filled once the catalog is in). */
  panel() {
    this.panelList = el("ul", { class: "learn-links", id: "learn-links" });
    this.fillPanel();
    return el(
      "section",
      { class: "panel learn-panel", "aria-labelledby": "learn-panel-title" },
      el("h2", { id: "learn-panel-title" }, t("learn.title")),
      el("p", { class: "hint" }, t("learn.hint")),
      this.panelList,
    );
  }

  fillPanel() {
    if (!this.panelList) return;
    const games = this.app.games.list.filter((/** @type {Record<string, any>} */ g) => g.lessons);
    this.panelList.replaceChildren(
      ...games.map((/** @type {Record<string, any>} */ g) =>
        el("li", {}, el("a", { href: learnHref(g.name), class: "button-link", dataset: { game: g.name } }, t("learn.game", { game: textFor(g.name)("game.title") }))),
      ),
    );
  }

  /** The lobby's link to its game's guide (a new tab: the seat stays where it is), or null. Not on
   *  the shared screen: a TV opens no tab for one learner, and the link was a remote's stop
   *  between Start and the host's strip.
   * @param {string} game */
  lobbyLink(game) {
    const desc = this.app.games.get(game);
    if (!desc || !desc.lessons || this.app.tv) return null;
    return el(
      "p",
      { class: "learn-lobby" },
      el("a", { href: learnHref(game), target: "_blank", rel: "noopener", id: "learn-lobby-link" }, t("learn.game", { game: textFor(game)("game.title") })),
    );
  }

  /** The catalog came (or changed): the home panel's links, and the guide waiting for its game. */
  onCatalog() {
    this.fillPanel();
    if (this.app.screen === "learn" && !this.data) this.load(this.step || 0);
  }

  // ------------------------------------------------------------------ the screen

  /** Show the guide of `game` from its first step. @param {string} game */
  open(game) {
    this.game = game;
    this.step = 0;
    this.data = null;
    this.build();
    this.app.mount("learn", this.node);
    if (this.app.games.ready) this.load(0);
  }

  build() {
    const game = this.game;
    this.t = textFor(game);
    this.heading = el("h2", { id: "learn-title", tabindex: "-1" });
    this.progress = el("p", { class: "learn-progress", id: "learn-progress" });
    this.ask = el("p", { class: "learn-ask", id: "learn-ask" });
    this.opponents = el("ul", { class: "seat-list side-top learn-seats", id: "learn-seats", "aria-label": t("table.opponents") });
    this.centreSlot = el("div", { class: "game-slot", id: "game-centre" });
    this.turnStatus = el("p", { class: "turn-status", id: "turn-status" });
    this.caption = el("p", { class: "move-caption learn-caption", id: "move-caption" });
    this.handTitle = el("h3", { id: "hand-title" });
    this.hand = new HandWidget({ labelledBy: "hand-title", onChoose: (id) => this.choose(id), emptyText: () => this.t("table.hand_empty") });
    this.actionsSlot = el("div", { class: "game-slot", id: "game-actions" });
    this.notice = el("p", { class: "play-notice", id: "play-notice", role: "status" });
    this.keysHint = el("p", { class: "keys-hint", id: "keys-hint" });
    this.verdictBox = el("div", { class: "learn-verdict", id: "learn-verdict", role: "status", "aria-live": "polite" });
    this.nextButton = el("button", { type: "button", class: "primary", id: "learn-next", hidden: true, onclick: () => this.next() });
    // A learner may go back a step, or past one it knows (a new user found no way but forward).
    this.backButton = el("button", { type: "button", class: "small", id: "learn-back", hidden: true, onclick: () => this.go(-1) });
    this.skipButton = el("button", { type: "button", class: "small", id: "learn-skip", hidden: true, onclick: () => this.go(1) });
    this.dealButton = el("button", { type: "button", class: "primary big", id: "learn-deal", hidden: true, onclick: () => this.dealIn() });
    this.doneText = el("p", { class: "learn-done", id: "learn-done", hidden: true });
    this.status = el("p", { class: "notice", id: "learn-status", role: "alert" });
    this.dialog = new ChoiceDialog({
      held: (n) => this.t("choice.held", { n }),
      restoreFocus: (returnTo) => {
        // A chooser's close can come after the verdict of the move it made: a right move's focus is Next's.
        if (this.answered()) this.focusNext();
        else if (!this.hand.restoreFocus() && returnTo && returnTo.isConnected) /** @type {HTMLElement} */ (returnTo).focus();
      },
    });
    this.answer = el(
      "div",
      { class: "learn-answer", id: "learn-answer" },
      this.verdictBox,
      el("div", { class: "row" }, this.nextButton),
      this.doneText,
      this.dealButton,
      this.status,
    );
    this.felt = el(
      "section",
      { class: "felt learn-felt", id: "felt", "aria-labelledby": "learn-ask" },
      el("div", { class: "opponents" }, this.opponents),
      el("div", { class: "centre-area", id: "centre-area" }, this.centreSlot, this.caption),
      el("div", { class: "status-row" }, this.turnStatus),
      el("section", { class: "my-area", id: "my-area", "aria-labelledby": "hand-title" }, this.handTitle, this.hand.node, this.notice, this.actionsSlot, this.keysHint),
    );
    this.node = el(
      "div",
      { class: "table-screen learn-screen", dataset: { game } },
      el("div", { class: "learn-head" }, this.heading, el("div", { class: "learn-nav" }, this.progress, this.backButton, this.skipButton)),
      this.ask,
      this.felt,
      this.answer,
      this.dialog.node,
    );
    this.relabel();
  }

  relabel() {
    if (!this.node) return;
    this.t = textFor(this.game);
    const desc = this.app.games.get(this.game);
    const title = desc ? this.t("game.title") : this.game;
    this.heading.textContent = t("learn.heading", { game: title });
    this.handTitle.textContent = this.t("table.your_hand");
    this.nextButton.textContent = t("learn.next");
    this.backButton.textContent = t("learn.back");
    this.skipButton.textContent = t("learn.skip");
    this.dealButton.textContent = t("learn.deal");
    this.doneText.textContent = t("learn.done");
    if (!this.data) {
      this.progress.textContent = "";
      this.ask.textContent = desc && !desc.lessons ? t("learn.unavailable") : t("learn.loading");
      return;
    }
    this.progress.textContent = t("learn.step", { n: this.data.step + 1, total: this.data.steps });
    this.ask.textContent = this.t(this.data.ask);
    this.showVerdict();
    this.draw();
    // The move's caption in the new words (a module's words follow the page's language).
    if (this.table && this.verdict && this.verdict.right) this.caption.textContent = this.moveWords(this.verdict.events || []);
  }

  /** Ask the server for step `step` and draw it. @param {number} step */
  async load(step) {
    const desc = this.app.games.get(this.game);
    if (!desc || !desc.lessons) {
      this.relabel();
      return;
    }
    const asking = ++this.asking;
    try {
      const data = await this.app.conn.request({ type: "learn", game: this.game, step });
      if (asking !== this.asking || this.app.screen !== "learn") return;
      this.step = step;
      this.data = data;
      this.verdict = null;
      this.view = data.view;
      this.makeTable(); // afresh: nothing a module kept of the step before (a hand it showed) stays
      this.caption.textContent = "";
      this.relabel();
      this.heading.focus();
    } catch (err) {
      this.status.textContent = this.app.errorText(err);
    }
  }

  makeTable() {
    if (this.table) this.table.destroy();
    this.table = null;
    const module = this.app.games.module(this.game);
    if (!module || typeof module.createTable !== "function") return;
    const screen = this;
    const made = module.createTable({
      t: this.t,
      el,
      act: (/** @type {import("./contract.js").Action} */ action) => this.tryIt({ action }),
      get seat() {
        return screen.data ? screen.data.seat : null;
      },
      isHost: false,
      get table() {
        return screen.data ? screen.data.table : null;
      },
      tv: false,
      seatName: (/** @type {number} */ i) => this.seatName(i),
      say: (/** @type {string} */ text) => {
        this.notice.textContent = text;
      },
      choose: (/** @type {import("./contract.js").Choice} */ spec) => this.dialog.open(spec),
      closeChoice: () => this.dialog.close(),
      focusHand: () => this.hand.wantFocus(),
      redraw: () => this.draw(),
    });
    this.table = made;
    this.centreSlot.replaceChildren(...(made.centre ? [made.centre] : []));
    this.actionsSlot.replaceChildren(...(made.actions ? [made.actions] : []));
  }

  /** @param {number} i */
  seatName(i) {
    if (this.data && i === this.data.seat) return this.t("table.you");
    return this.t("seat.bot_name", { n: i + 1 });
  }

  /** Draw the view on screen (the step's, or the one after a right move) through the game's module. */
  draw() {
    if (!this.table || !this.view) return;
    /** @type {import("./contract.js").Frame} */
    const frame = this.table.render(this.view) || {};
    this.frame = frame;
    const seats = frame.seats || [];
    const me = this.data ? this.data.seat : 0;
    const n = this.view.seats || seats.length;
    const order = Array.from({ length: n - 1 }, (_, /** @type {number} */ k) => (me + 1 + k) % n);
    this.opponents.replaceChildren(
      ...order.map((i) => {
        const s = seats[i] || {};
        return el(
          "li",
          { class: `seat-box${s.active ? " on-turn" : ""}`, dataset: { seat: String(i) } },
          el("p", { class: "seat-who" }, this.seatName(i)),
          el("p", { class: "seat-stats" }, el("span", { class: "opp-count" }, s.count || ""), s.score ? el("span", { class: "seat-score" }, s.score) : null),
        );
      }),
    );
    // Once the step is answered the learner has nothing more to do here: the view after the move
    // may be the learner's turn again (a game may hand the learner the next move), which the table would call
    // "Your turn" with the cards lit, and a tap on them did nothing.
    const done = this.answered();
    const status = frame.status && !(done && frame.status.mine) ? frame.status : null;
    this.turnStatus.textContent = status ? status.text : "";
    this.turnStatus.classList.toggle("mine", !!(status && status.mine));
    this.turnStatus.hidden = !(status && status.text);
    const hasHand = Array.isArray(frame.hand);
    this.hand.node.hidden = !hasHand;
    const hand = frame.hand || [];
    // Where the step asks for a card, every card may be tried until it is answered: lighting only
    // the cards the rules allow answered "which card can you play?" before the learner chose (a
    // new user's trial); a card no move plays goes to the engine, which says why not. A step that
    // asks for no card (a bid, a draw) keeps the table's own drawing, greyed cards and all.
    const asksCard = hand.some((card) => card.playable);
    if (hasHand) this.hand.set(hand.map((card) => ({ ...card, playable: !done && asksCard })));
    this.renderKeys(frame.keys || []);
  }

  /** The game's single keys, listed as at the table (and said to a screen reader on their buttons). @param {Key[]} keys */
  renderKeys(keys) {
    const t = this.t;
    this.keys = keys.filter((k) => k && k.key && k.button);
    for (const k of this.keys) k.button.setAttribute("aria-keyshortcuts", k.key.toUpperCase());
    const parts = this.hand.buttons().length ? [t("keys.hand")] : [];
    if (this.app.shortcuts) parts.unshift(...this.keys.map((k) => t("keys.one", { key: k.key.toUpperCase(), label: k.label })));
    this.keysHint.textContent = parts.length ? `${t("keys.title")}: ${parts.join(" · ")}` : "";
    this.keysHint.hidden = !parts.length;
  }

  // ------------------------------------------------------------------ the learner's tries

  /** A card of the hand was chosen: the game's module plays it if the rules offer a move of it; else the engine says why not. @param {string} id */
  choose(id) {
    if (this.answered()) return;
    const legal = (this.view && this.view.legal) || [];
    if (legal.some((/** @type {Record<string, any>} */ a) => a.card === id) && this.table) this.table.play(id);
    else this.tryIt({ card: id });
  }

  /**
   * The move in the game's words, as the table's caption says it (its module hears the events as the table's would).
   * @param {import("./contract.js").GameEvent[]} events
   */
  moveWords(events) {
    const said = [];
    const table = this.table;
    if (!table) return "";
    for (const ev of events) {
      const move = typeof table.move === "function" ? table.move(ev) : null;
      const text = move ? move.text : table.logLine(ev);
      if (text) said.push(text);
    }
    return said.join(" · ");
  }

  answered() {
    return !!(this.verdict && this.verdict.right);
  }

  /** After a right move: the focus on Next, or on "Deal me in" after the last step. */
  focusNext() {
    (this.data && this.data.step + 1 < this.data.steps ? this.nextButton : this.dealButton).focus();
  }

  /** @param {Record<string, any>} what a `card` or an `action` */
  async tryIt(what) {
    if (!this.data || this.answered()) return;
    const asking = ++this.asking;
    try {
      const verdict = await this.app.conn.request({ type: "learn_try", game: this.game, step: this.data.step, ...what });
      if (asking !== this.asking) return;
      this.verdict = verdict;
      this.notice.textContent = "";
      if (verdict.right && verdict.view) {
        this.view = verdict.view;
        this.caption.textContent = this.moveWords(verdict.events || []);
      } else this.view = this.data ? this.data.view : null; // a wrong move is not kept: the step's position again
      this.draw();
      this.showVerdict();
      if (verdict.right) this.focusNext();
      else if (!this.hand.restoreFocus()) this.heading.focus();
      // The answer in sight: on a phone it lies below the hand, and a wrong answer's focus stays
      // in the hand, so a newcomer's tap seemed to do nothing.
      this.answer.scrollIntoView({ block: "nearest" });
    } catch (err) {
      this.status.textContent = this.app.errorText(err);
    }
  }

  showVerdict() {
    const v = this.verdict;
    const last = this.data && this.data.step + 1 >= this.data.steps;
    this.verdictBox.replaceChildren(
      ...(v ? [el("strong", { class: v.right ? "right" : "wrong" }, v.right ? t("learn.right") : t("learn.wrong")), " ", this.t(v.why)] : []),
    );
    this.verdictBox.className = `learn-verdict${v ? (v.right ? " is-right" : " is-wrong") : ""}`;
    this.nextButton.hidden = !(v && v.right) || !!last;
    this.backButton.hidden = !this.data || this.data.step === 0;
    // Skip until the step is answered (then Next says the same) and never past the last.
    this.skipButton.hidden = !this.data || !!last || !!(v && v.right);
    this.doneText.hidden = !(v && v.right && last);
    this.dealButton.hidden = !(v && v.right && last);
  }

  next() {
    this.go(1);
  }

  /** The step `by` steps on (1) or back (-1), within the guide. @param {number} by */
  go(by) {
    if (!this.data) return;
    const step = this.data.step + by;
    if (step < 0 || step >= this.data.steps) return;
    this.status.textContent = "";
    this.load(step);
  }

  /** A table of this game with bots at the easiest level, started at once. */
  async dealIn() {
    const desc = this.app.games.get(this.game);
    if (!desc) return;
    const name = this.app.playerName ? this.app.playerName() : "";
    const level = (desc.levels || [])[0] || desc.default_level;
    this.status.textContent = "";
    await this.app.enter({ type: "host", game: this.game, name: name || t("home.name.default"), bots: level }, this.status);
    if (!this.app.tableId) return;
    await this.app.send({ type: "start" }); // a refusal is the app's notice
  }

  /** The game's single keys, as at the table (unless the player switched them off there). @param {KeyboardEvent} ev */
  shortcut(ev) {
    if (this.app.screen !== "learn" || !this.app.shortcuts || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target instanceof Element && target.closest("input, select, textarea, dialog[open]")) return;
    const entry = (this.keys || []).find((k) => k.key && k.key.toLowerCase() === String(ev.key).toLowerCase());
    if (!entry || !entry.button || /** @type {HTMLButtonElement} */ (entry.button).disabled || entry.button.closest("[hidden]")) return;
    ev.preventDefault();
    entry.button.click();
  }
}
