// @ts-check
// A modal choice: a <dialog> with a title, a line of text, a grid of choices and, unless
// the choice cannot be dodged, a Cancel button (Escape does the same). The arrow keys move
// between the choices; when it closes, the focus goes back where the table wants it.
// A game asks through host.choose(spec), which resolves with the chosen value, or null
// when the choice was cancelled or closed by the table. A choice may say how many of the
// player's cards go with it (`held`), in the shell's words under it. A choice may name the
// action picking it sends (`action`): when that is the move "Suggest a move" rang, the choice is
// ringed and focused, so that following a suggestion all the way (a card, then what it names)
// takes the suggested answer rather than the first one.

import { el, sameAction } from "./ui.js";

export class ChoiceDialog {
  /**
   * restoreFocus(returnTo): put the focus back after the dialog closed; held(n): "{n} in your hand" (none: not said);
   * suggested(): the action a suggestion rings now, if any.
   * @param {{restoreFocus: (returnTo: Element | null | undefined) => void, held?: (n: number) => string,
   *   suggested?: () => unknown}} parts
   */
  constructor({ restoreFocus, held, suggested }) {
    this.restoreFocus = restoreFocus;
    this.held = held;
    this.suggested = suggested || (() => null);
    /** The open choice's answer. @type {((value: any) => void) | null} */
    this.resolve = null;
    /** Where the focus was when the dialog opened. @type {Element | null | undefined} */
    this.returnTo = undefined;
    this.forced = false;
    this.title = el("h2", { id: "choice-title" });
    this.text = el("p", { id: "choice-text" });
    this.grid = el("div", { class: "choice-grid" });
    this.cancel = el("button", { type: "button", class: "cancel", id: "choice-cancel", onclick: () => this.close() });
    this.node = el(
      "dialog",
      { class: "choice-dialog", "aria-labelledby": "choice-title", "aria-describedby": "choice-text" },
      this.title,
      this.text,
      this.grid,
      this.cancel,
    );
    this.node.addEventListener("cancel", (ev) => {
      if (this.forced) ev.preventDefault();
    });
    this.node.addEventListener("close", () => {
      // The event comes in a task of its own: open again by then (Escape, then the card at once),
      // it is an earlier closing's, and answering now would cancel the new question.
      if (this.node.open) return;
      this.settle(null);
      this.restoreFocus(this.returnTo);
    });
    this.node.addEventListener("keydown", (ev) => {
      const buttons = this.choiceButtons();
      const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (i < 0) return;
      /** @type {Record<string, number>} */
      const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      const step = steps[ev.key];
      if (step) {
        ev.preventDefault();
        buttons[(i + step + buttons.length) % buttons.length].focus();
      }
    });
  }

  get isOpen() {
    return this.node.open;
  }

  choiceButtons() {
    return Array.from(this.grid.querySelectorAll("button"));
  }

  /** @param {any} value */
  settle(value) {
    const resolve = this.resolve;
    this.resolve = null;
    if (resolve) resolve(value);
  }

  /**
   * spec: {id, title, text, choices: [{value, content: [Node|string], className, dataset, held}],
   * cancel: the Cancel button's words, or null when the choice cannot be dodged}.
   * @param {import("./contract.js").Choice} spec
   * @returns {Promise<any>}
   */
  open(spec) {
    this.settle(null); // a choice still open is answered "none" first
    const suggested = this.suggested();
    if (!this.node.open) this.returnTo = document.activeElement;
    this.forced = !spec.cancel;
    if (spec.id) this.node.id = spec.id;
    this.title.textContent = spec.title || "";
    this.text.textContent = spec.text || "";
    this.grid.replaceChildren(
      ...(spec.choices || []).map((c) =>
        el(
          "button",
          {
            type: "button",
            class: `${c.className || ""}${c.action && sameAction(c.action, suggested) ? " hint-target" : ""}`,
            dataset: c.dataset || {},
            onclick: () => this.pick(c.value),
          },
          ...(c.content || [String(c.value)]),
          typeof c.held === "number" && Number.isInteger(c.held) && this.held ? el("span", { class: "choice-held" }, this.held(c.held)) : null,
        ),
      ),
    );
    this.cancel.textContent = spec.cancel || "";
    this.cancel.hidden = this.forced;
    const answer = new Promise((resolve) => {
      this.resolve = resolve;
    });
    if (!this.node.open) this.node.showModal();
    const buttons = this.choiceButtons();
    const first = buttons.find((b) => b.classList.contains("hint-target")) || buttons[0];
    if (first) first.focus();
    return answer;
  }

  /** @param {any} value */
  pick(value) {
    this.settle(value);
    this.forced = false;
    if (this.node.open) this.node.close();
  }

  close() {
    this.settle(null);
    this.forced = false;
    if (this.node.open) this.node.close();
  }
}
