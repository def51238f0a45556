// @ts-check
// Eighty-Three's cards as the page shows them: the server's card names ("QH", "10C", the
// joker "JK"), their spoken names, the four suit shapes, and what makes a card a trump.
//
// The ranks are real text and the suits four distinct shapes (the <symbol>s addSuitShapes
// puts in the page once), so the table reads in black and white; red is only a second cue.
// A trump carries a mark of its own (the trump suit's shape in a ribbon, and "trump" in its
// spoken name), so the joker and the left pedro (the five of the other suit of the trumps'
// colour, docs/rules/eighty-three.md 4.3.1) read as trumps at a glance, not as a card of their print.
//
// What is a trump and what a trump scores is said here only to show it (4.3, 4.4: the
// PROTOCOL.md beside this folder, section 2): the server alone decides what may be played.

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
export const JOKER = "JK";

/** The standard deck's suit shapes (/js/deck.js) and the joker's: a five-pointed star, a shape no suit has. */
/** @type {Record<string, import("/js/shapes.js").Shape>} */
const SHAPES = { ...MARK_SHAPES, J: [["path", { d: "M50 4 61 37h35L68 58l11 34-29-21-29 21 11-34L4 37h35z" }]] };

/** The suit named trumps, if any (a suit's letter). @typedef {string | null | undefined} Trump */

/** Put the suit shapes in the page once (under this game's own ids: the joker's star is among them). */
export function addSuitShapes(doc = document) {
  addShapes("e83-shape", SHAPES, doc);
}

/**
 * {rank, suit} from "QH", "10C"; the joker is {rank: "JK", suit: null}.
 * @param {string} name
 * @returns {{rank: string, suit: import("/js/deck.js").Mark | null}}
 */
export function parseCard(name) {
  if (name === JOKER) return { rank: "JK", suit: null };
  const c = readCard(name);
  return c ? { rank: c.rank, suit: c.mark } : { rank: "?", suit: "S" };
}

/** @type {Record<string, import("/js/deck.js").Mark>} */
const OFF_SUIT = { S: "C", C: "S", H: "D", D: "H" };

/**
 * The other suit of the same colour (4.3.1): spades and clubs, hearts and diamonds.
 * @param {string} suit
 */
export function offSuit(suit) {
  return OFF_SUIT[suit];
}

/**
 * The card's place in the trump ranking (4.3.3) under `trump`, or null for a plain card.
 * @param {string} name
 * @param {Trump} trump
 * @returns {string | null}
 */
export function trumpRole(name, trump) {
  if (!trump) return null;
  const c = parseCard(name);
  if (c.rank === "JK") return "JK";
  if (c.suit === trump) return c.rank;
  if (c.rank === "5" && c.suit === offSuit(trump)) return "left 5";
  return null;
}

/**
 * @param {string} name
 * @param {Trump} trump
 */
export function isTrump(name, trump) {
  return trumpRole(name, trump) !== null;
}

/** 4.4: the point table (only trumps score; 83 in all). The server's POINT_TABLE is the one that counts. */
/** @type {Record<string, number>} */
const POINTS = { A: 1, K: 30, J: 1, 10: 10, 9: 9, 5: 5, "left 5": 5, 3: 3, 2: 1, JK: 18 };

/**
 * What a card scores when `trump` is named (0 for every plain card).
 * @param {string} name
 * @param {Trump} trump
 */
export function points(name, trump) {
  const role = trumpRole(name, trump);
  return role === null ? 0 : POINTS[role] || 0;
}

/** 4.3.3: the trumps high to low. */
const TRUMP_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "left 5", "4", "3", "2", "JK"];
const PLAIN_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

/**
 * The hand as the page lays it out: once trumps are named, the trumps first, high to low
 * (the left pedro and the joker among them), then each plain suit high to low; before that,
 * suit by suit, high to low, the joker last.
 * @param {Iterable<string>} cards
 * @param {Trump} trump
 */
