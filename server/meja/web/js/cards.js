// Cards as the client shows them: parsing the server's card names ("QH", "10C", "8H.2"),
// spoken names ("Queen of hearts"), and the four suit shapes.
//
// crazy-eights.md 1.9.4: ranks are real text (they scale and screen readers read them),
// and the suits are four distinct shapes (the <symbol>s in index.html), so the table reads
// in black and white; colour (red hearts and diamonds) is only a second cue.

import { t } from "./strings.js";

export const SUITS = ["S", "H", "D", "C"];
const SVG_NS = "http://www.w3.org/2000/svg";

/** {rank, suit, deck} from "QH", "10C" or "8H.2" (the second deck's copy in two-deck games). */
export function parseCard(name) {
  const m = /^(10|[2-9AJQK])([SHDC])(?:\.(\d))?$/.exec(name);
  if (!m) return { rank: "?", suit: "S", deck: 1 };
  return { rank: m[1], suit: m[2], deck: m[3] ? Number(m[3]) : 1 };
}

/** "Queen of hearts" (English), "Ratu Hati" (Indonesian). */
export function cardName(name) {
  const c = parseCard(name);
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${c.suit}`) });
}

/** crazy-eights.md 1.6.2: 8 = 50, J/Q/K = 10, A = 1, the rest their number. */
export function penalty(name) {
  const r = parseCard(name).rank;
  if (r === "8") return 50;
  if (r === "J" || r === "Q" || r === "K") return 10;
  if (r === "A") return 1;
  return Number(r);
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/** An <svg> showing a suit's shape (decorative: the word or card name carries the meaning). */
export function suitIcon(suit, className = "suit-icon") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", `${className} suit-${suit}`);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.dataset.suit = suit;
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/** The face of a card: the rank as text and the suit's shape, inside `el`. */
export function fillCardFace(el, name) {
  const c = parseCard(name);
  el.classList.add("card-face", isRed(c.suit) ? "red" : "black");
  el.dataset.card = name;
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = c.rank;
  corner.append(rank, suitIcon(c.suit, "suit-icon small"));
  el.append(corner, suitIcon(c.suit, "suit-icon pip"));
  return el;
}

/** A non-interactive card picture with its name for screen readers (top card, summaries). */
export function cardImage(name, extraClass = "") {
  const el = document.createElement("span");
  el.className = `card ${extraClass}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(name));
  fillCardFace(el, name);
  return el;
}

/** A short inline label for a card ("Q♥" as text and shape), for the summary and log. */
export function cardChip(name) {
  const c = parseCard(name);
  const el = document.createElement("span");
  el.className = `chip ${isRed(c.suit) ? "red" : "black"}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(name));
  const rank = document.createElement("span");
  rank.textContent = c.rank;
  rank.setAttribute("aria-hidden", "true");
  el.append(rank, suitIcon(c.suit, "suit-icon inline"));
  return el;
}
