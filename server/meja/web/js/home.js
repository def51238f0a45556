// @ts-check
// The home screen: continue the seat this browser holds, the player's name, the host form
// (built from the catalog: a game, its rules and options, seats, bots, talk), joining or
// watching by room code, "Learn to play", and this browser's recent matches. One of the
// screens the App routes to (app.js): it reads what the App holds (the catalog, the page's
// address) and hosts, joins and watches through it; the shared screen's own host form
// (tvhost.js) borrows its option fields.

import { formNumber, formStep, optionApplies } from "./games.js";
import { recentPanel } from "./replay.js";
import { hasText, t } from "./strings.js";
import { talkFields } from "./talk.js";
import { tvHostPointer } from "./tvhost.js";
import { el, nextId, spacedCode } from "./ui.js";

/** @typedef {import("./games.js").GameDescription} GameDescription */
/** A preset of the catalog (PROTOCOL.md 6). @typedef {Record<string, any>} Preset */
/** An option spec of the catalog (PROTOCOL.md 6). @typedef {Record<string, any>} OptionSpec */
/** A field as the player left it. @typedef {{id: string, name: string, value: string, checked: boolean, radio: boolean}} KeptField */

/** Where the player's name is kept between visits (localStorage). */
export const NAME_KEY = "meja.name";
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A room code as typed, read like the server reads it (any case, I/L = 1, O = 0), or null. */
/** @param {unknown} text */
export function normalizeRoomCode(text) {
  let out = "";
  for (const raw of String(text).trim().toUpperCase()) {
    if (raw === "-" || raw === " ") continue;
    const c = raw === "I" || raw === "L" ? "1" : raw === "O" ? "0" : raw;
    if (!CODE_ALPHABET.includes(c)) return null;
    out += c;
  }
  return out.length === 6 ? out : null;
}

export class Home {
  /**
   * app: the App (app.js); store: this browser's saved seats (app.js), for "continue your game".
   * @param {any} app
   * @param {any} store
   */
  constructor(app, store) {
    this.app = app;
    this.store = store;
    /** The host form's panel, filled when the catalog is in. @type {HTMLElement | null} */
    this.hostSlot = null;
  }

  /** The home screen: continue a seat, your name, host a table, join one, learn, recent matches. */
  show() {
    const latest = this.store.latest();
    const savedName = localStorage.getItem(NAME_KEY) || "";
    const nameId = "name";
    const children = [];
    children.push(el("h2", { class: "tagline" }, t("app.tagline")));
    if (!this.app.params.get("join")) children.push(tvHostPointer()); // a TV's way in, above the fold
    if (this.app.homeNotice) children.push(el("p", { class: "notice", role: "alert" }, this.app.homeNotice));
    this.app.homeNotice = null;
    if (latest) {
      // A match this page last saw over is not a game to continue: its table keeps the result and
      // any rematch, and the panel says so (a new user was offered "Continue" for a match long over).
      const k = latest.over ? "home.over" : "home.continue";
      children.push(
        el(
          "section",
          { class: "panel continue", "aria-labelledby": "continue-title" },
          el("h2", { id: "continue-title" }, t(`${k}.title`)),
          el("p", {}, t(`${k}.text`, { code: spacedCode(latest.code) })),
          el(
            "div",
            { class: "row" },
            el(
              "button",
              { type: "button", class: "primary", id: "continue", onclick: () => this.app.continueAt(latest.table) },
              t(`${k}.button`, { code: spacedCode(latest.code) }),
            ),
            el(
              "button",
              {
                type: "button",
                onclick: () => {
                  this.store.forget(latest.table);
                  this.show();
                },
              },
              t(`${k}.forget`),
            ),
          ),
        ),
      );
    }
    children.push(
      el(
        "section",
        { class: "panel", "aria-labelledby": "you-title" },
        el("h2", { id: "you-title", class: "visually-hidden" }, t("home.name")),
        el("label", { for: nameId }, t("home.name")),
        el("input", {
          id: nameId,
          name: "name",
          type: "text",
          maxlength: 24,
          autocomplete: "nickname",
          // A newcomer's field is empty (a pre-filled "Player" was joined with unnoticed): the
          // placeholder says what to type; a name this browser used before comes back.
          value: savedName,
          placeholder: t("home.name.placeholder"),
          required: true,
        }),
        el("p", { class: "hint", id: "name-hint" }, t("home.name.hint")),
      ),
    );
    this.hostSlot = el(
      "section",
      { class: "panel", "aria-labelledby": "host-title", id: "host-panel" },
      el("h2", { id: "host-title" }, t("home.host.title")),
    );
    // An invite link (?join=CODE) puts joining first, and folds hosting away: a guest reading
    // another game's host form below took it for the table they were invited to.
    if (this.app.params.get("join")) {
      children.push(
        this.joinPanel(),
        el("details", { class: "host-instead", id: "host-instead" }, el("summary", {}, t("home.host.instead")), this.hostSlot),
      );
    } else children.push(this.hostSlot, this.joinPanel());
    children.push(this.app.learn.panel(), this.tvHostPanel());
    const recent = recentPanel(this.app); // this browser's finished matches (replay.js)
    if (recent) children.push(recent);
    this.app.mount("home", el("div", { class: "home" }, children));
    this.fillHostPanel();
    // An invite link fills the room code in: what is left to do is to say one's name.
    const focusTarget = this.app.params.get("join") ? /** @type {HTMLInputElement | null} */ (document.getElementById("name")) : null;
    if (focusTarget) {
      focusTarget.focus();
      focusTarget.select();
    }
  }

