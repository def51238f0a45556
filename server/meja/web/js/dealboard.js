// @ts-check
// The deal board (issue 21, seed 000): how everyone who played one deal on this server did
// (PROTOCOL.md 19). The shell knows no game: the server says each seat's points and whether
// fewer is better.
//
// * The round summary (table.js) shows a panel for the round's deal: its short code and short
//   link first (`/deal/<short code>`), then every play of the deal on this server, newest first.
//   It asks with the round's deal code (revealed at the round's end, so never earlier), and asks
//   again every few seconds while it is on screen, so a friend's result appears when their
//   round ends.
// * `/deal/<code>` lists the plays of a deal named by its short code, with a button to play it.

import { STRINGS, t } from "./strings.js";
import { copyText, el } from "./ui.js";
import { DEAL_BOARD_STRINGS } from "./dealboard_strings.js";

/** A board (PROTOCOL.md 19): its short code, its game, and the plays of its deal. @typedef {Record<string, any>} Board */
/** The App (app.js), of which the board uses its connection, screens and words. @typedef {any} App */

for (const [lang, table] of Object.entries(DEAL_BOARD_STRINGS)) Object.assign(/** @type {Record<string, object>} */ (STRINGS)[lang], table);

/** How often a summary's panel asks again while it is shown (ms). */
const REFRESH_MS = 4000;

/** The short code of a deal-board address (`/deal/<code>`), or undefined. @param {string} pathname */
export function dealBoardCode(pathname) {
  const m = /^\/deal\/([0-9A-Za-z-]{10,12})\/?$/.exec(pathname);
  return m ? m[1] : undefined;
}

/** @param {{link?: string} | null} table */
function origin(table) {
  try {
    if (table && table.link) return new URL(table.link).origin;
  } catch {
    /* the page's own */
  }
  return location.origin;
}

/**
 * The list of a board's plays: when, and each seat's name and points (a bot by a word).
 * @param {App} app
 * @param {Board} board
 * @param {string} id
 */
function playsList(app, board, id) {
  if (!board.plays.length) return el("p", { class: "hint", id: `${id}-none` }, t("board.none"));
  const lang = document.documentElement.lang || undefined;
  return el(
    "ol",
    { class: "board-plays", id },
    ...board.plays.map((/** @type {Record<string, any>} */ p) => {
      const when = new Date(p.at).toLocaleString(lang);
      const seats = p.seats.map((/** @type {Record<string, any>} */ s) => {
        // A bot by the name the seats and the summary give it (Vietnamese said "Máy 2" here, "Bot 2" there);
        // a negative score with the minus sign the score tables use (U+2212), not a hyphen.
        const who = s.bot ? t("seat.bot_name", { n: s.seat + 1 }) : s.name;
        if (s.points === null || s.points === undefined) return who;
        return t("board.points", { name: who, points: String(s.points).replace(/^-/, "\u2212") });
      });
      return el("li", { class: "board-play" }, el("span", { class: "board-when" }, when), ": ", seats.join(", "));
    }),
  );
}

/** @param {Board} board */
function better(board) {
  const p = board.plays.find((/** @type {Record<string, any>} */ x) => x.lower_wins !== null && x.lower_wins !== undefined);
  if (!p) return null;
  return el("p", { class: "hint" }, p.lower_wins ? t("board.lower") : t("board.higher"));
}

/**
 * The short link and its copy button (the short code first; the long one stays in the fair-deal box).
 * @param {{link?: string} | null} table
 * @param {Board} board
 */
function shortLink(table, board) {
  const link = `${origin(table)}/deal/${encodeURIComponent(board.code)}`;
  const fallback = el("input", { type: "text", readonly: true, hidden: true, class: "copy-fallback", "aria-label": t("board.short") });
  const copied = el("span", { class: "form-status", role: "status" });
  return el(
    "div",
    { class: "board-short" },
    el("p", {}, el("span", { class: "label" }, `${t("board.short")}: `), el("code", { id: "deal-short-code" }, board.code), " ", el("a", { href: link, id: "deal-short-link" }, t("board.open"))),
    el(
      "button",
      {
        type: "button",
        id: "copy-short-deal",
        dataset: { link },
        onclick: async () => {
          const ok = await copyText(link, fallback);
          copied.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
        },
      },
      t("board.copy"),
    ),
    copied,
    fallback,
  );
}

