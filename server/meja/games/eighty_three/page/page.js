// @ts-check
// Eighty-Three's page module: what the table screen shows that is this game's own. The
// shell (server/meja/web/js/app.js; the interface is server/meja/web/js/contract.js) loads it by
// name from the catalog and frames it: seats, hand widget, log, caption, summary, dialogs,
// the shared screen. Crazy Eights' module is the model this one follows.
//
// Everything comes from the seat's view (PROTOCOL.md beside this folder, section 8) and the
// game's events (section 9); the page decides nothing about legality: the view's `legal`
// says which bids, suits, steps and cards the server accepts. A card the player picks that has
// no legal step is not sent: the page says in plain words why it stays (the server's refusal
// is written for developers, with wire names and rule numbers, and is never shown).
//
// What lies on the table, phase by phase (docs/rules/eighty-three.md 4.5-4.8):
// * always: the contract (the bid and who holds it), the trump indicator by shape and word
//   (with the left pedro and the joker named, 4.3), and both teams' scores, tricks and points
//   this hand, the partner's team marked "you";
// * auction: each seat's last call (a chip a seat: the seats' boxes and the caption do not say it
//   again), and under the hand the bidding panel (the legal bids only, a Bid button, Pass, and why
//   Pass is missing for a dealer who must bid, 4.5.5); what the hand is worth (on a phone in the
//   middle, under the chips);
// * trump: the bidder's four suit buttons (each says how many trumps it would give);
// * discard and trim: the rules explained in place with this seat's counts (its trumps, its
//   partner's trumps and point trumps, 4.10.5), the cards chosen to discard and to give the
//   partner, Auto-arrange, Done and Undo (4.6, 4.10.4-4.10.6). A card that can be discarded
//   or given asks which; a card with no step is drawn locked, and why it stays shows over the
//   top of the hand when it is chosen;
// * play: the trick in the middle, each card at its seat's side with its name, the leader
//   marked; a finished trick stays there with its winner until the next card; the game holds
//   the table for a moment after each trick and after the exchange (the `hold` events);
// * hand over: each team's captured point cards, its points, the bid made or missed, the
//   score change and the totals (4.8).
//
// The captured cards are not in the view (it keeps the tricks' count and points per team):
// this module keeps the `trick` events it is shown (live, and replayed after a reload) and
// lists a team's cards only when all six tricks of the hand add up to the view's points.

import {
  addSuitShapes,
  cardBack,
  cardChip,
  cardImage,
  cardLabel,
  cardName,
  cardShort,
  fillCardFace,
  isRed,
  isTrump,
  offSuit,
  points,
  sortHand,
  SUITS,
  suitIcon,
  trumpRole,
  useText,
} from "./cards.js";
import { readCodeNumber } from "/js/dealcode.js";
import { STRINGS } from "./strings.js";

/** @typedef {import("/js/contract.js").Host} Host */
/** @typedef {import("/js/contract.js").View} View */
/** @typedef {import("/js/contract.js").Action} Action */
/** @typedef {import("/js/contract.js").GameEvent} GameEvent */
/** @typedef {import("/js/contract.js").Frame} Frame */
/** @typedef {import("/js/contract.js").Move} Move */
/** @typedef {import("/js/contract.js").Summary} Summary */
/** @typedef {import("/js/contract.js").Text} Text */
/** @typedef {import("/js/contract.js").TableMap} TableMap */
/** A card where it lies: the seat that laid it, and its name. @typedef {{seat: number, card: string}} Placed */
/** A call of the auction (the view's `auction`): a bid, or a pass (no bid). @typedef {{seat: number, bid: number | null}} Call */

export const strings = STRINGS;
export const stylesheet = new URL("./page.css", import.meta.url).href;

const TRICK_PAUSE_MS = 1200; // a finished trick stays in view (PROTOCOL.md 1: the table pauses after `trick`)
const EXCHANGE_PAUSE_MS = 1400;
const DEAL_TAG = 3; // Eighty-Three's tag in the shared deal-code format (meja.rules.dealcode)
const KEEP = 6; // 4.6.2

/**
 * What a deal code of this game names (dealcode.py beside this folder: format 2, tag 3, a
 * 2-bit dealer, 28 characters and a Luhn mod 32 check character), or null. Only to fill the
 * host form: the server checks the code again and is the one that deals.
 */
/**
 * @param {string} text
 * @returns {import("/js/contract.js").DealCodeSpec | null}
 */
export function readDealCode(text) {
  const number = readCodeNumber(text, { chars: 29, tag: DEAL_TAG });
  if (number === null) return null;
  return { preset: "standard", seats: 4, dealer: Number(number & 3n) };
}

/**
 * The table's rules in plain words (the lobby, the rules panel), from the table map's options.
 * @param {TableMap} table
 * @param {Text} t
 * @returns {string[]}
 */
export function rules(table, t) {
  const o = (table && table.options) || {};
  return [
    t("rules.teams"),
    t("rules.deal"),
    t("rules.auction"),
    t("rules.trumps"),
    t("rules.discard"),
    t("rules.play"),
    t("rules.points"),
    t("rules.score"),
    o.must_win_on_own_bid ? t("rules.win.own_bid") : t("rules.win"),
  ];
}

/**
 * @param {Host} host
 * @returns {import("/js/contract.js").GameTable}
 */
export function createTable(host) {
  return new EightyThreeTable(host);
}

/** @param {number} seat */
function teamOf(seat) {
  return seat % 2;
}

