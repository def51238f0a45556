// The table screen: opponents, the centre (top card, stock, active suit), the player's hand,
// Draw and Pass, the suit chooser, the move log, the reshuffle pause and the round summary.
//
// Everything shown comes from the seat's view (CrazyEightsView.to_wire on the server) and
// the table summary; the client decides nothing about legality:
// * a card is playable when `view.legal` has a play of it; an 8 that does not end the
//   round has one play per suit, so it opens the suit chooser (crazy-eights.md 1.3.3);
// * Draw is enabled by `can_draw` and shows `draws_left` ("Draw (2 left)", 1.4.2); Pass by
//   `can_pass` (1.4.5); when either is not allowed, the reason code is shown in words;
// * the active-suit indicator is always there, by shape and word (1.3.8);
// * a `reshuffle` event holds the table for a visible pause before the rest of the update
//   is drawn (1.5.3); with prefers-reduced-motion the notice is still, not animated.
//
// Keyboard: the hand is one tab stop (a toolbar with a roving tabindex): arrows and
// Home/End move between cards, Enter or Space plays. The suit chooser is a modal <dialog>.
// The log is a polite live region: each move is announced once, as it is added.

import { cardChip, cardImage, cardName, fillCardFace, penalty, SUITS, suitIcon } from "./cards.js";
import { checkDeal } from "./fair.js";
import { t } from "./strings.js";
import { copyText, el, prefersReducedMotion, sleep, spacedCode } from "./ui.js";

const RESHUFFLE_PAUSE_MS = 1500; // at least one second (crazy-eights.md 1.5.3)
const LOG_MAX = 80;

export class TableScreen {
  constructor(app) {
    this.app = app;
    this.focusIndex = 0;
    this.summaryShownFor = null;
    this.build();
  }

  // ------------------------------------------------------------------ structure

  build() {
    this.title = el("h2", { id: "table-title" });
    this.roundLabel = el("p", { class: "round-label", id: "round-label" });
    this.opponents = el("ul", { class: "opponents", id: "opponents" });
    this.opponentsTitle = el("h3", { class: "visually-hidden", id: "opponents-title" });
    this.topLabel = el("p", { class: "label", id: "top-label" });
    this.topCard = el("div", { class: "top-card", id: "top-card" });
    this.stock = el("p", { class: "stock", id: "stock" });
    this.indicatorLabel = el("p", { class: "label", id: "indicator-label" });
    this.indicator = el("p", { class: "indicator", id: "indicator", "aria-labelledby": "indicator-label indicator-value" });
    this.turnStatus = el("p", { class: "turn-status", id: "turn-status" });
    this.spectatorNote = el("p", { class: "hint", id: "spectator-note", hidden: true });
    this.handTitle = el("h3", { id: "hand-title" });
    this.hand = el("div", {
      class: "hand",
      id: "hand",
      role: "toolbar",
      "aria-labelledby": "hand-title",
      "aria-orientation": "horizontal",
    });
    this.hand.addEventListener("keydown", (ev) => this.onHandKey(ev));
    this.hand.addEventListener("click", (ev) => this.onHandClick(ev));
    this.hand.addEventListener("focusin", (ev) => {
      const i = this.cardButtons().indexOf(ev.target);
      if (i >= 0) this.setRoving(i);
    });
    this.drawButton = el("button", { type: "button", id: "draw", "aria-describedby": "draw-reason", onclick: () => this.draw() });
    this.drawReason = el("p", { class: "reason", id: "draw-reason" });
    this.passButton = el("button", { type: "button", id: "pass", "aria-describedby": "pass-reason", onclick: () => this.pass() });
    this.passReason = el("p", { class: "reason", id: "pass-reason" });
    this.handSection = el(
      "section",
      { class: "my-area", "aria-labelledby": "hand-title" },
      this.handTitle,
      this.hand,
      (this.actions = el(
        "div",
        { class: "actions" },
        el("div", { class: "action" }, this.drawButton, this.drawReason),
        el("div", { class: "action" }, this.passButton, this.passReason),
      )),
    );
    this.reshuffle = el("div", { class: "reshuffle-notice", id: "reshuffle", role: "status", hidden: true });
    this.summary = el("section", { class: "panel summary", id: "summary", hidden: true, "aria-labelledby": "summary-title" });
    this.logTitle = el("h3", { id: "log-title" });
    // tabindex: the log scrolls, so keyboard users must be able to reach it to scroll it.
    this.log = el("ol", {
      class: "log",
      id: "log",
      "aria-live": "polite",
      "aria-relevant": "additions",
      "aria-labelledby": "log-title",
      tabindex: "0",
    });
    this.logBox = el("section", { class: "log-box", "aria-labelledby": "log-title" }, this.logTitle, this.log);
    this.dialog = this.buildDialog();
    this.notice = el("p", { class: "play-notice", id: "play-notice", role: "status" });
    this.node = el(
      "div",
      { class: "table-screen" },
      el("div", { class: "table-head" }, this.title, this.roundLabel),
      el("section", { class: "opponents-box", "aria-labelledby": "opponents-title" }, this.opponentsTitle, this.opponents),
      el(
        "div",
        { class: "centre" },
        el("div", { class: "pile" }, this.topLabel, this.topCard, this.stock),
        el("div", { class: "indicator-box" }, this.indicatorLabel, this.indicator),
      ),
      this.reshuffle,
      this.turnStatus,
      this.spectatorNote,
      this.summary,
      this.handSection,
      this.notice,
      this.logBox,
      this.dialog,
    );
  }

