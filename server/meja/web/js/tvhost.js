// @ts-check
// The shared screen that hosts the room (PROTOCOL.md 4: `host.seated: false`): a TV opens
// `/tv/`, chooses the game and its rules with a remote's arrows and Enter, and opens a room
// whose host holds no seat. It then shows the room code and QR code, the seats as the players
// join, and a Start; it never sees a hand. The host's rights can be handed to a seated person
// and taken back (`host_to`): the strip at the screen's edge says who holds them.
//
// What is here: the TV's host form (built from the catalog like the home page's, without its
// folds: a TV has the room), the strip of the host's rights, and the remote's keys, which any
// screen of the TV uses: ↑ ↓ move between the fields and buttons (a group of choices is one
// stop), ← → change a choice, a list or a number, Enter presses a button, ticks a box and
// moves on from any other field. The choice (issue 20): ← → keep changing values, as a TV's
// remote does, and each change is lit on the field and said in a polite live line (a list's
// value changed by script was neither seen nor said before).

import { t } from "./strings.js";
import { el } from "./ui.js";

/** The name a seatless host sends (the server asks one of every host; no seat ever shows it). */
export const TV_HOST_NAME = "TV";

/** A control a remote stops at. @typedef {HTMLInputElement | HTMLButtonElement | HTMLSelectElement | HTMLTextAreaElement | HTMLAnchorElement | HTMLElement} Stop */
/** The App (app.js): its catalog, forms, table and connection. @typedef {any} App */

/**
 * What a remote's ↑ ↓ stop at in ``root``, in the page's order: one stop per group of radios.
 * @param {Element} root
 * @returns {Stop[]}
 */
