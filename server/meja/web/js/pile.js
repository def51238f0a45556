// @ts-check
// A table with a pile in the middle: the part that games shedding cards onto one face-up pile
// draw alike, written once. Such a game's page module (contract.js's GameModule) builds its
// table on PileTable and keeps only what is its own: its words, its cards, its buttons and the
// reasons its view gives.
//
// What is here:
// * the centre: a face-down pile to draw from (with its count, a button that draws), the
//   card on top of the face-up pile, and the indicator of what must be followed now (a mark,
//   a colour: by shape and word), each under a label; the game names the pile to draw from
//   (its ids and classes start with that name, as its stylesheet and tests know them);
// * the seat's standing (a spectator, whose turn), the view's `legal` by kind and by card,
//   the hand as the shell draws it;
// * Draw from the pile (its button, its key or the pile itself), with the game's words for
//   why not;
// * the chooser of a mark or a colour (the dialog that counts the hand's cards of each);
// * the notice the table holds for a moment, the moves and log lines every such game has (a
//   pass, a seat out of cards, the pile to draw from rebuilt, the player's turn), and the
//   round's table of hands and points under the summary.
//
// It decides nothing about legality: all of it comes from the view, as the game reads it.

/** @typedef {import("./contract.js").Host} Host */
/** @typedef {import("./contract.js").View} View */
/** @typedef {import("./contract.js").Action} Action */
/**
 * One of the game's events as the game reads it: its `kind` and the fields its protocol gives
 * that kind (a contract GameEvent, whose fields only the game knows).
 * @typedef {{kind: string} & Record<string, any>} PileEvent
 */
/** @typedef {import("./contract.js").HandCard} HandCard */
/** @typedef {import("./contract.js").Move} Move */
/** @typedef {import("./contract.js").Summary} Summary */

/**
 * How a game draws its cards: what PileTable needs of its cards.js.
 * @typedef {object} PileCards
 * @property {(name: string) => string} name a card's spoken name
 * @property {(node: HTMLElement, name: string) => unknown} fill draws a card's face inside `node`
 * @property {(extraClass?: string) => HTMLElement} back a face-down card
 * @property {(name: string) => HTMLElement} chip a card in a line of text (the round's table)
 */

/**
 * What a game says of its centre.
 * @typedef {object} PileLayout
 * @property {string} from the name of the pile to draw from: the element ids and class names
 *   start with it (`<from>` the pile's button, `<from>-count`, `<from>-label`, `<from>-box`...),
 *   and the strings that speak of it ("table.<from>", "table.<from>.draw", "table.<from>.count")
 * @property {string} rebuilt the kind of the event that rebuilds the pile to draw from out of
 *   the face-up pile (its field `moved`: how many cards); the strings "move.<rebuilt>",
 *   "<rebuilt>.title" and "<rebuilt>.text" say it
 * @property {string} [className] the centre's classes besides "centre"
 * @property {string} [id] the centre's id
 * @property {Node[]} [beside] more under the indicator (a count that waits, say)
 */

/**
 * What follows now, for the indicator and the chooser: a mark or a colour by its letter.
 * @typedef {object} Follow
 * @property {string} key the game's word for it ("<key>-<value>" classes, the "<key>" dataset
 *   field, the strings "<key>.<value>")
 * @property {string} label the strings key of the indicator's label
 * @property {(value: string, className: string) => Element} icon its shape (decorative)
 */

/**
 * The round's table as the game says it (PileTable.roundTable).
 * @typedef {object} RoundTable
 * @property {string} caption
 * @property {(string | null)[]} columns
 * @property {string} listClass the class of a hand's list
 * @property {string} cardClass the class of a card's item in it
 * @property {(card: string) => number} points
 * @property {(seat: number, cards: string[]) => (string | null)[]} numbers
 * @property {string} headline
 * @property {string | null} dealCode
 */

