// @ts-check
// Moves you can see: a piece (a card, a card back, a word) that travels from where a move
// began to where it ended (a seat's box to the pile, the pile to a seat), drawn in a layer
// above the page that nothing can click or read (the move log and the caption say it in
// words). Under prefers-reduced-motion nothing travels: the caption alone says what
// happened, which is the still version of the same news.
//
// A piece never hides what the player must read: the page names the text to keep readable
// (the caption, the turn line, the seats' words) and the piece is drawn faint (OVER_TEXT) while
// its path lies over any of it, at full strength elsewhere, and it fades into the place it lands
// on (the same card is drawn there already; a bid lands on the contract's words). We chose this
// over passing under the captions (white words over a white card read as nothing) and over a
// shorter path (the piece would no longer say where the move came from).
//
// Animations use the Web Animations API (element.animate), which the Content-Security-
// Policy allows: no style attribute is ever written, only CSSOM properties.

import { prefersReducedMotion } from "./ui.js";

const FLIGHT_MS = 420;
const STAGGER_MS = 140;
/** The piece's opacity while it lies over words to read. */
const OVER_TEXT = 0.3;
/** Where along its path a piece is looked at (its opacity set for each place). */
const STEPS = 24;
/** The part of the path at whose end the piece has faded into its place. */
const LANDING = 0.2;
/** The part of the flight the piece waits at its start, appearing. */
const APPEAR = 0.12;

/** A box on the screen. @typedef {{left: number, right: number, top: number, bottom: number}} Box */
/** One piece's travel. @typedef {{piece: Node | null, from: Element | null, to: Element | null}} Flight */

export class MotionLayer {
  constructor() {
    this.node = document.createElement("div");
    this.node.className = "motion-layer";
    this.node.setAttribute("aria-hidden", "true");
    /** @type {Set<Animation>} */
    this.flights = new Set();
  }

  /** Whether pieces travel at all (the player has not asked for less motion). */
  get enabled() {
    return !prefersReducedMotion();
  }

  /** Finish every flight at once (a new screen, a language switch). */
  clear() {
    for (const anim of this.flights) anim.finish();
    this.flights.clear();
    this.node.replaceChildren();
  }

  /**
   * flights: [{piece: Node, from: Element, to: Element}], flown one after another with a
   * short stagger. Elements that are not on the screen (hidden, detached) are skipped.
   * readable: the elements whose words a piece must not hide (but its own start and end).
   * @param {Flight[]} flights
   * @param {Element[]} [readable]
   */
  fly(flights, readable = []) {
    if (!this.enabled || !this.node.isConnected) return;
    flights.forEach((f, i) => this.flyOne(f, i * STAGGER_MS, readable));
  }

  /**
   * @param {Flight} flight
   * @param {number} delay
   * @param {Element[]} readable
   */
  flyOne({ piece, from, to }, delay, readable) {
    const a = rectOf(from);
    const b = rectOf(to);
    if (!a || !b || !piece) return;
    const words = readable.filter((e) => e !== from && e !== to && !(e.contains && (e.contains(from) || e.contains(to))));
    const boxes = /** @type {DOMRect[]} */ (words.map(wordsOf).filter(Boolean));
    const holder = document.createElement("div");
    holder.className = "motion-piece";
    holder.append(piece);
    this.node.append(holder);
    const size = holder.getBoundingClientRect();
    const w = size.width || 1;
    const h = size.height || 1;
    // Centre the piece on each end; the layer is fixed, so client coordinates are its own. The
    // path is drawn as STEPS places (the timing's easing moves the piece along them), each with
    // the opacity of what lies under it: faint over words, at its strongest elsewhere, fading as
    // it lands. A place next to one over words is faint too, so that no moment between two
    // places shows the piece strong over them.
    /** @param {number} p */
    const place = (p) => {
      const x = a.x + a.width / 2 + (b.x + b.width / 2 - (a.x + a.width / 2)) * p;
      const y = a.y + a.height / 2 + (b.y + b.height / 2 - (a.y + a.height / 2)) * p;
      const s = 0.8 + 0.2 * p;
      return { x, y, s, box: { left: x - (w * s) / 2, right: x + (w * s) / 2, top: y - (h * s) / 2, bottom: y + (h * s) / 2 } };
    };
    const places = Array.from({ length: STEPS + 1 }, (_, i) => place(i / STEPS));
    const over = places.map((q) => boxes.some((r) => meets(q.box, r)));
    const frames = places.map((q, i) => {
      const faint = over[i] || over[i - 1] || over[i + 1];
      const p = i / STEPS;
      const landing = p > 1 - LANDING ? (1 - p) / LANDING : 1;
      return {
        transform: `translate(${q.x - w / 2}px, ${q.y - h / 2}px) scale(${q.s})`,
        opacity: Math.min(faint ? OVER_TEXT : 1, landing),
        offset: APPEAR + (1 - APPEAR) * p,
      };
    });
    const first = { ...frames[0], opacity: Math.min(0.35, frames[0].opacity), offset: 0 };
    holder.style.transform = first.transform;
    const anim = holder.animate([first, ...frames], {
      duration: FLIGHT_MS,
      delay,
      easing: "cubic-bezier(.3,.7,.35,1)",
      fill: "both",
    });
    this.flights.add(anim);
    const done = () => {
      this.flights.delete(anim);
      holder.remove();
    };
    anim.addEventListener("finish", done);
    anim.addEventListener("cancel", done);
  }
}

/**
 * @param {Box} p
 * @param {Box} r
 */
function meets(p, r) {
  return p.left < r.right && p.right > r.left && p.top < r.bottom && p.bottom > r.top;
}

/**
 * The box of an element's words (a caption's line is as wide as the table, its words are not).
 * @param {Element | null} node
 */
function wordsOf(node) {
  if (!node || !node.isConnected || node.closest("[hidden]")) return null;
  const range = document.createRange();
  range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  return r.width && r.height ? r : null;
}

/** @param {Element | null} node */
function rectOf(node) {
  if (!node || !node.isConnected) return null;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return r;
}