  buildDialog() {
    this.dialogTitle = el("h2", { id: "suit-title" });
    this.dialogText = el("p", { id: "suit-text" });
    this.suitButtons = SUITS.map((s) =>
      el(
        "button",
        { type: "button", class: `suit-choice suit-${s}`, dataset: { suit: s }, onclick: () => this.chooseSuit(s) },
        suitIcon(s, "suit-icon big"),
        el("span", { class: "suit-word" }),
      ),
    );
    this.dialogCancel = el("button", { type: "button", class: "cancel", id: "suit-cancel", onclick: () => this.closeDialog() });
    const dialog = el(
      "dialog",
      { id: "suit-dialog", "aria-labelledby": "suit-title", "aria-describedby": "suit-text" },
      this.dialogTitle,
      this.dialogText,
      el("div", { class: "suit-grid" }, this.suitButtons),
      this.dialogCancel,
    );
    dialog.addEventListener("cancel", (ev) => {
      // Escape closes the chooser of a card not yet played; a suit the rules demand
      // now (a forced 8) cannot be dodged.
      if (this.dialogForced) ev.preventDefault();
      else this.pendingCard = null;
    });
    dialog.addEventListener("close", () => this.restoreFocus());
    dialog.addEventListener("keydown", (ev) => {
      const i = this.suitButtons.indexOf(document.activeElement);
      if (i < 0) return;
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
      if (step) {
        ev.preventDefault();
        this.suitButtons[(i + step + 4) % 4].focus();
      }
    });
    return dialog;
  }

  destroy() {
    if (this.dialog.open) this.dialog.close();
  }

