// @ts-check
// The hand widget: the player's cards as one toolbar, one tab stop (a roving tabindex).
// Arrows and Home/End move between cards, Enter or Space (a button's own keys) chooses
// one. The game says what each card is (its id, its spoken name, whether it may be played
// now, how its face looks); choosing one is the game's to answer (HandWidget.onChoose).
//
// The hand is a fan on one line: when the cards do not fit side by side, each overlaps the
// one before it by just enough that all fit, so the hand does not wrap (the table does not
// grow or jump as cards come and go) and every card's top-left corner (where a game draws
// its index, its `.corner`) stays in view. The card under the pointer or the keyboard comes to
// the front. A hand so big that a card would show less than its whole index, or less than half
// of itself (its centre covered: a finger aiming at the middle of a card hits its neighbour),
// fans on two rows, or more, of equal length (a hand of 17 on a phone: two rows of 9 and 8, "10"
// whole on every card). Where a usual hand (RESERVE_CARDS) takes two rows, the hand keeps the
// room of two rows from its first card, so that nothing under it moves when a draw adds a row;
// a game that knows the most cards the hand can hold before it is dealt again (`most`: a hand
// that only sheds, as in a game's last phase) has the room kept only where that many take two
// rows: a short hand that cannot grow shows no empty row.

import { el } from "./ui.js";

const GAP_PX = 6;
const MIN_STRIP_PX = 16;
/** What a card shows at least, besides its index: more than half of itself, so its centre is its own. */
const CENTRE_MARGIN_PX = 2;
/** A hand this long is usual (a few draws): where it takes two rows, the hand keeps their room. */
const RESERVE_CARDS = 12;

// The focus ring is for the keyboard: the page moves the focus to the hand by itself (a resume, a
// move made, a dialog closed), and after a tap or a click, or before any input, that card gets no
// ring (a touch screen showed a heavy ring on the first card after a resume).
let keyboardLast = false;
addEventListener("keydown", () => { keyboardLast = true; }, true);
addEventListener("pointerdown", () => { keyboardLast = false; }, true);

/**
 * Focus a card the page chose (not the player's arrow keys): ringed only if the keyboard was used
 * last, and without scrolling: the page does not jump to the hand (a panel just brought into view
 * under it, a challenged hand, stayed there).
 * @param {HTMLElement} button
 */
function focusCard(button) {
  button.focus(/** @type {FocusOptions} */ ({ focusVisible: keyboardLast, preventScroll: true }));
}

export class HandWidget {
  /**
   * labelledBy: the id of the hand's heading; onChoose(id): a card was chosen; emptyText(): what an empty hand says.
   * @param {{labelledBy: string, onChoose: (id: string) => void, emptyText: () => string}} parts
   */
  constructor({ labelledBy, onChoose, emptyText }) {
    this.onChoose = onChoose;
    this.emptyText = emptyText;
    this.focusIndex = 0;
    this.focusWanted = false;
    /** The most cards the hand can hold before the next deal, if the game says. @type {number | null} */
    this.most = null;
    /** @type {ResizeObserver | undefined} */
    this.resizer = undefined;
    /** The card whose size the resizer watches. @type {HTMLElement | undefined} */
    this.watched = undefined;
    this.node = el("div", {
      class: "hand",
      id: "hand",
      role: "toolbar",
      "aria-labelledby": labelledBy,
      "aria-orientation": "horizontal",
    });
    this.node.addEventListener("keydown", (ev) => this.onKey(ev));
    this.node.addEventListener("click", (ev) => this.onClick(ev));
    this.node.addEventListener("focusin", (ev) => {
      const i = this.buttons().indexOf(/** @type {HTMLButtonElement} */ (ev.target));
      if (i >= 0) this.setRoving(i);
    });
    if (typeof ResizeObserver === "function") {
      this.resizer = new ResizeObserver(() => this.fan());
      this.resizer.observe(this.node);
    }
  }

  destroy() {
    if (this.resizer) this.resizer.disconnect();
  }

  /** @returns {HTMLButtonElement[]} */
  buttons() {
    return Array.from(this.node.querySelectorAll("button.card"));
  }

  /** Focus the hand when it is next drawn (after the player's own move). */
  wantFocus() {
    this.focusWanted = true;
  }