/**
 * A summary's panel: its node, the board last read, and its asking.
 * @typedef {{node: HTMLElement, board: Board | null, timer: ReturnType<typeof setTimeout> | null, asking?: boolean,
 *   fill: () => void, ask: () => Promise<void>}} Panel
 */

/** One panel per deal code, kept across the summary's redraws (each update draws it again). @type {Map<string, Panel>} */
const panels = new Map();

/**
 * The round summary's panel for the deal `code` (the round's revealed deal code).
 * @param {App} app
 * @param {{link?: string} | null} table
 * @param {string} code
 */
export function boardPanel(app, table, code) {
  let panel = panels.get(code);
  if (!panel) {
    /** @type {Panel} */
    const made = {
      node: el("section", { class: "panel deal-board", id: "deal-board", "aria-labelledby": "deal-board-title" }),
      board: null,
      timer: null,
      fill: () => {},
      ask: async () => {},
    };
    panel = made;
    panels.set(code, panel);
    while (panels.size > 4) panels.delete(/** @type {string} */ (panels.keys().next().value));
    const ask = async () => {
      made.timer = null;
      made.asking = true;
      try {
        made.board = await app.conn.request({ type: "deal_board", code });
      } catch {
        // not now (the connection, a server that keeps no board): the panel says nothing new
      }
      made.asking = false;
      fill();
      if (made.node.isConnected) made.timer = setTimeout(ask, REFRESH_MS);
    };
    const fill = () => {
      const b = made.board;
      made.node.replaceChildren(
        el("h3", { id: "deal-board-title" }, t("board.title")),
        ...(b ? [shortLink(table, b), better(b) || "", playsList(app, b, "deal-board-plays")] : [el("p", { class: "hint" }, t("board.loading"))]),
      );
    };
    made.fill = fill;
    made.ask = ask;
    fill();
    ask();
  } else {
    panel.fill(); // the words again (a language switch draws the summary again)
    // Shown again after it was off the page (its asking stopped then): ask again.
    if (!panel.timer && !panel.asking) panel.ask();
  }
  return panel.node;
}

/** The `/deal/<code>` screen: every play of a deal on this server, and a button to play it. */
export class DealBoardScreen {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {string | null} */
    this.code = null;
    /** @type {Board | null} */
    this.board = null;
    /** @type {any} */
    this.error = null;
    this.heading = el("h2", { id: "deal-board-title", tabindex: "-1" });
    this.body = el("div", { class: "deal-board-body" });
    this.status = el("p", { class: "form-status", id: "deal-board-status", role: "status" });
    this.node = el("section", { class: "panel deal-board-screen", id: "deal-board-screen" }, this.heading, this.status, this.body);
  }

  /** @param {string} code */
  open(code) {
    this.code = code;
    this.heading = el("h2", { id: "deal-board-title", tabindex: "-1" });
    this.body = el("div", { class: "deal-board-body" });
    this.status = el("p", { class: "form-status", id: "deal-board-status", role: "status" });
    this.node = el("section", { class: "panel deal-board-screen", id: "deal-board-screen" }, this.heading, this.status, this.body);
    this.app.mount("deal", this.node);
    this.relabel();
  }

  async onOpen() {
    if (this.app.screen !== "deal") return;
    try {
      this.board = await this.app.conn.request({ type: "deal_board", code: this.code });
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    this.relabel();
    this.heading.focus();
  }

  relabel() {
    const b = this.board;
    const desc = b ? this.app.games.get(b.game) : null;
    document.title = t("board.page_title");
    this.heading.textContent = b ? t("board.heading", { code: b.code }) : t("board.page_title");
    if (this.error) {
      this.status.textContent = this.error.code === "deal/not_found" ? t("board.not_found") : this.app.errorText(this.error);
      this.body.replaceChildren();
      return;
    }
    this.status.textContent = b ? "" : t("board.loading");
    if (!b) return;
    this.body.replaceChildren(
      el("p", { id: "deal-board-game" }, t("board.game", { game: desc ? this.app.gameTitle(desc) : b.game })),
      better(b) || "",
      playsList(this.app, b, "deal-board-plays"),
      // The deal code, not the short one: the host form reads a deal code's game, rules and seats
      // (a short code names them only to the server, and the form showed its default game).
      el("p", {}, el("a", { href: `/play?deal=${encodeURIComponent(b.deal_code || b.code)}`, class: "button-link primary", id: "play-deal" }, t("board.play"))),
    );
  }
}
