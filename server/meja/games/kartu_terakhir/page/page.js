// @ts-check
// Kartu Terakhir's page module: what the table screen shows that is this game's own. The
// shell (server/meja/web/js/app.js; the interface is server/meja/web/js/contract.js) loads it
// by name from the catalog and frames it: seats, hand widget, log, caption, round summary,
// dialogs, the shared screen.
//
// Everything comes from the seat's view (KartuTerakhirView.to_wire on the server; the
// game's PROTOCOL.md section 4) and the table map's options; the page decides nothing about
// legality, it draws the view's `legal`:
// * a card is playable when `legal` has a play of it; a Wild with a colour to name opens the
//   colour chooser (the colour goes with the card, docs/rules/kartu-terakhir.md 3.11.1); a Wild as the
//   last card names none;
// * Draw (the button, the stock pile, or its key), Keep, Pass and Take appear or enable by
//   `legal`; a Wild Draw Four against this seat that may be challenged shows the choice
//   (Draw 4 or Challenge, 3.5), and after a challenge the challenger alone sees the
//   challenged hand (`view.shown`, 3.5.2);
// * **Last card** and **Catch** (3.6) are buttons that appear when `legal` has a `call` or
//   a `catch` (out of turn too), each with a key; their row keeps its height, so nothing
//   moves when they come and go;
// * the active colour is always shown, by shape and word (3.1.3), the pending penalty when
//   one waits (stacking, 3.7), and the shell draws the direction of play;
// * **Focus** (3.9.5, phones as hands beside the shared screen): a toggle under the hand
//   that hides the top card, the active colour and the other seats' boxes with their counts
//   on this page (whose turn it is stays in the status line). The
//   server sends them either way (they are public); only the drawing changes. It is kept in
//   localStorage, so a phone remembers it.
// The centre, the hand, Draw from the stock, the colour chooser and the round's table are the
// shared pile table's (/js/pile.js), as Crazy Eights' are; what is said and decided here is
// this game's own.

import {
  addColourShapes,
  cardBack,
  cardChip,
  cardImage,
  cardName,
  cardShort,
  colourIcon,
  colourWord,
  COLOURS,
  fillCardFace,
  parseCard,
  points,
  useText,
} from "./cards.js";
import { readCodeNumber } from "/js/dealcode.js";
import { PileTable } from "/js/pile.js";
import { STRINGS } from "./strings.js";

/** @typedef {import("/js/contract.js").Host} Host */
/** @typedef {import("/js/contract.js").View} View */
/** @typedef {import("/js/contract.js").Text} Text */
/** @typedef {import("/js/contract.js").TableMap} TableMap */
/** @typedef {import("/js/contract.js").Action} Action */
/** @typedef {import("/js/pile.js").PileEvent} GameEvent */
/** @typedef {import("/js/contract.js").Frame} Frame */
/** @typedef {import("/js/contract.js").Key} Key */
/** @typedef {import("/js/contract.js").Move} Move */

export const strings = STRINGS;
export const stylesheet = new URL("./page.css", import.meta.url).href;

const PAUSE_MS = 1500; // the table holds for a rebuilt stock and a challenge's verdict
const DEAL_TAG = 2; // Kartu Terakhir's tag in the shared deal-code format (meja.rules.dealcode)
const FOCUS_KEY = "meja.kartu_terakhir.focus";

/**
 * What a deal code of this game names, as the server reads it (meja/games/kartu_terakhir/dealcode.py:
 * format 2, tag 2, an 8-bit header of dealer and seat count), or null. Only to fill the host
 * form: the server checks the code again and is the one that deals.
 * @param {string} text
 */
export function readDealCode(text) {
  const number = readCodeNumber(text, { chars: 30, tag: DEAL_TAG });
  if (number === null) return null;
  const header = Number(number & 255n);
  const seats = (header >> 4) + 2;
  const dealer = header & 15;
  if (seats > 10 || dealer >= seats) return null;
  return { preset: "standard", seats, dealer };
}

/**
 * The table's rules in plain words (the lobby, the rules panel), from the table map's options in full.
 * @param {TableMap} table
 * @param {Text} t
 * @returns {string[]}
 */