export class PileTable {
  /**
   * @param {Host} host
   * @param {PileCards} cards
   * @param {PileLayout} layout
   */
  constructor(host, cards, layout) {
    this.host = host;
    this.t = host.t;
    this.cards = cards;
    /** A seat's name as the shell says it ("You", "Bot 3", the player's name). */
    this.who = (/** @type {number} */ seat) => host.seatName(seat);
    /** @type {View | null} */
    this.view = null;
    const el = host.el;
    const from = layout.from;
    this.from = from;
    this.rebuilt = layout.rebuilt;
    this.topLabel = el("p", { class: "label", id: "top-label" });
    this.topCard = el("div", { class: "top-card", id: "top-card" });
    this.fromLabel = el("span", { class: `label ${from}-label`, id: `${from}-label` });
    // Each part carries a game-free class besides the game's own: the shell's style.css lays the
    // centre out by those (section "a table with a pile in the middle"), the same for every such game.
    this.fromCount = el("span", { class: `${from}-count draw-count`, id: `${from}-count` });
    this.fromPile = el(
      "button",
      { type: "button", class: `${from}-pile draw-pile`, id: from, tabindex: "-1", onclick: () => this.draw(true) },
      el("span", { class: `${from}-cards draw-cards`, "aria-hidden": "true" }, cards.back(), cards.back(), cards.back()),
      this.fromCount,
    );
    this.indicatorLabel = el("p", { class: "label", id: "indicator-label" });
    this.indicator = el("p", { class: "indicator", id: "indicator", "aria-labelledby": "indicator-label indicator-value" });
    this.centre = el(
      "div",
      { class: `centre pile-centre ${layout.className || ""}`.trim(), id: layout.id },
      el("div", { class: `${from}-box draw-box` }, this.fromLabel, this.fromPile),
      el("div", { class: "pile" }, this.topLabel, this.topCard),
      el("div", { class: "indicator-box" }, this.indicatorLabel, this.indicator, ...(layout.beside || [])),
    );
    /** @type {object | null} the open chooser's question, so that the answer to an earlier one clears nothing */
    this.asking = null;
  }

  destroy() {
    this.host.closeChoice();
  }

  /**
   * One of the game's buttons.
   * @param {string} id
   * @param {() => unknown} onclick
   * @param {Record<string, any>} [attrs]
   * @returns {HTMLButtonElement}
   */
  button(id, onclick, attrs = {}) {
    return /** @type {HTMLButtonElement} */ (this.host.el("button", { type: "button", id, onclick, ...attrs }));
  }

  get mySeat() {
    return this.host.seat;
  }

  get spectator() {
    return this.mySeat === null || this.mySeat === undefined;
  }

  /** The view drawn last (render sets it before anything reads it). */
  get v() {
    return /** @type {View} */ (this.view);
  }

  isMyTurn() {
    const v = this.view;
    return !!v && v.phase === "play" && !this.spectator && v.turn === this.mySeat;
  }

  /**
   * The first legal action of a kind, or null.
   * @param {string} kind
   * @returns {Action | null}
   */
  legal(kind) {
    return ((this.view && this.view.legal) || []).find((/** @type {Action} */ a) => a.kind === kind) || null;
  }

  /**
   * The legal plays for each card in hand: {"<card>": [{kind, card}, ...]} (a card with a
   * choice to name has one play per choice).
   * @returns {Record<string, Action[]>}
   */
  playsByCard() {
    /** @type {Record<string, Action[]>} */
    const out = {};
    for (const a of (this.view && this.view.legal) || []) {
      if (a.kind !== "play") continue;
      (out[a.card] || (out[a.card] = [])).push(a);
    }
    return out;
  }

  // ------------------------------------------------------------------ drawing

  /**
   * The centre from the view: the labels, the top card, the pile to draw from and what follows now.
   * @param {{top: Node, count: number, canDraw: boolean, follow: Follow, value: string}} pile
   */
  renderPile(pile) {
    const t = this.t;
    const from = this.from;
    const { key, icon, label } = pile.follow;
    this.topLabel.textContent = t("table.top");
    this.fromLabel.textContent = t(`table.${from}`);
    this.indicatorLabel.textContent = t(label);
    this.topCard.replaceChildren(pile.top);
    this.fromCount.textContent = String(pile.count);
    this.fromPile.setAttribute("aria-label", t(pile.canDraw ? `table.${from}.draw` : `table.${from}.count`, { n: pile.count }));
    this.fromPile.classList.toggle("can-draw", pile.canDraw);
    this.fromPile.classList.toggle("empty", !pile.count);
    this.indicator.dataset[key] = pile.value;
    this.indicator.className = `indicator ${key}-${pile.value}`;
    this.indicator.replaceChildren(
      icon(pile.value, `${key}-icon indicator-shape`),
      this.host.el("span", { class: "indicator-word", id: "indicator-value" }, t(`${key}.${pile.value}`)),
    );
  }