  /**
   * cards: [{id, label, playable, face(button)}], in the order the game shows them; most: the most
   * cards this hand can hold before the next deal, if the game knows it (else RESERVE_CARDS is
   * taken as a usual hand's size).
   * @param {import("./contract.js").HandCard[]} cards
   * @param {number | null} [most]
   */
  set(cards, most = null) {
    this.most = typeof most === "number" && Number.isInteger(most) ? Math.max(most, cards.length) : null;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const hadFocus = this.node.contains(active);
    const focusedId = hadFocus && active ? active.dataset.card : null;
    const buttons = cards.map((card) => {
      const b = el("button", {
        type: "button",
        class: `card${card.playable ? " playable" : ""}`,
        "aria-label": card.label,
        "aria-disabled": card.playable ? null : "true",
        tabindex: "-1",
      });
      if (card.face) card.face(b);
      b.dataset.card = card.id;
      return b;
    });
    if (!buttons.length) {
      this.node.replaceChildren(el("p", { class: "hint hand-empty" }, this.emptyText()));
      return;
    }
    this.node.replaceChildren(...buttons);
    // Some cards may be chosen now: the others are drawn locked (style.css).
    this.node.classList.toggle("choosing", cards.some((card) => card.playable));
    // A card's size changes with the text size (the player's setting): the fan follows it too.
    if (this.resizer) {
      if (this.watched) this.resizer.unobserve(this.watched);
      this.watched = buttons[0];
      this.resizer.observe(this.watched);
    }
    this.fan();
    let index = focusedId ? buttons.findIndex((b) => b.dataset.card === focusedId) : -1;
    if (index < 0) index = Math.min(this.focusIndex, buttons.length - 1);
    this.setRoving(index);
    if (hadFocus || this.focusWanted) {
      this.focusWanted = false;
      focusCard(buttons[index]);
    }
  }

  /** Overlap the cards just enough that they fit the hand's width: on one line, or on as
   * few rows of equal length as keep MIN_STRIP_PX of every card in view. */
  fan() {
    const buttons = this.buttons();
    const n = buttons.length;
    for (const gap of this.node.querySelectorAll(".hand-break")) gap.remove();
    for (const b of buttons) b.classList.remove("row-start");
    if (!n) return;
    const width = this.node.clientWidth - 8; // the hand's padding and the raised card's outline
    const card = buttons[0].offsetWidth;
    if (!width || !card) return;
    /** @param {number} k */
    const stepFor = (k) => (k > 1 && k * card + (k - 1) * GAP_PX > width ? (width - k * card) / (k - 1) : GAP_PX);
    const strip = Math.min(card, Math.max(MIN_STRIP_PX, this.indexWidth(buttons), Math.ceil(card / 2) + CENTRE_MARGIN_PX));
    let rows = 1;
    while (rows < n && card + Math.min(GAP_PX, stepFor(Math.ceil(n / rows))) < strip) rows++;
    const perRow = Math.ceil(n / rows);
    for (let i = perRow; i < n; i += perRow) {
      buttons[i].classList.add("row-start");
      buttons[i].before(el("span", { class: "hand-break", "aria-hidden": "true" }));
    }
    // Where a hand of RESERVE_CARDS (or of the game's `most`) would need two rows (a phone), the
    // hand keeps room for two from the start: it does not grow (and push what is under it down)
    // when a draw adds the row.
    const usual = this.most ?? RESERVE_CARDS;
    const twoRows = rows > 1 || usual * card + (usual - 1) * (strip - card) > width;
    const style = getComputedStyle(this.node);
    const pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const height = buttons[0].offsetHeight;
    // (two rows lie three lines apart in the flex box: the break between them is a line of its own)
    this.node.style.setProperty("--hand-least", twoRows ? `${Math.ceil(pad + 2 * height + 2 * (parseFloat(style.rowGap) || 0))}px` : "0px");
    const overlap = perRow > 1 ? Math.min(GAP_PX, stepFor(perRow)) : 0;
    this.node.style.setProperty("--fan-step", `${Math.floor(overlap)}px`);
    this.node.classList.toggle("fanned", overlap < 0);
    this.node.classList.toggle("rows", rows > 1);
  }

  /**
   * How much of a card, from its left edge, its index takes (the widest `.corner` of the hand), plus a little air.
   * @param {HTMLElement[]} buttons
   */
  indexWidth(buttons) {
    let widest = 0;
    for (const b of buttons) {
      /** @type {HTMLElement | null} */
      const corner = b.querySelector(".corner");
      if (!corner) continue;
      widest = Math.max(widest, corner.offsetLeft + corner.offsetWidth);
    }
    return widest ? widest + 3 : 0;
  }

  /** @param {number} index */
  setRoving(index) {
    this.focusIndex = index;
    this.buttons().forEach((b, i) => {
      b.tabIndex = i === index ? 0 : -1;
    });
  }

  /** Put the focus back on the hand's current card; false if the hand is empty. */
  restoreFocus() {
    const buttons = this.buttons();
    if (!buttons.length || this.node.closest("[hidden]")) return false;
    focusCard(buttons[Math.min(this.focusIndex, buttons.length - 1)]);
    return true;
  }

  /** @param {KeyboardEvent} ev */
  onKey(ev) {
    const buttons = this.buttons();
    const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
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

  /** @param {MouseEvent} ev */
  onClick(ev) {
    const target = /** @type {Element | null} */ (ev.target);
    /** @type {HTMLButtonElement | null} */
    const button = target && target.closest("button.card");
    if (!button) return;
    const i = this.buttons().indexOf(button);
    if (i >= 0) this.setRoving(i);
    this.onChoose(button.dataset.card || "");
  }
}
