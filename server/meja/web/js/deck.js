// @ts-check
// The standard 52-card deck as the page shows it: the twin of meja.rules.cards on the server.
// A game whose cards are a standard deck's (its own cards.js) takes from here what every
// such game draws alike: the card names of the wire ("QH", "10C", "8H.2"), the four marks'
// shapes and signs (spades, hearts, diamonds, clubs: four distinct silhouettes, so a table
// reads in black and white; red is only a second cue), and the marks' and ranks' words in
// the page's four languages. What a game makes of a card (its worth, its order, a card of
// its own such as a star card) stays in the game's folder.
//
// The shell never uses a game's words, and the usual English word for the four marks is one
// that a game lists among its own; so this module says "mark", and a game keys the marks'
// words under its own word (withDeckWords).
//
// Also here: the card pieces any deck draws alike (a face-down card, a card picture with its
// spoken name), used by games whose cards are not a standard deck's too.

/** @typedef {"S" | "H" | "D" | "C"} Mark one of the four marks, by its letter on the wire */

/**
 * A standard card read from its wire name.
 * @typedef {object} DeckCard
 * @property {string} rank "A", "2" ... "10", "J", "Q" or "K"
 * @property {Mark} mark
 * @property {0 | 1} deck which copy of the deck (0: the first; 1: the ".2" copy of a two-deck game)
 */

/** @typedef {Record<string, import("./contract.js").Words>} LanguageTable one language's words by key */

/** The marks in the fixed order of meja.rules.cards (S, H, D, C). @type {readonly Mark[]} */
export const MARKS = ["S", "H", "D", "C"];

/** The ranks, ace low, as the wire spells them. */
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/**
 * The four marks' silhouettes (shapes.js data: drawn in a 100x100 box): spade, heart,
 * diamond and club are different outlines, not only different colours.
 * @type {Record<Mark, import("./shapes.js").Shape>}
 */
export const MARK_SHAPES = {
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

/** The marks' signs, for short text such as a caption ("8♠"): the same four shapes. @type {Record<Mark, string>} */
export const MARK_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const WIRE_NAME = /^(10|[2-9AJQK])([SHDC])(\.2)?$/;

/**
 * The card a wire name names ("QH", "10C", "8H.2"), exactly as meja.rules.cards prints it
 * (Card.from_wire: no other case, spacing or "T"), or null for any other text.
 * @param {unknown} name
 * @returns {DeckCard | null}
 */
export function readCard(name) {
  const m = typeof name === "string" ? WIRE_NAME.exec(name) : null;
  if (!m) return null;
  return { rank: m[1], mark: /** @type {Mark} */ (m[2]), deck: m[3] ? 1 : 0 };
}

/**
 * Hearts and diamonds are red, spades and clubs black.
 * @param {string | null | undefined} mark
 */
export function isRed(mark) {
  return mark === "H" || mark === "D";
}

/**
 * "8♠", "10♥", "Q♣": a standard card in a few characters, its rank and its mark's sign.
 * @param {string} rank
 * @param {Mark} mark
 */
export function shortName(rank, mark) {
  return `${rank}${MARK_SIGNS[mark]}`;
}

/**
 * The marks' and ranks' words in each language of the page, and how a card's name is said
 * from them (Card.name on the server: "Queen of hearts"). Number ranks are their digits in
 * every language; Indonesian follows seed 000 ("As", "Jack", "Queen", "King").
 * @type {Record<string, {marks: string[], faces: Record<string, string>, name: (rank: string, mark: string) => string}>}
 */
const WORDS = {
  en: {
    marks: ["Spades", "Hearts", "Diamonds", "Clubs"],
    faces: { A: "Ace", J: "Jack", Q: "Queen", K: "King" },
    name: (rank, mark) => `${rank} of ${mark.toLowerCase()}`,
  },
  id: {
    marks: ["Sekop", "Hati", "Wajik", "Keriting"],
    faces: { A: "As", J: "Jack", Q: "Queen", K: "King" },
    name: (rank, mark) => `${rank} ${mark.toLowerCase()}`,
  },
  vi: {
    marks: ["Bích", "Cơ", "Rô", "Chuồn"],
    faces: { A: "A", J: "J", Q: "Q", K: "K" },
    name: (rank, mark) => `${rank} ${mark.toLowerCase()}`,
  },
  nb: {
    marks: ["Spar", "Hjerter", "Ruter", "Kløver"],
    faces: { A: "Ess", J: "Knekt", Q: "Dame", K: "Konge" },
    name: (rank, mark) => `${mark.toLowerCase()} ${rank.toLowerCase()}`,
  },
};

/**
 * A game's strings ({en: {...}, id: {...}, ...}) with the deck's words added to each
 * language: "<markKey>.S" ... the marks, "rank.A" ... "rank.K", and "card.name" (given
 * {rank, <markKey>}: the words of both). The game's own words win where it has the key.
 * @template {Record<string, LanguageTable>} T
 * @param {string} markKey the game's word for a mark, as its keys and "card.name" say it
 * @param {T} tables
 * @returns {T}
 */
export function withDeckWords(markKey, tables) {
  /** @type {Record<string, LanguageTable>} */
  const out = {};
  for (const [lang, own] of Object.entries(tables)) {
    const words = WORDS[lang] || WORDS.en;
    /** @type {LanguageTable} */
    const deck = {};
    MARKS.forEach((mark, i) => {
      deck[`${markKey}.${mark}`] = words.marks[i];
    });
    for (const rank of RANKS) deck[`rank.${rank}`] = words.faces[rank] || rank;
    deck["card.name"] = (p) => words.name(String(p.rank), String(p[markKey]));
    out[lang] = { ...deck, ...own };
  }
  return /** @type {T} */ (out);
}

/**
 * A face-down card (a pile to draw from, a card another seat took): decorative, the words
 * around it say what it is.
 * @param {string} [extraClass]
 */
export function cardBack(extraClass = "") {
  const node = document.createElement("span");
  node.className = `card back ${extraClass}`.trim();
  node.setAttribute("aria-hidden", "true");
  return node;
}

/**
 * A non-interactive card picture (role img) whose accessible name is `label`; the game
 * draws the face inside it.
 * @param {string} label
 * @param {string} [extraClass]
 */
export function cardPicture(label, extraClass = "") {
  const node = document.createElement("span");
  node.className = `card ${extraClass}`.trim();
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
  return node;
}
