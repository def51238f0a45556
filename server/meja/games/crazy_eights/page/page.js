// Crazy Eights' page module: what the table screen shows that is this game's own. The
// shell (server/meja/web/js/app.js; the interface is server/meja/web/js/contract.js) loads it
// by name from the catalog and frames it: seats, hand widget, log, caption, round summary,
// dialogs, the shared screen.
//
// Everything comes from the seat's view (CrazyEightsView.to_wire on the server) and the
// table map's options; the page decides nothing about legality:
// * a card is playable when `view.legal` has a play of it; an 8 that does not end the
//   round has one play per suit, so it opens the suit chooser (docs/rules/crazy-eights.md 1.3.3);
// * Draw (the button, the stock pile, or its key) is enabled by `can_draw` and shows
//   `draws_left` where more than one draw is allowed ("Draw (2 left)", 1.4.2); Pass by
//   `can_pass` (1.4.5); when either is not allowed, the reason code is said in words that
//   fit the table's rules (a one-draw preset never speaks of "3 draws");
// * the active-suit indicator is always there, by shape and word (1.3.8);
// * a `reshuffle` event (the game's hold event) holds the table for a visible pause before
//   the rest of the update is drawn (1.5.3); with prefers-reduced-motion it is still;
// * each play, draw and pass is a move the shell shows travelling between the seat and the
//   piles, with a caption by the pile ("Bot 2 played 8♠ and named hearts").

import { addSuitShapes, cardBack, cardChip, cardImage, cardName, cardShort, fillCardFace, penalty, SUITS, suitIcon, useText } from "./cards.js";
import { readCodeNumber } from "/js/dealcode.js";
import { STRINGS } from "./strings.js";

export const strings = STRINGS;
export const stylesheet = new URL("./page.css", import.meta.url).href;

const RESHUFFLE_PAUSE_MS = 1500; // at least one second (docs/rules/crazy-eights.md 1.5.3)
const PRESET_IDS = ["house", "classic", "party"];
const DEAL_TAG = 1; // Crazy Eights' tag in the shared deal-code format (meja.rules.dealcode)

/**
 * What a deal code of this game names, as the server reads it (meja/games/crazy_eights/dealcode.py:
 * format 2, tag 1, an 8-bit header of preset, seat count and leader), or null. Only to fill
 * the host form: the server checks the code again and is the one that deals.
 */
export function readDealCode(text) {
  const number = readCodeNumber(text, { chars: 30, tag: DEAL_TAG });
  if (number === null) return null;
  const header = Number(number & 255n);
  const preset = PRESET_IDS[header >> 6];
  if (!preset) return null;
  return { preset, seats: ((header >> 3) & 7) + 2, leader: header & 7 };
}

/**
 * The table's rules in plain words (the lobby shows them to every seat; the rules panel
 * during play), from the table map's options in full (PROTOCOL.md beside this file): first
 * the three things seed 000 says friends argue about before the deal (how many cards you
 * may draw, when you may pass, whether an 8 may go out), then the rest.
 */