export function rules(table, t) {
  const o = (table && table.options) || {};
  const lines = [t("rules.deal"), t("rules.play"), t("rules.draw"), t("rules.actions"), t("rules.wd4"), t("rules.call")];
  if (o.stacking) lines.push(o.stacking_mandatory ? t("rules.stacking.mandatory") : t("rules.stacking.on"));
  else lines.push(t("rules.stacking.off", { s: Math.round((o.reaction_ms ?? 1500) / 100) / 10 }));
  lines.push(o.match === "500" ? t("rules.match.500") : t("rules.match.round"));
  lines.push(t("rules.points"));
  return lines;
}

/**
 * @param {Host} host
 * @returns {import("/js/contract.js").GameTable}
 */
export function createTable(host) {
  return new KartuTerakhirTable(host);
}

/** The active colour, for the indicator and the chooser (by shape and word). */
const FOLLOW = { key: "colour", label: "table.colour", icon: colourIcon };

function loadFocus() {
  try {
    return localStorage.getItem(FOCUS_KEY) === "on";
  } catch (err) {
    return false;
  }
}

/** @param {boolean} on */
function saveFocus(on) {
  try {
    localStorage.setItem(FOCUS_KEY, on ? "on" : "off");
  } catch (err) {
    /* private mode: the toggle still works on this page */
  }
}

class KartuTerakhirTable extends PileTable {
  /** @param {Host} host */
  constructor(host) {
    useText(host.t);
    addColourShapes();
    const pending = host.el("p", { class: "pending none", id: "pending" });
    super(host, { name: cardName, fill: fillCardFace, back: cardBack, chip: cardChip }, { from: "stock", rebuilt: "reshuffle", className: "kt-centre", id: "kt-centre", beside: [pending] });
    this.pending = pending;
    // Seats whose Last card call stands (3.6.1): on their boxes (the shared screen's above all),
    // not only in the caption. Learnt from the call events; gone with a call cancelled, a new
    // round, or a hand that is no longer down to its last card (see keepCalls).
    /** @type {Set<number>} */
    this.callers = new Set();
    this.focus = !host.tv && loadFocus();
    /** @type {GameEvent | null} the latest challenge event: its verdict goes with the revealed hand */
    this.lastChallenge = null;
    /** @type {GameEvent | null} the latest Wild Draw Four play, for the challenge choice's words */
    this.lastWild = null;
    /** @type {{shown: {seat: number, cards: string[]}, ev: GameEvent | null, round: number} | null} the challenged hand kept on the page */
    this.kept = null;
    const el = host.el;
    const button = this.button.bind(this);
    // Last card and Catch: out of turn too; the row keeps its height whether they show or not.
    this.callButton = button("call", () => this.send("call"), { class: "alert", hidden: true });
    this.catchButton = button("catch", () => this.send("catch"), { class: "alert", hidden: true });
    this.focusButton = button("focus", () => this.toggleFocus(), { class: "small focus-toggle", "aria-pressed": "false" });
    this.reactions = el("div", { class: "reactions", id: "reactions" }, this.callButton, this.catchButton, el("span", { class: "spacer" }), this.focusButton);
    // The challenge choice (3.5): shown to the victim of a single, unstacked Wild Draw Four.
    this.choiceText = el("p", { class: "choice-text", id: "challenge-text" });
    this.challengeButton = button("challenge", () => this.send("challenge"), { "aria-describedby": "challenge-text" });
    // The turn's buttons: Draw, then Keep, Take or Pass.
    this.drawButton = button("draw", () => this.draw(), { "aria-describedby": "turn-reason" });
    this.keepButton = button("keep", () => this.send("keep"), { hidden: true });
    this.takeButton = button("take", () => this.send("take"), { hidden: true, class: "primary" });
    this.passButton = button("pass", () => this.send("pass"), { "aria-describedby": "turn-reason" });
    this.reason = el("p", { class: "reason", id: "turn-reason" });
    this.turnRow = el(
      "div",
      { class: "turn-buttons" },
      this.drawButton,
      this.keepButton,
      this.takeButton,
      this.passButton,
      this.challengeButton,
    );
    // The challenged hand, for the challenger only (3.5.2).
    this.shown = el("section", { class: "shown", id: "shown", hidden: true, "aria-labelledby": "shown-title" });
    this.actions = el(
      "div",
      { class: "kt-actions", id: "kt-actions" },
      this.reactions,
      // The answer's buttons before the words that explain them: on a phone the words pushed
      // Draw 4 and Challenge below the fold.
      this.turnRow,
      this.choiceText,
      this.reason,
      this.shown,
    );
    this.choosing = false;
  }