class EightyThreeTable {
  /** @param {Host} host */
  constructor(host) {
    this.host = host;
    this.t = host.t;
    useText(host.t);
    addSuitShapes();
    /** @type {View} */
    this.view = {};
    this.seen = new WeakSet(); // events already taken into account (the shell shows each several times)
    /** @type {GameEvent[]} */
    this.handTricks = []; // the trick events of the hand in play, by number - 1
    /** @type {Map<number, GameEvent[]>} */
    this.tricksOfHand = new Map(); // hand number -> its six trick events, once it is scored
    /** @type {{hand: number | null, cards: string[]} | null} */
    this.kitty = null; // {hand, cards}: the kitty this seat took, as its `kitty` event said
    /** @type {string | null} */
    this.stepErrorCard = null; // the card whose reason to stay shows under the buttons (said again in a new language)
    const el = host.el;
    const button = (/** @type {Record<string, any>} */ attrs) => /** @type {HTMLButtonElement} */ (el("button", attrs));

    // ---- the centre: contract and trumps, team scores, the phase's own part
    this.contract = el("p", { class: "e83-contract", id: "contract" });
    this.trumpLabel = el("span", { class: "label", id: "trump-label" });
    this.trumpValue = el("span", { class: "trump-value", id: "trump-value" });
    this.trumpBox = el(
      "p",
      { class: "trump-indicator", id: "trump-indicator", "aria-labelledby": "trump-label trump-value" },
      this.trumpLabel,
      this.trumpValue,
    );
    this.teamsBox = el("ul", { class: "team-scores", id: "team-scores" });
    this.exchangeLine = el("p", { class: "exchange-line", id: "exchange-line" });
    // The bid's advice as a phone shows it: in the middle, under the calls, where the caption was
    // (page.css; under the hand it sat on the screen's foot). The words a screen reader reads stay
    // the bid list's description (#bid-worth).
    this.bidWorthShown = el("p", { class: "bid-worth-shown", id: "bid-worth-shown", "aria-hidden": "true", hidden: true });
    this.auctionTitle = el("h3", { class: "panel-title", id: "auction-title" });
    this.auctionList = el("ol", { class: "auction-list", id: "auction", "aria-labelledby": "auction-title" });
    this.auctionBox = el("div", { class: "auction-box", id: "auction-box" }, this.auctionTitle, this.auctionList);
    this.trickSlots = [0, 1, 2, 3].map((pos) =>
      el("div", { class: `trick-slot pos-${pos}`, dataset: { pos: String(pos) } }),
    );
    this.trickNote = el("p", { class: "trick-note", id: "trick-note" });
    this.trickTitle = el("h3", { class: "visually-hidden", id: "trick-title" });
    this.trickBox = el(
      "section",
      { class: "trick-box", id: "trick", "aria-labelledby": "trick-title" },
      this.trickTitle,
      el("div", { class: "trick-grid" }, this.trickSlots),
      this.trickNote,
    );
    this.discardTitle = el("h3", { class: "visually-hidden", id: "discard-title" });
    this.discardRules = el("ul", { class: "discard-rules", id: "discard-rules" });
    this.discardCounts = el("p", { class: "discard-counts", id: "discard-counts" });
    this.rulesSummary = el("summary", { class: "rules-summary", id: "discard-rules-summary" });
    // The phase's rules, in place: open beside the table on a wide screen, one tap away on a phone.
    this.rulesBox = /** @type {HTMLDetailsElement} */ (el("details", { class: "discard-rules-box", id: "discard-rules-box" }, this.rulesSummary, this.discardRules));
    this.wide = window.matchMedia("(min-width: 64rem)");
    this.rulesOpenSet = false; // the player opened or closed it: the screen's width no longer decides
    this.autoOpen = this.wide.matches; // what the page itself last set (toggle events come later)
    this.rulesBox.open = this.autoOpen;
    this.rulesBox.addEventListener("toggle", () => {
      if (this.rulesBox.open !== this.autoOpen) this.rulesOpenSet = true;
    });
    this.onWide = () => {
      if (this.rulesOpenSet) return;
      this.autoOpen = this.wide.matches;
      this.rulesBox.open = this.autoOpen;
    };
    this.wide.addEventListener("change", this.onWide);
    this.toDiscard = el("p", { class: "tray", id: "to-discard" });
    this.toPartner = el("p", { class: "tray", id: "to-partner" });
    // What "Hand in for me" (auto_arrange) would add now to the cards already picked (the view's
    // `arranged` less the picks): seen before it is pressed. It completes the picks, never drops
    // them, and hands everything in at once: its words say so (new-user trial h6, F14).
    this.autoPreview = el("p", { class: "tray auto-preview", id: "auto-preview", hidden: true });
    this.discardBox = el(
      "section",
      { class: "discard-box", id: "discard-box", "aria-labelledby": "discard-title" },
      this.discardTitle,
      this.discardCounts,
      el("div", { class: "trays" }, this.toDiscard, this.toPartner),
    );
    this.waitNote = el("p", { class: "wait-note", id: "wait-note" });
    this.centre = el(
      "div",
      { class: "e83-centre" },
      el("div", { class: "e83-head" }, this.contract, this.trumpBox),
      this.teamsBox,
      this.exchangeLine,
      this.auctionBox,
      this.bidWorthShown,
      this.discardBox,
      this.trickBox,
      this.waitNote,
    );

    // ---- the actions under the hand
    this.bidLabel = el("label", { for: "bid-value", id: "bid-label" });
    this.bidSelect = /** @type {HTMLSelectElement} */ (
      el("select", { id: "bid-value", "aria-describedby": "bid-worth", onchange: () => this.renderBidButton() })
    );
    // What the hand is worth, in plain words, for a newcomer facing 30-83 (see handWorth).
    this.bidWorth = el("p", { class: "bid-worth", id: "bid-worth" });
    this.bidButton = button({ type: "button", class: "primary", id: "bid", onclick: () => this.bid() });
    this.passButton = button({ type: "button", id: "pass", "aria-describedby": "pass-reason", onclick: () => this.pass() });
    this.passReason = el("p", { class: "reason", id: "pass-reason" });
    this.bidPanel = el(
      "div",
      { class: "bid-panel", id: "bid-panel" },
      el("div", { class: "bid-field" }, this.bidLabel, this.bidSelect),
      this.bidButton,
      this.passButton,
      this.passReason,
      this.bidWorth,
    );
    this.trumpPrompt = el("p", { class: "panel-prompt", id: "trump-prompt" });
    this.trumpButtons = SUITS.map((s) =>
      button({ type: "button", class: `trump-choice suit-${s}`, id: `trump-${s}`, dataset: { suit: s }, onclick: () => this.nameTrump(s) }),
    );
    this.kittyLine = el("p", { class: "kitty-line", id: "kitty-line" });
    this.trumpPanel = el(
      "div",
      { class: "trump-panel", id: "trump-panel" },
      this.trumpPrompt,
      el("div", { class: "trump-choices" }, this.trumpButtons),
      this.kittyLine,
    );
    this.discardStatus = el("p", { class: "discard-status", id: "discard-status" });
    this.autoButton = button({
      type: "button",
      class: "primary",
      id: "auto-arrange",
      "aria-describedby": "auto-preview",
      onclick: () => this.simple("auto_arrange"),
    });
    this.doneButton = button({ type: "button", id: "done", onclick: () => this.simple("done") });
    this.undoButton = button({ type: "button", id: "undo", onclick: () => this.simple("undo") });
    // Why a chosen card stays: over the top of the hand (page.css), where the finger and the eyes
    // are, not under the buttons (issue 20: at y 795-921 of an 844 px phone). A tap on it, or the
    // next step, puts it away.
    this.stepErrorText = el("p", { class: "step-error", id: "step-error", role: "alert" });
    this.stepErrorClose = /** @type {HTMLButtonElement} */ (
      el("button", { type: "button", class: "step-error-close", onclick: () => this.showStepError(null) }, el("span", { "aria-hidden": "true" }, "×"))
    );
    this.stepErrorBox = el("div", { class: "step-error-box", id: "step-error-box", hidden: true }, this.stepErrorText, this.stepErrorClose);
    this.discardPanel = el(
      "div",
      { class: "discard-panel", id: "discard-panel" },
      el(
        "div",
        { class: "discard-main" },
        this.discardStatus,
        el("div", { class: "discard-buttons" }, this.autoButton, this.doneButton, this.undoButton),
        this.stepErrorBox,
        // Under its button, not in the middle of the table: there it made the middle taller and
        // moved the hand down (issue 20, point 11), on a phone below the fold.
        this.autoPreview,
      ),
      this.rulesBox,
    );
    this.actions = el("div", { class: "e83-actions" }, this.bidPanel, this.trumpPanel, this.discardPanel);
  }

  destroy() {
    this.wide.removeEventListener("change", this.onWide);
    this.host.closeChoice();
  }

  /** @returns {number | null} */
  get mySeat() {
    return this.host.seat;
  }

  get spectator() {
    return this.mySeat === null || this.mySeat === undefined;
  }

  /**
   * The view's legal actions of one kind.
   * @param {string} kind
   * @returns {Action[]}
   */
  legal(kind) {
    return /** @type {Action[]} */ ((this.view && this.view.legal) || []).filter((a) => a.kind === kind);
  }

  /** @param {string} kind */
  can(kind) {
    return this.legal(kind).length > 0;
  }

  /** The seat the page is drawn from (a spectator sees the table from seat 0). */
  get base() {
    return this.spectator ? 0 : /** @type {number} */ (this.mySeat);
  }

  /** @param {number} team */
  teamName(team) {
    return this.teamNameWith(team, this.teamSeats(team).join(" + "));
  }

  /**
   * The names of a team's seats.
   * @param {number} team
   * @returns {string[]}
   */
  teamSeats(team) {
    const seats = ((this.view && this.view.teams) || [[0, 2], [1, 3]])[team] || [];
    return seats.map((/** @type {number} */ s) => this.host.seatName(s));
  }

