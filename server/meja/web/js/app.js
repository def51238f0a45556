// The browser client of Meja: home, lobby and table screens over one WebSocket.
//
// The server is authoritative (PROTOCOL.md): the client sends requests and draws what the
// server sends; it never decides what is legal (the view's `legal`, `can_draw`/`can_pass`
// and their reasons do). What the client keeps:
//
// * localStorage "meja.seats": for each table this browser sits at, the seat token (and
//   the host token for the host), the room code and the last version seen; "meja.current"
//   names the table to return to. Closing the tab and opening the page again resumes that
//   seat exactly (crazy-eights.md 1.9.2): the server holds the state, the token proves the
//   seat. The fair-deal commitments and reveals of the table are kept beside it, so a
//   round summary can check its deal after a reload too.
// * the move log of this page (not stored).
//
// Screens follow the table's status: no table -> home; "lobby" -> lobby; "playing" or
// "finished" -> table (TableScreen in table.js).

import { Connection } from "./net.js";
import { LANGUAGES, initialLanguage, language, setLanguage, t } from "./strings.js";
import { TableScreen } from "./table.js";
import { copyText, el, nextId, spacedCode } from "./ui.js";

const SEATS_KEY = "meja.seats";
const CURRENT_KEY = "meja.current";
const LANG_KEY = "meja.lang";
const NAME_KEY = "meja.name";
const PRESETS = {
  house: { seats: [2, 3], options: ["target"] },
  classic: { seats: [2, 3, 4], options: ["target", "drawn_card_play"] },
  party: { seats: [2, 3, 4, 5, 6, 7, 8], options: ["match_mode", "target", "rounds", "starter_eight_chooser"] },
};
const BOT_LEVELS = ["easy", "normal", "hard"];
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// --------------------------------------------------------------------------- storage

function loadJSON(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch (err) {
    return fallback;
  }
}

function saveJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (err) {
    /* private mode or full: the game still works, only resuming after a reload does not */
  }
}

const store = {
  seats() {
    return loadJSON(SEATS_KEY, {});
  },
  seat(table) {
    return this.seats()[table] || null;
  },
  putSeat(table, info) {
    const all = this.seats();
    all[table] = { ...(all[table] || {}), ...info, saved_ms: Date.now() };
    saveJSON(SEATS_KEY, all);
    return all[table];
  },
  forget(table) {
    const all = this.seats();
    delete all[table];
    saveJSON(SEATS_KEY, all);
    if (this.current() === table) localStorage.removeItem(CURRENT_KEY);
  },
  current() {
    return localStorage.getItem(CURRENT_KEY);
  },
  setCurrent(table) {
    if (table) localStorage.setItem(CURRENT_KEY, table);
    else localStorage.removeItem(CURRENT_KEY);
  },
  /** The most recently used seat, for "continue your game". */
  latest() {
    const list = Object.entries(this.seats()).map(([table, info]) => ({ table, ...info }));
    list.sort((a, b) => (b.saved_ms || 0) - (a.saved_ms || 0));
    return list[0] || null;
  },
};

// --------------------------------------------------------------------------- codes

/** A room code as typed, read like the server reads it (any case, I/L = 1, O = 0), or null. */
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

/** Preset and seat count named by a deal code (its first ten bits; the server checks the rest). */
export function dealCodeSpec(text) {
  const chars = [];
  for (const raw of String(text).trim().toUpperCase()) {
    if (raw === "-" || raw === " ") continue;
    const c = raw === "I" || raw === "L" ? "1" : raw === "O" ? "0" : raw;
    const v = CODE_ALPHABET.indexOf(c);
    if (v < 0) return null;
    chars.push(v);
  }
  if (chars.length !== 11) return null;
  const top = (chars[0] << 5) | chars[1];
  const preset = ["house", "classic", "party"][(top >> 6) & 3];
  if (top >> 8 !== 1 || !preset) return null;
  return { preset, seats: ((top >> 3) & 7) + 2, leader: top & 7 };
}

// --------------------------------------------------------------------------- the app