  // ------------------------------------------------------------------ drawing

  /**
   * @param {View} view
   * @returns {Frame}
   */
  render(view) {
    const t = this.t;
    const el = this.host.el;
    this.view = view;
    this.keepCalls();
    const chosen = parseCard(view.top).wild ? view.colour : null;
    this.renderPile({ top: cardImage(view.top, "large", chosen), count: view.stock_count, canDraw: !!this.legal("draw"), follow: FOLLOW, value: view.colour });
    // A waiting penalty keeps its place when there is none, so that the pile never moves.
    const pending = view.pending > 0;
    this.pending.classList.toggle("none", !pending);
    this.pending.replaceChildren(
      ...(pending
        ? [
            el("span", { class: "pending-short", "aria-hidden": "true" }, t("table.pending", { n: view.pending })),
            el("span", { class: "visually-hidden" }, t(view.turn === this.mySeat ? "table.pending.long.you" : "table.pending.long", { n: view.pending, name: this.host.seatName(view.turn) })),
          ]
        : []),
    );
    const focus = this.focus && !this.spectator && !this.host.tv;
    // Focus (3.9.5): the hand alone; the public data is still here, only not drawn.
    this.centre.hidden = focus;
    this.centre.classList.toggle("focus-hidden", focus);
    if (!this.spectator) this.renderActions();
    const over = view.phase === "round_over" || view.phase === "match_over";
    this.actions.hidden = this.spectator || over;
    this.maybeCloseChooser();
    const match = view.match === "500";
    return {
      round: view.round,
      status: this.status(),
      target: match ? t("table.target.500", { target: view.target }) : t("table.target.round"),
      direction: view.direction === -1 ? -1 : 1,
      seats: Array.from({ length: view.seats }, (_, i) => ({
        count: focus && i !== this.mySeat ? undefined : this.seatCount(i), // the player's own count stays
        cards: focus ? undefined : (view.hand_counts || [])[i] ?? 0,
        score: match ? t("table.score", { n: (view.scores || [])[i] ?? 0 }) : undefined,
        badge: this.callers.has(i) ? t("move.short.call") : undefined,
        active: view.phase === "play" && view.turn === i,
      })),
      hand: this.handFrame(),
      keys: this.spectator ? [] : this.keys(),
      summary: this.summary(),
      handOnly: focus, // Focus: the other seats' boxes go too, with what they would say
    };
  }

  /** Whether this table plays with stacking (3.7): a Draw card answers a Draw card. */
  get stacking() {
    return !!((this.host.table || {}).options || {}).stacking;
  }

  /** A call stands while its seat holds its last card (or two, on the turn it called before playing, 3.6.1 a). */
  keepCalls() {
    const v = this.v;
    for (const seat of this.callers) {
      const n = (v.hand_counts || [])[seat] ?? 0;
      const before = n === 2 && v.called === seat;
      if (v.phase !== "play" || !(n === 1 || before)) this.callers.delete(seat);
    }
  }

  /** @param {number} i */
  seatCount(i) {
    const t = this.t;
    const v = this.v;
    const n = (v.hand_counts || [])[i] ?? 0;
    if (v.window === i) return t("table.cards.open", { n });
    return t("table.cards", { n });
  }

