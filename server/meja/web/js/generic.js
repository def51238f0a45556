// @ts-check
// The generic renderer: how the shell shows a game that has no page module (its catalog
// entry's `page` is null). It is a game table like a module's (see the interface in
// contract.js), built from what every view carries by contract: the view's fields,
// shown as a readable list, and its `legal` actions (PROTOCOL.md: "a generic client can
// play any game from its views alone"), one button each, labelled by the action's kind
// and fields. The server decides everything; this only shows it and sends the button's
// action as it came.

import { readable } from "./strings.js";
import { sameAction } from "./ui.js";

/** @typedef {import("./contract.js").Action} Action */
/** @typedef {import("./contract.js").Host} Host */
/** @typedef {import("./contract.js").Text} Text */

/** "pick · card C3": an action map in words (its kind, then each other field and value). @param {Action} action */
export function actionLabel(action) {
  const kind = readable(String(action.kind ?? "action"));
  const rest = Object.entries(action)
    .filter(([key]) => key !== "kind")
    .map(([key, value]) => `${readable(key).toLowerCase()} ${formatValue(value)}`);
  return rest.length ? `${kind} · ${rest.join(", ")}` : kind;
}

/**
 * A wire value in words: lists joined, maps as "key value", nothing as a dash.
 * @param {unknown} value
 * @param {Text | null} [t]
 * @returns {string}
 */
export function formatValue(value, t = null) {
  if (value === null || value === undefined) return t ? t("table.nothing") : "—";
  if (typeof value === "boolean") return t ? t(`bool.${value}`) : String(value);
  if (Array.isArray(value)) {
    if (!value.length) return t ? t("table.nothing") : "—";
    // A list of lists (teams: [[0, 2], [1, 3]]) keeps its groups: "(0, 2), (1, 3)".
    return value.map((/** @type {unknown} */ v) => (Array.isArray(v) ? `(${formatValue(v, t)})` : formatValue(v, t))).join(", ");
  }
  if (typeof value === "object") {
    const parts = Object.entries(/** @type {Record<string, unknown>} */ (value)).map(([k, v]) => `${readable(k).toLowerCase()} ${formatValue(v, t)}`);
    return `(${parts.join("; ")})`;
  }
  return String(value);
}

export class GenericTable {
  /**
   * host: what a module gets (app.js); desc: the game's catalog entry.
   * @param {Host} host
   * @param {unknown} desc
   */
  constructor(host, desc) {
    this.host = host;
    this.desc = desc;
    /** The view's legal actions, as its buttons show them. @type {Action[]} */
    this.legal = [];
    const el = host.el;
    this.heading = el("h3", { id: "generic-view-title" });
    this.fields = el("dl", { class: "fields", id: "generic-fields" });
    this.centre = el(
      "section",
      { class: "generic-view", id: "generic-view", "aria-labelledby": "generic-view-title" },
      this.heading,
      this.fields,
    );
    this.movesTitle = el("h3", { id: "generic-moves-title", class: "visually-hidden" });
    this.buttons = el("div", { class: "generic-actions", id: "generic-actions", role: "group", "aria-labelledby": "generic-moves-title" });
    this.actions = el("div", { class: "generic-moves" }, this.movesTitle, this.buttons);
  }

  destroy() {}

  /** @param {import("./contract.js").View} view @returns {import("./contract.js").Frame} */
  render(view) {
    const t = this.host.t;
    const el = this.host.el;
    this.heading.textContent = t("table.view");
    this.movesTitle.textContent = t("table.moves");
    const rows = [];
    for (const [key, value] of Object.entries(view)) {
      if (key === "legal") continue;
      rows.push(el("dt", { dataset: { field: key } }, readable(key)), el("dd", { dataset: { field: key } }, formatValue(value, t)));
    }
    this.fields.replaceChildren(...rows);
    const legal = view.legal || [];
    this.legal = legal;
    const spectator = this.host.seat === null || this.host.seat === undefined;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active && this.buttons.contains(active) ? (active.dataset.index ?? null) : null;
    this.buttons.replaceChildren(
      ...(legal.length
        ? legal.map((/** @type {Action} */ action, /** @type {number} */ i) =>
            el(
              "button",
              { type: "button", class: "generic-action", dataset: { index: i, kind: action.kind }, onclick: () => this.host.act(action) },
              actionLabel(action),
            ),
          )
        : [el("p", { class: "hint" }, t("table.no_moves"))]),
    );
    if (focused !== null) {
      /** @type {HTMLButtonElement | null} */
      const again = this.buttons.querySelector(`button[data-index="${Math.min(Number(focused), legal.length - 1)}"]`);
      if (again) again.focus();
    }
    // Whose decision it is, where the view says so in a field every game may have (`awaiting`, a
    // list of seats, or `turn`, one seat): only to mark the seats' boxes; the buttons come from `legal`.
    const awaiting = Array.isArray(view.awaiting) ? view.awaiting : Number.isInteger(view.turn) ? [view.turn] : [];
    return {
      round: Number.isInteger(view.round) ? view.round : null,
      status: spectator ? null : { text: legal.length ? t("table.your_move") : t("table.waiting"), mine: legal.length > 0 },
      seats: Array.from({ length: Number(view.seats) || 0 }, (_, i) => ({ active: awaiting.includes(i) })),
      hand: null,
      summary: null,
    };
  }

  /** The button of a legal action, for the shell to point at a suggested move. @param {Action} action */
  controlFor(action) {
    const index = (this.legal || []).findIndex((a) => sameAction(a, action));
    return index < 0 ? null : this.buttons.querySelector(`button[data-index="${index}"]`);
  }

  play() {}

  /** A game event in words: who (if it names a seat), its kind, its other fields. @param {import("./contract.js").GameEvent} ev */
  logLine(ev) {
    const t = this.host.t;
    const fields = Object.entries(ev).filter(([key]) => key !== "kind" && key !== "seat");
    const what = fields.length ? `${readable(ev.kind)} ${formatValue(Object.fromEntries(fields), t)}` : readable(ev.kind);
    if (typeof ev.seat === "number") return t("log.generic", { who: this.host.seatName(ev.seat), what });
    return t("log.generic.table", { what });
  }

  /** An event the game holds the table for, in words, for a second and a half. @param {import("./contract.js").GameEvent} ev */
  hold(ev) {
    return { node: this.host.el("div", { class: "generic-hold" }, this.logLine(ev)), ms: 1500 };
  }
}