class App {
  constructor() {
    this.root = document.getElementById("app");
    this.banner = document.getElementById("banner");
    this.toast = document.getElementById("toast");
    this.table = null; // the table summary of the last state/update
    this.version = 0;
    this.seat = null;
    this.isHost = false;
    this.view = null;
    this.tableId = null; // the table this page is at (seat or spectator)
    this.spectating = false;
    this.screen = null;
    this.tableScreen = null;
    this.homeNotice = null;
    this.queue = Promise.resolve();
    this.catchingUp = false;
    this.params = new URLSearchParams(location.search);
    setLanguage(initialLanguage(localStorage.getItem(LANG_KEY), navigator.languages || [navigator.language]));
    this.buildHeader();
    this.conn = new Connection({
      onOpen: () => this.onOpen(),
      onMessage: (msg) => this.enqueue(msg),
      onStatus: (status) => this.onStatus(status),
    });
    const current = store.current();
    if (current && store.seat(current)) {
      this.tableId = current;
      this.showMessageScreen(t("conn.connecting"));
    } else {
      const watch = this.params.get("watch");
      if (watch) this.pendingWatch = watch;
      this.showHome();
    }
    this.conn.connect();
  }

  // ------------------------------------------------------------------ header and banner

  buildHeader() {
    const select = document.getElementById("lang");
    select.replaceChildren(
      ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code }, name)),
    );
    select.value = language();
    select.addEventListener("change", () => {
      setLanguage(select.value);
      localStorage.setItem(LANG_KEY, select.value);
      this.relabel();
    });
    document.getElementById("home-link").addEventListener("click", (ev) => {
      ev.preventDefault();
      this.goHome();
    });
    this.relabelStatic();
  }

  relabelStatic() {
    document.title = t("app.title");
    document.getElementById("app-title").textContent = t("app.title");
    document.getElementById("lang-label").textContent = t("lang.label");
    document.getElementById("home-link").textContent = t("nav.home");
    document.getElementById("skip-link").textContent = t("nav.skip");
  }

  relabel() {
    this.relabelStatic();
    if (this.lastStatus) this.onStatus(this.lastStatus);
    if (this.screen === "home") this.showHome();
    else if (this.screen === "lobby") this.showLobby();
    else if (this.screen === "table" && this.tableScreen) this.tableScreen.relabel();
  }

  onStatus(status) {
    this.lastStatus = status;
    if (status.state !== "open" && status.state !== "connecting" && this.resuming) {
      // The connection closed before the resume's state came: that resume failed.
      if (this.resuming.since !== undefined) this.sinceFailed = true;
      this.resuming = null;
    }
    clearInterval(this.countdown);
    const b = this.banner;
    b.replaceChildren();
    b.className = "banner";
    if (status.state === "open") {
      b.hidden = true;
      return;
    }
    // Before the first connection, and on the home screen, a quiet notice is enough.
    if (status.state === "connecting") {
      if (!this.everOpen) {
        b.hidden = true;
        return;
      }
      b.hidden = false;
      b.append(el("span", {}, t("conn.connecting")));
      return;
    }
    b.hidden = false;
    if (status.state === "waiting") {
      b.classList.add("warn");
      const due = Date.now() + status.delayMs;
      const text = el("span", {}, t("conn.lost", { s: Math.ceil(status.delayMs / 1000) }));
      this.countdown = setInterval(() => {
        text.textContent = t("conn.lost", { s: Math.max(0, Math.ceil((due - Date.now()) / 1000)) });
      }, 500);
      b.append(text, el("button", { type: "button", onclick: () => this.conn.reconnectNow() }, t("conn.retry_now")));
      return;
    }
    if (status.state === "closed") {
      b.classList.add("error");
      if (status.code === 4001) {
        b.append(
          el("span", {}, t("conn.replaced")),
          el("button", { type: "button", onclick: () => this.conn.connect() }, t("conn.take_back")),
        );
      } else {
        b.append(el("span", {}, t("error.generic", { message: `close ${status.code}` })));
      }
    }
  }

  showToast(text) {
    this.toast.textContent = text;
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, 5000);
  }

  errorText(err) {
    const key = `error.${err.code}`;
    const text = t(key, { message: err.message });
    return text === key ? t("error.generic", { message: err.message }) : text;
  }

  // ------------------------------------------------------------------ connection

  async onOpen() {
    this.everOpen = true;
    if (this.tableId && !this.spectating) {
      const info = store.seat(this.tableId);
      if (info) {
        await this.resume(this.tableId, info);
        return;
      }
    }
    if (this.tableId && this.spectating) {
      const since = this.version && !this.sinceFailed ? this.version : undefined;
      this.resuming = { since };
      this.conn.request({ type: "watch", table: this.tableId, since }).catch((err) => {
        if (err.code !== "connection/closed") this.leaveToHome(this.errorText(err));
      });
      return;
    }
    if (this.pendingWatch) {
      const code = this.pendingWatch;
      this.pendingWatch = null;
      this.watch(code);
      return;
    }
    this.conn.healthy(); // nothing to come back to: the welcome was all this connection needed
  }

  async resume(tableId, info) {
    const msg = { type: "resume", table: tableId, token: info.token };
    // Within one page, ask for what was missed since the last version seen; after a
    // reload the page has nothing to add events to, so the current state is enough.
    // After a resume with `since` failed (the connection closed before the state came, as
    // when the server's outbox overflows on a far-behind catch-up, close 4004), the next
    // one asks for the state alone: it gives the whole picture, and asking for the same
    // catch-up again would fail the same way.
    if (this.tableId === tableId && this.view !== null && this.version && !this.sinceFailed) msg.since = this.version;
    if (info.host_token) msg.host_token = info.host_token;
    this.catchingUp = true;
    this.resuming = { since: msg.since };
    try {
      await this.conn.request(msg);
    } catch (err) {
      this.catchingUp = false;
      if (err.code === "auth/bad_token" || err.code === "table/not_found") {
        store.forget(tableId);
        this.leaveToHome(this.errorText(err));
      } else if (err.code !== "connection/closed") {
        this.leaveToHome(this.errorText(err));
      }
    }
  }

  /** Messages are handled one at a time, in order, so that a reshuffle can pause the table. */
  enqueue(msg) {
    this.queue = this.queue.then(() => this.handle(msg)).catch((err) => console.error(err));
  }

  async handle(msg) {
    switch (msg.type) {
      case "joined": {
        const prev = store.seat(msg.table) || {};
        store.putSeat(msg.table, {
          code: msg.code,
          link: msg.link,
          seat: msg.seat,
          token: msg.token,
          host_token: msg.host_token || prev.host_token,
          name: prev.name || this.pendingName || "",
        });
        store.setCurrent(msg.table);
        this.tableId = msg.table;
        this.spectating = false;
        break;
      }
      case "state":
        this.catchingUp = false;
        // The resume (or watch) worked: only now does the connection's backoff start again from the least.
        this.resuming = null;
        this.sinceFailed = false;
        this.conn.healthy();
        this.apply(msg, []);
        break;
      case "update": {
        if (this.tableId && msg.table && msg.table.id && msg.table.id !== this.tableId) break;
        const events = msg.events || [];
        if (this.screen === "table" && this.tableScreen && !this.catchingUp) {
          await this.tableScreen.beforeUpdate(events, msg);
        }
        this.apply(msg, events);
        break;
      }
      case "error":
        this.showToast(this.errorText(msg));
        break;
      default:
        break;
    }
  }

  apply(msg, events) {
    const table = msg.table;
    if (!table || typeof table !== "object") return;
    if (this.tableId && table.id && table.id !== this.tableId) return;
    this.table = table;
    this.tableId = table.id || this.tableId;
    this.version = msg.version;
    this.seat = msg.seat;
    this.isHost = !!msg.is_host;
    this.view = msg.view || null;
    this.recordFairness(table, events);
    if (!this.spectating && this.seat !== null && this.seat !== undefined) {
      store.putSeat(this.tableId, { since: this.version, code: table.code, link: table.link });
    }
    if (table.status === "lobby" || !this.view) {
      this.showLobby();
    } else {
      this.showTable(events);
    }
  }

  /** Commitments (round start) and reveals (round end), kept with the seat (PROTOCOL.md 7). */
  recordFairness(table, events) {
    const fair = this.fair || (this.fair = (store.seat(this.tableId) || {}).fair || {});
    const put = (round, data) => {
      fair[round] = { ...(fair[round] || {}), ...data };
    };
    if (table.commitment && table.commitment.round !== undefined) {
      put(table.commitment.round, { hash: table.commitment.hash });
    }
    for (const ev of events) {
      const kind = ev.kind;
      if (kind === "commitment") put(ev.round, { hash: ev.hash });
      if (kind === "reveal") put(ev.round, { deal_code: ev.deal_code, salt: ev.salt });
    }
    if (!this.spectating && store.seat(this.tableId)) store.putSeat(this.tableId, { fair });
  }

  // ------------------------------------------------------------------ actions

  playerName() {
    const input = document.getElementById("name");
    const name = (input ? input.value : localStorage.getItem(NAME_KEY) || "").trim();
    return name;
  }

  checkName(name, status) {
    if (!name || name.length > 24) {
      status.textContent = t("error.name");
      document.getElementById("name").focus();
      return false;
    }
    localStorage.setItem(NAME_KEY, name);
    this.pendingName = name;
    return true;
  }

  async host(form, status) {
    const name = this.playerName();
    if (!this.checkName(name, status)) return;
    const data = new FormData(form);
    const preset = data.get("preset");
    const options = { preset };
    for (const key of PRESETS[preset].options) {
      const value = data.get(key);
      if (value === null || value === "") continue;
      options[key] = key === "target" || key === "rounds" ? Number(value) : value;
    }
    if (options.match_mode !== "wins") delete options.rounds;
    const msg = {
      type: "host",
      game: "crazy_eights",
      name,
      options,
      seats: Number(data.get("seats")),
      bots: data.get("bots"),
    };
    const deal = String(data.get("deal_code") || "").trim();
    if (deal) msg.deal_code = deal;
    await this.enter(msg, status);
  }

  async join(code, status) {
    const name = this.playerName();
    const normal = normalizeRoomCode(code);
    if (!normal) {
      status.textContent = t("error.code_format");
      return;
    }
    if (!this.checkName(name, status)) return;
    await this.enter({ type: "join", code: normal, name }, status);
  }

  async enter(msg, status) {
    status.textContent = "";
    this.spectating = false;
    this.tableId = null;
    this.fair = null;
    try {
      await this.conn.request(msg);
    } catch (err) {
      status.textContent = this.errorText(err);
    }
  }

  async watch(code, status) {
    const normal = normalizeRoomCode(code);
    if (!normal) {
      if (status) status.textContent = t("error.code_format");
      return;
    }
    this.spectating = true;
    this.tableId = null;
    this.fair = {};
    try {
      await this.conn.request({ type: "watch", code: normal });
    } catch (err) {
      this.spectating = false;
      if (status) status.textContent = this.errorText(err);
      else this.showToast(this.errorText(err));
    }
  }

  /** Send a table request (act, seat, start, rematch); errors show as a notice. */
  async send(msg) {
    try {
      return await this.conn.request({ ...msg, table: this.tableId });
    } catch (err) {
      // Not connected: the banner says so and the client is reconnecting; nothing was sent.
      this.showToast(err.code === "connection/closed" ? t("conn.not_sent") : this.errorText(err));
      return null;
    }
  }

  act(action) {
    return this.send({ type: "act", version: this.version, action });
  }

  async leave() {
    if (this.tableId && !this.spectating) {
      await this.send({ type: "leave" });
      store.forget(this.tableId);
    }
    this.leaveToHome(null);
  }

  goHome() {
    // Going home keeps the seat: "continue your game" brings the player back.
    this.screen = null;
    this.tableId = null;
    this.spectating = false;
    this.view = null;
    this.table = null;
    this.fair = null;
    store.setCurrent(null);
    this.showHome();
  }

  leaveToHome(notice) {
    this.homeNotice = notice;
    this.goHome();
  }

  async continueAt(table) {
    const info = store.seat(table);
    if (!info) return;
    store.setCurrent(table);
    this.tableId = table;
    this.spectating = false;
    this.fair = info.fair || {};
    this.showMessageScreen(t("conn.connecting"));
    if (this.conn.ready) await this.resume(table, info);
    else this.conn.connect();
  }

  // ------------------------------------------------------------------ screens

  mount(screen, node) {
    if (this.screen === "table" && screen !== "table" && this.tableScreen) {
      this.tableScreen.destroy();
      this.tableScreen = null;
    }
    this.screen = screen;
    document.body.dataset.screen = screen;
    this.root.replaceChildren(node);
  }

  showMessageScreen(text) {
    this.mount("message", el("section", { class: "panel" }, el("p", { role: "status" }, text)));
  }

  showHome() {
    const latest = store.latest();
    const savedName = localStorage.getItem(NAME_KEY) || "";
    const nameId = "name";
    const children = [];
    children.push(el("p", { class: "tagline" }, t("app.tagline")));
    if (this.homeNotice) children.push(el("p", { class: "notice", role: "alert" }, this.homeNotice));
    this.homeNotice = null;
    if (latest) {
      children.push(
        el(
          "section",
          { class: "panel continue", "aria-labelledby": "continue-title" },
          el("h2", { id: "continue-title" }, t("home.continue.title")),
          el("p", {}, t("home.continue.text", { code: spacedCode(latest.code) })),
          el(
            "div",
            { class: "row" },
            el(
              "button",
              { type: "button", class: "primary", id: "continue", onclick: () => this.continueAt(latest.table) },
              t("home.continue.button", { code: spacedCode(latest.code) }),
            ),
            el(
              "button",
              {
                type: "button",
                onclick: () => {
                  store.forget(latest.table);
                  this.showHome();
                },
              },
              t("home.continue.forget"),
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
          value: savedName || t("home.name.default"),
          required: true,
        }),
      ),
    );
    // An invite link (?join=CODE) puts joining first; otherwise hosting comes first.
    if (this.params.get("join")) children.push(this.joinPanel(), this.hostPanel());
    else children.push(this.hostPanel(), this.joinPanel());
    this.mount("home", el("div", { class: "home" }, children));
    const focusTarget = this.params.get("join") ? document.getElementById("code") : null;
    if (focusTarget) focusTarget.focus();
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
      value: this.params.get("join") || "",
    });
    const form = el(
      "form",
      {
        id: "join-form",
        onsubmit: (ev) => {
          ev.preventDefault();
          this.join(code.value, status);
        },
      },
      el("label", { for: "code" }, t("home.code")),
      code,
      el("p", { class: "hint", id: "code-hint" }, t("home.code.hint")),
      el(
        "div",
        { class: "row" },
        el("button", { type: "submit", class: "primary", id: "join" }, t("home.join.button")),
        el("button", { type: "button", id: "watch", onclick: () => this.watch(code.value, status) }, t("home.watch.button")),
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

  hostPanel() {
    const dealParam = this.params.get("deal") || "";
    const spec = dealParam ? dealCodeSpec(dealParam) : null;
    const status = el("p", { class: "form-status", role: "alert", id: "host-status" });
    const presetSelect = el(
      "select",
      { id: "preset", name: "preset" },
      Object.keys(PRESETS).map((p) => el("option", { value: p }, t(`preset.${p}`))),
    );
    presetSelect.value = spec ? spec.preset : "house";
    const seatsBox = el("div", { class: "choices", role: "radiogroup", "aria-labelledby": "seats-legend" });
    const optionsBox = el("div", { class: "options" });
    const rulesList = el("ul", { class: "rules", id: "rules-summary" });
    const fillPreset = () => {
      const preset = presetSelect.value;
      const conf = PRESETS[preset];
      const wanted = spec && spec.preset === preset ? spec.seats : conf.seats.includes(3) ? 3 : conf.seats[0];
      seatsBox.replaceChildren(
        ...conf.seats.map((n) => {
          const id = `seats-${n}`;
          const label = n === 2 || n === 3 ? t(`home.seats.${n}`) : t("home.seats.n", { n });
          return el(
            "span",
            { class: "choice" },
            el("input", { type: "radio", name: "seats", id, value: n, checked: n === wanted }),
            el("label", { for: id }, label),
          );
        }),
      );
      optionsBox.replaceChildren(...conf.options.map((key) => optionField(key, preset)));
      rulesList.replaceChildren(...t(`rules.${preset}`).map((line) => el("li", {}, line)));
    };
    presetSelect.addEventListener("change", fillPreset);
    const bots = el(
      "select",
      { id: "bots", name: "bots" },
      BOT_LEVELS.map((lvl) => el("option", { value: lvl }, t(`bot.${lvl}`))),
    );
    bots.value = "normal";
    const deal = el("input", {
      id: "deal-code",
      name: "deal_code",
      type: "text",
      maxlength: 32,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      "aria-describedby": "deal-hint",
      value: dealParam,
    });
    const form = el(
      "form",
      {
        id: "host-form",
        onsubmit: (ev) => {
          ev.preventDefault();
          this.host(form, status);
        },
      },
      el("label", { for: "preset" }, t("home.preset")),
      presetSelect,
      el("p", { class: "label", id: "seats-legend" }, t("home.seats")),
      seatsBox,
      el("label", { for: "bots" }, t("home.bots")),
      bots,
      el("fieldset", {}, el("legend", {}, t("home.options")), optionsBox),
      el(
        "details",
        { class: "rules-box", open: true },
        el("summary", {}, t("home.rules.title")),
        rulesList,
      ),
      el(
        "details",
        { class: "deal-box", open: !!dealParam },
        el("summary", {}, t("home.deal_code")),
        el("label", { for: "deal-code" }, t("home.deal_code")),
        deal,
        el("p", { class: "hint", id: "deal-hint" }, t("home.deal_code.hint")),
      ),
      el("button", { type: "submit", class: "primary", id: "host" }, t("home.host.button")),
      status,
    );
    fillPreset();
    return el(
      "section",
      { class: "panel", "aria-labelledby": "host-title" },
      el("h2", { id: "host-title" }, t("home.host.title")),
      form,
    );
  }

  showLobby() {
    const table = this.table;
    if (!table) return;
    const link = table.link || "";
    const code = table.code || "";
    const fallback = el("input", {
      type: "text",
      readonly: true,
      hidden: true,
      class: "copy-fallback",
      id: "copy-fallback",
      "aria-label": t("lobby.copy_failed"),
    });
    const copied = el("p", { class: "form-status", role: "status", id: "copy-status" });
    const copy = async (text) => {
      const ok = await copyText(text, fallback);
      copied.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
    };
    const buttons = [
      el("button", { type: "button", id: "copy-code", onclick: () => copy(code) }, t("lobby.copy_code")),
      el("button", { type: "button", id: "copy-link", onclick: () => copy(link) }, t("lobby.copy_link")),
    ];
    if (navigator.share) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            id: "share",
            onclick: () => navigator.share({ title: t("app.title"), text: t("lobby.share.text", { code }), url: link }).catch(() => {}),
          },
          t("lobby.share"),
        ),
      );
    }
    const qr = el("img", {
      class: "qr",
      src: `/qr/${encodeURIComponent(code)}.svg`,
      alt: t("lobby.qr"),
      width: 180,
      height: 180,
    });
    qr.addEventListener("error", () => {
      qr.hidden = true;
    });
    const seats = el(
      "ul",
      { class: "seats", id: "seats" },
      (table.seats || []).map((s) => this.lobbySeat(s, table)),
    );
    const start = this.isHost
      ? el("button", { type: "button", class: "primary big", id: "start", onclick: () => this.send({ type: "start" }) }, t("lobby.start"))
      : el("p", { class: "hint" }, t("lobby.start.wait"));
    const node = el(
      "div",
      { class: "lobby" },
      el(
        "section",
        { class: "panel", "aria-labelledby": "lobby-title" },
        el("h2", { id: "lobby-title" }, t("lobby.title")),
        el("p", { class: "label", id: "room-code-label" }, t("lobby.code")),
        el("p", { class: "room-code", id: "room-code", "aria-hidden": "true" }, spacedCode(code)),
        el("p", { class: "visually-hidden" }, t("lobby.code.spoken", { spelled: code.split("").join(" ") })),
        el("div", { class: "row" }, buttons),
        fallback,
        copied,
        el(
          "div",
          { class: "invite" },
          qr,
          el("p", {}, el("span", { class: "label" }, `${t("lobby.link")}: `), el("a", { href: link, id: "invite-link" }, link)),
        ),
      ),
      el(
        "section",
        { class: "panel", "aria-labelledby": "seats-title" },
        el("h2", { id: "seats-title" }, t("lobby.seats")),
        seats,
        el(
          "div",
          { class: "row" },
          start,
          el("button", { type: "button", id: "leave", onclick: () => this.leave() }, t("nav.leave")),
        ),
      ),
    );
    const focused = document.activeElement && document.activeElement.id;
    this.mount("lobby", node);
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  lobbySeat(s, table) {
    const bits = [];
    if (s.kind === "empty") bits.push(t("seat.empty"));
    else if (s.kind === "bot") bits.push(t("seat.bot_name", { n: s.seat + 1 }));
    else bits.push(s.name);
    const notes = [];
    if (s.kind === "bot") notes.push(t("seat.level", { level: t(`bot.${s.level || "normal"}`) }));
    if (s.seat === table.host_seat) notes.push(t("lobby.host"));
    if (s.seat === this.seat) notes.push(t("lobby.you"));
    if (s.kind === "human" && !s.connected) notes.push(t("seat.offline"));
    const controls = [];
    if (this.isHost && s.seat !== this.seat && s.kind !== "human") {
      const to = s.kind === "bot" ? "empty" : "bot";
      controls.push(
        el(
          "button",
          {
            type: "button",
            class: "small",
            "aria-label": `${t(to === "bot" ? "lobby.seat.to_bot" : "lobby.seat.to_empty")}: ${t("seat.label", { n: s.seat + 1 })}`,
            onclick: () => this.send({ type: "seat", seat: s.seat, to }),
          },
          t(to === "bot" ? "lobby.seat.to_bot" : "lobby.seat.to_empty"),
        ),
      );
    }
    return el(
      "li",
      { class: `seat seat-${s.kind}`, dataset: { seat: s.seat } },
      el("span", { class: "seat-no" }, t("seat.label", { n: s.seat + 1 })),
      el("span", { class: "seat-name" }, bits.join(" ")),
      notes.length ? el("span", { class: "seat-notes" }, `(${notes.join(", ")})`) : null,
      controls,
    );
  }

  showTable(events) {
    if (this.screen !== "table" || !this.tableScreen) {
      this.tableScreen = new TableScreen(this);
      this.mount("table", this.tableScreen.node);
      this.tableScreen.render(events, true);
    } else {
      this.tableScreen.render(events, false);
    }
  }
}

function optionField(key, preset) {
  const id = `opt-${key}`;
  const defaults = { target: 100, rounds: 5 };
  if (key === "target" || key === "rounds") {
    const attrs = key === "target" ? { min: 10, max: 1000, step: 10 } : { min: 1, max: 50, step: 1 };
    return el(
      "div",
      { class: "field" },
      el("label", { for: id }, t(`home.${key}`)),
      el("input", { id, name: key, type: "number", inputmode: "numeric", value: defaults[key], ...attrs }),
    );
  }
  const choices = {
    match_mode: ["points", "wins"],
    drawn_card_play: ["forced", "optional"],
    starter_eight_chooser: ["dealer", "first_player"],
  }[key];
  const legendId = nextId("legend");
  return el(
    "div",
    { class: "field", role: "radiogroup", "aria-labelledby": legendId },
    el("p", { class: "label", id: legendId }, t(`home.${key}`)),
    choices.map((value, i) => {
      const rid = `${id}-${value}`;
      return el(
        "span",
        { class: "choice" },
        el("input", { type: "radio", name: key, id: rid, value, checked: i === 0 }),
        el("label", { for: rid }, t(`home.${key}.${value}`)),
      );
    }),
  );
}

window.meja = new App();
