// @ts-check
// Kartu Terakhir's cards as the page shows them: parsing the server's card names ("R7",
// "GS", "BR", "YD2", "W", "WD4"), spoken names ("green Draw Two"), and the four colour
// shapes.
//
// docs/rules/kartu-terakhir.md 3.1.3: every colour has its own icon, so that a player who cannot tell
// the colours apart can still play: red a circle, yellow a triangle, green a square, blue a
// diamond (the <symbol>s that addColourShapes puts in the page once). The shape is on every
// coloured card (corner and centre), on the active-colour indicator, in the colour chooser,
// and on a Wild on the pile once its colour is chosen. Numbers and symbols are real text
// (they scale, and screen readers read the card's name): 0-9, "⊘" Skip, "⇄" Reverse, "+2"
// Draw Two, "W" Wild, "+4" Wild Draw Four.

import { cardBack, cardPicture } from "/js/deck.js";
import { addShapes, shapeIcon } from "/js/shapes.js";

// Its colours are its own (not a standard deck's marks); what every deck draws alike (a
// face-down card, a picture with its spoken name) is the shared deck's (/js/deck.js).
export { cardBack };

/** The strings lookup of the page (host.t): set once by page.js before anything is drawn. @type {import("/js/contract.js").Text} */
let t = (key) => key;
/** @param {import("/js/contract.js").Text} lookup */
export function useText(lookup) {
  t = lookup;
}

/** @typedef {"R" | "Y" | "G" | "B"} Colour */

/** @type {readonly Colour[]} */
export const COLOURS = ["R", "Y", "G", "B"];

// The four colour shapes: circle, triangle, square, diamond are different silhouettes.
/** @type {Record<Colour, import("/js/shapes.js").Shape>} */
const SHAPES = {
  R: [["circle", { cx: "50", cy: "50", r: "44" }]],
  Y: [["path", { d: "M50 6 96 90H4z" }]],
  G: [["rect", { x: "10", y: "10", width: "80", height: "80", rx: "4" }]],
  B: [["path", { d: "M50 2 96 50 50 98 4 50z" }]],
};

/** The colours' signs, for short text (a caption, a seat's last move): the shapes again. @type {Record<string, string>} */
export const SIGNS = { R: "●", Y: "▲", G: "■", B: "◆" };

/** The symbols as the card shows them. @type {Record<string, string>} */
const FACE = { S: "⊘", R: "⇄", D2: "+2", W: "W", WD4: "+4" };

/** Put the colour shapes in the page once, as <symbol>s that every colour icon uses by reference. */
export function addColourShapes(doc = document) {
  addShapes("kt-colour", SHAPES, doc);
}

/**
 * {colour, symbol, wild} from "R7", "GS", "BR", "YD2", "W" or "WD4" (colour null for a Wild).
 * @param {unknown} name
 * @returns {{colour: Colour | null, symbol: string, wild: boolean}}
 */
export function parseCard(name) {
  const s = String(name || "");
  if (s === "W" || s === "WD4") return { colour: null, symbol: s, wild: true };
  const m = /^([RYGB])([0-9]|S|R|D2)$/.exec(s);
  if (!m) return { colour: null, symbol: "?", wild: false };
  return { colour: /** @type {Colour} */ (m[1]), symbol: m[2], wild: false };
}

/**
 * What a card is called without its colour: "7", "Skip", "Draw Two", "Wild Draw Four".
 * @param {string} symbol
 */
export function symbolName(symbol) {
  return /^[0-9]$/.test(symbol) ? symbol : t(`symbol.${symbol}`);
}

/**
 * "green Draw Two", "red 7", "Wild"; a Wild on the pile with its colour: "Wild (blue chosen)". A name
 * holds no comma, so that a list of cards ("blue 0, red 3, Wild") reads one item a card (each
 * language puts the colour where it goes: "0 biru", "blå 0").
 * @param {string} name
 * @param {string | null} [chosen]
 */
export function cardName(name, chosen = null) {
  const c = parseCard(name);
  if (c.wild) return chosen ? t("card.wild_chosen", { card: symbolName(c.symbol), colour: colourWord(chosen) }) : symbolName(c.symbol);
  return t("card.name", { symbol: symbolName(c.symbol), colour: colourWord(c.colour) });
}

/**
 * A colour in words, lower case ("green"), for the middle of a sentence.
 * @param {string | null} colour
 */
export function colourWord(colour) {
  return t(`colour.${colour}`).toLowerCase();
}

/**
 * "+2■", "7●", "+4■", "Wild ■": a card in a few characters with its colour's sign, for the seats'
 * last moves and the turn line. A Wild is said by its word ("Wild", "Ganti Warna"): the "W" of its
 * face, read alone in a line of words, looked like a code ("played W■").
 * @param {string} name
 * @param {string | null} [chosen]
 */
