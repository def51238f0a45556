// @ts-check
// Crazy Eights' cards as the page shows them: parsing the server's card names ("QH", "10C",
// "8H.2"), spoken names ("Queen of hearts"), and the four suit shapes.
//
// docs/rules/crazy-eights.md 1.9.4: ranks are real text (they scale and screen readers read them),
// and the suits are four distinct shapes (the <symbol>s that addSuitShapes puts in the
// page once), so the table reads in black and white; colour (red hearts and diamonds) is
// only a second cue.

import { MARKS, MARK_SHAPES, cardBack, cardPicture, isRed, readCard, shortName } from "/js/deck.js";
import { addShapes, shapeIcon } from "/js/shapes.js";

export { cardBack, isRed };

/** The strings lookup of the page (host.t): set once by page.js before anything is drawn. @type {import("/js/contract.js").Text} */
let t = (key) => key;
/** @param {import("/js/contract.js").Text} lookup */
export function useText(lookup) {
  t = lookup;
}

export const SUITS = MARKS;

/** Put the suit shapes (the standard deck's, /js/deck.js) in the page once, as <symbol>s that every suit icon uses by reference. */
export function addSuitShapes(doc = document) {
  addShapes("suit", MARK_SHAPES, doc);
}

/**
 * {rank, suit} from "QH", "10C" or "8H.2" (the second deck's copy in two-deck games).
 * @param {string} name
 */
export function parseCard(name) {
  const c = readCard(name);
  return c ? { rank: c.rank, suit: c.mark } : { rank: "?", suit: /** @type {import("/js/deck.js").Mark} */ ("S") };
}

/**
 * "Queen of hearts" (English), "Queen hati" (Indonesian): the deck's words (/js/deck.js).
 * @param {string} name
 */
export function cardName(name) {
  const c = parseCard(name);
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${c.suit}`) });
}

/**
 * docs/rules/crazy-eights.md 1.6.2: 8 = 50, J/Q/K = 10, A = 1, the rest their number.
 * @param {string} name
 */
export function penalty(name) {
  const r = parseCard(name).rank;
  if (r === "8") return 50;
  if (r === "J" || r === "Q" || r === "K") return 10;
  if (r === "A") return 1;
  return Number(r);
}

/**
 * An <svg> showing a suit's shape (decorative: the word or card name carries the meaning).
 * @param {string} suit
 */
export function suitIcon(suit, className = "suit-icon") {
  const svg = shapeIcon("suit", suit, `${className} suit-${suit}`);
  svg.dataset.suit = suit;
  return svg;
}

/**
 * The face of a card: the rank as text and the suit's shape, inside `el`.
 * @template {HTMLElement} E
 * @param {E} el
 * @param {string} name
 * @returns {E}
 */
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

/**
 * A non-interactive card picture with its name for screen readers (top card, summaries).
 * @param {string} name
 * @param {string} [extraClass]
 */
export function cardImage(name, extraClass = "") {
  return fillCardFace(cardPicture(cardName(name), extraClass), name);
}

/**
 * "8♠", "10♥", "Q♣": a card in a few characters (the suits' signs), for the caption by the pile and the seats' last moves.
 * @param {string} name
 */
export function cardShort(name) {
  const c = parseCard(name);
  return shortName(c.rank, c.suit);
}

/**
 * A short inline label for a card ("Q♥" as text and shape), for the summary and log.
 * @param {string} name
 */
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

/**
 * This folder's page module (page.js) is a game module of the page's contract (/js/contract.js):
 * `make lint`'s type check fails here when its exports stop fitting the contract.
 * @template {import("/js/contract.js").GameModule} M
 * @typedef {M} Fits
 */
/** @typedef {Fits<typeof import("./page.js")>} PageModule */