  /** @returns {Key[]} */
  keys() {
    const t = this.t;
    return [
      { key: t("key.draw"), label: t("table.draw"), button: this.drawButton },
      { key: t("key.keep"), label: t("table.keep"), button: this.keepButton },
      { key: t("key.pass"), label: t("table.pass"), button: this.passButton },
      { key: t("key.take"), label: t("table.take.key"), button: this.takeButton },
      { key: t("key.challenge"), label: t("table.challenge"), button: this.challengeButton },
      { key: t("key.call"), label: t("table.call"), button: this.callButton },
      { key: t("key.catch"), label: t("table.catch.key"), button: this.catchButton },
      { key: t("key.focus"), label: t("table.focus"), button: this.focusButton },
    ];
  }

  /** @returns {{text: string, mine: boolean} | null} */
  status() {
    const v = this.v;
    const t = this.t;
    const me = this.mySeat;
    const name = (/** @type {number} */ i) => this.host.seatName(i);
    const catchable = !!this.legal("catch");
    const callable = !!this.legal("call") && v.window === me;
    const stacking = this.stacking;
    let text = "";
    if (v.phase === "play") {
      if (catchable) text = t("status.catch", { name: name(v.window) });
      else if (callable) text = t("status.call_now");
      else if (v.turn === me) {
        if (v.can_challenge) text = t("status.challenge", { n: v.pending });
        else if (v.pending > 0) text = stacking ? t("status.pending_you", { n: v.pending }) : t("status.take_you", { n: v.pending });
        // (the drawn card in a few characters: the line beside "Suggest a move" is short on a phone)
        else if (v.drew && v.drawn) text = t("status.drew", { card: cardShort(v.drawn) });
        else text = t("table.your_turn");
      } else if (v.pending > 0) {
        // Without stacking nobody answers a penalty: in play it is a Wild Draw Four, which its
        // victim takes or challenges (a Draw Two is drawn after the reaction pause, "react").
        text = stacking ? t("status.pending_other", { name: name(v.turn), n: v.pending }) : t("status.challenge_other", { name: name(v.turn), n: v.pending });
      }
      else text = t("table.turn_of", { name: name(v.turn) });
    } else if (v.phase === "react") {
      text = catchable ? t("status.catch", { name: name(v.window) }) : t("status.react", { name: name(v.turn), n: v.pending });
    }
    return text ? { text, mine: this.isMyTurn() || catchable || callable } : null;
  }

  renderActions() {
    const v = this.v;
    const t = this.t;
    const myTurn = this.isMyTurn();
    // Last card is offered where it can matter: the window after one's play (3.6.1 b), or on
    // one's turn at 2 cards with a card to play (3.6.1 a). The rules also take a call with no
    // card to play (facing a penalty, say: it does nothing there), which would read as a
    // button that must be pressed (a new player's reading), so the page leaves it out.
    const call = this.legal("call") && (v.window === this.mySeat || !!this.legal("play"));
    const caught = this.legal("catch");
    this.callButton.hidden = !call;
    this.callButton.textContent = t("table.call");
    this.catchButton.hidden = !caught;
    this.catchButton.textContent = caught ? t("table.catch", { name: this.host.seatName(v.window) }) : t("table.catch.key");
    this.focusButton.textContent = t("table.focus");
    this.focusButton.setAttribute("aria-pressed", this.focus ? "true" : "false");
    this.focusButton.title = t("table.focus.hint");
    this.focusButton.hidden = this.host.tv;

    const take = this.legal("take");
    const keep = this.legal("keep");
    const pass = this.legal("pass");
    const challenge = this.legal("challenge");
    const facing = myTurn && v.pending > 0;
    this.drawButton.textContent = t("table.draw");
    this.drawButton.disabled = !this.legal("draw");
    this.drawButton.hidden = facing;
    this.keepButton.textContent = t("table.keep");
    this.keepButton.hidden = !keep;
    this.takeButton.textContent = v.can_challenge ? t("table.take.four", { n: v.pending }) : t("table.take", { n: v.pending });
    this.takeButton.hidden = !take;
    this.challengeButton.textContent = t("table.challenge");
    this.challengeButton.hidden = !challenge;
    this.challengeButton.classList.toggle("primary", !!challenge);
    this.passButton.textContent = t("table.pass");
    this.passButton.hidden = !!keep || !!take || facing;
    this.passButton.disabled = !pass;
    this.passButton.classList.toggle("primary", !!pass);
    this.choiceText.hidden = !challenge;
    this.choiceText.textContent = challenge ? this.challengeText() : "";
    // Another seat's turn needs no reason: the turn line says whose it is.
    let reason = "";
    if (myTurn && v.drew && v.drawn) reason = t("reason.drew", { card: cardName(v.drawn) });
    else if (myTurn && facing && !take && !challenge) reason = t("reason.must_answer");
    else if (myTurn && !this.legal("draw") && !pass && !keep && !facing && !v.drew) reason = t("reason.nothing_to_draw");
    else if (myTurn && pass) reason = t("reason.pass");
    this.reason.textContent = reason;
    this.renderShown();
    // The answer to a Wild Draw Four waits for this seat alone: where the page leaves Draw 4 and
    // Challenge below the fold (a phone at many seats, 66 px under it at ten), it is scrolled
    // just enough to show them, once the shell has drawn the frame; the focus stays where it is.
    if (challenge) requestAnimationFrame(() => this.keepInView(this.turnRow));
  }