  /** Hosting from a TV: its own form at /tv/ (tvhost.js), a room whose host holds no seat. */
  tvHostPanel() {
    return el(
      "section",
      { class: "panel tv-host-link", "aria-labelledby": "tv-host-link-title" },
      el("h2", { id: "tv-host-link-title" }, t("home.tv_host.title")),
      el("p", { class: "hint", id: "tv-host-link-hint" }, t("home.tv_host.hint")),
      el("p", {}, el("a", { href: "/tv/", class: "button-link", id: "host-tv" }, t("home.tv_host.button"))),
    );
  }

  /** The home screen's fields as the player left them: values, choices and the folds opened. */
  fields() {
    /** @type {KeptField[]} */
    const fields = [];
    for (const e of /** @type {NodeListOf<HTMLInputElement>} */ (this.app.root.querySelectorAll("input, select, textarea"))) {
      if (e.id && e.type !== "hidden") fields.push({ id: e.id, name: e.name, value: e.value, checked: e.checked, radio: e.type === "radio" });
    }
    // The folds are drawn again in the same order (some have no id): their places say which is which.
    const open = Array.from(/** @type {NodeListOf<HTMLDetailsElement>} */ (this.app.root.querySelectorAll("details")), (d) => d.open);
    return { fields, open };
  }

  /**
   * Put the fields back. The game and its rules come first, each with its change event, since
   * choosing them draws the fields that depend on them (presets, seats, options); then the rest,
   * as values only (a deal code's input event would choose the game again).
   * @param {{fields: KeptField[], open: boolean[]}} kept
   */
  restoreFields({ fields, open }) {
    /** @param {KeptField} f */
    const put = (f) => {
      const e = /** @type {HTMLInputElement | null} */ (document.getElementById(f.id));
      if (!e) return null;
      if (f.radio || e.type === "checkbox") {
        if (f.radio && !f.checked) return null;
        e.checked = f.checked;
      } else e.value = f.value;
      return e;
    };
    for (const name of ["game", "preset"]) {
      const f = fields.find((x) => x.name === name && (!x.radio || x.checked));
      const e = f && put(f);
      if (e) e.dispatchEvent(new Event("change"));
    }
    for (const f of fields) {
      if (f.name === "game" || f.name === "preset") continue;
      const e = put(f);
      if (e && e.type === "number") e.dispatchEvent(new Event("input")); // its words beside it follow
    }
    // An option shown only under others' values (its spec's `when`) follows the values put back.
    const options = this.app.root.querySelector("form .options");
    if (options) options.dispatchEvent(new Event("change"));
    /** @type {NodeListOf<HTMLDetailsElement>} */
    const folds = this.app.root.querySelectorAll("details");
    if (folds.length === open.length) folds.forEach((d, i) => (d.open = open[i]));
  }