export function sortHand(cards, trump) {
  /** @param {string} name */
  const key = (name) => {
    const role = trumpRole(name, trump);
    if (role !== null) return [0, TRUMP_ORDER.indexOf(role)];
    const c = parseCard(name);
    if (c.suit === null) return [5, 0];
    return [1 + SUITS.indexOf(c.suit), PLAIN_ORDER.indexOf(c.rank)];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/**
 * "Queen of hearts", "Joker": the deck's words (/js/deck.js), and the joker's.
 * @param {string} name
 */
export function cardName(name) {
  const c = parseCard(name);
  if (c.suit === null) return t("card.joker");
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${c.suit}`) });
}

/**
 * The spoken name with its trump role and points: "5 of diamonds, trump (left pedro), 5 points".
 * @param {string} name
 * @param {Trump} trump
 */
export function cardLabel(name, trump) {
  const role = trumpRole(name, trump);
  if (role === null) return cardName(name);
  const n = points(name, trump);
  const what = role === "left 5" ? t("card.left_pedro") : role === "JK" ? t("card.trump_joker") : t("card.trump");
  return n ? t("card.label.points", { card: cardName(name), what, n }) : t("card.label", { card: cardName(name), what });
}

/**
 * An <svg> of a suit's shape (or the joker's star): decorative, the words carry the meaning.
 * @param {string | null | undefined} suit
 */
export function suitIcon(suit, className = "suit-icon") {
  const shape = suit || "J";
  const svg = shapeIcon("e83-shape", shape, `${className} suit-${shape}`);
  svg.dataset.suit = shape;
  return svg;
}

/**
 * The face of a card inside `node`: rank and suit shape, and a trump's ribbon under `trump`.
 * @template {HTMLElement} E
 * @param {E} node
 * @param {string} name
 * @param {Trump} trump
 * @returns {E}
 */
export function fillCardFace(node, name, trump) {
  const c = parseCard(name);
  const joker = c.rank === "JK";
  node.classList.add("card-face", joker ? "joker" : isRed(c.suit) ? "red" : "black");
  node.dataset.card = name;
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  // The joker's index is a star; its word is on its face (a button's visible words are in its name).
  rank.textContent = joker ? "" : c.rank; // the joker's star is drawn by the style sheet
  corner.append(rank);
  if (!joker) corner.append(suitIcon(c.suit, "suit-icon small"));
  if (joker) {
    const word = document.createElement("span");
    word.className = "joker-word";
    word.textContent = t("card.joker");
    node.append(corner, word);
  } else {
    node.append(corner, suitIcon(c.suit, "suit-icon pip"));
  }
  const role = trumpRole(name, trump);
  if (role !== null) {
    node.classList.add("trump");
    if (role === "left 5" || role === "JK") node.classList.add("special-trump");
    // The ribbon: the trump suit's shape, so a left pedro or the joker reads "trump" by shape.
    const ribbon = document.createElement("span");
    ribbon.className = `trump-ribbon${isRed(trump) ? " red" : ""}`;
    ribbon.setAttribute("aria-hidden", "true");
    ribbon.append(suitIcon(trump, "suit-icon tiny"));
    // What it scores, drawn by the style sheet from data-points: the card's spoken name says it in words.
    const n = points(name, trump);
    if (n) ribbon.dataset.points = String(n);
    node.append(ribbon);
  }
  return node;
}

/**
 * A non-interactive card picture with its spoken name (the trick, the summary).
 * @param {string} name
 * @param {string | null | undefined} trump
 * @param {string} [extraClass]
 */
export function cardImage(name, trump, extraClass = "") {
  return fillCardFace(cardPicture(cardLabel(name, trump), extraClass), name, trump);
}

/**
 * "8♠", "10♥", "Joker": a card in a few characters, for captions and the seats' last moves.
 * @param {string} name
 */
export function cardShort(name) {
  const c = parseCard(name);
  if (c.suit === null) return t("card.joker");
  return shortName(c.rank, c.suit);
}

/**
 * A short inline label for a card ("Q" and a heart's shape; the joker by its word and its star,
 * as the hand shows it, not the server's "JK"), with its spoken name.
 * @param {string} name
 * @param {Trump} trump
 */
export function cardChip(name, trump) {
  const c = parseCard(name);
  const node = document.createElement("span");
  const joker = c.rank === "JK";
  node.className = `chip ${joker ? "joker" : isRed(c.suit) ? "red" : "black"}${isTrump(name, trump) ? " trump" : ""}`;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardLabel(name, trump));
  const rank = document.createElement("span");
  rank.textContent = joker ? t("card.joker") : c.rank;
  rank.setAttribute("aria-hidden", "true");
  node.append(rank, suitIcon(c.suit, "suit-icon inline"));
  return node;
}

/**
 * This folder's page module (page.js) is a game module of the page's contract (/js/contract.js):
 * `make lint`'s type check fails here when its exports stop fitting the contract.
 * @template {import("/js/contract.js").GameModule} M
 * @typedef {M} Fits
 */
/** @typedef {Fits<typeof import("./page.js")>} PageModule */