export function focusStops(root) {
  const groups = new Set();
  /** @type {any[]} */
  const stops = [];
  for (const e of /** @type {NodeListOf<any>} */ (root.querySelectorAll("a[href], button, input, select, summary, textarea"))) {
    if (e.disabled || e.type === "hidden" || e.tabIndex < 0 || e.closest("[hidden], [inert], dialog")) continue;
    // Not drawn, or inside a closed fold (whose content Chromium lays out, unseen).
    if (!e.getClientRects().length || e.closest("details:not([open]) > :not(summary)")) continue;
    if (e.type === "radio") {
      if (groups.has(e.name)) continue;
      groups.add(e.name);
      /** @type {HTMLInputElement[]} */
      const group = Array.from(root.querySelectorAll(`input[type="radio"][name="${CSS.escape(e.name)}"]`));
      stops.push(group.find((r) => r.checked) || e);
      continue;
    }
    stops.push(e);
  }
  // In the order the screen shows them: a part of the page moved by CSS `order` (the TV's
  // header, drawn at its foot) is visited where it is drawn.
  /** @param {Element} e */
  const place = (e) => {
    let top = e;
    while (top.parentElement && top.parentElement !== root) top = top.parentElement;
    return Number(getComputedStyle(top).order) || 0;
  };
  return stops.map((e, i) => [place(e), i, e]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

/**
 * The line a remote's ← → speak through (a screen reader reads it as it changes; it is in the
 * page before the first change, so the first is read too), made once under ``root``.
 * @param {Element} root
 */
function remoteLive(root) {
  let live = document.getElementById("remote-live");
  if (!live) {
    live = el("p", { class: "visually-hidden", id: "remote-live", "aria-live": "polite" });
    root.append(live);
  }
  return live;
}

/**
 * What a field says it holds now: its label and its value in words ("Turn timer: 30 seconds a
 * turn"; a number with the unit beside it, "1.5 seconds").
 * @param {HTMLInputElement | HTMLSelectElement} field
 */
export function fieldSays(field) {
  const label = field.labels && field.labels.length ? field.labels[0].textContent : field.getAttribute("aria-label") || "";
  let value;
  if (field instanceof HTMLSelectElement) value = field.selectedOptions.length ? field.selectedOptions[0].textContent : "";
  else {
    const unit = (field.getAttribute("aria-describedby") || "").split(/\s+/).map((id) => document.getElementById(id)).find(Boolean);
    value = unit ? `${field.value} ${unit.textContent}` : field.value;
  }
  return `${(label || "").trim()}: ${(value || "").trim()}`;
}

/**
 * ← → on a list or a number: the next choice, or a step of about a twentieth of its range. The
 * change is seen (the field lit until the focus leaves it) and said (the remote's live line): a
 * list's value changed by script was neither before (issue 20).
 * @param {HTMLInputElement | HTMLSelectElement} field
 * @param {number} by
 */
function stepField(field, by) {
  if (field instanceof HTMLSelectElement) {
    const i = Math.min(field.options.length - 1, Math.max(0, field.selectedIndex + by));
    if (i === field.selectedIndex) return;
    field.selectedIndex = i;
  } else {
    const before = field.value;
    const step = Number(field.step) || 1;
    const span = Number(field.max) - Number(field.min);
    const stride = Number.isFinite(span) && span > 0 ? Math.max(step, 10 ** Math.floor(Math.log10(span / 20))) : step;
    const n = Math.max(1, Math.round(stride / step));
    if (by > 0) field.stepUp(n);
    else field.stepDown(n);
    if (field.value === before) return;
  }
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
  field.classList.add("stepped");
  field.addEventListener("blur", () => field.classList.remove("stepped"), { once: true });
  remoteLive(document.body).textContent = fieldSays(field);
}

/**
 * The focus to the stop ``by`` (1 or -1) from ``from`` under ``root`` (from nowhere: the first or last).
 * @param {Element} root
 * @param {any} from
 * @param {number} by
 */
function moveFocus(root, from, by) {
  /** @type {any[]} */
  const stops = focusStops(root);
  let i = stops.indexOf(from);
  if (i < 0 && from.type === "radio") i = stops.findIndex((s) => s.type === "radio" && s.name === from.name);
  // The next stop that takes the focus (one may refuse it, as a control being redrawn).
  for (let j = i < 0 ? (by > 0 ? 0 : stops.length - 1) : i + by; j >= 0 && j < stops.length; j += by) {
    stops[j].focus();
    if (document.activeElement === stops[j]) return;
  }
}

/**
 * A remote's arrows on a page that is not the TV's own (the home page) while ``applies()``, as
 * on ``/tv/``: a TV that opens the site has a remote's arrows, no Tab. ↑ ↓ move between the
 * controls (a group of choices is one stop), ← → change a choice, a list or a number; a text
 * field keeps its arrows for typing, and Enter stays what it is on the page.
 * @param {HTMLElement} root
 * @param {() => boolean} applies
 */
export function pageArrows(root, applies) {
  remoteLive(root);
  root.addEventListener("keydown", (ev) => {
    if (!["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"].includes(ev.key)) return;
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || !applies()) return;
    const e = ev.target;
    if (!(e instanceof HTMLElement) || e.closest("dialog") || e.isContentEditable) return;
    const type = e instanceof HTMLInputElement ? e.type : e.tagName.toLowerCase();
    if (type === "textarea" || (e.tagName === "INPUT" && !["radio", "checkbox", "number"].includes(type))) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      moveFocus(root, e, ev.key === "ArrowDown" ? 1 : -1);
    } else if (e instanceof HTMLSelectElement || (e instanceof HTMLInputElement && type === "number")) {
      ev.preventDefault();
      stepField(e, ev.key === "ArrowRight" ? 1 : -1);
    }
  });
}

/** A remote's keys for every screen under ``root`` (the TV's page): see the head of this file. @param {HTMLElement} root */
export function remoteKeys(root) {
  /** @param {Element} from @param {number} by */
  const move = (from, by) => moveFocus(root, from, by);
  remoteLive(root);
  root.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const e = ev.target;
    if (!(e instanceof HTMLElement) || e.closest("dialog")) return;
    const type = e instanceof HTMLInputElement ? e.type : e.tagName.toLowerCase();
    const typed = type === "textarea" || (e.tagName === "INPUT" && !["radio", "checkbox", "number"].includes(type));
    if (typed) return; // a text field keeps its arrows and Enter
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      move(e, ev.key === "ArrowDown" ? 1 : -1);
    } else if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && (e instanceof HTMLSelectElement || (e instanceof HTMLInputElement && type === "number"))) {
      ev.preventDefault();
      stepField(e, ev.key === "ArrowRight" ? 1 : -1);
    } else if (ev.key === "Enter" && ["checkbox", "radio", "number", "select"].includes(type)) {
      // Enter never sends the form from a field: it ticks a box, and confirms any other field.
      ev.preventDefault();
      if (type === "checkbox") e.click();
      else move(e, 1);
    }
  });
}