  /**
   * A team's name for a narrow column (the summary's table on a phone), in parts that page.css
   * keeps whole: its word ("Them", "Đối thủ") and each seat's name ("Bot 2"), so that the line
   * breaks between the word and the seats and, where even the seats do not fit, at a " + " (a
   * phone's column broke it at every space: "Them / (Bot 2 + / Bot 4)", four lines in Vietnamese).
   * @param {number} team
   */
  teamNode(team) {
    const el = this.host.el;
    const mark = "\u0000";
    const whole = this.teamNameWith(team, mark);
    const at = whole.indexOf(mark);
    if (at < 0) return el("span", { class: "team-label" }, this.teamName(team));
    // "Them (" + names + ")": the word, then the seats in their brackets
    const before = whole.slice(0, at);
    const after = whole.slice(at + 1);
    const open = /\S*$/.exec(before)?.[0] ?? "";
    const word = before.slice(0, before.length - open.length).trim();
    const seats = this.teamSeats(team).flatMap((n, i) => [i ? " + " : "", el("span", { class: "team-seat" }, n)]);
    return el(
      "span",
      { class: "team-name-parts" },
      word ? el("span", { class: "team-label" }, word) : null,
      word ? " " : null,
      el("span", { class: "team-seats" }, open, ...seats, after),
    );
  }

  /**
   * The team's name with `names` for its seats' names.
   * @param {number} team
   * @param {string} names
   */
  teamNameWith(team, names) {
    const t = this.t;
    if (this.spectator) return t("team.n", { n: team + 1, names });
    return team === teamOf(this.base) ? t("team.us", { names }) : t("team.them", { names });
  }

  /** @param {string} suit */
  trumpWord(suit) {
    return this.t(`suit.${suit}`);
  }

  // ------------------------------------------------------------------ drawing

  /**
   * @param {View} view
   * @returns {Frame}
   */
  render(view) {
    const t = this.t;
    this.view = view;
    this.centre.dataset.version = String(view.version); // which view the table shows (tests wait on it)
    const phase = view.phase;
    this.centre.dataset.phase = phase; // a phone leaves the match's totals out while the hand is long (page.css)
    if (phase !== "discard" && phase !== "trim") this.stepErrorCard = null;
    this.renderHead();
    this.renderTeams();
    this.renderExchange();
    this.renderAuction();
    this.renderDiscardBox();
    this.renderTrick();
    this.renderWait();
    if (!this.spectator) {
      this.renderActions();
      this.refocusBid();
    }
    this.actions.hidden = this.spectator || !["auction", "trump", "discard", "trim"].includes(phase);
    const trump = view.trump;
    const steps = this.stepsByCard();
    const plays = new Set(this.legal("play").map((a) => a.card));
    const hand = this.spectator ? null : sortHand(view.hand || [], trump);
    // The kitty's cards are marked in the hand until the tricks (a band at the foot of each, in the
    // strip a fanned card shows, and said in its name): the bidder sees what it took where it sheds.
    const fromKitty = new Set(this.kitty && this.kitty.hand === view.round && ["trump", "discard", "trim"].includes(phase) ? this.kitty.cards : []);
    // A card with no step while this seat sheds is locked (issue 20: kept trumps read as "special"):
    // dimmed, a lock on it (page.css), and its name says it cannot be discarded.
    const shedding = (phase === "discard" || phase === "trim") && !this.spectator && (view.awaiting || []).includes(this.mySeat);
    /** @param {string} name */
    const label = (name) => {
      let text = cardLabel(name, trump);
      if (shedding && !steps[name]) text = t("card.locked", { label: text });
      return fromKitty.has(name) ? t("card.kitty", { label: text }) : text;
    };
    return {
      round: view.round,
      status: this.status(),
      target: t("table.target", { target: view.target }),
      direction: 1, // 4.7.1: play goes clockwise
      seats: Array.from({ length: view.seats }, (_, i) => ({
        count: t("table.cards", { n: this.seatCount(i) }),
        cards: this.seatCount(i),
        score: this.seatRoles(i),
        active: (view.awaiting || []).includes(i) && phase !== "hand_over",
      })),
      hand: hand
        ? hand.map((name) => ({
            id: name,
            label: label(name),
            playable: phase === "play" ? plays.has(name) : !!steps[name],
            face: (/** @type {HTMLElement} */ node) => {
              fillCardFace(node, name, trump);
              node.classList.toggle("from-kitty", fromKitty.has(name));
              const locked = shedding && !steps[name];
              node.classList.toggle("locked", locked);
              if (locked) node.append(lockMark());
            },
          }))
        : null,
      // In the tricks the hand only sheds: on a phone it keeps no room for a second row it cannot need.
      handMost: phase === "play" && hand ? hand.length : null,
      keys: this.spectator
        ? []
        : [
            { key: t("key.bid"), label: t("action.bid.short"), button: this.bidButton },
            { key: t("key.pass"), label: t("action.pass"), button: this.passButton },
            { key: t("key.auto"), label: t("action.auto"), button: this.autoButton },
            { key: t("key.done"), label: t("action.done"), button: this.doneButton },
            { key: t("key.undo"), label: t("action.undo"), button: this.undoButton },
            // trumps named by 1-4, in the order the buttons stand (a keyboard player took four Tabs
            // from the hand to reach clubs); digits, the same in every language
            ...this.trumpButtons.map((b, i) => ({ key: String(i + 1), label: this.trumpWord(b.dataset.suit || ""), button: b })),
          ].filter((k) => !k.button.closest("[hidden]")),
      summary: this.summary(),
    };
  }

  /**
   * How many cards a seat holds, as its box says it. The view's counts stay those of the phase's
   * start in the discard and the trim (a seat's steps are private), but a seat that has handed its
   * cards in is down to 6, as the caption says (4.6.2): its box says 6, not the 12 it was dealt.
   * @param {number} i
   * @returns {number}
   */
  seatCount(i) {
    const v = this.view;
    const n = (v.hand_counts || [])[i] ?? 0;
    // This seat's own count is the hand it sees: its picks leave the hand (issue 20: "17 cards" over 10).
    if (!this.spectator && i === this.mySeat && Array.isArray(v.hand)) return v.hand.length;
    return (v.phase === "discard" || v.phase === "trim") && (v.decided || [])[i] ? Math.min(n, KEEP) : n;
  }

  /** What a seat's box says besides its cards: partner or opponent, dealer, bidder. */
  /** @param {number} i */
  seatRoles(i) {
    const t = this.t;
    const v = this.view;
    const parts = [];
    // The partner is marked on its box (the opponents are the two seats not so marked).
    if (!this.spectator && i !== this.mySeat && teamOf(i) === teamOf(this.base)) parts.push(t("seat.partner"));
    if (v.dealer === i) parts.push(t("seat.dealer"));
    if (v.bid !== null && v.bid !== undefined && v.bidder === i) parts.push(t("seat.bidder", { n: v.bid }));
    else if (v.phase === "auction" && (v.passed || [])[i]) parts.push(t("seat.passed"));
    return parts.join(" · ");
  }