  joinPanel() {
    const status = el("p", { class: "form-status", role: "alert", id: "join-status" });
    const code = el("input", {
      id: "code",
      name: "code",
      type: "text",
      maxlength: 32,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      inputmode: "text",
      "aria-describedby": "code-hint",
      value: this.app.params.get("join") || "",
    });
    const form = el(
      "form",
      {
        id: "join-form",
        onsubmit: (/** @type {SubmitEvent} */ ev) => {
          ev.preventDefault();
          this.app.join(code.value, status);
        },
      },
      el("label", { for: "code" }, t("home.code")),
      code,
      el("p", { class: "hint", id: "code-hint" }, t("home.code.hint")),
      el(
        "div",
        { class: "row" },
        el("button", { type: "submit", class: "primary", id: "join" }, t("home.join.button")),
        el("button", { type: "button", id: "watch", onclick: () => this.app.watch(code.value, status) }, t("home.watch.button")),
        el(
          "button",
          {
            type: "button",
            id: "open-tv",
            onclick: () => {
              const normal = normalizeRoomCode(code.value);
              if (!normal) status.textContent = t("error.code_format");
              else location.assign(`/tv/${normal}`);
            },
          },
          t("home.tv.button"),
        ),
      ),
      status,
    );
    return el(
      "section",
      { class: "panel", "aria-labelledby": "join-title" },
      el("h2", { id: "join-title" }, t("home.join.title")),
      form,
    );
  }

  /** The host form, built from the catalog (or a note that it is on its way). */
  fillHostPanel() {
    const slot = this.hostSlot;
    if (!slot || !slot.isConnected) return;
    const heading = slot.firstElementChild || "";
    if (!this.app.games.ready) {
      slot.replaceChildren(heading, el("p", { class: "hint", id: "host-loading", role: "status" }, t("home.loading")));
      return;
    }
    slot.replaceChildren(heading, this.hostForm());
    // The recent matches name their games by the catalog's titles too: drawn before it came,
    // they said a game's wire name.
    const recent = document.querySelector(".replay-recent");
    const fresh = recent ? recentPanel(this.app) : null;
    if (recent && fresh) recent.replaceWith(fresh);
  }

