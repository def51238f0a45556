// @ts-check
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
// The centre, the hand, Draw from the stock, the suit chooser and the round's table are the
// shared pile table's (/js/pile.js), as Kartu Terakhir's are; what is said and decided here is
// this game's own.

import { addSuitShapes, cardBack, cardChip, cardImage, cardName, cardShort, fillCardFace, penalty, SUITS, suitIcon, useText } from "./cards.js";
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
/** @typedef {import("/js/contract.js").Move} Move */

export const strings = STRINGS;
export const stylesheet = new URL("./page.css", import.meta.url).href;

const RESHUFFLE_PAUSE_MS = 1500; // at least one second (docs/rules/crazy-eights.md 1.5.3)
const PRESET_IDS = ["house", "classic", "party"];
const DEAL_TAG = 1; // Crazy Eights' tag in the shared deal-code format (meja.rules.dealcode)

/**
 * What a deal code of this game names, as the server reads it (meja/games/crazy_eights/dealcode.py:
 * format 2, tag 1, an 8-bit header of preset, seat count and leader), or null. Only to fill
 * the host form: the server checks the code again and is the one that deals.
 * @param {string} text
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
 * @param {TableMap} table
 * @param {Text} t
 * @returns {string[]}
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

/**
 * @param {Host} host
 * @returns {import("/js/contract.js").GameTable}
 */
export function createTable(host) {
  return new CrazyEightsTable(host);
}

/** The active suit, for the indicator and the chooser (by shape and word). */
const FOLLOW = { key: "suit", label: "table.active_suit", icon: suitIcon };

class CrazyEightsTable extends PileTable {
  /** @param {Host} host */
  constructor(host) {
    useText(host.t);
    addSuitShapes();
    super(host, { name: cardName, fill: fillCardFace, back: cardBack, chip: cardChip }, { from: "stock", rebuilt: "reshuffle" });
    const el = host.el;
    this.drawButton = this.button("draw", () => this.draw(), { "aria-describedby": "draw-reason" });
    this.drawReason = el("p", { class: "reason", id: "draw-reason" });
    this.passButton = this.button("pass", () => this.pass(), { "aria-describedby": "pass-reason" });
    this.passReason = el("p", { class: "reason", id: "pass-reason" });
    this.actions = el(
      "div",
      { class: "actions" },
      el("div", { class: "action" }, this.drawButton, this.drawReason),
      el("div", { class: "action" }, this.passButton, this.passReason),
    );
    /** @type {"play" | "forced" | null} "play": a card not yet played; "forced": the rules ask now */
    this.choosing = null;
  }

  /** The table's options in full (the table map), for words that fit its rules. */
  get options() {
    return (this.host.table && this.host.table.options) || {};
  }

  /** @returns {number} */
  get maxDraws() {
    return (this.view && this.view.max_draws) ?? this.options.max_draws ?? 3;
  }

  // ------------------------------------------------------------------ drawing