/**
 * The home page's first line for a TV: "On the TV? Host on this screen", under the tagline. The
 * home page's own panel for it lies at its foot, below a 1920x1080 screen's fold and some 18 Tab
 * stops in, past everything a phone wants first; a narrow screen (a phone) does not draw this line.
 */
export function tvHostPointer() {
  return el(
    "p",
    { class: "tv-host-pointer", id: "tv-host-pointer" },
    t("home.tv_host.pointer"),
    " ",
    el("a", { href: "/tv/", id: "host-tv-top" }, t("home.tv_host.button")),
  );
}

/**
 * A group of radios, each a large pill: ``items`` [{value, label}].
 * @param {string} name
 * @param {string} legend
 * @param {{value: string | number, label: string}[]} items
 * @param {unknown} checked
 * @param {(() => void) | undefined} [onchange]
 */
function radios(name, legend, items, checked, onchange) {
  const legendId = `${name}-legend`;
  return el(
    "div",
    { class: "field tv-choices", role: "radiogroup", "aria-labelledby": legendId },
    el("p", { class: "label", id: legendId }, legend),
    items.map(({ value, label }) => {
      const id = `${name}-${value}`;
      return el(
        "span",
        { class: "choice" },
        el("input", { type: "radio", name, id, value, checked: String(value) === String(checked), onchange }),
        el("label", { for: id }, label),
      );
    }),
  );
}

/** The TV's host form: game, rules, seats, the preset's options, the timer, the bots; Open the room. @param {App} app */
export function tvHostScreen(app) {
  const games = app.games;
  const status = el("p", { class: "form-status", role: "alert", id: "tv-host-status" });
  const form = el("form", { id: "tv-host-form", class: "tv-host-form" });
  const presetBox = el("div");
  const seatsBox = el("div");
  const optionsBox = el("div", { class: "options" });
  const optionsLegend = el("legend", { id: "options-legend" });
  const optionsSet = el("fieldset", {}, optionsLegend, optionsBox);
  const bots = el("select", { id: "bots", name: "bots" });
  const rulesList = el("ul", { class: "rules", id: "rules-summary" });
  const rulesTitle = el("h3", { id: "tv-rules-title" }, t("home.rules.title"));
  const current = () => games.get(String(new FormData(form).get("game") || "")) || games.list[0];
  const currentPreset = () => games.preset(current().name, String(new FormData(form).get("preset") || ""));
  const showApplicable = () => app.showApplicableOptions(form, optionsBox, currentPreset());
  optionsBox.addEventListener("change", showApplicable);
  const fillPreset = () => {
    const desc = current();
    const preset = currentPreset();
    const counts = [];
    for (let n = preset.seats[0]; n <= preset.seats[1]; n++) counts.push({ value: n, label: String(n) });
    seatsBox.replaceChildren(radios("seats", t("home.seats"), counts, preset.default_seats));
    optionsBox.replaceChildren(...app.optionFields(desc, preset));
    showApplicable();
    optionsLegend.textContent = t("home.options.of", { preset: app.presetName(desc, preset) });
    optionsSet.hidden = !(preset.options || []).length;
    const lines = app.presetRules(desc, preset.name);
    rulesList.replaceChildren(...lines.map((/** @type {string} */ line) => el("li", {}, line)));
    rulesTitle.hidden = rulesList.hidden = !lines.length;
  };
  const fillGame = () => {
    const desc = current();
    const presets = desc.presets.map((/** @type {{name: string}} */ p) => ({ value: p.name, label: app.presetName(desc, p) }));
    presetBox.replaceChildren(radios("preset", t("home.preset"), presets, desc.default_preset, fillPreset));
    presetBox.hidden = presets.length < 2; // one set of rules: nothing to choose
    bots.replaceChildren(...(desc.levels || []).map((/** @type {string} */ lvl) => el("option", { value: lvl }, app.levelName(desc, lvl))));
    bots.value = desc.default_level;
    fillPreset();
  };
  const gamesBox = radios(
    "game",
    t("home.game"),
    games.list.map((/** @type {{name: string}} */ desc) => ({ value: desc.name, label: app.gameTitle(desc) })),
    games.list[0].name,
    fillGame,
  );
  form.append(
    el(
      "div",
      { class: "tv-host-columns" },
      el("div", { class: "tv-host-column" }, gamesBox, presetBox, seatsBox, app.turnLimitField(), el("label", { for: "bots" }, t("home.bots")), bots),
      el(
        "div",
        { class: "tv-host-column" },
        optionsSet,
        // The room's chat on this screen (issue 20): the host's "spectators read the chat", on
        // by default for a room the TV hosts (friends around it expect to read it there).
        el(
          "div",
          { class: "field check" },
          el("input", { type: "checkbox", id: "tv-host-chat", name: "host_talk_spectators", checked: true }),
          el("label", { for: "tv-host-chat" }, t("tvhost.chat")),
        ),
      ),
      el(
        "div",
        { class: "tv-host-column" },
        el("button", { type: "submit", class: "primary big", id: "tv-host" }, t("tvhost.button")),
        status,
        rulesTitle,
        rulesList,
      ),
    ),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!games.ready) return;
    app.hostHere({ ...app.hostRequest(form), name: TV_HOST_NAME, seated: false }, status);
  });
  fillGame();
  return el(
    "section",
    { class: "panel tv-host", "aria-labelledby": "tv-host-title" },
    el("h2", { id: "tv-host-title" }, t("tvhost.title")),
    el("p", { class: "hint", id: "tv-host-intro" }, t("tvhost.intro")),
    el("p", { class: "hint", id: "tv-host-keys" }, t("tvhost.keys")),
    form,
  );
}