export function rules(table, t) {
  const o = (table && table.options) || {};
  const seats = ((table && table.seats) || []).length || o.min_seats || 2;
  const max = o.max_draws ?? 3;
  const lines = [];
  // docs/rules/crazy-eights.md 1.7: the three questions.
  if (!o.draw_only_when_stuck) lines.push(t("rules.draw.any", { max }));
  else if (o.after_draw === "end_turn") lines.push(t("rules.draw.end_turn"));
  else if (o.drawn_card_play === "optional") lines.push(t("rules.draw.optional"));
  else lines.push(t("rules.draw.forced"));
  if (max > 1) lines.push(t("rules.pass.after_draws", { max }));
  else if (o.drawn_card_play === "optional" && o.after_draw === "drawn") lines.push(t("rules.pass.kept"));
  else lines.push(t("rules.pass.nothing"));
  lines.push(t("rules.eight_out"));
  lines.push(t("rules.play"));
  const hand = (o.hand_sizes || [])[seats];
  if (hand) lines.push(t("rules.deal", { n: hand, decks: o.two_decks_from && seats >= o.two_decks_from ? 2 : 1 }));
  if (o.starter_eight === "keep") lines.push(t("rules.starter.keep"));
  else if (o.starter_eight === "bury") lines.push(t("rules.starter.bury"));
  else if (o.starter_eight === "name") {
    lines.push(o.starter_eight_chooser === "first_player" ? t("rules.starter.name_first") : t("rules.starter.name_dealer"));
  }
  lines.push(o.has_dealer ? t("rules.lead.dealer") : t("rules.lead.winner"));
  lines.push(t("rules.penalty"));
  if (o.match_mode === "wins") lines.push(t("rules.match.wins", { rounds: o.rounds ?? 5 }));
  else lines.push(t("rules.match.points", { target: o.target ?? 100 }));
  return lines;
}

export function createTable(host) {
  return new CrazyEightsTable(host);
}

class CrazyEightsTable {
  constructor(host) {
    this.host = host;
    this.t = host.t;
    useText(host.t);
    addSuitShapes();
    this.view = null;
    const el = host.el;
    this.topLabel = el("p", { class: "label", id: "top-label" });
    this.topCard = el("div", { class: "top-card", id: "top-card" });
    this.stockLabel = el("span", { class: "label stock-label", id: "stock-label" });
    this.stockCount = el("span", { class: "stock-count", id: "stock-count" });
    this.stock = el(
      "button",
      { type: "button", class: "stock-pile", id: "stock", tabindex: "-1", onclick: () => this.draw(true) },
      el("span", { class: "stock-cards", "aria-hidden": "true" }, cardBack(), cardBack(), cardBack()),
      this.stockCount,
    );
    this.indicatorLabel = el("p", { class: "label", id: "indicator-label" });
    this.indicator = el("p", { class: "indicator", id: "indicator", "aria-labelledby": "indicator-label indicator-value" });
    this.centre = el(
      "div",
      { class: "centre" },
      el("div", { class: "stock-box" }, this.stockLabel, this.stock),
      el("div", { class: "pile" }, this.topLabel, this.topCard),
      el("div", { class: "indicator-box" }, this.indicatorLabel, this.indicator),
    );
    this.drawButton = el("button", { type: "button", id: "draw", "aria-describedby": "draw-reason", onclick: () => this.draw() });
    this.drawReason = el("p", { class: "reason", id: "draw-reason" });
    this.passButton = el("button", { type: "button", id: "pass", "aria-describedby": "pass-reason", onclick: () => this.pass() });
    this.passReason = el("p", { class: "reason", id: "pass-reason" });
    this.actions = el(
      "div",
      { class: "actions" },
      el("div", { class: "action" }, this.drawButton, this.drawReason),
      el("div", { class: "action" }, this.passButton, this.passReason),
    );
    this.choosing = null; // "play" (a card not yet played) or "forced" (the rules ask now)
  }

  destroy() {
    this.host.closeChoice();
  }

  get mySeat() {
    return this.host.seat;
  }

  get spectator() {
    return this.mySeat === null || this.mySeat === undefined;
  }

  /** The table's options in full (the table map), for words that fit its rules. */
  get options() {
    return (this.host.table && this.host.table.options) || {};
  }

  get maxDraws() {
    return (this.view && this.view.max_draws) ?? this.options.max_draws ?? 3;
  }