  /**
   * @param {View} view
   * @returns {Frame}
   */
  render(view) {
    const t = this.t;
    this.view = view;
    this.renderPile({ top: cardImage(view.top, "large"), count: view.stock_count, canDraw: !!view.can_draw, follow: FOLLOW, value: view.active_suit });
    if (!this.spectator) this.renderActions();
    this.actions.hidden = view.phase === "round_over" || view.phase === "match_over";
    this.maybeAskSuit();
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
      hand: this.handFrame(),
      keys: this.spectator
        ? []
        : [
            { key: t("key.draw"), label: t("table.draw.one"), button: this.drawButton },
            { key: t("key.pass"), label: t("table.pass"), button: this.passButton },
          ],
      summary: this.summary(),
    };
  }

  /** @returns {{text: string, mine: boolean} | null} */
  status() {
    const v = this.v;
    const t = this.t;
    let text = "";
    if (v.phase === "play") text = v.turn === this.mySeat ? t("table.your_turn") : t("table.turn_of", { name: this.host.seatName(v.turn) });
    else if (v.phase === "choose_suit")
      // (the line's own words, short: beside "Suggest a move" on a phone the dialog's title was cut)
      text = v.chooser === this.mySeat ? t("table.choosing_you") : t("table.choosing", { name: this.who(v.chooser) });
    return text ? { text, mine: this.isMyTurn() || (v.phase === "choose_suit" && v.chooser === this.mySeat) } : null;
  }

  renderActions() {
    const v = this.v;
    const t = this.t;
    const myTurn = this.isMyTurn();
    const maxDraws = this.maxDraws;
    const left = myTurn ? v.draws_left : maxDraws;
    // docs/rules/crazy-eights.md 1.4.2: the Draw button shows how many draws are left (where there are several).
    this.drawButton.textContent = maxDraws > 1 ? t("table.draw", { n: left }) : t("table.draw.one");
    this.drawButton.disabled = !v.can_draw;
    // Another seat's turn needs no reason under each button: the turn line says whose it is.
    const quiet = (/** @type {string | null} */ code) => code === "not_your_turn";
    this.drawReason.textContent = v.can_draw || quiet(v.draw_blocked) ? "" : this.reason(v.draw_blocked, "draw");
    // 1.4.5: Pass only when stuck and out of draws; otherwise say why not.
    this.passButton.textContent = t("table.pass");
    this.passButton.disabled = !v.can_pass;
    this.passButton.classList.toggle("primary", !!v.can_pass);
    this.passReason.textContent = v.can_pass || quiet(v.pass_blocked) ? "" : this.reason(v.pass_blocked, "pass");
    this.drawButton.dataset.left = String(left);
  }

  /**
   * A reason code of the view in words that fit this table's rules (its draws per turn).
   * @param {string | null} code
   * @param {"draw" | "pass"} what
   */
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

  // Draw (PileTable.draw: the Draw button, its key, or the stock pile) as the view allows it.

  /** @returns {Action | null} */
  drawAction() {
    return this.drawButton.disabled ? null : { kind: "draw" };
  }

  drawRefusal() {
    return this.drawReason.textContent || "";
  }

  /** The hand keeps no focus after a draw here: the Draw button keeps it for the next one (up to three). */
  get focusAfterDraw() {
    return false;
  }

  pass() {
    if (this.passButton.disabled) return;
    this.host.act({ kind: "pass" });
  }

  /**
   * The button that sends a legal action (the shell finds a card of the hand itself): for a suggested move.
   * @param {Action} action
   * @returns {Element | null}
   */
  controlFor(action) {
    if (action.kind === "draw") return this.drawButton;
    if (action.kind === "pass") return this.passButton;
    // A suit the rules ask for now: the chooser is open, its choice is the control.
    if (action.kind === "suit") return document.querySelector(`#suit-dialog button[data-suit="${action.suit}"]`);
    return null;
  }

  /**
   * A card of the hand was chosen (click, Enter or Space).
   * @param {string} name
   */
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

  /**
   * Ask for a suit: for an 8 about to be played (`card`), or because the rules ask now (null).
   * @param {string | null} card
   */
  async askSuit(card) {
    const t = this.t;
    const forced = card === null;
    this.choosing = forced ? "forced" : "play";
    // How many cards of each suit the hand holds, besides its 8s (they go on any suit).
    /** @type {Record<string, number>} */
    const counts = {};
    for (const c of this.v.hand || []) if (!c.startsWith("8")) counts[c.slice(-1)] = (counts[c.slice(-1)] || 0) + 1;
    const { value: suit, latest } = await this.chooseFollow({
      id: "suit-dialog",
      follow: FOLLOW,
      values: SUITS,
      counts,
      title: t("suit.dialog.title"),
      text: card === null ? t("suit.dialog.text_forced") : t("suit.dialog.text", { card: cardName(card) }),
      // Escape closes the chooser of a card not yet played; a suit the rules demand now
      // (a forced 8) cannot be dodged.
      cancel: forced ? null : t("suit.dialog.cancel"),
      actionOf: (s) => (forced ? { kind: "suit", suit: s } : { kind: "play", card, suit: s }),
    });
    if (latest) this.choosing = null;
    if (!suit) return;
    this.host.focusHand();
    if (card === null) this.host.act({ kind: "suit", suit });
    else this.host.act({ kind: "play", card, suit });
  }

  /** A suit the rules demand of this seat now (a drawn 8 played for it, a starter 8). */
  maybeAskSuit() {
    const v = this.v;
    const mustChoose = v.phase === "choose_suit" && v.chooser === this.mySeat && !this.spectator;
    if (mustChoose && this.choosing !== "forced") this.askSuit(null);
    else if (!mustChoose && this.choosing === "forced") this.host.closeChoice();
    else if (this.choosing === "play" && !this.isMyTurn()) this.host.closeChoice();
  }

  // ------------------------------------------------------------------ moves, the log and the pause

  /**
   * Draws left said only where a turn allows more than one (a one-draw game never says "0 left").
   * @param {GameEvent} ev
   */
  drawsLeft(ev) {
    return this.maxDraws > 1 && typeof ev.draws_left === "number";
  }

  /**
   * @param {GameEvent} ev
   * @returns {string | null}
   */
  logLine(ev) {
    const common = this.commonLine(ev);
    if (common !== undefined) return common;
    const { t, who, mySeat: me } = this;
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
      default:
        return null;
    }
  }

  /**
   * An event as a move people see: the caption by the pile, the seat's last move, and what travels where.
   * @param {GameEvent} ev
   * @returns {Move | null}
   */
  move(ev) {
    const common = this.commonMove(ev);
    if (common !== undefined) return common;
    const { t, who, mySeat: me } = this;
    switch (ev.kind) {
      case "round_start":
        return { seat: null, text: t("move.round_start", { round: ev.round, card: cardShort(ev.starter) }), motion: null };
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
          motion: { piece: mine ? cardImage(ev.card, "flying") : cardBack("flying"), from: this.fromPile, to: "seat" },
        };
      }
      case "pass":
        return this.passMove(ev, ev.kept ? t("move.pass_kept", { who: who(ev.seat) }) : t("move.pass", { who: who(ev.seat) }));
      case "suit": {
        const suit = t(`suit.${ev.suit}`).toLowerCase();
        return { seat: ev.seat, text: t("move.suit", { who: who(ev.seat), suit }), short: t("move.short.suit", { suit }), motion: null };
      }
      default:
        return null;
    }
  }

  /**
   * The reshuffle pause (docs/rules/crazy-eights.md 1.5.3): what the shell shows while it holds the table.
   * @param {GameEvent} ev
   */
  hold(ev) {
    return this.rebuiltHold(ev, "reshuffle-notice", RESHUFFLE_PAUSE_MS);
  }

  // ------------------------------------------------------------------ the round summary

  /**
   * The round's details (each hand card by card with its penalty, the totals); who went out is the headline.
   * @param {Record<string, any>} result
   * @returns {import("/js/pile.js").RoundTable}
   */
  roundTable(result) {
    const { t, v } = this;
    const wins = v.match_mode === "wins";
    return {
      caption: wins ? t("summary.scores.wins", { rounds: v.rounds }) : t("summary.scores.points", { target: v.target }),
      columns: [t("summary.player"), t("summary.hand"), t("summary.penalty"), t("summary.total"), wins ? t("summary.wins") : null],
      listClass: "penalty-cards",
      cardClass: "penalty-card",
      points: penalty,
      numbers: (i) => [t("summary.points", { n: result.penalties[i] }), String(v.scores[i]), wins ? String(v.wins[i]) : null],
      headline: result.winner === this.mySeat ? t("summary.you_won") : t("summary.winner", { who: this.who(result.winner) }),
      dealCode: result.deal_code || v.deal_code || null,
    };
  }
}