  relabel() {
    this.render([], false, true);
    for (const b of this.suitButtons) b.querySelector(".suit-word").textContent = t(`suit.${b.dataset.suit}`);
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

  seatName(i) {
    if (i === this.mySeat) return t("table.you");
    const s = (this.table.seats || [])[i];
    if (!s) return t("seat.label", { n: i + 1 });
    if (s.kind === "bot") return t("seat.bot_name", { n: i + 1 });
    return s.name || t("seat.label", { n: i + 1 });
  }

  isMyTurn() {
    const v = this.view;
    return v && v.phase === "play" && this.mySeat !== null && v.turn === this.mySeat;
  }

  /** The legal play actions for each card in hand: {"QH": [{kind, card}], "8S": [4 plays]}. */
  playsByCard() {
    const out = {};
    for (const a of this.view.legal || []) {
      if (a.kind !== "play") continue;
      (out[a.card] || (out[a.card] = [])).push(a);
    }
    return out;
  }

  // ------------------------------------------------------------------ updates

  /** Called before an update is applied: hold the table while a reshuffle is shown. */
  async beforeUpdate(events) {
    const ev = events.find((e) => e.kind === "reshuffle");
    if (!ev) return;
    const n = ev.moved ?? 0;
    this.reshuffle.replaceChildren(
      el("strong", {}, t("reshuffle.title")),
      " ",
      el("span", {}, t("reshuffle.text", { n })),
    );
    this.reshuffle.classList.toggle("animated", !prefersReducedMotion());
    this.reshuffle.hidden = false;
    await sleep(RESHUFFLE_PAUSE_MS);
    this.reshuffle.hidden = true;
  }

  render(events, first, relabelOnly = false) {
    const v = this.view;
    const table = this.table;
    if (!v || !table) return;
    if (!relabelOnly) for (const ev of events) this.logEvent(ev);
    this.title.textContent = t("table.title", { code: spacedCode(table.code) });
    this.roundLabel.textContent = t("table.round", { n: v.round });
    this.opponentsTitle.textContent = t("lobby.seats");
    this.topLabel.textContent = t("table.top");
    this.indicatorLabel.textContent = t("table.active_suit");
    this.handTitle.textContent = t("table.your_hand");
    this.logTitle.textContent = t("table.log");
    for (const b of this.suitButtons) b.querySelector(".suit-word").textContent = t(`suit.${b.dataset.suit}`);
    this.renderOpponents();
    this.renderCentre();
    this.renderTurn();
    const spectator = this.mySeat === null || this.mySeat === undefined;
    this.spectatorNote.hidden = !spectator;
    this.spectatorNote.textContent = t("table.spectating");
    this.handSection.hidden = spectator;
    if (!spectator) {
      this.renderHand();
      this.renderActions();
    }
    this.actions.hidden = v.phase === "round_over" || v.phase === "match_over";
    this.renderSummary();
    this.maybeAskSuit();
  }

  renderOpponents() {
    const v = this.view;
    const items = [];
    const seats = this.table.seats || [];
    const n = v.seats || seats.length;
    const start = this.mySeat === null || this.mySeat === undefined ? 0 : this.mySeat + 1;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      if (i === this.mySeat) continue;
      const s = seats[i] || {};
      const turn = (v.phase === "play" && v.turn === i) || (v.phase === "choose_suit" && v.chooser === i);
      const flags = [];
      if (s.kind === "bot") flags.push(t("seat.level", { level: t(`bot.${s.level || "normal"}`) }));
      if (s.kind === "human" && s.auto) flags.push(t("seat.auto"));
      else if (s.kind === "human" && !s.connected) flags.push(t("seat.away"));
      items.push(
        el(
          "li",
          { class: `opponent${turn ? " on-turn" : ""}`, dataset: { seat: i }, "aria-current": turn ? "true" : null },
          el("span", { class: "opp-name" }, this.seatName(i)),
          el("span", { class: "opp-count" }, t("table.cards", { n: (v.hand_counts || [])[i] ?? 0 })),
          flags.length ? el("span", { class: "opp-flags" }, flags.join(", ")) : null,
          turn ? el("span", { class: "opp-turn" }, "◀") : null,
        ),
      );
    }
    this.opponents.replaceChildren(...items);
  }

  renderCentre() {
    const v = this.view;
    this.topCard.replaceChildren(cardImage(v.top, "large"));
    this.stock.textContent = t("table.stock.count", { n: v.stock_count });
    const suit = v.active_suit;
    this.indicator.dataset.suit = suit;
    this.indicator.className = `indicator suit-${suit}`;
    this.indicator.replaceChildren(
      suitIcon(suit, "suit-icon indicator-shape"),
      el("span", { class: "indicator-word", id: "indicator-value" }, t(`suit.${suit}`)),
    );
  }

  renderTurn() {
    const v = this.view;
    let text = "";
    if (v.phase === "play") text = v.turn === this.mySeat ? t("table.your_turn") : t("table.turn_of", { name: this.seatName(v.turn) });
    else if (v.phase === "choose_suit")
      text = v.chooser === this.mySeat ? t("suit.dialog.title") : t("table.choosing", { name: this.seatName(v.chooser) });
    this.turnStatus.textContent = text;
    this.turnStatus.classList.toggle("mine", this.isMyTurn());
    this.turnStatus.hidden = !text;
  }

  cardButtons() {
    return Array.from(this.hand.querySelectorAll("button.card"));
  }