  isMyTurn() {
    const v = this.view;
    return !!v && v.phase === "play" && !this.spectator && v.turn === this.mySeat;
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

  // ------------------------------------------------------------------ drawing

  render(view) {
    const t = this.t;
    this.view = view;
    this.topLabel.textContent = t("table.top");
    this.indicatorLabel.textContent = t("table.active_suit");
    this.stockLabel.textContent = t("table.stock");
    this.topCard.replaceChildren(cardImage(view.top, "large"));
    this.stockCount.textContent = String(view.stock_count);
    this.stock.setAttribute(
      "aria-label",
      view.can_draw ? t("table.stock.draw", { n: view.stock_count }) : t("table.stock.count", { n: view.stock_count }),
    );
    this.stock.classList.toggle("can-draw", !!view.can_draw);
    this.stock.classList.toggle("empty", !view.stock_count);
    const suit = view.active_suit;
    this.indicator.dataset.suit = suit;
    this.indicator.className = `indicator suit-${suit}`;
    this.indicator.replaceChildren(
      suitIcon(suit, "suit-icon indicator-shape"),
      this.host.el("span", { class: "indicator-word", id: "indicator-value" }, t(`suit.${suit}`)),
    );
    if (!this.spectator) this.renderActions();
    this.actions.hidden = view.phase === "round_over" || view.phase === "match_over";
    this.maybeAskSuit();
    const myTurn = this.isMyTurn();
    const plays = this.spectator ? {} : this.playsByCard();
    const wins = view.match_mode === "wins";
    return {
      round: view.round,
      status: this.status(),
      target: wins ? t("table.target.wins", { rounds: view.rounds, round: view.round }) : t("table.target.points", { target: view.target }),
      direction: 1, // docs/rules/crazy-eights.md 1.1.6: no card reverses the play
      seats: Array.from({ length: view.seats }, (_, i) => ({
        count: t("table.cards", { n: (view.hand_counts || [])[i] ?? 0 }),
        cards: (view.hand_counts || [])[i] ?? 0,
        score: wins ? t("table.score.wins", { n: (view.wins || [])[i] ?? 0 }) : t("table.score.points", { n: (view.scores || [])[i] ?? 0 }),
        active: (view.phase === "play" && view.turn === i) || (view.phase === "choose_suit" && view.chooser === i),
      })),
      hand: this.spectator
        ? null
        : (view.hand || []).map((name) => ({
            id: name,
            label: cardName(name),
            playable: myTurn && !!plays[name],
            face: (node) => fillCardFace(node, name),
          })),
      keys: this.spectator
        ? []
        : [
            { key: t("key.draw"), label: t("table.draw.one"), button: this.drawButton },
            { key: t("key.pass"), label: t("table.pass"), button: this.passButton },
          ],
      summary: this.summary(),
    };
  }

  status() {
    const v = this.view;
    const t = this.t;
    let text = "";
    if (v.phase === "play") text = v.turn === this.mySeat ? t("table.your_turn") : t("table.turn_of", { name: this.host.seatName(v.turn) });
    else if (v.phase === "choose_suit")
      text = v.chooser === this.mySeat ? t("suit.dialog.title") : t("table.choosing", { name: this.host.seatName(v.chooser) });
    return text ? { text, mine: this.isMyTurn() || (v.phase === "choose_suit" && v.chooser === this.mySeat) } : null;
  }

  renderActions() {
    const v = this.view;
    const t = this.t;
    const myTurn = this.isMyTurn();
    const maxDraws = this.maxDraws;
    const left = myTurn ? v.draws_left : maxDraws;
    // docs/rules/crazy-eights.md 1.4.2: the Draw button shows how many draws are left (where there are several).
    this.drawButton.textContent = maxDraws > 1 ? t("table.draw", { n: left }) : t("table.draw.one");
    this.drawButton.disabled = !v.can_draw;
    // Another seat's turn needs no reason under each button: the turn line says whose it is.
    const quiet = (code) => code === "not_your_turn";
    this.drawReason.textContent = v.can_draw || quiet(v.draw_blocked) ? "" : this.reason(v.draw_blocked, "draw");
    // 1.4.5: Pass only when stuck and out of draws; otherwise say why not.
    this.passButton.textContent = t("table.pass");
    this.passButton.disabled = !v.can_pass;
    this.passButton.classList.toggle("primary", !!v.can_pass);
    this.passReason.textContent = v.can_pass || quiet(v.pass_blocked) ? "" : this.reason(v.pass_blocked, "pass");
    this.drawButton.dataset.left = String(left);
  }

  /** A reason code of the view in words that fit this table's rules (its draws per turn). */
  reason(code, what) {
    if (!code) return "";
    const t = this.t;
    const max = this.maxDraws;
    let key = `reason.${code}`;
    if (code === "must_draw") key = max > 1 ? "reason.must_draw" : "reason.must_draw.one";
    else if (code === "draw_limit" && max === 1) key = "reason.draw_limit.one";
    else if (code === "has_playable" && what === "draw") key = "reason.has_playable.draw";
    const text = t(key, { max });
    return text === key ? code : text;
  }

  /** Draw: from the Draw button, its key, or the stock pile (fromStock). */
  draw(fromStock = false) {
    if (this.spectator) return;
    if (this.drawButton.disabled) {
      if (fromStock) this.host.say(this.drawReason.textContent || this.t("reason.not_your_turn"));
      return;
    }
    this.host.act({ kind: "draw" });
  }

  pass() {
    if (this.passButton.disabled) return;
    this.host.act({ kind: "pass" });
  }

  /** The button that sends a legal action (the shell finds a card of the hand itself): for a suggested move. */
  controlFor(action) {
    if (action.kind === "draw") return this.drawButton;
    if (action.kind === "pass") return this.passButton;
    // A suit the rules ask for now: the chooser is open, its choice is the control.
    if (action.kind === "suit") return document.querySelector(`#suit-dialog button[data-suit="${action.suit}"]`);
    return null;
  }

  /** A card of the hand was chosen (click, Enter or Space). */
  play(name) {
    const t = this.t;
    if (!this.isMyTurn()) {
      this.host.say(t("reason.not_your_turn"));
      return;
    }
    const plays = this.playsByCard()[name];
    if (!plays) {
      this.host.say(t("table.card_not_playable", { card: cardName(name) }));
      return;
    }
    if (plays.some((a) => a.suit)) {
      this.askSuit(name);
      return;
    }
    this.host.focusHand();
    this.host.act({ kind: "play", card: name });
  }

  // ------------------------------------------------------------------ the suit chooser

  /** Ask for a suit: for an 8 about to be played (`card`), or because the rules ask now (null). */
  async askSuit(card) {
    const t = this.t;
    const forced = card === null;
    this.choosing = forced ? "forced" : "play";
    this.asking = {}; // this question, so that the answer to an earlier one clears nothing
    const question = this.asking;
    // How many cards of each suit the hand holds, besides its 8s (they go on any suit).
    const counts = {};
    for (const c of this.view.hand || []) if (!c.startsWith("8")) counts[c.slice(-1)] = (counts[c.slice(-1)] || 0) + 1;
    const suit = await this.host.choose({
      id: "suit-dialog",
      title: t("suit.dialog.title"),
      text: forced ? t("suit.dialog.text_forced") : t("suit.dialog.text", { card: cardName(card) }),
      // Escape closes the chooser of a card not yet played; a suit the rules demand now
      // (a forced 8) cannot be dodged.
      cancel: forced ? null : t("suit.dialog.cancel"),
      choices: SUITS.map((s) => ({
        value: s,
        className: `suit-choice suit-${s}`,
        dataset: { suit: s },
        content: [suitIcon(s, "suit-icon big"), this.host.el("span", { class: "suit-word" }, t(`suit.${s}`))],
        held: counts[s] || 0,
      })),
    });
    if (this.asking === question) this.choosing = null;
    if (!suit) return;
    this.host.focusHand();
    if (forced) this.host.act({ kind: "suit", suit });
    else this.host.act({ kind: "play", card, suit });
  }

  /** A suit the rules demand of this seat now (a drawn 8 played for it, a starter 8). */
  maybeAskSuit() {
    const v = this.view;
    const mustChoose = v.phase === "choose_suit" && v.chooser === this.mySeat && !this.spectator;
    if (mustChoose && this.choosing !== "forced") this.askSuit(null);
    else if (!mustChoose && this.choosing === "forced") this.host.closeChoice();
    else if (this.choosing === "play" && !this.isMyTurn()) this.host.closeChoice();
  }

  // ------------------------------------------------------------------ moves, the log and the pause

  /** Draws left said only where a turn allows more than one (a one-draw game never says "0 left"). */
  drawsLeft(ev) {
    return this.maxDraws > 1 && typeof ev.draws_left === "number";
  }

  logLine(ev) {
    const t = this.t;
    const who = (seat) => this.host.seatName(seat);
    const me = this.mySeat;
    switch (ev.kind) {
      case "round_start":
        return t("log.round_start", { round: ev.round, card: cardName(ev.starter) });
      case "play":
        if (ev.forced) return t("log.play_forced", { who: who(ev.seat), card: cardName(ev.card) });
        if (ev.suit) return t("log.play_suit", { who: who(ev.seat), card: cardName(ev.card), suit: t(`suit.${ev.suit}`).toLowerCase() });
        return t("log.play", { who: who(ev.seat), card: cardName(ev.card) });
      case "draw":
        if (ev.seat === me && ev.card) {
          return this.drawsLeft(ev) ? t("log.draw_you", { card: cardName(ev.card), left: ev.draws_left }) : t("log.draw_you.one", { card: cardName(ev.card) });
        }
        if (ev.seat !== me) return this.drawsLeft(ev) ? t("log.draw", { who: who(ev.seat), left: ev.draws_left }) : t("log.draw.one", { who: who(ev.seat) });
        return null;
      case "pass":
        return ev.kept ? t("log.pass_kept", { who: who(ev.seat) }) : t("log.pass", { who: who(ev.seat) });
      case "suit":
        return t("log.suit", { who: who(ev.seat), suit: t(`suit.${ev.suit}`).toLowerCase() });
      case "reshuffle":
        return t("log.reshuffle", { n: ev.moved });
      case "round_over":
        return t("log.round_over", { who: who(ev.winner) });
      case "match_over":
        return t("log.match_over");
      case "turn":
        return ev.seat === me ? t("log.turn_you") : null;
      default:
        return null;
    }
  }

  /** An event as a move people see: the caption by the pile, the seat's last move, and what travels where. */
  move(ev) {
    const t = this.t;
    const el = this.host.el;
    const who = (seat) => this.host.seatName(seat);
    const me = this.mySeat;
    switch (ev.kind) {
      case "round_start":
        return { seat: null, text: t("move.round_start", { round: ev.round, card: cardShort(ev.starter) }), short: null, motion: null };
      case "play": {
        const card = cardShort(ev.card);
        const suit = ev.suit ? t(`suit.${ev.suit}`).toLowerCase() : null;
        let text;
        if (ev.forced) text = t("move.play_forced", { who: who(ev.seat), card });
        else if (suit) text = t("move.play_suit", { who: who(ev.seat), card, suit });
        else text = t("move.play", { who: who(ev.seat), card });
        return {
          seat: ev.seat,
          text,
          short: suit ? t("move.short.play_suit", { card, suit }) : t("move.short.play", { card }),
          motion: { piece: cardImage(ev.card, "flying"), from: "seat", to: this.topCard },
        };
      }
      case "draw": {
        const mine = ev.seat === me && !!ev.card;
        if (ev.seat === me && !ev.card) return null; // a spectator's copy never comes to a seat; nothing to say twice
        const taken = this.maxDraws - (ev.draws_left ?? 0);
        const text = mine ? t("move.draw_you", { card: cardShort(ev.card) }) : t("move.draw", { who: who(ev.seat) });
        return {
          seat: ev.seat,
          text,
          short: this.maxDraws > 1 ? t("move.short.draws", { n: Math.max(1, taken) }) : t("move.short.draw"),
          motion: { piece: mine ? cardImage(ev.card, "flying") : cardBack("flying"), from: this.stock, to: "seat" },
        };
      }
      case "pass":
        return {
          seat: ev.seat,
          text: ev.kept ? t("move.pass_kept", { who: who(ev.seat) }) : t("move.pass", { who: who(ev.seat) }),
          short: t("move.short.pass"),
          motion: { piece: el("span", { class: "pass-token" }, t("table.pass")), from: "seat", to: this.topCard },
        };
      case "suit": {
        const suit = t(`suit.${ev.suit}`).toLowerCase();
        return { seat: ev.seat, text: t("move.suit", { who: who(ev.seat), suit }), short: t("move.short.suit", { suit }), motion: null };
      }
      case "reshuffle":
        return { seat: null, text: t("move.reshuffle", { n: ev.moved }), short: null, motion: null };
      case "round_over":
        return { seat: ev.winner, text: t("move.round_over", { who: who(ev.winner) }), short: t("move.short.out"), motion: null };
      default:
        return null;
    }
  }

  /** The reshuffle pause (docs/rules/crazy-eights.md 1.5.3): what the shell shows while it holds the table. */
  hold(ev) {
    if (ev.kind !== "reshuffle") return null;
    const t = this.t;
    const el = this.host.el;
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const node = el(
      "div",
      { class: `reshuffle-notice${still ? "" : " animated"}`, id: "reshuffle" },
      el("strong", {}, t("reshuffle.title")),
      " ",
      el("span", {}, t("reshuffle.text", { n: ev.moved ?? 0 })),
    );
    return { node, ms: RESHUFFLE_PAUSE_MS };
  }

  // ------------------------------------------------------------------ the round summary

  /** The round's details (each hand card by card with its penalty, the totals); who went out is the headline. */
  summary() {
    const v = this.view;
    const over = v.phase === "round_over" || v.phase === "match_over";
    const result = v.last_round;
    if (!over || !result) return null;
    const t = this.t;
    const el = this.host.el;
    const me = this.mySeat;
    const wins = v.match_mode === "wins";
    const rows = [];
    for (let i = 0; i < v.seats; i++) {
      const cards = (result.hands || [])[i] || [];
      const cells = cards.length
        ? cards.map((c) => el("li", { class: "penalty-card" }, cardChip(c), el("span", { class: "pts" }, String(penalty(c)))))
        : [el("li", { class: "went-out" }, i === result.winner ? t("summary.out") : t("summary.none"))];
      rows.push(
        el(
          "tr",
          { dataset: { seat: i }, class: i === result.winner ? "winner" : "" },
          el("th", { scope: "row" }, this.host.seatName(i)),
          el("td", {}, el("ul", { class: "penalty-cards" }, cells)),
          el("td", { class: "num" }, t("summary.points", { n: result.penalties[i] })),
          el("td", { class: "num" }, String(v.scores[i])),
          wins ? el("td", { class: "num" }, String(v.wins[i])) : null,
        ),
      );
    }
    const scoreTable = el(
      "table",
      { class: "scores", id: "scores" },
      el("caption", {}, wins ? t("summary.scores.wins", { rounds: v.rounds }) : t("summary.scores.points", { target: v.target })),
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
          wins ? el("th", { scope: "col" }, t("summary.wins")) : null,
        ),
      ),
      el("tbody", {}, rows),
    );
    const ready = (v.legal || []).find((a) => a.kind === "ready") || null;
    return {
      round: result.round,
      headline: result.winner === me ? t("summary.you_won") : t("summary.winner", { who: this.host.seatName(result.winner) }),
      won: result.winner === me,
      details: el("div", { class: "round-details" }, scoreTable),
      dealCode: result.deal_code || v.deal_code || null,
      match: v.phase === "match_over",
      winners: v.winners || [],
      next: ready,
    };
  }
}