  renderHead() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    // This seat's own bid: "Bid 67 by you", not the seat's label "You" mid-sentence (a new user's
    // trial read "Bud 67 av Du").
    const mine = v.bidder === this.mySeat ? ".you" : "";
    if (v.bid !== null && v.bid !== undefined) {
      this.contract.textContent = t(`contract.bid${mine}`, { n: v.bid, who: this.host.seatName(v.bidder) });
    } else if (v.high_bid) {
      this.contract.textContent = t(`contract.high${mine}`, { n: v.high_bid, who: this.host.seatName(v.bidder) });
    } else {
      this.contract.textContent = t("contract.none");
    }
    this.trumpLabel.textContent = t("trump.label");
    const suit = v.trump;
    this.trumpBox.className = `trump-indicator${suit ? ` suit-${suit}${isRed(suit) ? " red" : ""}` : " none"}`;
    this.trumpBox.dataset.suit = suit || "";
    if (suit) {
      this.trumpValue.replaceChildren(
        suitIcon(suit, "suit-icon trump-shape"),
        el("span", { class: "trump-word", id: "trump-word" }, this.trumpWord(suit)),
        el("span", { class: "trump-extra", id: "trump-extra" }, t("trump.extra", { card: cardShort(`5${offSuit(suit)}`) })),
      );
    } else {
      this.trumpValue.replaceChildren(el("span", { class: "trump-word", id: "trump-word" }, t("trump.none")));
    }
  }

  renderTeams() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    const inHand = ["play", "hand_over", "match_over"].includes(v.phase);
    this.teamsBox.setAttribute("aria-label", t("team.scores", { target: v.target }));
    this.teamsBox.replaceChildren(
      ...[0, 1].map((team) => {
        const ours = !this.spectator && team === teamOf(this.base);
        const bidding = v.bidder !== null && v.bidder !== undefined && v.bid !== null && teamOf(v.bidder) === team;
        return el(
          "li",
          { class: `team-row${ours ? " ours" : ""}${bidding ? " bidding" : ""}`, dataset: { team: String(team) } },
          // (made smaller to fit where its box keeps it on one line: the shell's "fit-line")
          el("span", { class: "team-name fit-line" }, this.teamName(team)),
          el("span", { class: "team-total" }, t("team.total", { n: whole((v.scores || [])[team] ?? 0) })),
          // a space between the two, so the line reads (and is spoken) "Match: 0 This hand: …"
          inHand ? " " : null,
          inHand
            ? el(
                "span",
                { class: "team-hand" },
                t("team.this_hand", { tricks: (v.tricks || [])[team] ?? 0, points: (v.points || [])[team] ?? 0 }),
              )
            : null,
        );
      }),
    );
  }

  /** After the exchange: how many trumps each seat passed (public, 4.6.4) and the trumps shown face up (4.6.5). */
  renderExchange() {
    const t = this.t;
    const v = this.view;
    const parts = [];
    if (Array.isArray(v.passed_counts) && ["trim", "play"].includes(v.phase)) {
      const gave = passedBy(v.passed_counts);
      parts.push(
        gave.length
          ? t("exchange.passed", { list: gave.map(([n, s]) => t("exchange.passed.one", { who: this.host.seatName(s), n })).join(", ") })
          : t("exchange.none"),
      );
      /** @type {Placed[]} */
      const shown = v.shown || [];
      if (shown.length) parts.push(t("exchange.shown", { list: placedShort(shown) }));
    }
    this.exchangeSummary = parts.join(" · ");
    this.exchangeLine.textContent = v.phase === "trim" ? this.exchangeSummary : "";
    this.exchangeLine.hidden = v.phase !== "trim" || !parts.length;
  }

  /**
   * The auction so far, a seat a chip in the order of calling (from the dealer's left): its last
   * call (its latest bid, or its pass, for good: 4.5.3), or none yet; the seat to call marked.
   * Four chips whatever the number of calls: a list of every call wrapped onto a line more every
   * few bids and pushed the hand down (issue 20: 548, 582, 606 px on a phone; 52 calls took it
   * 400 px down). Each call is in the move log.
   */
  renderAuction() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    // Once the auction is over the contract line says its outcome: the calls would say it again.
    this.auctionBox.hidden = v.phase !== "auction";
    this.auctionTitle.textContent = t("auction.title");
    /** @type {Call[]} */
    const calls = v.auction || [];
    const order = [1, 2, 3, 4].map((k) => (v.dealer + k) % 4);
    this.auctionList.replaceChildren(
      ...order.map((seat) => {
        const last = calls.filter((c) => c.seat === seat).pop();
        const kind = !last ? "none" : last.bid ? "bid" : "pass";
        const turn = v.phase === "auction" && v.turn === seat;
        return el(
          "li",
          { class: `call ${kind}${turn ? " to-call" : ""}`, dataset: { seat: String(seat) } },
          el("span", { class: "call-who" }, this.host.seatName(seat)),
          last
            ? el("span", { class: "call-what" }, last.bid ? String(last.bid) : t("auction.pass"))
            : el(
                "span",
                { class: "call-what" },
                el("span", { "aria-hidden": "true" }, "–"),
                el("span", { class: "visually-hidden" }, t("auction.not_yet")),
              ),
        );
      }),
    );
  }

  /** The discard phase's rules in place, with this seat's own counts, and its steps so far. */
  renderDiscardBox() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    const phase = v.phase;
    const open = (phase === "discard" || phase === "trim") && !this.spectator;
    this.discardBox.hidden = !open;
    if (!open) return;
    const trump = v.trump;
    const sel = v.selected || { discards: [], gives: [] };
    const held = [...(v.hand || []), ...sel.discards, ...sel.gives];
    const mine = held.filter((c) => isTrump(c, trump));
    const minePoints = mine.filter((c) => points(c, trump) > 0);
    const mate = (this.base + 2) % 4;
    this.discardTitle.textContent = phase === "trim" ? t("discard.title.trim") : t("discard.title");
    const lines = [];
    if (phase === "discard") {
      const pt = v.partner_trumps || { trumps: 0, points: 0 };
      this.discardCounts.textContent = t("discard.counts", {
        n: held.length,
        trumps: mine.length,
        points: minePoints.length,
        partner: this.host.seatName(mate),
        ptrumps: pt.trumps,
        ppoints: pt.points,
        team: mine.length + pt.trumps,
      });
      lines.push(t("discard.rule.six"), t("discard.rule.give"), t("discard.rule.team"));
    } else {
      const got = (v.received || []).length;
      this.discardCounts.textContent = got
        ? t("discard.trim.counts", { n: got, who: this.host.seatName(mate), cards: (v.received || []).map(cardShort).join(" ") })
        : t("discard.trim.none");
      lines.push(t("discard.rule.trim"));
    }
    this.discardRules.replaceChildren(...lines.map((l) => el("li", {}, l)));
    this.rulesSummary.textContent = t("discard.rules");
    this.onWide();
    const chips = (/** @type {string[]} */ cards) => (cards.length ? cards.map((c) => cardChip(c, trump)) : [el("span", { class: "tray-empty" }, t("discard.tray.empty"))]);
    this.toDiscard.replaceChildren(el("span", { class: "label" }, `${t("discard.tray.discard")}: `), ...chips(sel.discards));
    this.toPartner.replaceChildren(
      el("span", { class: "label" }, `${t("discard.tray.give", { who: this.host.seatName(mate) })}: `),
      ...chips(sel.gives),
    );
    this.toPartner.hidden = phase === "trim";
    // Only what the button would add to the player's own picks (the trays above show those):
    // listing the picks again read as more cards than "Pick 3 more" (new-user trial h6, F14).
    const auto = v.arranged;
    const addDiscards = auto ? auto.discards.filter((/** @type {string} */ c) => !sel.discards.includes(c)) : [];
    const addGives = auto && phase !== "trim" ? auto.gives.filter((/** @type {string} */ c) => !sel.gives.includes(c)) : [];
    this.autoPreview.hidden = !auto || !(addDiscards.length + addGives.length);
    if (auto) {
      const picked = sel.discards.length + sel.gives.length > 0;
      // The partner's cards on a line of their own (a " · " between the two wrapped to the end of
      // the first line, after its last card: a new user's trial).
      const gives = !addGives.length ? [] : [
        el("span", { class: "tray-break", "aria-hidden": "true" }),
        el("span", { class: "label" }, `${t("discard.tray.give", { who: this.host.seatName(mate) })}: `),
        ...chips(addGives),
      ];
      this.autoPreview.replaceChildren(
        el("span", { class: "label" }, `${t(picked ? "discard.auto.adds" : "discard.auto.preview")} `),
        el("span", { class: "label" }, `${t("discard.tray.discard")}: `),
        ...chips(addDiscards),
        ...gives,
      );
    }
  }

  renderTrick() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    const show = v.phase === "play";
    this.trickBox.hidden = !show;
    if (!show) return;
    this.trickTitle.textContent = t("trick.title");
    // A seat sees the trick around it (itself at the bottom, its partner across); a spectator
    // (the shared screen) sees the four seats in a row, in seat order, each card under its name.
    this.trickBox.classList.toggle("flat", this.spectator);
    /** @type {Placed[]} */
    let cards = v.trick || [];
    let done = false;
    let winner = null;
    if (!cards.length && v.last_trick) {
      cards = v.last_trick.cards || [];
      winner = v.last_trick.winner;
      done = true;
    }
    const bySeat = new Map(cards.map((x) => [x.seat, x.card]));
    const leader = done ? (cards[0] || {}).seat : v.leader;
    this.trickSlots.forEach((slot, pos) => {
      const seat = (this.base + pos) % 4;
      const card = bySeat.get(seat);
      const name = this.host.seatName(seat);
      const tags = [];
      // "led" once the lead is on the table (trick 1's leader read "You · led" before it had played)
      if (seat === leader && card) tags.push(t("trick.led"));
      if (done && seat === winner) tags.push(t("trick.won"));
      slot.dataset.seat = String(seat);
      slot.className = `trick-slot pos-${pos}${done ? " done" : ""}${done && seat === winner ? " winner" : ""}${
        !done && v.turn === seat ? " to-play" : ""
      }`;
      const parts = [
        card ? cardImage(card, v.trump, "trick-card") : el("span", { class: "card slot-empty", "aria-hidden": "true" }),
        // The name and the tags apart (page.css): a long name ends in an ellipsis, the tags ("led, won")
        // stay whole, on a line of their own beside a narrow side card.
        el(
          "span",
          { class: "slot-name" },
          el("span", { class: "slot-who" }, name),
          tags.length ? el("span", { class: "slot-sep" }, " · ") : null,
          tags.length ? el("span", { class: "slot-tag" }, tags.join(", ")) : null,
        ),
      ];
      if (!card) parts.push(el("span", { class: "visually-hidden" }, t("trick.nothing_yet")));
      slot.replaceChildren(...parts);
    });
    const number = /** @type {number[]} */ (v.tricks || [0, 0]).reduce((a, b) => a + b, 0) + (done ? 0 : 1);
    const note = done
      ? t(winner === this.mySeat ? "trick.won_by.you" : "trick.won_by", { who: this.host.seatName(winner), n: number, points: cards.reduce((s, x) => s + points(x.card, v.trump), 0) })
      : t("trick.number", { n: Math.min(number, 6) });
    // What the exchange made public (4.6.4, 4.6.5) stays in view through the tricks, on the same line.
    this.trickNote.textContent = this.exchangeSummary ? `${note} · ${this.exchangeSummary}` : note;
  }

  renderWait() {
    const t = this.t;
    const v = this.view;
    let text = "";
    if (v.phase === "trump" && v.bidder !== this.mySeat) text = t("wait.trump", { who: this.host.seatName(v.bidder) });
    else if ((v.phase === "discard" || v.phase === "trim") && this.spectator) text = t("wait.discard");
    this.waitNote.textContent = text;
    this.waitNote.hidden = !text;
  }

  status() {
    const v = this.view;
    const t = this.t;
    const me = this.mySeat;
    const awaiting = v.awaiting || [];
    const mine = !this.spectator && awaiting.includes(me);
    const who = (/** @type {number} */ s) => this.host.seatName(s);
    let text = "";
    switch (v.phase) {
      case "auction":
        text = v.turn === me ? (this.can("pass") ? t("status.bid") : t("status.bid_forced")) : t("status.bidding", { who: who(v.turn) });
        break;
      case "trump":
        text = v.turn === me ? t("status.trump") : t("status.naming", { who: who(v.turn) });
        break;
      case "discard":
      case "trim":
        if (mine) text = v.phase === "trim" ? t("status.trim", { n: Math.max(0, (v.hand || []).length - KEEP) }) : t("status.discard", { n: Math.max(0, (v.hand || []).length - KEEP) });
        else text = t("status.waiting", { names: awaiting.map(who).join(", ") });
        break;
      case "play":
        text = v.turn === me ? t("status.play") : t("status.playing", { who: who(v.turn) });
        break;
      default:
        return null;
    }
    return { text, mine };
  }

  renderActions() {
    const t = this.t;
    const el = this.host.el;
    const v = this.view;
    const phase = v.phase;
    // The bidding panel: the legal bids only (4.5.2), Pass unless the dealer must bid (4.5.5).
    this.bidPanel.hidden = phase !== "auction";
    this.bidWorthShown.hidden = phase !== "auction" || v.turn !== this.mySeat;
    if (phase === "auction") {
      const bids = this.legal("bid").map((a) => a.value);
      // The choice is kept while this hand's auction goes on, never into the next hand's: there
      // the picker starts at the lowest bid again (a hand bid at 83 left 83 under the thumb).
      const before = this.bidRound === v.round ? this.bidSelect.value : null;
      this.bidRound = v.round;
      this.bidLabel.textContent = t("bid.label");
      /** @type {number[]} */
      const values = bids.length ? bids : [Math.max(30, (v.high_bid || 29) + 1)];
      const same = this.bidSelect.options.length === values.length && values.every((x, i) => this.bidSelect.options[i].value === String(x));
      if (!same) {
        this.bidSelect.replaceChildren(...values.map((x) => el("option", { value: String(x) }, String(x))));
        if (before !== null && values.map(String).includes(before)) this.bidSelect.value = before;
      } else if (before === null) {
        this.bidSelect.value = String(values[0]);
      }
      this.bidSelect.disabled = !bids.length;
      this.bidButton.disabled = !bids.length;
      this.renderBidButton();
      this.passButton.textContent = t("action.pass");
      const canPass = this.can("pass");
      this.passButton.disabled = !canPass;
      const forced = v.turn === this.mySeat && !canPass;
      this.passReason.textContent = forced ? t("reason.dealer_must_bid") : "";
      const worth = this.spectator ? null : handWorth(v.hand || []);
      this.bidWorth.hidden = !worth;
      // Below the lowest bid the picker offers, the hand is not called sound (a new user's trial:
      // a hand worth 27 was "sound to bid" where the lowest bid was 35).
      const low = values[0];
      const short = worth && worth.value < low;
      this.bidWorth.textContent = worth ? t(short ? "bid.worth.short" : "bid.worth", { n: worth.value, suit: this.trumpWord(worth.suit).toLowerCase(), trumps: worth.trumps, low }) : "";
      this.bidWorthShown.textContent = this.bidWorth.textContent;
    }
    // Naming trumps (4.6.1): each suit says how many trumps it would give this hand.
    const naming = phase === "trump" && v.turn === this.mySeat;
    this.trumpPanel.hidden = !naming;
    if (naming) {
      /** @type {string[]} */
      const hand = v.hand || [];
      this.trumpPrompt.textContent = t("trump.prompt");
      this.trumpButtons.forEach((b) => {
        const s = b.dataset.suit || "";
        const n = hand.filter((c) => isTrump(c, s)).length;
        const pts = hand.reduce((sum, c) => sum + points(c, s), 0);
        b.disabled = !this.legal("trump").some((a) => a.suit === s);
        b.replaceChildren(
          suitIcon(s, "suit-icon big"),
          el("span", { class: "suit-word" }, this.trumpWord(s)),
          // its parts ("4 trumps", "15 pts") each whole: a narrow button breaks after the comma only
          el("span", { class: "suit-count" }, ...t("trump.count", { n, points: pts }).split(", ").flatMap((part, i) => [i ? ", " : "", el("span", { class: "count-part" }, part)])),
        );
      });
      const k = this.kitty && this.kitty.hand === v.round ? this.kitty.cards : [];
      this.kittyLine.replaceChildren(...(k.length ? [el("span", { class: "label" }, `${t("kitty.took")}: `), ...k.map((c) => cardChip(c, null))] : []));
    }
    // The discard phase (4.6, 4.10.4-4.10.6).
    const deciding = (phase === "discard" || phase === "trim") && (v.awaiting || []).includes(this.mySeat);
    const waitingOthers = (phase === "discard" || phase === "trim") && !deciding;
    this.discardPanel.hidden = !(deciding || waitingOthers);
    if (deciding || waitingOthers) {
      const left = Math.max(0, (v.hand || []).length - KEEP);
      if (!deciding) this.discardStatus.textContent = t("discard.status.decided");
      else if (left) this.discardStatus.textContent = t("discard.status.left", { n: left });
      else this.discardStatus.textContent = t("discard.status.ready");
      this.autoButton.textContent = t("action.auto");
      this.doneButton.textContent = t("action.done");
      this.undoButton.textContent = t("action.undo");
      this.autoButton.disabled = !this.can("auto_arrange");
      this.doneButton.disabled = !this.can("done");
      this.doneButton.classList.toggle("primary", this.can("done"));
      this.autoButton.classList.toggle("primary", !this.can("done"));
      this.undoButton.disabled = !this.can("undo");
    }
    this.showStepError(this.stepErrorCard);
  }

  renderBidButton() {
    const value = Number(this.bidSelect.value);
    this.bidButton.textContent = this.bidButton.disabled || !value ? this.t("action.bid.short") : this.t("action.bid", { n: value });
  }

  // ------------------------------------------------------------------ acting

  /** The legal discard steps per card: {"7C": [{kind: "discard"}, {kind: "give"}]}. */
  stepsByCard() {
    /** @type {Record<string, Action[]>} */
    const out = {};
    for (const a of /** @type {Action[]} */ ((this.view && this.view.legal) || [])) {
      if (a.kind !== "discard" && a.kind !== "give") continue;
      (out[a.card] || (out[a.card] = [])).push(a);
    }
    return out;
  }

  bid() {
    if (this.bidButton.disabled) return;
    const value = Number(this.bidSelect.value);
    const action = this.legal("bid").find((a) => a.value === value);
    if (!action) return;
    this.bidCalled = this.view.round;
    this.host.focusHand();
    this.host.act(action);
  }

  pass() {
    if (this.passButton.disabled) return;
    this.bidCalled = this.view.round;
    this.host.focusHand();
    this.host.act({ kind: "pass" });
  }

  /**
   * A seat that called from the bidding panel finds its Bid button focused again when its next call comes
   * (a keyboard player went back to the hand after each call and had to tab to the panel each
   * time). Only where the focus waits in the hand or on nothing: never taken from the chat.
   * After the shell has drawn the hand, which takes the focus a call gave it.
   */
  refocusBid() {
    const v = this.view;
    if (this.bidCalled !== v.round || v.phase !== "auction" || v.turn !== this.mySeat) return;
    // The Bid button (Enter bids the picked value; the keys B and P still work there, as they do
    // not in the picker; the picker is one Shift+Tab back).
    const target = !this.bidButton.disabled ? this.bidButton : !this.passButton.disabled ? this.passButton : null;
    if (!target) return;
    requestAnimationFrame(() => {
      const active = document.activeElement;
      const idle = !active || active === document.body || !!(active.closest && active.closest(".hand"));
      if (idle && this.view === v && !target.disabled) target.focus();
    });
  }

  /** @param {string} suit */
  nameTrump(suit) {
    const action = this.legal("trump").find((a) => a.suit === suit);
    if (!action) return;
    this.host.focusHand();
    this.host.act(action);
  }

  /** @param {string} kind */
  async simple(kind) {
    const action = this.legal(kind)[0];
    if (!action) return;
    this.host.focusHand();
    await this.send(action);
  }

  /**
   * The control that sends a legal action (the shell finds a card of the hand itself): for a
   * suggested move. A bid's value is picked in its list first: the list is set to it, so that
   * the Bid button sends the suggested bid and says which.
   */
  /**
   * @param {Action} action
   * @returns {HTMLElement | null}
   */
  controlFor(action) {
    switch (action.kind) {
      case "bid": {
        if (![...this.bidSelect.options].some((o) => o.value === String(action.value))) return null;
        this.bidSelect.value = String(action.value);
        this.renderBidButton();
        return this.bidButton;
      }
      case "pass":
        return this.passButton;
      case "trump":
        return this.trumpButtons.find((b) => b.dataset.suit === action.suit) || null;
      case "auto_arrange":
        return this.autoButton;
      case "done":
        return this.doneButton;
      case "undo":
        return this.undoButton;
      default:
        return null;
    }
  }

  /** Send an action of the discard phase. A refusal (a race with the table) is the shell's
   * notice alone: saying it again under the buttons showed it twice. */
  /** @param {Action} action */
  async send(action) {
    this.showStepError(null);
    await this.host.act(action);
  }

  /** @param {string | null} card */
  showStepError(card) {
    this.stepErrorCard = card;
    this.stepErrorText.textContent = card ? this.keepReason(card) : "";
    this.stepErrorClose.setAttribute("aria-label", this.t("step.error.close"));
    this.stepErrorBox.hidden = !card;
  }

  /** Why a card of the discard phase has no step, in plain words (the view's counts say which rule holds it). */
  /** @param {string} name */
  keepReason(name) {
    const t = this.t;
    const v = this.view;
    if ((v.hand || []).length <= KEEP) return t("reason.six_held");
    if (isTrump(name, v.trump)) return sentence(t("reason.keep_trump", { card: cardName(name) }));
    return sentence(t("reason.cannot_shed", { card: cardName(name) }));
  }

  /** A card of the hand was chosen (click, Enter or Space). */
  /** @param {string} name */
  async play(name) {
    const t = this.t;
    const v = this.view;
    if (!v || this.spectator) return;
    if (v.phase === "play") {
      if (v.turn !== this.mySeat) {
        this.host.say(t("reason.not_your_turn"));
        return;
      }
      const action = this.legal("play").find((a) => a.card === name);
      if (!action) {
        this.host.say(sentence(t("reason.cannot_play", { card: cardName(name) })));
        return;
      }
      this.host.focusHand();
      this.host.act(action);
      return;
    }
    if (v.phase === "discard" || v.phase === "trim") {
      if (!(v.awaiting || []).includes(this.mySeat)) {
        this.host.say(t("discard.status.decided"));
        return;
      }
      const steps = this.stepsByCard()[name] || [];
      /** @type {Action | null} */
      let action = steps[0] || null;
      if (steps.length > 1) {
        const mate = this.host.seatName((this.base + 2) % 4);
        const trump = isTrump(name, v.trump);
        const chosen = await this.host.choose({
          id: "step-dialog",
          title: t("step.title", { card: cardLabel(name, v.trump) }),
          text: t("step.text"),
          cancel: t("step.cancel"),
          choices: steps.map((a) => ({
            value: a.kind,
            className: `step-choice step-${a.kind}`,
            dataset: { kind: a.kind },
            action: a,
            content: [a.kind === "give" ? t("step.give", { who: mate }) : trump ? t("step.discard_up") : t("step.discard")],
          })),
        });
        if (!chosen) return;
        action = steps.find((a) => a.kind === chosen) || null;
      }
      if (!action) {
        this.showStepError(name);
        return;
      }
      this.host.focusHand();
      await this.send(action);
      return;
    }
    this.host.say(v.phase === "auction" ? t("reason.bid_first") : v.phase === "trump" ? t("reason.trump_first") : t("reason.not_now"));
  }

  // ------------------------------------------------------------------ events: log, moves, holds

  /** Take an event into account once (the shell shows each one several times). */
  /** @param {GameEvent} ev */
  note(ev) {
    if (!ev || typeof ev !== "object" || this.seen.has(ev)) return;
    this.seen.add(ev);
    if (ev.kind === "trick" && typeof ev.number === "number") {
      if (ev.number === 1) this.handTricks = [];
      this.handTricks[ev.number - 1] = ev;
    } else if (ev.kind === "hand_over" && typeof ev.hand === "number") {
      this.tricksOfHand.set(ev.hand, this.handTricks.slice());
    } else if (ev.kind === "kitty" && Array.isArray(ev.cards) && ev.seat === this.mySeat) {
      this.kitty = { hand: this.view ? this.view.round : null, cards: ev.cards };
    } else if (ev.kind === "hand_start") {
      this.handTricks = [];
      if (this.kitty && this.kitty.hand !== ev.hand) this.kitty = null;
    }
  }

  /**
   * @param {GameEvent} ev
   * @returns {string | null}
   */
  logLine(ev) {
    this.note(ev);
    const t = this.t;
    const who = (/** @type {number | null | undefined} */ seat) => this.host.seatName(/** @type {number} */ (seat));
    const me = this.mySeat;
    switch (ev.kind) {
      case "hand_start":
        return t("log.hand_start", { n: ev.hand, who: who(ev.dealer) });
      case "bid":
        return t("log.bid", { who: who(ev.seat), n: ev.value });
      case "pass":
        return t("log.pass", { who: who(ev.seat) });
      case "contract":
        return t("log.contract", { who: who(ev.bidder), n: ev.bid });
      case "kitty":
        return Array.isArray(ev.cards) ? t("log.kitty_you", { cards: ev.cards.map(cardShort).join(" ") }) : t("log.kitty", { who: who(ev.seat) });
      case "trump":
        return t("log.trump", { who: who(ev.seat), suit: this.trumpWord(ev.suit).toLowerCase(), card: cardShort(`5${offSuit(ev.suit)}`) });
      case "partner_trumps":
        return t("log.partner_trumps", { who: who(ev.partner), n: ev.trumps, p: ev.points });
      case "discard_phase":
        return t("log.discard_phase");
      case "arranged":
        return t("log.arranged", { n: (ev.gives || []).length, s: (ev.discards || []).length });
      case "decided":
        return ev.seat === me ? t("log.decided_you") : t("log.decided", { who: who(ev.seat) });
      case "exchange":
        return this.exchangeText(ev);
      case "received":
        return t("log.received", { who: who(ev.from), cards: (ev.cards || []).map(cardShort).join(" ") });
      case "trim_phase":
        return t("log.trim_phase", { names: (ev.seats || []).map(who).join(", ") });
      case "trimmed":
        return (ev.shown || []).length ? t("log.trimmed_shown", { list: placedShort(ev.shown) }) : t("log.trimmed");
      case "play":
        return t("log.play", { who: who(ev.seat), card: cardShort(ev.card) });
      case "trick":
        return t("log.trick", { who: who(ev.winner), n: ev.number, points: ev.points });
      case "hand_over":
        return this.handOverText(ev);
      case "match_over":
        return t("log.match_over", { team: this.teamName((ev.teams || [0])[0]) });
      case "turn":
        return ev.seat === me ? t("log.turn_you") : null;
      default:
        return null;
    }
  }

  /** @param {GameEvent} ev */
  exchangeText(ev) {
    const t = this.t;
    const gave = passedBy(ev.passed);
    const passed = gave.length
      ? t("exchange.passed", { list: gave.map(([n, s]) => t("exchange.passed.one", { who: this.host.seatName(s), n })).join(", ") })
      : t("exchange.none");
    const shown = (ev.shown || []).length ? ` ${t("exchange.shown", { list: placedShort(ev.shown) })}` : "";
    return `${t("log.exchange")} ${passed}.${shown}`;
  }

  /** @param {GameEvent} ev */
  handOverText(ev) {
    const t = this.t;
    const team = teamOf(ev.bidder);
    const key = ev.made ? "log.hand_over.made" : "log.hand_over.missed";
    return t(key, { team: this.teamName(team), n: ev.bid, got: (ev.captured || [])[team] ?? 0, d: signed((ev.delta || [])[team] ?? 0) });
  }

  /** An event as a move people see: the caption, the seat's last move, and what travels where. */
  /**
   * @param {GameEvent} ev
   * @returns {Move | null}
   */
  move(ev) {
    this.note(ev);
    const t = this.t;
    const el = this.host.el;
    const who = (/** @type {number | null | undefined} */ seat) => this.host.seatName(/** @type {number} */ (seat));
    const me = this.mySeat;
    switch (ev.kind) {
      case "hand_start":
        return { seat: null, text: t("move.hand_start", { n: ev.hand, who: who(ev.dealer) }), motion: null };
      // A call is said by its chip in the calls (page.css keeps the caption out of the auction) and,
      // the high one, by the contract line: not again in the seat's box (issue 20: "bid 32" four
      // times on a phone, and a "32" token flying over the bidder's box).
      case "bid":
        return {
          seat: null,
          text: t("move.bid", { who: who(ev.seat), n: ev.value }),
          short: t("move.short.bid", { n: ev.value }),
          motion: null,
          sound: "call",
        };
      case "pass":
        return { seat: null, text: t("move.pass", { who: who(ev.seat) }), short: t("move.short.pass"), motion: null };
      case "contract":
        // Not a move to caption: the contract line and the bidder's box say it already (the log keeps it).
        return null;
      case "kitty":
        return {
          seat: ev.seat ?? null,
          text: ev.seat === me ? t("move.kitty_you") : t("move.kitty", { who: who(ev.seat) }),
          short: t("move.short.kitty"),
          motion: { piece: cardBack("flying"), from: this.contract, to: "seat" },
        };
      case "trump": {
        const suit = this.trumpWord(ev.suit).toLowerCase();
        return { seat: ev.seat ?? null, text: t("move.trump", { who: who(ev.seat), suit }), short: t("move.short.trump", { suit }), motion: null };
      }
      case "decided":
        return { seat: ev.seat ?? null, text: ev.seat === me ? t("move.decided_you") : t("move.decided", { who: who(ev.seat) }), short: t("move.short.decided"), motion: null };
      case "exchange":
        // Held over the table, then said under the trick: a caption would say it a third time.
        return null;
      case "received":
        return { seat: null, text: t("move.received", { who: who(ev.from), n: (ev.cards || []).length }), motion: null };
      case "play":
        return {
          seat: ev.seat ?? null,
          text: t("move.play", { who: who(ev.seat), card: cardShort(ev.card) }),
          short: t("move.short.play", { card: cardShort(ev.card) }),
          motion: { piece: cardImage(ev.card, this.view ? this.view.trump : null, "flying"), from: "seat", to: this.trickBox },
        };
      case "trick":
        return {
          seat: ev.winner,
          text: t("move.trick", { who: who(ev.winner), n: ev.number, points: ev.points }),
          short: t("move.short.trick", { n: ev.number }),
          motion: null,
        };
      case "hand_over":
        return { seat: null, text: this.handOverText(ev), motion: null };
      default:
        return null;
    }
  }

  /** The pauses the game holds the table for: a finished trick, and the exchange. */
  /**
   * @param {GameEvent} ev
   * @returns {{node: Node, ms: number} | null}
   */
  hold(ev) {
    this.note(ev);
    const t = this.t;
    const el = this.host.el;
    if (ev.kind === "trick") {
      const trump = this.view ? this.view.trump : null;
      const node = el(
        "div",
        { class: "e83-hold", id: "trick-hold" },
        el(
          "strong",
          {},
          ev.winner === this.mySeat
            ? t("hold.trick.you", { n: ev.number, points: ev.points }) // "You wins trick 2" read as a slip
            : t("hold.trick", { n: ev.number, who: this.host.seatName(ev.winner), points: ev.points }),
        ),
        el(
          "ul",
          { class: "hold-cards" },
          /** @type {Placed[]} */ (ev.cards || []).map((x) =>
            el("li", { class: x.seat === ev.winner ? "winner" : "" }, el("span", { class: "hold-who" }, this.host.seatName(x.seat)), " ", cardChip(x.card, trump)),
          ),
        ),
      );
      return { node, ms: TRICK_PAUSE_MS };
    }
    if (ev.kind === "exchange") {
      const node = el("div", { class: "e83-hold", id: "exchange-hold" }, el("strong", {}, t("hold.exchange")), " ", el("span", {}, this.exchangeText(ev)));
      return { node, ms: EXCHANGE_PAUSE_MS };
    }
    return null;
  }

  // ------------------------------------------------------------------ the hand summary

  /**
   * Each team's captured point cards and points, the bid made or missed, the change and the totals (4.8).
   * @returns {Summary | null}
   */
  summary() {
    const v = this.view;
    const over = v.phase === "hand_over" || v.phase === "match_over";
    const result = v.last_hand;
    if (!over || !result) return null;
    const t = this.t;
    const el = this.host.el;
    const trump = result.trump;
    const bidTeam = teamOf(result.bidder);
    const tricks = this.tricksOfHand.get(result.hand) || [];
    const complete = tricks.filter(Boolean).length === 6;
    /** @type {string[][]} */
    const cardsOf = [[], []];
    if (complete) for (const tr of tricks) for (const x of /** @type {Placed[]} */ (tr.cards || [])) if (points(x.card, trump)) cardsOf[tr.team].push(x.card);
    const known = complete && [0, 1].every((team) => cardsOf[team].reduce((s, c) => s + points(c, trump), 0) === result.captured[team]);
    // A page that did not see every trick of the hand (opened or reloaded after it) leaves the
    // point cards out: the points each team took say what is known.
    const rows = [0, 1].map((team) => {
      const cards = sortHand(cardsOf[team], trump);
      const cell = !known
        ? null
        : cards.length
          ? el(
              "ul",
              { class: "point-cards" },
              cards.map((c) => el("li", { class: "point-card" }, cardChip(c, trump), " ", el("span", { class: "pts" }, String(points(c, trump))))),
            )
          : el("span", {}, t("summary.no_points"));
      const ours = !this.spectator && team === teamOf(this.base);
      return el(
        "tr",
        { class: `${ours ? "ours" : ""}${team === bidTeam ? " bidding" : ""}`, dataset: { team: String(team) } },
        el(
          "th",
          { scope: "row" },
          this.teamNode(team),
          ...(team === bidTeam ? [" ", el("span", { class: "bid-tag" }, `(${t("summary.bid_tag", { n: result.bid })})`)] : []),
        ),
        cell ? el("td", { class: "cards-cell" }, cell) : null,
        el("td", { class: "num" }, String(result.captured[team])),
        el("td", { class: `num delta${result.delta[team] < 0 ? " minus" : ""}` }, signed(result.delta[team])),
        el("td", { class: "num" }, whole(result.scores[team])),
      );
    });
    const table = el(
      "table",
      { class: "scores hand-scores", id: "hand-scores" },
      el("caption", {}, t("summary.caption", { target: v.target, trump: this.trumpWord(trump).toLowerCase() })),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, t("summary.team")),
          known ? el("th", { scope: "col" }, t("summary.point_cards")) : null,
          el("th", { scope: "col" }, t("summary.captured")),
          el("th", { scope: "col" }, t("summary.change")),
          el("th", { scope: "col" }, t("summary.total")),
        ),
      ),
      el("tbody", {}, rows),
    );
    const made = el(
      "p",
      { class: `bid-result ${result.made ? "made" : "missed"}`, id: "bid-result" },
      el("span", { class: "bid-mark", "aria-hidden": "true" }, result.made ? "✔" : "✘"),
      " ",
      result.made
        ? t("summary.made", { team: this.teamName(bidTeam), n: result.bid, got: result.captured[bidTeam] })
        : t("summary.missed", { team: this.teamName(bidTeam), n: result.bid, got: result.captured[bidTeam] }),
    );
    const ready = this.legal("ready")[0] || null;
    const match = v.phase === "match_over";
    return {
      round: result.hand,
      headline: match
        ? t("summary.match_team", { team: this.teamName(v.winning_team ?? 0) })
        : result.made
          ? t("summary.headline.made", { who: this.host.seatName(result.bidder), n: result.bid })
          : t("summary.headline.missed", { who: this.host.seatName(result.bidder), n: result.bid }),
      details: el("div", { class: "hand-details" }, made, table),
      dealCode: result.deal_code || v.deal_code || null,
      match,
      winners: v.winners || [],
      won: !this.spectator && teamOf(this.base) === (result.made ? bidTeam : 1 - bidTeam),
      next: ready,
    };
  }
}