  renderHand() {
    const v = this.view;
    const hadFocus = this.hand.contains(document.activeElement);
    const focusedCard = hadFocus ? document.activeElement.dataset.card : null;
    const plays = this.playsByCard();
    const myTurn = this.isMyTurn();
    const buttons = (v.hand || []).map((name) => {
      const ok = myTurn && !!plays[name];
      const b = el("button", {
        type: "button",
        class: `card${ok ? " playable" : ""}`,
        "aria-label": cardName(name),
        "aria-disabled": ok ? null : "true",
        tabindex: "-1",
      });
      fillCardFace(b, name);
      return b;
    });
    if (!buttons.length) {
      this.hand.replaceChildren(el("p", { class: "hint" }, t("table.hand_empty")));
      return;
    }
    this.hand.replaceChildren(...buttons);
    let index = focusedCard ? buttons.findIndex((b) => b.dataset.card === focusedCard) : -1;
    if (index < 0) index = Math.min(this.focusIndex, buttons.length - 1);
    this.setRoving(index);
    if (hadFocus || this.handFocusWanted) {
      this.handFocusWanted = false;
      buttons[index].focus();
    }
  }

  setRoving(index) {
    const buttons = this.cardButtons();
    this.focusIndex = index;
    buttons.forEach((b, i) => {
      b.tabIndex = i === index ? 0 : -1;
    });
  }

  onHandKey(ev) {
    const buttons = this.cardButtons();
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let next = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = (i + 1) % buttons.length;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = (i - 1 + buttons.length) % buttons.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = buttons.length - 1;
    if (next === null) return;
    ev.preventDefault();
    this.setRoving(next);
    buttons[next].focus();
  }

  onHandClick(ev) {
    const button = ev.target.closest("button.card");
    if (!button) return;
    const name = button.dataset.card;
    const i = this.cardButtons().indexOf(button);
    if (i >= 0) this.setRoving(i);
    if (!this.isMyTurn()) {
      this.say(t("reason.not_your_turn"));
      return;
    }
    const plays = this.playsByCard()[name];
    if (!plays) {
      this.say(t("table.card_not_playable", { card: cardName(name) }));
      return;
    }
    if (plays.some((a) => a.suit)) {
      this.openDialog(name, false);
      return;
    }
    this.handFocusWanted = true;
    this.app.act({ kind: "play", card: name });
  }