  /**
   * Scroll the page just enough that `node`'s foot is in the viewport (no move when it is).
   * @param {Element} node
   */
  keepInView(node) {
    if (!node.isConnected) return;
    const under = node.getBoundingClientRect().bottom - window.innerHeight;
    if (under > 0) window.scrollBy(0, Math.ceil(under) + 8);
  }

  /** The choice of 3.5 in words: who played the Wild Draw Four, what each answer costs. */
  challengeText() {
    const t = this.t;
    const wild = this.lastWild;
    const who = wild ? this.host.seatName(wild.seat) : t("status.someone");
    return t("challenge.text", { name: who, n: this.v.pending });
  }

  /**
   * The challenged hand, in the challenger's view only (view.shown), with the verdict. The
   * view carries it until the next move, which at a table of bots comes within a second:
   * the page keeps it (this.kept) until the player closes it, the round ends or another
   * hand is shown, so that it can be read.
   */
  renderShown() {
    const v = this.v;
    const t = this.t;
    const el = this.host.el;
    if (v.shown && Array.isArray(v.shown.cards)) {
      const ev = this.lastChallenge && this.lastChallenge.target === v.shown.seat ? this.lastChallenge : null;
      this.kept = { shown: v.shown, ev, round: v.round };
    } else if (this.kept && (this.kept.round !== v.round || v.phase !== "play")) {
      this.kept = null;
    }
    if (!this.kept) {
      this.shown.hidden = true;
      this.shown.replaceChildren();
      return;
    }
    const { shown, ev } = this.kept;
    const who = this.host.seatName(shown.seat);
    const verdict = ev ? (ev.verdict === "bluff" ? t("shown.bluff", { name: who }) : t("shown.honest", { name: who })) : "";
    this.shown.replaceChildren(
      el("h4", { id: "shown-title" }, t("shown.title", { name: who })),
      el("p", { class: "hint" }, t("shown.only_you")),
      el(
        "ul",
        { class: "shown-cards", id: "shown-cards" },
        shown.cards.length ? shown.cards.map((/** @type {string} */ c) => el("li", {}, cardChip(c))) : [el("li", {}, t("summary.none"))],
      ),
      // (no verdict: nothing; replaceChildren would write a null as the text "null")
      ...(verdict ? [el("p", { class: "verdict", id: "shown-verdict" }, verdict)] : []),
      el("button", { type: "button", class: "small", id: "shown-close", onclick: () => this.closeShown() }, t("shown.close")),
    );
    const appearing = this.shown.hidden;
    this.shown.hidden = false;
    // Just revealed and below the fold (a desktop's table is taller than its window): bring it
    // into view, the focus staying where it is.
    if (appearing) {
      const r = this.shown.getBoundingClientRect();
      // (centred, not "nearest": at its nearest, a fractional bottom stayed 0.4 px under the fold)
      if (r.bottom > window.innerHeight || r.top < 0) this.shown.scrollIntoView({ block: "center" });
    }
  }

