// Crazy Eights' cards as the page shows them: parsing the server's card names ("QH", "10C",
// "8H.2"), spoken names ("Queen of hearts"), and the four suit shapes.
//
// docs/rules/crazy-eights.md 1.9.4: ranks are real text (they scale and screen readers read them),
// and the suits are four distinct shapes (the <symbol>s that addSuitShapes puts in the
// page once), so the table reads in black and white; colour (red hearts and diamonds) is
// only a second cue.

import { addShapes, shapeIcon } from "/js/shapes.js";

/** The strings lookup of the page (host.t): set once by page.js before anything is drawn. */
let t = (key) => key;
export function useText(lookup) {
  t = lookup;
}

export const SUITS = ["S", "H", "D", "C"];

// The four suit shapes: spade, heart, diamond and club are different silhouettes.
const SHAPES = {
  S: [["path", { d: "M50 4C38 22 10 38 10 60c0 13 10 22 22 22 7 0 12-3 15-7l-5 21h16l-5-21c3 4 8 7 15 7 12 0 22-9 22-22C90 38 62 22 50 4z" }]],
  H: [["path", { d: "M50 92C22 68 6 52 6 32 6 17 17 7 30 7c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 25 0 20-16 36-44 60z" }]],
  D: [["path", { d: "M50 3 86 50 50 97 14 50z" }]],
  C: [
    ["circle", { cx: "50", cy: "27", r: "20" }],
    ["circle", { cx: "27", cy: "58", r: "20" }],
    ["circle", { cx: "73", cy: "58", r: "20" }],
    ["path", { d: "M44 50h12l6 46H38z" }],
  ],
};

/** Put the suit shapes in the page once, as <symbol>s that every suit icon uses by reference. */
export function addSuitShapes(doc = document) {
  addShapes("suit", SHAPES, doc);
}

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

/** docs/rules/crazy-eights.md 1.6.2: 8 = 50, J/Q/K = 10, A = 1, the rest their number. */
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
  const svg = shapeIcon("suit", suit, `${className} suit-${suit}`);
  svg.dataset.suit = suit;
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

/** The suits' signs, for short text such as a caption ("8♠"): four distinct shapes, as the cards' own. */
const SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** "8♠", "10♥", "Q♣": a card in a few characters, for the caption by the pile and the seats' last moves. */
export function cardShort(name) {
  const c = parseCard(name);
  return `${c.rank}${SIGNS[c.suit]}`;
}

/** A face-down card (the stock, a card another seat drew): decorative, the words say what it is. */
export function cardBack(extraClass = "") {
  const el = document.createElement("span");
  el.className = `card back ${extraClass}`.trim();
  el.setAttribute("aria-hidden", "true");
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
