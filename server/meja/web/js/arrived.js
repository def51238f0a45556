// @ts-check
// The cards that just came into the hand (a draw, cards dealt to one seat in play, a swap): marked in
// the hand until the hand changes again, so that a player sees which card arrived without
// reading the move log. The shell tells by comparing the hand with the one drawn before it,
// card ids counted (a deck may hold two of a card), so it works for any game. A new round's
// deal, and the first hand a page draws, mark nothing: every card is new then.

import { el } from "./ui.js";

export class ArrivedCards {
  constructor() {
    /** The hand's ids as last drawn, counted. @type {Map<string, number> | null} */
    this.last = null;
    /** @type {unknown} */
    this.round = undefined;
    /** id -> how many of it arrived. @type {Map<string, number>} */
    this.marks = new Map();
  }

  /**
   * ids: the hand's card ids now; round: the frame's round; dealt: the frame's events dealt anew
   * (a rematch's first round may have the number the last match ended on). Returns the marks
   * (id -> count).
   * @param {string[]} ids
   * @param {unknown} round
   * @param {boolean} [dealt]
   */
  update(ids, round, dealt = false) {
    const now = counted(ids);
    if (this.last === null || dealt || round !== this.round) {
      this.marks = new Map();
    } else if (!sameCounts(now, this.last)) {
      this.marks = new Map();
      for (const [id, n] of now) {
        const more = n - (this.last.get(id) || 0);
        if (more > 0) this.marks.set(id, more);
      }
    }
    this.last = now;
    this.round = round;
    return this.marks;
  }

  /**
   * Mark the hand's buttons: class `arrived`, a dot (a decorative child), and `describedBy` said after the card's name.
   * @param {HTMLElement[]} buttons
   * @param {string} describedBy
   */
  paint(buttons, describedBy) {
    const left = new Map(this.marks);
    for (const b of buttons) {
      const card = b.dataset.card || "";
      const n = left.get(card) || 0;
      b.classList.toggle("arrived", n > 0);
      for (const mark of b.querySelectorAll(":scope > .arrived-mark")) mark.remove();
      if (n > 0) {
        left.set(card, n - 1);
        b.setAttribute("aria-describedby", describedBy);
        b.append(el("span", { class: "arrived-mark", "aria-hidden": "true" }));
      } else if (b.getAttribute("aria-describedby") === describedBy) {
        b.removeAttribute("aria-describedby");
      }
    }
  }
}

/** @param {string[]} ids */
function counted(ids) {
  /** @type {Map<string, number>} */
  const out = new Map();
  for (const id of ids) out.set(id, (out.get(id) || 0) + 1);
  return out;
}

/**
 * @param {Map<string, number>} a
 * @param {Map<string, number>} b
 */
function sameCounts(a, b) {
  if (a.size !== b.size) return false;
  for (const [id, n] of a) if (b.get(id) !== n) return false;
  return true;
}