  /**
   * The hand as the shell draws it (null for a spectator): a card is playable on this seat's
   * turn when `legal` has a play of it.
   * @returns {HandCard[] | null}
   */
  handFrame() {
    if (this.spectator) return null;
    const myTurn = this.isMyTurn();
    const plays = this.playsByCard();
    return (this.v.hand || []).map((/** @type {string} */ name) => ({
      id: name,
      label: this.cards.name(name),
      playable: myTurn && !!plays[name],
      face: (/** @type {HTMLElement} */ node) => this.cards.fill(node, name),
    }));
  }

  // ------------------------------------------------------------------ acting

  /** The draw this seat may make now, or null (the game's rules may say more than `legal`). @returns {Action | null} */
  drawAction() {
    return this.legal("draw");
  }

  /** Why this seat may not draw now, in words (the game's reason line). @returns {string} */
  drawRefusal() {
    return "";
  }

  /** Whether the hand takes the focus after a draw (it then holds the card drawn). */
  get focusAfterDraw() {
    return true;
  }

  /**
   * Draw: from the game's Draw button, its key, or the pile itself (fromPile: a tap on a pile
   * that does not draw says why).
   */
  draw(fromPile = false) {
    if (this.spectator) return;
    const action = this.drawAction();
    if (!action) {
      if (fromPile) this.host.say(this.drawRefusal() || this.t("reason.not_your_turn"));
      return;
    }
    if (this.focusAfterDraw) this.host.focusHand();
    this.host.act(action);
  }

  /**
   * Ask which mark or colour a card names (Escape cancels unless `cancel` is null): the
   * chooser counts the hand's cards of each. Resolves to the choice (null: cancelled or
   * closed) and whether it answers the latest question (a later one may have been asked since).
   * `actionOf(value)`: the action that choice sends, if known (a suggested one is ringed).
   * @param {{id: string, follow: Follow, values: readonly string[], counts: Record<string, number>,
   *   title: string, text: string, cancel: string | null, actionOf?: (value: string) => Action | null | undefined}} ask
   * @returns {Promise<{value: string | null, latest: boolean}>}
   */
  async chooseFollow(ask) {
    const { key, icon } = ask.follow;
    const question = {};
    this.asking = question;
    const value = await this.host.choose({
      id: ask.id,
      title: ask.title,
      text: ask.text,
      cancel: ask.cancel,
      choices: ask.values.map((s) => ({
        value: s,
        className: `${key}-choice ${key}-${s}`,
        dataset: { [key]: s },
        content: [icon(s, `${key}-icon big`), this.host.el("span", { class: `${key}-word` }, this.t(`${key}.${s}`))],
        held: ask.counts[s] || 0,
        action: (ask.actionOf && ask.actionOf(s)) || undefined,
      })),
    });
    const latest = this.asking === question;
    if (latest) this.asking = null;
    return { value: value || null, latest };
  }

  // ------------------------------------------------------------------ moves and the pause

  /**
   * A notice the table holds for a moment: a title and what happened.
   * `animated`: it moves as it comes, unless the player prefers reduced motion.
   * @param {{id: string, className: string, animated?: boolean, title: string, text: string, ms: number}} notice
   * @returns {{node: Node, ms: number}}
   */
  holdNotice(notice) {
    const el = this.host.el;
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const className = notice.animated && !still ? `${notice.className} animated` : notice.className;
    const node = el("div", { class: className, id: notice.id }, el("strong", {}, notice.title), " ", el("span", {}, notice.text));
    return { node, ms: notice.ms };
  }

  /**
   * A pass, which travels from the seat to the pile as a token.
   * @param {PileEvent} ev
   * @param {string} text
   * @returns {Move}
   */
  passMove(ev, text) {
    const t = this.t;
    return {
      seat: ev.seat,
      text,
      short: t("move.short.pass"),
      motion: { piece: this.host.el("span", { class: "pass-token" }, t("table.pass")), from: "seat", to: this.topCard },
    };
  }

