// Moves you can see: a piece (a card, a card back, a word) that travels from where a move
// began to where it ended (a seat's box to the pile, the pile to a seat), drawn in a layer
// above the page that nothing can click or read (the move log and the caption say it in
// words). Under prefers-reduced-motion nothing travels: the caption alone says what
// happened, which is the still version of the same news.
//
// Animations use the Web Animations API (element.animate), which the Content-Security-
// Policy allows: no style attribute is ever written, only CSSOM properties.

import { prefersReducedMotion } from "./ui.js";

const FLIGHT_MS = 420;
const STAGGER_MS = 140;

export class MotionLayer {
  constructor() {
    this.node = document.createElement("div");
    this.node.className = "motion-layer";
    this.node.setAttribute("aria-hidden", "true");
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
   */
  fly(flights) {
    if (!this.enabled || !this.node.isConnected) return;
    flights.forEach((f, i) => this.flyOne(f, i * STAGGER_MS));
  }

  flyOne({ piece, from, to }, delay) {
    const a = rectOf(from);
    const b = rectOf(to);
    if (!a || !b || !piece) return;
    const holder = document.createElement("div");
    holder.className = "motion-piece";
    holder.append(piece);
    this.node.append(holder);
    const size = holder.getBoundingClientRect();
    const w = size.width || 1;
    const h = size.height || 1;
    // Centre the piece on each end; the layer is fixed, so client coordinates are its own.
    const start = `translate(${a.x + a.width / 2 - w / 2}px, ${a.y + a.height / 2 - h / 2}px) scale(0.8)`;
    const end = `translate(${b.x + b.width / 2 - w / 2}px, ${b.y + b.height / 2 - h / 2}px) scale(1)`;
    holder.style.transform = start;
    const anim = holder.animate(
      [
        { transform: start, opacity: 0.35 },
        { transform: start, opacity: 1, offset: 0.12 },
        { transform: end, opacity: 1 },
      ],
      { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.3,.7,.35,1)", fill: "both" },
    );
    this.flights.add(anim);
    const done = () => {
      this.flights.delete(anim);
      holder.remove();
    };
    anim.addEventListener("finish", done);
    anim.addEventListener("cancel", done);
  }
}

function rectOf(node) {
  if (!node || !node.isConnected) return null;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return r;
}