  closeShown() {
    const hadFocus = this.shown.contains(document.activeElement);
    this.kept = null;
    this.shown.hidden = true;
    this.shown.replaceChildren();
    if (hadFocus) this.host.focusHand?.();
  }

  toggleFocus() {
    this.focus = !this.focus;
    saveFocus(this.focus);
    this.focusButton.setAttribute("aria-pressed", this.focus ? "true" : "false");
    this.host.redraw();
  }

  // ------------------------------------------------------------------ acting

  /** @param {string} kind */
  send(kind) {
    const action = this.legal(kind);
    if (!action) return;
    if (kind !== "catch" && kind !== "call") this.host.focusHand();
    this.host.act(action);
  }

  // Draw (PileTable.draw: the Draw button, its key, or the stock pile) when `legal` has it.

  drawRefusal() {
    return this.reason.textContent || this.turnRefusal();
  }

  /**
   * Why this seat can make no move of its choosing now, whatever card or pile it taps ("" when
   * it may): not its turn, a card drawn, or a penalty to answer (a learner who tapped the pile
   * facing a Wild Draw Four was told "Not your turn").
   */
  turnRefusal() {
    const t = this.t;
    const v = this.v;
    if (!this.isMyTurn()) return t("reason.not_your_turn");
    if (v.drew) return t("reason.only_drawn", { card: cardName(v.drawn) });
    if (v.can_challenge && !this.stacking) return t("reason.challenge_only", { n: v.pending });
    if (v.pending > 0) return t("reason.answer_only");
    return "";
  }

  /**
   * The button that sends a legal action (the shell finds a card of the hand itself): for a suggested move.
   * @param {Action} action
   * @returns {Element | null}
   */
  controlFor(action) {
    /** @type {Record<string, HTMLButtonElement>} */
    const buttons = {
      draw: this.drawButton,
      keep: this.keepButton,
      pass: this.passButton,
      take: this.takeButton,
      challenge: this.challengeButton,
      call: this.callButton,
      catch: this.catchButton,
    };
    return buttons[action.kind] || null;
  }

  /**
   * A card of the hand was chosen (click, Enter or Space).
   * @param {string} name
   */
  play(name) {
    const t = this.t;
    const plays = this.playsByCard()[name];
    if (!plays) {
      this.host.say(this.turnRefusal() || t("table.card_not_playable", { card: cardName(name) }));
      return;
    }
    if (plays.some((a) => a.colour)) {
      this.askColour(name);
      return;
    }
    this.host.focusHand();
    this.host.act(plays[0]);
  }

  // ------------------------------------------------------------------ the colour chooser

  /**
   * A Wild's colour goes with the card (3.11.1): ask for it before the play is sent.
   * @param {string} card
   */
  async askColour(card) {
    const t = this.t;
    this.choosing = true;
    /** @type {Record<string, number>} */
    const counts = {};
    for (const c of this.v.hand || []) {
      const k = parseCard(c).colour;
      if (k) counts[k] = (counts[k] || 0) + 1;
    }
    const { value: colour, latest } = await this.chooseFollow({
      id: "colour-dialog",
      follow: FOLLOW,
      values: COLOURS,
      counts,
      title: t("colour.dialog.title"),
      text: t("colour.dialog.text", { card: cardName(card) }),
      cancel: t("colour.dialog.cancel"),
      actionOf: (k) => (this.playsByCard()[card] || []).find((/** @type {Action} */ a) => a.colour === k),
    });
    if (latest) this.choosing = false;
    if (!colour) return;
    const action = (this.playsByCard()[card] || []).find((/** @type {Action} */ a) => a.colour === colour);
    if (!action) return; // the table moved on while the chooser was open
    this.host.focusHand();
    this.host.act(action);
  }

  /** A chooser left open when the turn has gone (a timer, a catch that changed the hand). */
  maybeCloseChooser() {
    if (this.choosing && !this.isMyTurn()) {
      this.choosing = false;
      this.host.closeChoice();
    }
  }

  // ------------------------------------------------------------------ moves, the log and the pause