/** Whether the shared screen hosts this table and has not handed its rights on.
 * @param {import("./contract.js").TableMap} table */
export function screenHosts(table) {
  return table.host_seat === null && (table.host_rights === null || table.host_rights === undefined);
}

/** What a seated guest's lobby says about the start: at a table the shared screen hosts (and has not
 *  handed its rights on), that the screen starts it, not "only the host", whom a phone never sees.
 * @param {import("./contract.js").TableMap} table */
export function startWaitKey(table) {
  return screenHosts(table) ? "lobby.start.wait.screen" : "lobby.start.wait";
}

/**
 * Who holds the host's rights, for a page at a table whose host holds no seat: on the shared
 * screen that hosts (``owner``), a list of the seated people to hand them to, or a button to take
 * them back; elsewhere, a line that says who holds them. Null at a table with a seated host.
 * @param {App} app
 * @param {boolean} owner
 */
export function hostStrip(app, owner) {
  const table = app.table;
  if (!table || table.host_seat !== null) return null;
  const holder = table.host_rights;
  const seat = holder === null || holder === undefined ? null : (table.seats || [])[holder];
  const words = seat ? t("host.holder", { name: app.seatDisplayName(holder) }) : t("host.holder.screen");
  const parts = [el("span", { id: "host-holder" }, words)];
  if (owner && seat) {
    parts.push(el("button", { type: "button", class: "small", id: "host-back", onclick: () => app.send({ type: "host_to", seat: null }) }, t("host.back")));
  } else if (owner) {
    const people = (table.seats || []).filter((/** @type {Record<string, any>} */ s) => s.kind === "human" && !s.auto);
    if (people.length) {
      const pick = el(
        "select",
        { id: "host-to-seat", class: "small", "aria-label": t("host.to.label") },
        people.map((/** @type {Record<string, any>} */ s) => el("option", { value: s.seat }, app.seatDisplayName(s.seat))),
      );
      // A button that says what it does ("Make host"): "Hand over" beside a player's name read as
      // giving them a hand of cards (new-user trial h6, F8). No more words before the list: with
      // them the TV's foot strip took a second line and the lobby scrolled.
      parts.push(
        pick,
        el(
          "button",
          { type: "button", class: "small", id: "host-to", onclick: () => app.send({ type: "host_to", seat: Number(pick.value) }) },
          t("host.to.button"),
        ),
      );
    }
  }
  return el("div", { class: "host-strip", id: "host-strip", role: "group", "aria-label": t("host.strip") }, parts);
}