  /**
   * A seat out of cards: the round is over.
   * @param {PileEvent} ev
   * @returns {Move}
   */
  outMove(ev) {
    return { seat: ev.winner, text: this.t("move.round_over", { who: this.host.seatName(ev.winner) }), short: this.t("move.short.out"), motion: null };
  }

  /**
   * The moves every such game has alike (a seat out of cards, the pile to draw from rebuilt),
   * or undefined for the game's own.
   * @param {PileEvent} ev
   * @returns {Move | undefined}
   */
  commonMove(ev) {
    if (ev.kind === "round_over") return this.outMove(ev);
    if (ev.kind === this.rebuilt) return { seat: null, text: this.t(`move.${this.rebuilt}`, { n: ev.moved }), motion: null };
    return undefined;
  }

  /**
   * The pause after the pile to draw from is rebuilt (a notice that moves as it comes), or null for another event.
   * @param {PileEvent} ev
   * @param {string} className
   * @param {number} ms
   */
  rebuiltHold(ev, className, ms) {
    if (ev.kind !== this.rebuilt) return null;
    const t = this.t;
    const text = t(`${this.rebuilt}.text`, { n: ev.moved ?? 0 });
    return this.holdNotice({ id: this.rebuilt, className, animated: true, title: t(`${this.rebuilt}.title`), text, ms });
  }

  /**
   * The log's line for the events every such game says alike (the player's turn), or undefined.
   * @param {PileEvent} ev
   * @returns {string | null | undefined}
   */
  commonLine(ev) {
    if (ev.kind === "turn") return ev.seat === this.mySeat ? this.t("log.turn_you") : null;
    if (ev.kind === "match_over") return this.t("log.match_over");
    return undefined;
  }

  // ------------------------------------------------------------------ the round summary

  /**
   * The round's result under its banner (null while the round is on): the table of each
   * seat's cards and numbers, the headline, the deal and "Next round".
   * @returns {Summary | null}
   */
  summary() {
    const v = this.view;
    const over = !!v && (v.phase === "round_over" || v.phase === "match_over");
    if (!over || !v || !v.last_round) return null;
    return this.summaryFrame(v.last_round, this.roundTable(v.last_round));
  }

  /**
   * What the game's table of the round says. Each card of a hand is listed with its points
   * (`points`); `numbers` are a row's columns after the hand, `columns` the heads of all
   * (null: a column this table does not have).
   * @param {Record<string, any>} result the view's `last_round`
   * @returns {RoundTable}
   */
  roundTable(result) {
    throw new Error(`a pile table says its round's table (round ${result.round})`);
  }

  /**
   * @param {Record<string, any>} result
   * @param {RoundTable} round
   * @returns {Summary}
   */
  summaryFrame(result, round) {
    const v = this.v;
    const el = this.host.el;
    const t = this.t;
    const rows = [];
    for (let i = 0; i < v.seats; i++) {
      /** @type {string[]} */
      const cards = (result.hands || [])[i] || [];
      const cells = cards.length
        ? cards.map((c) => el("li", { class: round.cardClass }, this.cards.chip(c), el("span", { class: "pts" }, String(round.points(c)))))
        : [el("li", { class: "went-out" }, i === result.winner ? t("summary.out") : t("summary.none"))];
      rows.push(
        el(
          "tr",
          { dataset: { seat: i }, class: i === result.winner ? "winner" : "" },
          el("th", { scope: "row" }, this.host.seatName(i)),
          el("td", {}, el("ul", { class: round.listClass }, cells)),
          round.numbers(i, cards).map((n) => (n === null ? null : el("td", { class: "num" }, n))),
        ),
      );
    }
    const scoreTable = el(
      "table",
      { class: "scores", id: "scores" },
      el("caption", {}, round.caption),
      el("thead", {}, el("tr", {}, round.columns.map((c) => (c === null ? null : el("th", { scope: "col" }, c))))),
      el("tbody", {}, rows),
    );
    return {
      round: result.round,
      headline: round.headline,
      won: result.winner === this.mySeat,
      details: el("div", { class: "round-details" }, scoreTable),
      dealCode: round.dealCode,
      match: v.phase === "match_over",
      winners: v.winners || [],
      next: this.legal("ready"),
    };
  }
}