export function cardShort(name, chosen = null) {
  const c = parseCard(name);
  const word = c.symbol === "W";
  const text = /^[0-9]$/.test(c.symbol) ? c.symbol : word ? symbolName(c.symbol) : FACE[c.symbol] || c.symbol;
  const colour = c.colour || chosen;
  return colour ? `${text}${word ? " " : ""}${SIGNS[colour]}` : text;
}

/**
 * 3.8.2: a number its face value, a Skip, Reverse or Draw Two 20, a Wild or Wild Draw Four 50.
 * @param {string} name
 */
export function points(name) {
  const c = parseCard(name);
  if (c.wild) return 50;
  if (/^[0-9]$/.test(c.symbol)) return Number(c.symbol);
  return 20;
}

/**
 * An <svg> showing a colour's shape (decorative: the word or card name carries the meaning).
 * @param {string} colour
 */
export function colourIcon(colour, className = "colour-icon") {
  const svg = shapeIcon("kt-colour", colour, `${className} colour-${colour}`);
  svg.dataset.colour = colour;
  return svg;
}

/**
 * @param {string} className
 * @param {string} [text]
 */
function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The face of a card inside `el`: its symbol as text in the corner (where a fanned hand
 * leaves it in view), its colour's shape in the corner and large in the middle (on a card of
 * the hand the text is there once, so that what a button shows is part of its spoken name;
 * a picture may show it in the middle too: `symbolInMiddle`). A Wild shows the four shapes,
 * or, on the pile once its colour is chosen (`chosen`), that colour's shape.
 * @template {HTMLElement} E
 * @param {E} el
 * @param {string} name
 * @param {string | null} [chosen]
 * @param {{symbolInMiddle?: boolean}} [how]
 * @returns {E}
 */
export function fillCardFace(el, name, chosen = null, { symbolInMiddle = false } = {}) {
  const c = parseCard(name);
  const colour = c.colour || chosen;
  el.classList.add("card-face", colour ? `colour-${colour}` : "wild");
  if (c.wild) el.classList.add("is-wild");
  el.dataset.card = name;
  const text = /^[0-9]$/.test(c.symbol) ? c.symbol : FACE[c.symbol] || c.symbol;
  const corner = span("corner");
  corner.setAttribute("aria-hidden", "true");
  // The symbol is drawn by the style sheet from data-symbol (real text, it scales): a card of
  // the hand is a button whose name says the card in words ("green Draw Two"), and "+2"
  // painted as content is not a second, different name for it.
  const symbol = span("symbol");
  symbol.dataset.symbol = text;
  corner.append(symbol);
  if (colour) corner.append(colourIcon(colour, "colour-icon small"));
  const middle = span("middle");
  middle.setAttribute("aria-hidden", "true");
  if (colour) middle.append(colourIcon(colour, "colour-icon pip"));
  else {
    const four = span("four");
    for (const k of COLOURS) four.append(colourIcon(k, "colour-icon quarter"));
    middle.append(four);
  }
  if (symbolInMiddle && colour) middle.append(span("middle-symbol", text));
  el.append(corner, middle);
  return el;
}

/**
 * A non-interactive card picture with its name for screen readers (top card, flying card).
 * @param {string} name
 * @param {string} [extraClass]
 * @param {string | null} [chosen]
 */
export function cardImage(name, extraClass = "", chosen = null) {
  // A picture (role img) may show its symbol twice: the pile is read across a room.
  return fillCardFace(cardPicture(cardName(name, chosen), extraClass), name, chosen, { symbolInMiddle: true });
}

/**
 * A short inline label for a card (symbol as text and the colour's shape), for the summary and the revealed hand.
 * @param {string} name
 */
export function cardChip(name) {
  const c = parseCard(name);
  const el = document.createElement("span");
  el.className = `chip ${c.colour ? `colour-${c.colour}` : "wild"}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(name));
  el.dataset.card = name;
  const text = span("chip-symbol", /^[0-9]$/.test(c.symbol) ? c.symbol : FACE[c.symbol] || c.symbol);
  text.setAttribute("aria-hidden", "true");
  el.append(c.colour ? colourIcon(c.colour, "colour-icon inline") : span("chip-wild", ""), text);
  return el;
}

/**
 * This folder's page module (page.js) is a game module of the page's contract (/js/contract.js):
 * `make lint`'s type check fails here when its exports stop fitting the contract.
 * @template {import("/js/contract.js").GameModule} M
 * @typedef {M} Fits
 */
/** @typedef {Fits<typeof import("./page.js")>} PageModule */