  hostForm() {
    const games = this.app.games;
    const dealParam = this.app.params.get("deal") || "";
    const status = el("p", { class: "form-status", role: "alert", id: "host-status" });
    const form = el("form", {
      id: "host-form",
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        this.app.host(form, status);
      },
    });
    let wanted = games.readDealCode(dealParam); // {game, preset, seats} a code names, to show first
    const gameBox = el("div", { class: "game-choice" });
    const presetSelect = el("select", { id: "preset", name: "preset" });
    const seatsBox = el("div", { class: "choices", role: "radiogroup", "aria-labelledby": "seats-legend" });
    const seatsMore = el("p", { class: "hint seats-more", id: "seats-more", hidden: true });
    const bots = el("select", { id: "bots", name: "bots" });
    const timer = this.turnLimitField();
    const optionsBox = el("div", { class: "options" });
    const optionsLegend = el("legend", { id: "options-legend" });
    const optionsSet = el("fieldset", {}, optionsLegend, optionsBox);
    const rulesList = el("ul", { class: "rules", id: "rules-summary" });
    const rulesBox = el("details", { class: "rules-box", open: true }, el("summary", {}, t("home.rules.title")), rulesList);
    const currentGame = () => {
      /** @type {HTMLInputElement | null} */
      const checked = gameBox.querySelector("input:checked");
      return games.get(checked ? checked.value : "") || games.list[0];
    };
    // An option that means something only under others' values (its spec's `when`) shows only then.
    const showApplicable = () => this.showApplicableOptions(form, optionsBox, games.preset(currentGame().name, presetSelect.value));
    optionsBox.addEventListener("change", showApplicable);
    const fillPreset = () => {
      const desc = currentGame();
      const preset = games.preset(desc.name, presetSelect.value);
      const [min, max] = preset.seats;
      const seats = wanted && wanted.game === desc.name && wanted.preset === preset.name ? wanted.seats : preset.default_seats;
      const seatChoices = [];
      for (let n = min; n <= max; n++) {
        const id = `seats-${n}`;
        const label = t("home.seats.n", { n }); // one way for every count ("1 vs 2" read as teams)
        seatChoices.push(
          el(
            "span",
            { class: "choice" },
            el("input", { type: "radio", name: "seats", id, value: n, checked: n === seats }),
            el("label", { for: id }, label),
          ),
        );
      }
      seatsBox.replaceChildren(...seatChoices);
      // The rules that seat more, named: the default's few seats with no word why sent a new
      // host through every preset to find a table for five.
      const more = desc.presets
        .filter((/** @type {Preset} */ p) => p.seats[1] > max)
        .sort((/** @type {Preset} */ a, /** @type {Preset} */ b) => b.seats[1] - a.seats[1])[0];
      seatsMore.textContent = more ? t("home.seats.more", { n: more.seats[1], preset: this.app.presetName(desc, more) }) : "";
      seatsMore.hidden = !more;
      // What the host already set stays set when the form is drawn again (a deal code typed after it).
      const kept = new FormData(form);
      optionsBox.replaceChildren(...this.optionFields(desc, preset));
      for (const spec of preset.options || []) {
        if (!kept.has(spec.name) || spec.type === "bool") continue;
        const value = String(kept.get(spec.name));
        if (spec.type === "int") /** @type {HTMLInputElement} */ (form.elements.namedItem(spec.name)).value = value;
        else if ((spec.choices || []).includes(value)) {
          /** @type {HTMLInputElement} */ (form.querySelector(`input[name="${CSS.escape(spec.name)}"][value="${CSS.escape(value)}"]`)).checked = true;
        }
      }
      showApplicable();
      // The options box is named for the rules chosen, never for another preset.
      optionsLegend.textContent = t("home.options.of", { preset: this.app.presetName(desc, preset) });
      optionsSet.hidden = !(preset.options || []).length;
      const lines = this.app.presetRules(desc, preset.name);
      rulesList.replaceChildren(...lines.map((/** @type {string} */ line) => el("li", {}, line)));
      rulesBox.hidden = !lines.length;
    };
    const fillGame = () => {
      const desc = currentGame();
      presetSelect.replaceChildren(
        ...desc.presets.map((/** @type {Preset} */ p) => el("option", { value: p.name }, this.app.presetName(desc, p))),
      );
      presetSelect.value = wanted && wanted.game === desc.name ? wanted.preset : desc.default_preset;
      bots.replaceChildren(...(desc.levels || []).map((/** @type {string} */ lvl) => el("option", { value: lvl }, this.app.levelName(desc, lvl))));
      bots.value = desc.default_level;
      fillPreset();
    };
    if (games.list.length > 1) {
      const legendId = "game-legend";
      const first = wanted ? wanted.game : games.list[0].name;
      gameBox.setAttribute("role", "radiogroup");
      gameBox.setAttribute("aria-labelledby", legendId);
      gameBox.append(
        el("p", { class: "label", id: legendId }, t("home.game")),
        ...games.list.map((/** @type {GameDescription} */ desc) => {
          const id = `game-${desc.name}`;
          return el(
            "span",
            { class: "choice" },
            el("input", { type: "radio", name: "game", id, value: desc.name, checked: desc.name === first, onchange: fillGame }),
            el("label", { for: id }, this.app.gameTitle(desc)),
          );
        }),
      );
    } else {
      // One game: no choice to make, but the form still says which game it hosts.
      gameBox.append(
        el("p", { class: "label" }, t("home.game")),
        el("p", { class: "game-name", id: "game-name" }, this.app.gameTitle(games.list[0])),
        el("input", { type: "hidden", name: "game", value: games.list[0].name }),
      );
    }
    presetSelect.addEventListener("change", () => {
      wanted = null;
      fillPreset();
    });
    const deal = el("input", {
      id: "deal-code",
      name: "deal_code",
      type: "text",
      maxlength: 40,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      "aria-describedby": "deal-hint",
      value: dealParam,
    });
    // A code the page can read shows its game, rules and seats in the form as it is typed.
    deal.addEventListener("input", () => {
      const read = games.readDealCode(deal.value);
      if (!read) return;
      wanted = read;
      const radio = /** @type {HTMLInputElement | null} */ (document.getElementById(`game-${read.game}`));
      if (radio) radio.checked = true;
      fillGame();
    });
    // What a new host needs is on the first screen (the game, its rules, the table, the button);
    // the bots' level, the preset's options and a deal code are one click further.
    form.append(
      gameBox,
      el("label", { for: "preset" }, t("home.preset")),
      presetSelect,
      el("p", { class: "label", id: "seats-legend" }, t("home.seats")),
      seatsBox,
      seatsMore,
      el("button", { type: "submit", class: "primary big", id: "host" }, t("home.host.button")),
      status,
      el(
        "details",
        { class: "more-options", id: "more-options", open: !!dealParam },
        el("summary", {}, t("home.more")),
        el("label", { for: "bots" }, t("home.bots")),
        bots,
        timer,
        optionsSet,
        talkFields(null, "host"),
        el(
          "details",
          { class: "deal-box", open: !!dealParam, hidden: !games.list.some((/** @type {GameDescription} */ g) => g.deal_codes) },
          el("summary", {}, t("home.deal_code")),
          el("label", { for: "deal-code" }, t("home.deal_code")),
          deal,
          el("p", { class: "hint", id: "deal-hint" }, t("home.deal_code.hint")),
        ),
      ),
      rulesBox,
    );
    fillGame();
    return form;
  }

  /**
   * The turn timer of the host form: off, or seconds a turn among common choices that the
   * server's limits (``welcome.limits.turn_limit_s``) allow. When the time is up the server plays
   * the seat's default move (each game says which); the table shows the seconds left.
   */
  turnLimitField() {
    const [min, max] = (this.app.conn.limits && this.app.conn.limits.turn_limit_s) || [5, 600];
    const choices = [15, 30, 60, 120].filter((n) => n >= min && n <= max);
    const select = el(
      "select",
      { id: "turn-limit", name: "turn_limit_s" },
      el("option", { value: "" }, t("home.turn_limit.off")),
      ...choices.map((n) => el("option", { value: n }, t("home.turn_limit.s", { n }))),
    );
    return [el("label", { for: "turn-limit" }, t("home.turn_limit")), select];
  }

  /**
   * The preset's option fields, each marked with its option's name (for its `when`).
   * @param {GameDescription} desc
   * @param {Preset} preset
   */
  optionFields(desc, preset) {
    return (preset.options || []).map((/** @type {OptionSpec} */ spec) => {
      const field = this.optionField(desc, spec);
      field.dataset.option = spec.name;
      return field;
    });
  }

  /**
   * In a host form's ``box``, only the options that mean something under the form's values (`when`).
   * @param {HTMLFormElement} form
   * @param {HTMLElement} box
   * @param {Preset} preset
   */
  showApplicableOptions(form, box, preset) {
    const values = this.app.formOptions(form, preset);
    for (const spec of preset.options || []) {
      /** @type {HTMLElement | null} */
      const field = box.querySelector(`[data-option="${CSS.escape(spec.name)}"]`);
      if (field) field.hidden = !optionApplies(spec, values);
    }
  }

  /**
   * One option of a preset, as its spec says: int a number field, choice radios, bool a checkbox.
   * @param {GameDescription} desc
   * @param {OptionSpec} spec
   */
  optionField(desc, spec) {
    const id = `opt-${spec.name}`;
    const label = this.app.optionLabel(desc, spec);
    if (spec.type === "int") {
      if (spec.unit === "ms") {
        // Milliseconds on the wire, seconds in the form (1500 shows 1.5): the unit's word beside it.
        const unitId = `${id}-unit`;
        const input = el("input", {
          id,
          name: spec.name,
          type: "number",
          inputmode: "decimal",
          value: formNumber(spec, spec.default),
          min: formNumber(spec, spec.min),
          max: formNumber(spec, spec.max),
          step: formStep(spec),
          required: true,
          "aria-describedby": unitId,
          "data-unit": spec.unit,
        });
        return el("div", { class: "field" }, el("label", { for: id }, label), input, el("span", { id: unitId, class: "option-unit" }, t("unit.seconds")));
      }
      // The number as the game says it to a player (its "<label>.value"), beside the field, as typed.
      const said = hasText(desc.name, `${spec.label || `option.${spec.name}`}.value`);
      const shown = said ? el("output", { id: `${id}-value`, for: id, class: "option-value" }, this.app.optionValue(desc, spec, spec.default)) : null;
      const input = el("input", {
        id,
        name: spec.name,
        type: "number",
        inputmode: "numeric",
        value: spec.default,
        min: spec.min,
        max: spec.max,
        step: spec.step || 1,
        required: true,
        oninput: shown ? () => (shown.textContent = this.app.optionValue(desc, spec, Number(input.value))) : undefined,
      });
      return el("div", { class: "field" }, el("label", { for: id }, label), input, shown);
    }
    if (spec.type === "bool") {
      return el(
        "div",
        { class: "field check" },
        el("input", { id, name: spec.name, type: "checkbox", checked: !!spec.default }),
        el("label", { for: id }, label),
      );
    }
    const legendId = nextId("legend");
    return el(
      "div",
      { class: "field", role: "radiogroup", "aria-labelledby": legendId },
      el("p", { class: "label", id: legendId }, label),
      (spec.choices || []).map((/** @type {string} */ value) => {
        const rid = `${id}-${value}`;
        return el(
          "span",
          { class: "choice" },
          el("input", { type: "radio", name: spec.name, id: rid, value, checked: value === spec.default }),
          el("label", { for: rid }, this.app.choiceLabel(desc, spec, value)),
        );
      }),
    );
  }
}