  /**
   * The names of a catch's or a challenge's two seats, as subjects (`who`, `targetS`) and as
   * objects (`whom`, `target`): the player's own seat is "You" at the head of a clause but
   * "you" (Norwegian "deg") after a verb or "for", as in "Bot 2 caught you: 2 cards for you".
   * @param {GameEvent} ev
   */
  parties(ev) {
    const { t, who } = this;
    const whom = (/** @type {number} */ seat) => (seat === this.mySeat ? t("you.object") : who(seat));
    return { who: who(ev.seat), whom: whom(ev.seat), targetS: who(ev.target), target: whom(ev.target) };
  }

  /**
   * Remember what later screens need from an event (the verdict, the Wild Draw Four's player).
   * @param {GameEvent} ev
   */
  note(ev) {
    if (ev.kind === "challenge") this.lastChallenge = ev;
    else if (ev.kind === "play" && ev.card === "WD4") this.lastWild = ev;
  }

  /**
   * @param {GameEvent} ev
   * @returns {string | null}
   */
  logLine(ev) {
    this.note(ev);
    const common = this.commonLine(ev);
    if (common !== undefined) return common;
    const { t, who, mySeat: me } = this;
    switch (ev.kind) {
      case "hand":
      case "ready":
        return null;
      case "window":
        return ev.seat === me ? t("log.window_you") : t("log.window", { who: who(ev.seat) });
      case "shown":
        // Shown to the challenger alone: "you" only on the challenger's page (a replay with every
        // hand open, nobody's view, said "You see Mira's hand").
        return t(me === null || me === undefined ? "log.shown_other" : "log.shown", { who: who(ev.seat), cards: (ev.cards || []).map((/** @type {string} */ c) => cardName(c)).join(", ") || t("summary.none") });
      default: {
        const move = this.move(ev);
        if (!move) return null;
        return /[.!?]$/.test(move.text) ? move.text : `${move.text}.`;
      }
    }
  }

  /**
   * A seat's last play in a few characters ("played ⊘●"), the colour's sign drawn in its colour:
   * grey on the box, a sign alone did not say the colour at a glance (a new user's trial read a
   * "7◆" as a diamond).
   * @param {string} key
   * @param {string} card
   * @param {string | null} chosen
   */
  shortPlay(key, card, chosen) {
    const el = this.host.el;
    const [before, after = ""] = this.t(key, { card: "\u0001" }).split("\u0001");
    const text = cardShort(card, chosen);
    const colour = parseCard(card).colour || chosen;
    const sign = colour ? text.slice(-1) : "";
    const chip = el("span", { class: "kt-short" }, text.slice(0, text.length - sign.length), sign ? el("span", { class: `kt-sign colour-${colour}` }, sign) : null);
    return el("span", {}, before, chip, after);
  }