/**
 * What a hand is worth in the auction, from its own cards only: for each suit named trumps,
 * 10 + for each of its trumps a rank value (A 10, K 8, Q 6, J 4, any other 2) + half its points
 * (4.4) — the game's yardstick bot's estimate, which it bids up to — and the best suit.
 * @param {string[]} cards
 */
export function handWorth(cards) {
  /** @type {Record<string, number>} */
  const RANK = { A: 10, K: 8, Q: 6, J: 4 };
  let best = null;
  for (const suit of SUITS) {
    let value = 10;
    let trumps = 0;
    for (const name of cards) {
      const role = trumpRole(name, suit);
      if (role === null) continue;
      trumps += 1;
      value += (RANK[role] || 2) + points(name, suit) / 2;
    }
    if (!best || value > best.value) best = { suit, value, trumps };
  }
  return best && cards.length ? { ...best, value: Math.round(best.value) } : null;
}

/**
 * A sentence begins with a capital, also where it begins with a card's name ("spar ess blir på
 * hånden" in Norwegian, whose card names are lower case).
 * @param {string} text
 */
export function sentence(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

/** The lock drawn on a card that may not leave the hand now (page.css): decorative, its name says it. */
function lockMark() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "lock-mark");
  svg.setAttribute("viewBox", "0 0 12 14");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M3 6V4a3 3 0 0 1 6 0v2h1a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H2a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h1zm1.6 0h2.8V4a1.4 1.4 0 0 0-2.8 0v2z");
  svg.append(path);
  return svg;
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** A score as the summary writes it: a total below zero with the same minus sign as a change ("−74", never "-74"). */
/** @param {number} n */
function whole(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/**
 * Who passed trumps and how many (an exchange's `passed`, the view's `passed_counts`): [n, seat]
 * for each seat that passed any.
 * @param {number[] | null | undefined} counts
 * @returns {[number, number][]}
 */
function passedBy(counts) {
  return (counts || []).map((n, s) => /** @type {[number, number]} */ ([n, s])).filter(([n]) => n > 0);
}

/**
 * Cards laid face up (shown trumps), in short: "A♥ 5♦".
 * @param {Placed[]} placed
 */
function placedShort(placed) {
  return placed.map((x) => cardShort(x.card)).join(" ");
}