  say(text) {
    this.notice.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice.textContent = "";
    }, 6000);
  }

  renderActions() {
    const v = this.view;
    const myTurn = this.isMyTurn();
    const maxDraws = v.max_draws ?? 3;
    const left = myTurn ? v.draws_left : maxDraws;
    // crazy-eights.md 1.4.2: the Draw button shows how many draws are left.
    this.drawButton.textContent = maxDraws > 1 ? t("table.draw", { n: left }) : t("table.draw.one");
    this.drawButton.disabled = !v.can_draw;
    this.drawReason.textContent = v.can_draw ? "" : this.reason(v.draw_blocked);
    // 1.4.5: Pass only when stuck and out of draws; otherwise say why not.
    this.passButton.textContent = t("table.pass");
    this.passButton.disabled = !v.can_pass;
    this.passButton.classList.toggle("primary", !!v.can_pass);
    this.passReason.textContent = v.can_pass ? "" : this.reason(v.pass_blocked);
    this.drawButton.dataset.left = String(left);
  }

  reason(code) {
    if (!code) return "";
    const key = `reason.${code}`;
    const text = t(key, { max: this.view.max_draws ?? 3 });
    return text === key ? code : text;
  }

  draw() {
    if (this.drawButton.disabled) return;
    this.app.act({ kind: "draw" });
  }

  pass() {
    if (this.passButton.disabled) return;
    this.app.act({ kind: "pass" });
  }

  // ------------------------------------------------------------------ the suit chooser

  openDialog(card, forced) {
    this.pendingCard = card;
    this.dialogForced = forced;
    this.returnFocus = document.activeElement;
    this.dialogTitle.textContent = t("suit.dialog.title");
    this.dialogText.textContent = forced ? t("suit.dialog.text_forced") : t("suit.dialog.text", { card: cardName(card) });
    this.dialogCancel.textContent = t("suit.dialog.cancel");
    this.dialogCancel.hidden = forced;
    for (const b of this.suitButtons) b.querySelector(".suit-word").textContent = t(`suit.${b.dataset.suit}`);
    if (!this.dialog.open) this.dialog.showModal();
    this.suitButtons[0].focus();
  }

  closeDialog() {
    this.pendingCard = null;
    if (this.dialog.open) this.dialog.close();
  }

  restoreFocus() {
    const buttons = this.cardButtons();
    if (buttons.length) {
      buttons[Math.min(this.focusIndex, buttons.length - 1)].focus();
    } else if (this.returnFocus && this.returnFocus.isConnected) {
      this.returnFocus.focus();
    }
  }

  chooseSuit(suit) {
    const card = this.pendingCard;
    const forced = this.dialogForced;
    this.pendingCard = null;
    this.dialogForced = false;
    this.handFocusWanted = true;
    if (this.dialog.open) this.dialog.close();
    if (forced) this.app.act({ kind: "suit", suit });
    else if (card) this.app.act({ kind: "play", card, suit });
  }

  /** A suit the rules demand of this seat now (a drawn 8 played for it, a starter 8). */
  maybeAskSuit() {
    const v = this.view;
    const mustChoose = v.phase === "choose_suit" && v.chooser === this.mySeat && this.mySeat !== null;
    if (mustChoose && !(this.dialog.open && this.dialogForced)) this.openDialog(null, true);
    if (!mustChoose && this.dialog.open && this.dialogForced) this.closeDialog();
    if (this.dialog.open && !this.dialogForced && !this.isMyTurn()) this.closeDialog();
  }

  // ------------------------------------------------------------------ the log

  logEvent(ev) {
    const who = (seat) => this.seatName(seat);
    const me = this.mySeat;
    let text = null;
    switch (ev.kind) {
      case "round_start":
        text = t("log.round_start", { round: ev.round, card: cardName(ev.starter) });
        break;
      case "play":
        if (ev.forced) text = t("log.play_forced", { who: who(ev.seat), card: cardName(ev.card) });
        else if (ev.suit) text = t("log.play_suit", { who: who(ev.seat), card: cardName(ev.card), suit: t(`suit.${ev.suit}`) });
        else text = t("log.play", { who: who(ev.seat), card: cardName(ev.card) });
        break;
      case "draw":
        if (ev.seat === me && ev.card) text = t("log.draw_you", { card: cardName(ev.card), left: ev.draws_left });
        else if (ev.seat !== me) text = t("log.draw", { who: who(ev.seat), left: ev.draws_left });
        break;
      case "pass":
        text = t("log.pass", { who: who(ev.seat) });
        break;
      case "suit":
        text = t("log.suit", { who: who(ev.seat), suit: t(`suit.${ev.suit}`) });
        break;
      case "reshuffle":
        text = t("log.reshuffle", { n: ev.moved });
        break;
      case "round_over":
        text = t("log.round_over", { who: who(ev.winner) });
        break;
      case "match_over":
        text = t("log.match_over");
        break;
      case "rematch":
        text = t("log.rematch");
        break;
      case "turn":
        if (ev.seat === me) text = t("log.turn_you");
        break;
      case "away":
        if (ev.seat !== me) text = t("log.away", { who: who(ev.seat) });
        break;
      case "connected":
        if (ev.seat !== me && ev.seat !== undefined) text = t("log.back", { who: who(ev.seat) });
        break;
      case "auto":
        if (ev.seat !== me && ev.seat !== undefined && ev.auto !== false) text = t("log.auto", { who: who(ev.seat) });
        break;
      default:
        break;
    }
    if (!text) return;
    const item = el("li", { class: ev.seat === me ? "mine" : "" }, text);
    this.log.append(item);
    while (this.log.children.length > LOG_MAX) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  // ------------------------------------------------------------------ the round summary

  renderSummary() {
    const v = this.view;
    const over = v.phase === "round_over" || v.phase === "match_over";
    const result = v.last_round;
    if (!over || !result) {
      this.summary.hidden = true;
      this.summary.replaceChildren();
      return;
    }
    const focusedId = this.summary.contains(document.activeElement) ? document.activeElement.id : null;
    const n = v.seats;
    const title = el("h2", { id: "summary-title", tabindex: "-1" }, t("summary.title", { n: result.round }));
    const winnerLine = el(
      "p",
      { class: "winner-line" },
      result.winner === this.mySeat ? t("summary.you_won") : t("summary.winner", { who: this.seatName(result.winner) }),
    );
    const rows = [];
    for (let i = 0; i < n; i++) {
      const cards = (result.hands || [])[i] || [];
      const cells = cards.length
        ? cards.map((c) => el("li", { class: "penalty-card" }, cardChip(c), el("span", { class: "pts" }, String(penalty(c)))))
        : [el("li", {}, t("summary.none"))];
      rows.push(
        el(
          "tr",
          { dataset: { seat: i }, class: i === result.winner ? "winner" : "" },
          el("th", { scope: "row" }, this.seatName(i)),
          el("td", {}, el("ul", { class: "penalty-cards" }, cells)),
          el("td", { class: "num" }, t("summary.points", { n: result.penalties[i] })),
          el("td", { class: "num" }, String(v.scores[i])),
          v.match_mode === "wins" ? el("td", { class: "num" }, String(v.wins[i])) : null,
        ),
      );
    }
    const scoreTable = el(
      "table",
      { class: "scores", id: "scores" },
      el("caption", {}, t("summary.scores")),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, t("summary.player")),
          el("th", { scope: "col" }, t("summary.hand")),
          el("th", { scope: "col" }, t("summary.penalty")),
          el("th", { scope: "col" }, t("summary.total")),
          v.match_mode === "wins" ? el("th", { scope: "col" }, t("summary.wins")) : null,
        ),
      ),
      el("tbody", {}, rows),
    );
    const parts = [title, winnerLine, scoreTable, this.dealBox(result)];
    if (v.phase === "match_over") {
      const names = (v.winners || []).map((s) => this.seatName(s));
      parts.push(el("h3", {}, t("summary.match_over")));
      parts.push(el("p", { class: "winners", id: "winners" }, t("summary.winners", { n: names.length, names: names.join(", ") })));
      if (this.app.isHost) {
        parts.push(el("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.app.send({ type: "rematch" }) }, t("summary.rematch")));
      } else {
        parts.push(el("p", { class: "hint" }, t("summary.rematch.wait")));
      }
      parts.push(el("button", { type: "button", id: "leave-table", onclick: () => this.app.leave() }, t("nav.leave")));
    } else if ((v.legal || []).some((a) => a.kind === "ready")) {
      parts.push(el("button", { type: "button", class: "primary", id: "next-round", onclick: () => this.app.act({ kind: "ready" }) }, t("summary.next")));
    } else if (this.mySeat !== null) {
      parts.push(el("p", { class: "hint", id: "waiting", role: "status" }, t("summary.waiting")));
    }
    this.summary.replaceChildren(...parts);
    this.summary.hidden = false;
    const key = `${result.round}/${v.phase}`;
    if (focusedId && document.getElementById(focusedId)) {
      document.getElementById(focusedId).focus();
    } else if (this.summaryShownFor !== key) {
      // Move focus to the summary when it appears, so keyboard and screen reader users land on it.
      this.summaryShownFor = key;
      title.focus();
    } else if (!this.summary.contains(document.activeElement) && document.activeElement === document.body) {
      title.focus();
    }
  }

  dealBox(result) {
    const code = result.deal_code || this.view.deal_code;
    const fair = (this.app.fair || {})[result.round] || {};
    const status = el("p", { class: "commitment", id: "commitment" });
    if (!fair.hash) {
      status.textContent = t("summary.commit.none");
      status.dataset.check = "none";
    } else if (!fair.salt || !fair.deal_code) {
      status.textContent = t("summary.commit.wait");
      status.dataset.check = "wait";
    } else {
      const ok = checkDeal(fair, code) === "ok";
      status.textContent = ok ? t("summary.commit.ok", { hash: fair.hash.slice(0, 12) }) : t("summary.commit.bad");
      status.dataset.check = ok ? "ok" : "bad";
      status.classList.toggle("bad", !ok);
    }
    if (!code) return el("div", { class: "deal" }, status);
    const link = dealLink(this.table, code);
    const fallback = el("input", { type: "text", readonly: true, hidden: true, class: "copy-fallback", "aria-label": t("summary.deal") });
    const copied = el("span", { class: "form-status", role: "status" });
    return el(
      "div",
      { class: "deal" },
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
      status,
    );
  }
}

/**
 * The deal's link on the table's public origin, in the form crazy-eights.md 1.9.3 names:
 * /play?deal=CODE (the server answers /play with the page; the client reads `deal` on any path).
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