  /**
   * An event as a move people see: the caption by the pile, the seat's last move, and what travels where.
   * @param {GameEvent} ev
   * @returns {Move | null}
   */
  move(ev) {
    this.note(ev);
    const common = this.commonMove(ev);
    if (common !== undefined) return common;
    const { t, who, mySeat: me } = this;
    const mine = ev.seat === me && !this.spectator;
    switch (ev.kind) {
      case "round_start":
        this.callers.clear();
        return { seat: null, text: t("move.round_start", { round: ev.round, card: cardName(ev.starter) }), motion: null };
      case "play": {
        const c = parseCard(ev.card);
        const chosen = c.wild && ev.colour ? ev.colour : null;
        const card = cardName(ev.card);
        const text = chosen ? t("move.play_wild", { who: who(ev.seat), card, colour: colourWord(chosen) }) : t("move.play", { who: who(ev.seat), card });
        return {
          seat: ev.seat,
          text,
          // a Wild by its word; Indonesian's "Ganti Warna" leaves no room for a verb in a phone's seat box
          short: this.shortPlay(c.symbol === "W" ? "move.short.play_wild" : "move.short.play", ev.card, chosen),
          motion: { piece: cardImage(ev.card, "flying", chosen), from: "seat", to: this.topCard },
        };
      }
      case "draw": {
        const n = ev.count ?? (ev.cards || []).length;
        const cards = mine && Array.isArray(ev.cards) ? ev.cards.map((/** @type {string} */ c) => cardName(c)).join(", ") : null;
        const reason = ["penalty", "catch", "challenge"].includes(ev.reason) ? ev.reason : "draw";
        const text = cards
          ? t(`move.draw_you.${reason}`, { n, cards })
          : t(`move.draw.${reason}`, { who: who(ev.seat), n });
        return {
          seat: ev.seat,
          text,
          short: t("move.short.draw", { n }),
          motion: n ? { piece: mine && ev.cards && ev.cards.length === 1 ? cardImage(ev.cards[0], "flying") : cardBack("flying"), from: this.fromPile, to: "seat" } : null,
        };
      }
      case "keep":
        return { seat: ev.seat, text: t("move.keep", { who: who(ev.seat) }), short: t("move.short.keep"), motion: null };
      case "pass":
        return this.passMove(ev, t("move.pass", { who: who(ev.seat) }));
      case "call":
        this.callers.add(ev.seat);
        return { seat: ev.seat, text: t("move.call", { who: who(ev.seat) }), short: t("move.short.call"), motion: null, sound: "call" };
      case "call_cancelled":
        this.callers.delete(ev.seat);
        return { seat: ev.seat, text: t("move.call_cancelled", { who: who(ev.seat) }), motion: null };
      case "catch":
        return { seat: ev.seat, text: t("move.catch", this.parties(ev)), short: t("move.short.catch", this.parties(ev)), motion: null, sound: "call" };
      case "skip":
        return { seat: ev.seat, text: t("move.skip", { who: who(ev.seat) }), short: t("move.short.skip"), motion: null };
      case "reverse":
        return { seat: ev.seat, text: t(ev.direction === -1 ? "move.reverse.ccw" : "move.reverse.cw", { who: who(ev.seat) }), short: t("move.short.reverse"), motion: null };
      case "challenge":
        return {
          seat: ev.seat,
          text: t(ev.verdict === "bluff" ? "move.challenge.bluff" : "move.challenge.honest", this.parties(ev)),
          short: t("move.short.challenge"),
          motion: null,
        };
      default:
        return null;
    }
  }

  /**
   * The pause after a rebuilt stock and after a challenge's verdict: what the shell shows while it holds the table.
   * @param {GameEvent} ev
   */
  hold(ev) {
    const t = this.t;
    const rebuilt = this.rebuiltHold(ev, "hold-notice", PAUSE_MS);
    if (rebuilt) return rebuilt;
    if (ev.kind === "challenge") {
      this.note(ev);
      const text = t(ev.verdict === "bluff" ? "move.challenge.bluff" : "move.challenge.honest", this.parties(ev));
      return this.holdNotice({ id: "verdict", className: "hold-notice verdict-notice", title: t("verdict.title"), text, ms: PAUSE_MS });
    }
    return null;
  }

  // ------------------------------------------------------------------ the round summary

  /**
   * The round's details: each hand card by card with its points, and what the winner scores.
   * @param {Record<string, any>} result
   * @returns {import("/js/pile.js").RoundTable}
   */
  roundTable(result) {
    const { t, v } = this;
    const match = v.match === "500";
    return {
      caption: match ? t("summary.caption.500", { target: v.target }) : t("summary.caption.round"),
      columns: [t("summary.player"), t("summary.hand"), t("summary.hand_points"), match ? t("summary.total") : null],
      listClass: "score-cards",
      cardClass: "score-card",
      points,
      // The winner's cell says what it scored; each other's what its hand gave the winner
      // ("150 to Sari"): a bare "150 points" on a loser's row read as its own score.
      numbers: (i, cards) => [
        i === result.winner
          ? t("summary.scores_won", { n: result.points })
          : t("summary.gives", { n: cards.reduce((sum, c) => sum + points(c), 0), who: result.winner === this.mySeat ? t("you.object") : this.who(result.winner) }),
        match ? String((v.scores || [])[i] ?? 0) : null,
      ],
      headline:
        result.winner === this.mySeat
          ? t("summary.you_won", { n: result.points })
          : t("summary.winner", { who: this.who(result.winner), n: result.points }),
      dealCode: result.deal_code || null,
    };
  }
}
