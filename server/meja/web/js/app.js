// @ts-check
// The page shell of Meja: home, host form, lobby, the table frame and the shared screen over
// one WebSocket, for any game the server offers. The shell never names a game: each game's
// description comes in `welcome.catalog`, and what is the game's own on the table (card
// faces, its centre, its actions, its moves in words, its round details, its rules in plain
// words) comes from its page module.
//
// The server is authoritative (PROTOCOL.md): the page sends requests and draws what the
// server sends; it never decides what is legal (the view's `legal` and the reasons the
// game's view gives do). What the page keeps:
//
// * localStorage "meja.seats": for each table this browser sits at, the seat token (and
//   the host token for the host), the room code and the last version seen; "meja.current"
//   names the table to return to. Closing the tab and opening the page again resumes that
//   seat exactly: the server holds the state, the token proves the seat. The fair-deal
//   commitments and reveals of the table are kept beside it, so a round summary can check
//   its deal after a reload too.
// * the move log: the events of this table as they came (not stored). After a reload the
//   resume asks for the latest versions again (`since`, PROTOCOL.md 9: the server replays
//   each missed version's events), so the log, the seats' last moves and the caption are
//   rebuilt from what the server sends; a language switch draws the log again in words.
//
// Screens follow the table's status: no table -> home (Home in home.js); "lobby" -> lobby
// (Lobby in lobby.js); "playing" or "finished" -> table (TableScreen in table.js). `/tv/<code>`
// is the shared screen: a spectator of that room (never a seat, so never a hand), with the room
// code and a QR code to join while in the lobby, then the table for a room to read (TableScreen
// with `tv`).
//
// The game module interface
// -------------------------
// A game's page module is the ES module at its catalog entry's `page` ("/games/<name>/page.js"),
// imported by name when the catalog arrives (games.js). What it exports (strings, stylesheet,
// readDealCode, rules, createTable) and what the shell passes it (the `host`), and what its
// table's `render(view)` says the frame shows, are written once, as JSDoc types, in
// contract.js (GameModule, Host, GameTable, Frame, Move); `make lint`'s type check holds each
// game's module to them. A game whose `page` is null (or whose module does not load) is drawn
// by the generic renderer (generic.js): its view's fields as a list, its legal actions as buttons.

import { Attention } from "./attention.js";
import { Call } from "./call.js";
import { Games, optionApplies, wireNumber } from "./games.js";
import { Home, NAME_KEY, normalizeRoomCode } from "./home.js";
import { Learn } from "./learn.js";
import { LINK_START, linkAfter } from "./link.js";
import { Lobby, isLoopback } from "./lobby.js";
import { Replay, rememberReplay, replayId } from "./replay.js";
import { DealBoardScreen, dealBoardCode } from "./dealboard.js";
import { Connection } from "./net.js";
import { registerWorker } from "./pwa.js";
import { Sound } from "./sound.js";
import { LANGUAGES, gameText, hasText, initialLanguage, isolate, language, readable, setLanguage, t, textFor } from "./strings.js";
import { TableScreen, isLogged } from "./table.js";
import { Talk, talkFromForm } from "./talk.js";
import { hostStrip, pageArrows, remoteKeys, tvHostScreen } from "./tvhost.js";
import { el, spacedCode } from "./ui.js";

/** @typedef {import("./contract.js").TableMap} TableMap */
/** @typedef {import("./contract.js").View} View */
/** @typedef {import("./contract.js").GameEvent} GameEvent */
/** @typedef {import("./contract.js").Action} Action */
/** @typedef {import("./games.js").GameDescription} GameDescription */
/** @typedef {import("./link.js").Link} Link */
/** A message of the wire (net.js): `type` and its fields. @typedef {import("./net.js").Message} Message */
/** A preset of the catalog (PROTOCOL.md 6). @typedef {Record<string, any>} Preset */
/** An option spec of the catalog (PROTOCOL.md 6). @typedef {Record<string, any>} OptionSpec */
/** What the connection says for the banner (net.js onStatus). @typedef {{state: string, delayMs?: number, code?: number}} Status */
/** An error of a request (net.js RequestError, or the server's `error` message): its code and message. @typedef {{code: string, message: string}} WireError */
/**
 * A seat this browser holds (or a room its shared screen hosts), as "meja.seats" keeps it by table id.
 * @typedef {Record<string, any>} SeatInfo
 */
/** A round's fair-deal record: the commitment's hash, then the reveal (PROTOCOL.md 7, 12). @typedef {Record<string, any>} FairRound */

const SEATS_KEY = "meja.seats";
const CURRENT_KEY = "meja.current";
const LANG_KEY = "meja.lang";
const SHORTCUTS_KEY = "meja.shortcuts";
/** Versions asked for again after a reload, to rebuild the move log (the server replays at most its max_resume_updates). */
const LOG_REPLAY_VERSIONS = 200;
/** Events kept for the move log: a whole round of ten seats, and more (table.js's LOG_MAX lines). */
const LOG_EVENTS_MAX = 4000;

// --------------------------------------------------------------------------- storage

/**
 * @param {string} key
 * @param {any} fallback
 */
function loadJSON(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch (err) {
    return fallback;
  }
}

/**
 * @param {string} key
 * @param {unknown} value
 */
function saveJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (err) {
    /* private mode or full: the game still works, only resuming after a reload does not */
  }
}

const store = {
  /** @returns {Record<string, SeatInfo>} */
  seats() {
    return loadJSON(SEATS_KEY, {});
  },
  /** @param {string | null} table */
  seat(table) {
    return this.seats()[/** @type {string} */ (table)] || null;
  },
  /**
   * @param {string} table
   * @param {SeatInfo} info
   */
  putSeat(table, info) {
    const all = this.seats();
    all[table] = { ...(all[table] || {}), ...info, saved_ms: Date.now() };
    saveJSON(SEATS_KEY, all);
    return all[table];
  },
  /** @param {string} table */
  forget(table) {
    const all = this.seats();
    delete all[table];
    saveJSON(SEATS_KEY, all);
    if (this.current() === table) localStorage.removeItem(CURRENT_KEY);
  },
  current() {
    return localStorage.getItem(CURRENT_KEY);
  },
  /** @param {string | null} table */
  setCurrent(table) {
    if (table) localStorage.setItem(CURRENT_KEY, table);
    else localStorage.removeItem(CURRENT_KEY);
  },
  /** The most recently used seat, for "continue your game". */
  latest() {
    /** @type {(SeatInfo & {table: string})[]} */
    const list = Object.entries(this.seats()).map(([table, info]) => ({ table, ...info }));
    list.sort((a, b) => (b.saved_ms || 0) - (a.saved_ms || 0));
    return list[0] || null;
  },
};

// --------------------------------------------------------------------------- codes

// (isLoopback is the lobby's, normalizeRoomCode the home's, optionApplies the games'; all stay
// importable from here.)
export { isLoopback, normalizeRoomCode, optionApplies };


/** The room code of a shared-screen address (/tv/CODE), or undefined when the page is not one. */
/** @param {string} pathname */
export function tvCode(pathname) {
  const m = /^\/tv\/([^/]*)\/?$/.exec(pathname);
  if (!m) return undefined;
  let raw = m[1];
  try {
    raw = decodeURIComponent(raw);
  } catch (err) {
    /* as typed */
  }
  return normalizeRoomCode(raw);
}

// --------------------------------------------------------------------------- the app

/** This browser's tabs, to ask whether one of them plays at a table already (null: not offered). */
const TABS = typeof BroadcastChannel === "function" ? new BroadcastChannel("meja-tabs") : null;

/**
 * Whether another tab of this browser plays at ``table`` now: it answers within a moment.
 * @param {string} table
 * @returns {Promise<boolean>}
 */
function otherTabHolds(table) {
  if (!TABS) return Promise.resolve(false);
  const channel = /** @type {BroadcastChannel} */ (TABS);
  return new Promise((resolve) => {
    /** @param {MessageEvent} ev */
    const heard = (ev) => {
      if (!ev.data || ev.data.here !== table) return;
      done(true);
    };
    /** @param {boolean} held */
    const done = (held) => {
      clearTimeout(timer);
      channel.removeEventListener("message", heard);
      resolve(held);
    };
    const timer = setTimeout(() => done(false), 300);
    channel.addEventListener("message", heard);
    channel.postMessage({ ask: table });
  });
}

class App {
  constructor() {
    // The page's fixed parts (index.html has them).
    this.root = /** @type {HTMLElement} */ (document.getElementById("app"));
    this.banner = /** @type {HTMLElement} */ (document.getElementById("banner"));
    this.toast = /** @type {HTMLElement} */ (document.getElementById("toast"));
    this.games = new Games();
    /** The table summary of the last state/update. @type {TableMap | null} */
    this.table = null;
    this.version = 0;
    /** This page's seat (null or undefined: none; the wire's `seat` as it came). @type {number | null | undefined} */
    this.seat = null;
    this.isHost = false;
    /** @type {View | null} */
    this.view = null;
    /** The table this page is at (seat or spectator). @type {string | null} */
    this.tableId = null;
    this.spectating = false;
    /** The screen shown: "home", "lobby", "table", "tv-lobby", "tv-host", "learn", "replay", "deal", "message". @type {string | null} */
    this.screen = null;
    /** @type {TableScreen | null} */
    this.tableScreen = null;
    /** @type {string | null} */
    this.homeNotice = null;
    /** @type {string | null} */
    this.lobbyNotice = null;
    /** @type {Promise<unknown>} */
    this.queue = Promise.resolve();
    /** The connection's state (link.js): changed by its transitions only. @type {Link} */
    this.link = LINK_START;
    /** The table's events the move log is drawn from (table.js). @type {GameEvent[]} */
    this.logEvents = [];
    /** @type {string | null} */
    this.logTable = null;
    /** The table's fair-deal records by round, kept with the seat. @type {Record<string, FairRound> | null | undefined} */
    this.fair = undefined;
    /** A room code to watch once connected (`/?watch=CODE`). @type {string | null | undefined} */
    this.pendingWatch = undefined;
    /** The name of the host or join request on its way, for the seat it gets. @type {string | undefined} */
    this.pendingName = undefined;
    /** The strings key of the message screen's words, to say them again in another language. @type {string | null | undefined} */
    this.messageKey = undefined;
    /** @type {Status | undefined} */
    this.lastStatus = undefined;
    /** The catalog last taken (as JSON). @type {string | undefined} */
    this.catalogKey = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.countdown = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.toastTimer = undefined;
    this.params = new URLSearchParams(location.search);
    this.shortcuts = localStorage.getItem(SHORTCUTS_KEY) !== "off";
    setLanguage(initialLanguage(localStorage.getItem(LANG_KEY), navigator.languages || [navigator.language]));
    this.sound = new Sound({ tv: tvCode(location.pathname) !== undefined });
    this.attention = new Attention({
      title: () => this.baseTitle(),
      turnTitle: (title) => t("app.title.turn", { title }),
      sound: this.sound,
    });
    this.buildHeader();
    this.talk = new Talk(this);
    this.call = new Call(this);
    this.talk.callSlot.append(this.call.node);
    this.home = new Home(this, store); // the home screen (home.js)
    this.lobby = new Lobby(this); // the lobby's screen (lobby.js)
    this.learn = new Learn(this); // "Learn to play" (learn.js): /?learn=<game>
    this.replay = new Replay(this); // a finished match's replay (replay.js): /replay/<id>
    this.dealBoard = new DealBoardScreen(this); // a deal's board (dealboard.js): /deal/<short code>
    this.conn = new Connection({
      onOpen: (welcome) => this.onOpen(welcome),
      onMessage: (msg) => this.enqueue(msg),
      onStatus: (status) => this.onStatus(status),
    });
    this.answerTabs();
    this.tvRoom = tvCode(location.pathname);
    // `/tv/` alone: the shared screen's own host form (tvhost.js), for a room it hosts without a seat.
    this.tvHostForm = /^\/tv\/?$/.test(location.pathname);
    this.tv = this.tvRoom !== undefined || this.tvHostForm;
    this.screenToken = this.tv ? this.takeScreenToken() : null;
    let current = store.current();
    // A match that was over when this page last saw it, and an invite to another table: the
    // invite, without asking which (a new user was asked about "a seat" at a match long over;
    // its rematch is still offered by "Continue your game" on the home screen).
    if (current && (store.seat(current) || {}).over && this.inviteElsewhere(store.seat(current))) {
      store.setCurrent(null);
      current = null;
    }
    // The home page on a large screen (a TV's browser, worked by a remote): ↑ ↓ between its controls.
    const large = window.matchMedia("(min-width: 48rem)");
    if (!this.tv) pageArrows(document.body, () => this.screen === "home" && large.matches);
    if (this.tv) {
      document.body.classList.add("tv");
      this.spectating = true;
      remoteKeys(document.body);
      if (this.tvHostForm) this.showTvHost();
      else this.showMessageScreen(this.tvRoom ? t("conn.connecting") : t("tv.bad_code"));
    } else if (replayId(location.pathname)) {
      this.replay.open(/** @type {string} */ (replayId(location.pathname)), this.params);
    } else if (dealBoardCode(location.pathname)) {
      this.dealBoard.open(/** @type {string} */ (dealBoardCode(location.pathname)));
    } else if (this.params.get("learn")) {
      this.learn.open(/** @type {string} */ (this.params.get("learn")));
    } else if (current && store.seat(current) && this.inviteElsewhere(store.seat(current))) {
      this.showSeatOrInvite(current);
    } else if (current && store.seat(current)) {
      // Another tab of this browser at that seat already: ask before taking it (a new user's second
      // tab on the home page took the seat, and the first tab stopped).
      const table = current;
      this.showMessageScreen(t("conn.connecting"));
      otherTabHolds(table).then((held) => (held ? this.showOtherTab(table) : this.continueAt(table)));
    } else {
      const watch = this.params.get("watch");
      if (watch) this.pendingWatch = watch;
      this.showHome();
    }
    this.conn.connect();
  }

  // ------------------------------------------------------------------ games in words

  /** The table's game's description (or null before the catalog came). @param {TableMap | null} table */
  gameOf(table) {
    return table ? this.games.get(table.game) : null;
  }

  /** @param {GameDescription | null} desc */
  gameTitle(desc) {
    if (!desc) return "";
    return hasText(desc.name, "game.title") ? gameText(desc.name, "game.title") : desc.title || readable(desc.name);
  }

  /**
   * @param {GameDescription} desc
   * @param {Preset} preset
   */
  presetName(desc, preset) {
    return gameText(desc.name, preset.label || `preset.${preset.name}`);
  }

  /**
   * @param {GameDescription | null} desc
   * @param {string | null | undefined} level
   */
  levelName(desc, level) {
    const name = level || (desc && desc.default_level) || "normal";
    if (desc && hasText(desc.name, `level.${name}`)) return gameText(desc.name, `level.${name}`);
    const shell = t(`bot.${name}`); // the shell's words for the usual levels (easy, normal, hard)
    return shell === `bot.${name}` ? readable(name) : shell;
  }

  /**
   * @param {GameDescription} desc
   * @param {OptionSpec} spec
   */
  optionLabel(desc, spec) {
    return gameText(desc.name, spec.label || `option.${spec.name}`);
  }

  /**
   * @param {GameDescription} desc
   * @param {OptionSpec} spec
   * @param {string} choice
   */
  choiceLabel(desc, spec, choice) {
    const key = `${spec.label || `option.${spec.name}`}.${choice}`;
    return hasText(desc.name, key) ? gameText(desc.name, key) : readable(choice);
  }

  /**
   * @param {GameDescription} desc
   * @param {OptionSpec} spec
   * @param {any} value
   */
  optionValue(desc, spec, value) {
    if (spec.type === "bool") return t(`bool.${!!value}`);
    if (spec.type === "choice") return this.choiceLabel(desc, spec, value);
    // A game may say a number in its players' units ("<label>.value", given {n}: 1500 -> "1.5 s").
    const key = `${spec.label || `option.${spec.name}`}.value`;
    return hasText(desc.name, key) ? gameText(desc.name, key, { n: value }) : String(value);
  }

  /**
   * The preset's rules in brief (the host form): the game's "rules.<preset>" lines.
   * @param {GameDescription | null} desc
   * @param {string} presetName
   * @returns {string[]}
   */
  presetRules(desc, presetName) {
    const lines = desc && hasText(desc.name, `rules.${presetName}`) ? gameText(desc.name, `rules.${presetName}`) : null;
    return Array.isArray(lines) ? lines : [];
  }

  /**
   * A table's rules in plain words: the module's `rules(table, t)`, else the preset's lines.
   * @param {GameDescription | null} desc
   * @param {TableMap | null} table
   * @returns {string[]}
   */
  rulesLines(desc, table) {
    if (!desc || !table) return [];
    const module = this.games.module(desc.name);
    if (module && typeof module.rules === "function") {
      try {
        const lines = module.rules(table, textFor(desc.name));
        if (Array.isArray(lines) && lines.length) return lines.map(String);
      } catch (err) {
        console.warn("the game's rules() failed", err);
      }
    }
    return this.presetRules(desc, table.preset);
  }

  /**
   * "<game> · <preset> · 3 seats": the table's game in one line.
   * @param {GameDescription} desc
   * @param {TableMap} table
   */
  tableGameLine(desc, table) {
    const preset = this.games.preset(desc.name, table.preset);
    const parts = [this.gameTitle(desc)];
    if (preset) parts.push(this.presetName(desc, preset));
    parts.push(t("table.seat_count", { n: (table.seats || []).length }));
    return parts.join(" · ");
  }

  /** @param {unknown} on */
  setShortcuts(on) {
    this.shortcuts = !!on;
    localStorage.setItem(SHORTCUTS_KEY, on ? "on" : "off");
  }

  // ------------------------------------------------------------------ header and banner

  buildHeader() {
    const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
    select.replaceChildren(
      ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code }, name)),
    );
    select.value = language();
    select.addEventListener("change", () => {
      setLanguage(select.value);
      localStorage.setItem(LANG_KEY, select.value);
      this.relabel();
    });
    /** @type {HTMLElement} */ (document.getElementById("home-link")).addEventListener("click", (ev) => {
      ev.preventDefault();
      if (this.tv) location.assign("/");
      else this.goHome();
    });
    this.relabelStatic();
  }

  baseTitle() {
    const desc = this.screen === "lobby" || this.screen === "table" || this.screen === "tv-lobby" ? this.gameOf(this.table) : null;
    const title = desc ? t("app.title.game", { game: this.gameTitle(desc) }) : t("app.title");
    return this.tv ? t("tv.page_title", { title }) : title;
  }

  relabelStatic() {
    this.attention.refresh();
    /** @param {string} id @param {string} text */
    const say = (id, text) => {
      /** @type {HTMLElement} */ (document.getElementById(id)).textContent = text;
    };
    say("app-title", t("app.title"));
    say("lang-label", t("lang.label"));
    say("home-link", t("nav.home"));
    say("skip-link", t("nav.skip"));
  }

  relabel() {
    this.relabelStatic();
    if (this.lastStatus) this.onStatus(this.lastStatus);
    if (this.screen === "home") {
      // The home screen is drawn anew in the new words: what the player typed and chose stays.
      const kept = this.homeFields();
      this.showHome();
      this.restoreHomeFields(kept);
    } else if (this.screen === "tv-host") {
      const kept = this.homeFields();
      this.showTvHost();
      this.restoreHomeFields(kept);
    } else if (this.screen === "lobby") this.showLobby();
    else if (this.screen === "tv-lobby") this.showTvLobby();
    else if (this.screen === "table" && this.tableScreen) this.tableScreen.relabel();
    else if (this.screen === "learn") this.learn.relabel();
    else if (this.screen === "replay") this.replay.relabel();
    else if (this.screen === "deal") this.dealBoard.relabel();
    else if (this.screen === "invite-choice" && store.current()) this.showSeatOrInvite(/** @type {string} */ (store.current()));
    else if (this.screen === "message" && this.messageKey) this.showMessageScreen(t(this.messageKey), this.messageKey);
    this.talk.relabel();
    this.paintHostStrip();
    this.talk.refresh();
    this.call.refresh();
  }

  /** @param {Status} status */
  onStatus(status) {
    this.lastStatus = status;
    // The server lets the call go with the connection: it is joined again after the next state.
    if (status.state !== "open") this.call.connectionLost();
    // The connection closed before a resume's state came: that resume failed.
    if (status.state !== "open" && status.state !== "connecting") this.link = linkAfter.lost(this.link);
    clearInterval(this.countdown);
    // A connection closed for good (the seat opened in another tab: 4001) leaves a page that
    // must not look playable: it is dimmed and inert (no clicks, no focus) until taken back.
    const main = document.getElementById("app");
    if (main) {
      const stopped = status.state === "closed";
      main.inert = stopped;
      main.classList.toggle("stopped", stopped);
    }
    const b = this.banner;
    b.replaceChildren();
    b.className = "banner";
    if (status.state === "open") {
      b.hidden = true;
      return;
    }
    // Before the first connection, and on the home screen, a quiet notice is enough.
    if (status.state === "connecting") {
      if (!this.link.opened) {
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
      const delayMs = /** @type {number} */ (status.delayMs);
      const due = Date.now() + delayMs;
      const text = el("span", {}, t("conn.lost", { s: Math.ceil(delayMs / 1000) }));
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

  /** @param {string} text */
  showToast(text) {
    this.toast.textContent = text;
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, 5000);
  }

  /** An error of the server in the player's words. Its message is written for developers (wire
   * names, rule numbers: "'play 6S' refused (see rule 4.6.3)"), so it is never
   * shown but where a string asks for it (a limit's name); a code the page has no words for is
   * said plainly, and its message goes to the console for whoever debugs.
   * @param {any} err a WireError (a request's, or an `error` message)
   */
  errorText(err) {
    const key = `error.${err.code}`;
    const text = t(key, { message: err.message });
    if (text !== key) return text;
    console.info("the server refused:", err.code, err.message);
    return t("error.refused");
  }

  // ------------------------------------------------------------------ connection

  /** @param {Message} welcome */
  async onOpen(welcome) {
    this.link = linkAfter.welcome(this.link);
    const catalog = (welcome && welcome.catalog) || [];
    const key = JSON.stringify(catalog);
    if (key !== this.catalogKey) {
      this.catalogKey = key;
      // The messages after the welcome wait for the games' page modules: a state handled before
      // its module had loaded drew the table with the generic renderer for good (a spectator who
      // pressed Watch at once on a slow machine saw no turn line).
      const loading = this.games.use(catalog);
      this.queue = this.queue.then(() => loading);
      await loading;
      this.learn.onCatalog();
      if (this.screen === "home") this.fillHostPanel();
      if (this.screen === "replay") this.replay.relabel();
      if (this.screen === "tv-host") this.showTvHost();
    }
    if (this.tableId && !this.spectating) {
      const info = store.seat(this.tableId);
      if (info) {
        await this.resume(this.tableId, info);
        return;
      }
    }
    if (this.tableId && this.spectating) {
      const since = this.version && !this.link.sinceFailed ? this.version : undefined;
      // What was missed goes to the log; the state after it is drawn (no pause per missed version).
      this.link = linkAfter.resumeSent(this.link, since, since !== undefined);
      this.conn.request({ type: "watch", table: this.tableId, since, ...this.screenField() }).catch((err) => {
        if (err.code !== "connection/closed") this.leaveToHome(this.errorText(err));
      });
      return;
    }
    if (this.tv) {
      if (this.tvRoom) this.watch(this.tvRoom);
      else this.conn.healthy();
      return;
    }
    if (this.pendingWatch) {
      const code = this.pendingWatch;
      this.pendingWatch = null;
      this.watch(code);
      return;
    }
    if (this.screen === "replay") this.replay.onOpen();
    if (this.screen === "deal") this.dealBoard.onOpen();
    this.conn.healthy(); // nothing to come back to: the welcome was all this connection needed
  }

  /**
   * @param {string} tableId
   * @param {SeatInfo} info
   */
  async resume(tableId, info) {
    /** @type {Message} */
    const msg = { type: "resume", table: tableId, token: info.token };
    // Within one page, ask for what was missed since the last version seen. After a reload
    // the page has no log: ask for the latest versions again, whose events rebuild it (the
    // server replays at most its max_resume_updates; the state after them is the picture).
    // After a resume with `since` failed (the connection closed before the state came, as
    // when the server's outbox overflows on a far-behind catch-up, close 4004), the next
    // one asks for the state alone: it gives the whole picture, and asking for the same
    // catch-up again would fail the same way.
    if (!this.link.sinceFailed) {
      if (this.tableId === tableId && this.view !== null && this.version) msg.since = this.version;
      else if (Number.isInteger(info.since) && info.since > 0) msg.since = Math.max(0, info.since - LOG_REPLAY_VERSIONS);
    }
    if (msg.since === undefined || this.logTable !== tableId) this.resetLog(tableId);
    if (info.host_token) msg.host_token = info.host_token;
    this.link = linkAfter.resumeSent(this.link, msg.since, true);
    try {
      await this.conn.request(msg);
    } catch (/** @type {any} */ err) {
      this.link = linkAfter.resumeRefused(this.link);
      if (err.code === "auth/bad_token" || err.code === "table/not_found") {
        store.forget(tableId);
        this.leaveToHome(this.errorText(err));
      } else if (err.code !== "connection/closed") {
        this.leaveToHome(this.errorText(err));
      }
    }
  }

  /**
   * Messages are handled one at a time, in order, so that a held event can pause the table.
   * @param {Message} msg
   */
  enqueue(msg) {
    // The call's messages do not wait behind a held event: a call connects while the table pauses.
    if (msg.type === "ice") return this.call.onIce(msg);
    if (msg.type === "call") return this.call.onRoster(msg);
    if (msg.type === "signal") return this.call.onSignal(msg);
    this.queue = this.queue.then(() => this.handle(msg)).catch((err) => console.error(err));
  }

  /** @param {Message} msg */
  async handle(msg) {
    switch (msg.type) {
      case "joined": {
        if (msg.seat === null || msg.seat === undefined) {
          this.joinedSeatless(msg);
          break;
        }
        const prev = store.seat(msg.table) || {};
        store.putSeat(msg.table, {
          code: msg.code,
          link: msg.link,
          seat: msg.seat,
          token: msg.token,
          host_token: msg.host_token || prev.host_token,
          screen_token: msg.screen_token || prev.screen_token,
          name: prev.name || this.pendingName || "",
        });
        store.setCurrent(msg.table);
        this.tableId = msg.table;
        this.spectating = false;
        break;
      }
      case "state":
        // The resume (or watch) worked: only now does the connection's backoff start again from the least.
        this.link = linkAfter.state(this.link);
        this.conn.healthy();
        this.apply(msg, []);
        this.call.afterState();
        break;
      case "update": {
        if (this.tableId && msg.table && msg.table.id && msg.table.id !== this.tableId) break;
        const events = msg.events || [];
        if (this.link.catchingUp) {
          // A replayed version of a resume: its events go to the log; the state that follows is drawn.
          if (msg.table) this.recordFairness(msg.table, events);
          this.addLog(msg.table, events);
          if (this.tableScreen) for (const ev of events) this.tableScreen.noteMove(ev);
          break;
        }
        // Drawn at once, then held: while the events the game holds the table for
        // are shown, later messages wait, and the controls on screen are the current ones (an
        // update held back behind the notice left the last version's buttons live, and a press
        // was refused as stale).
        this.apply(msg, events);
        if (this.screen === "table" && this.tableScreen) {
          await this.tableScreen.holdFor(events);
        }
        break;
      }
      case "talk":
        this.talk.onTalk(msg);
        break;
      case "error":
        // A signal to someone who just left the call (or before this page's join was known): the
        // roster that follows says who is in it; there is nothing for the player to do.
        if (msg.code === "call/not_in_call") break;
        this.showToast(this.errorText(msg));
        break;
      default:
        break;
    }
  }

  /** @param {string | null} tableId */
  resetLog(tableId) {
    this.logEvents = [];
    this.logTable = tableId;
  }

  /**
   * The shared screen hosted a room without a seat (PROTOCOL.md 4): it keeps the host token like
   * a seat's (a reload watches with it, `watch.host_token`), watches as the spectator it is, and
   * its address becomes the room's shared screen (/tv/CODE). Not "current": nothing resumes it
   * from the home page but its own address ("continue" opens that).
   * @param {Message} msg
   */
  joinedSeatless(msg) {
    store.putSeat(msg.table, {
      code: msg.code,
      link: msg.link,
      seat: null,
      seatless: true,
      host_token: msg.host_token,
      screen_token: msg.screen_token,
    });
    this.tableId = msg.table;
    this.spectating = true;
    this.tvRoom = msg.code;
    if (this.tv && window.history && history.replaceState) history.replaceState(null, "", `/tv/${msg.code}`);
  }

  /**
   * The stored host token of the room this shared screen hosts without a seat, or null.
   * @returns {(SeatInfo & {table: string}) | null}
   */
  ownedHost() {
    if (!this.tv || !this.tvRoom) return null;
    const found = Object.entries(store.seats()).find(([, i]) => i && i.seatless && i.host_token && i.code === this.tvRoom);
    return found ? { table: found[0], ...found[1] } : null;
  }

  /** The strip of the host's rights at a table whose host holds no seat (tvhost.js): on the TV; on a
   *  phone at the table while a seat holds them (who has the controls; its lobby says it by the seat). */
  paintHostStrip() {
    const old = document.getElementById("host-strip");
    const active = document.activeElement;
    const focused = old && active && old.contains(active) ? active.id : null;
    const handed = !!this.table && this.table.host_rights !== null && this.table.host_rights !== undefined;
    const strip =
      this.tv && (this.screen === "tv-lobby" || this.screen === "table")
        ? hostStrip(this, !!this.ownedHost())
        : !this.tv && handed && this.screen === "table"
          ? hostStrip(this, false)
          : null;
    if (old) old.remove();
    if (!strip) return;
    // The TV's strip at its foot, first in it: a remote's ↓ from Start reaches the hand-over
    // before Home (Home is not on the way); a phone's beside the language, in its header.
    const header = /** @type {HTMLElement} */ (document.querySelector("header.top"));
    if (this.tv) header.prepend(strip);
    else /** @type {HTMLElement} */ (header.querySelector(".lang")).before(strip);
    // A remote that pressed in the strip stays in it (Hand over gives way to Take back).
    const again = focused && (document.getElementById(focused) || /** @type {HTMLElement | null} */ (strip.querySelector("button, select")));
    if (again) again.focus();
  }

  /**
   * Reactions (talk.js) enter the move log as the table's own events, and are drawn at once.
   * @param {GameEvent[]} events
   */
  addTalkLog(events) {
    this.addLog(this.table, events);
    if (this.screen === "table" && this.tableScreen) this.tableScreen.renderLog(false);
  }

  /** Whether the move log is on screen to announce what enters it (talk.js announces otherwise). */
  logAnnounces() {
    return this.screen === "table" && !!this.tableScreen && this.tableScreen.logAnnounces();
  }

  /**
   * A seat as people are named in talk and the call: "You", the person's name, "Bot 3", "Seat 2".
   * @param {number} i
   */
  seatDisplayName(i) {
    if (!this.spectating && i === this.seat) return t("table.you");
    const s = ((this.table && this.table.seats) || [])[i];
    if (s && s.kind === "bot") return t("seat.bot_name", { n: i + 1 });
    return s && s.name ? isolate(s.name) : t("seat.label", { n: i + 1 });
  }

  /**
   * @param {TableMap | null | undefined} table
   * @param {GameEvent[]} events
   */
  addLog(table, events) {
    const id = (table && table.id) || this.tableId;
    if (id !== this.logTable) this.resetLog(id);
    for (const ev of events) if (isLogged(ev)) this.logEvents.push(ev);
    if (this.logEvents.length > LOG_EVENTS_MAX) this.logEvents.splice(0, this.logEvents.length - LOG_EVENTS_MAX);
  }

  /**
   * @param {Message} msg
   * @param {GameEvent[]} events
   */
  apply(msg, events) {
    const table = msg.table;
    if (!table || typeof table !== "object") return;
    if (this.tableId && table.id && table.id !== this.tableId) return;
    const wasSeated = this.seat !== null && this.seat !== undefined && !this.spectating;
    const wasHost = this.isHost;
    const sameTable = !!this.table && this.table.id === table.id;
    const mySeat = this.seat;
    this.table = table;
    // the home page lists this browser's finished matches (each watched from the seat held)
    if (table && table.archive) rememberReplay(table, this.spectating ? null : msg.seat);
    this.tableId = table.id || this.tableId;
    this.version = msg.version;
    this.seat = msg.seat;
    this.isHost = !!msg.is_host;
    this.view = msg.view || null;
    this.talk.reset(this.tableId);
    this.talk.followSeats(events);
    this.call.reset(this.tableId);
    this.addLog(table, events);
    this.recordFairness(table, events);
    const kicked = (events || []).some((/** @type {GameEvent} */ e) => e && e.kind === "seat_changed" && e.kicked && e.seat === mySeat);
    if (wasSeated && (msg.seat === null || msg.seat === undefined) && kicked) {
      // The host took this seat away (PROTOCOL.md 7.3: seat_changed with kicked; 10, seat/kicked):
      // the connection watches now, and may not join this table again. Say so; offer no join.
      store.forget(/** @type {string} */ (this.tableId));
      this.spectating = true;
      this.lobbyNotice = t("lobby.kicked");
    }
    if (!this.spectating && this.seat !== null && this.seat !== undefined) {
      store.putSeat(/** @type {string} */ (this.tableId), { since: this.version, code: table.code, link: table.link, over: table.status === "finished" });
    }
    if (table.status === "lobby" || !this.view) {
      this.redrawLobby();
    } else {
      this.showTable(events);
    }
    this.paintHostStrip();
    // A person handed the host's rights (by a shared screen that hosts) is told once.
    if (wasHost === false && this.isHost && sameTable && !this.tv && this.seat !== null && table.host_seat === null) {
      this.showToast(t("host.given"));
    }
    // A removed player is told at the top of the lobby: bring them there (a phone stayed scrolled
    // down at the seats, the notice out of sight).
    if (kicked && wasSeated) window.scrollTo(0, 0);
    this.syncAddress();
    if (kicked && wasSeated) this.call.stop(true);
    this.talk.refresh();
    this.call.refresh();
  }

  /**
   * The address bar names the table, so that copying it invites: the invite link while the
   * lobby is open, a watch link once it has started (joining is over then). Reloading it
   * still resumes a seat this browser holds (the stored seat comes first). Home is "/".
   */
  syncAddress() {
    if (this.tv || !window.history || !history.replaceState) return;
    const table = this.screen === "lobby" || this.screen === "table" ? this.table : null;
    const code = table && typeof table.code === "string" ? table.code : "";
    let want = "/";
    if (table && code && table.status !== "finished") want = `/?${table.status === "lobby" ? "join" : "watch"}=${encodeURIComponent(code)}`;
    else if (!table) return; // other screens (home, a message) keep the address they came with
    if (location.pathname + location.search !== want) history.replaceState(null, "", want);
  }

  /**
   * Commitments (round start) and reveals (round end), kept with the seat (PROTOCOL.md 7, 12).
   * @param {TableMap} table
   * @param {GameEvent[]} events
   */
  recordFairness(table, events) {
    /** @type {Record<string, FairRound>} */
    const fair = this.fair || (this.fair = (store.seat(this.tableId) || {}).fair || {});
    /**
     * @param {number | string} round
     * @param {FairRound} data
     */
    const put = (round, data) => {
      fair[round] = { ...(fair[round] || {}), ...data };
    };
    if (table.commitment && table.commitment.round !== undefined) {
      put(table.commitment.round, { hash: table.commitment.hash, ...(table.commitment.chosen ? { chosen: true } : {}) });
    }
    for (const ev of events) {
      const kind = ev.kind;
      if (kind === "commitment") put(ev.round, { hash: ev.hash, ...(ev.chosen ? { chosen: true } : {}) });
      if (kind === "reveal") put(ev.round, { deal_code: ev.deal_code, salt: ev.salt });
    }
    if (!this.spectating && store.seat(this.tableId)) store.putSeat(/** @type {string} */ (this.tableId), { fair });
  }

  // ------------------------------------------------------------------ actions

  playerName() {
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById("name"));
    const name = (input ? input.value : localStorage.getItem(NAME_KEY) || "").trim();
    return name;
  }

  /**
   * @param {string} name
   * @param {HTMLElement} status
   */
  checkName(name, status) {
    if (!name || name.length > 24) {
      status.textContent = t("error.name");
      /** @type {HTMLElement} */ (document.getElementById("name")).focus();
      return false;
    }
    localStorage.setItem(NAME_KEY, name);
    this.pendingName = name;
    return true;
  }

  /**
   * The values of the form's fields for ``preset``'s options, by name.
   * @param {HTMLFormElement} form
   * @param {Preset} preset
   */
  formOptions(form, preset) {
    const data = new FormData(form);
    /** @type {Record<string, unknown>} */
    const options = {};
    // The form's controls by name (as `form.elements[name]` reads them).
    const elements = /** @type {Record<string, any>} */ (/** @type {unknown} */ (form.elements));
    for (const spec of /** @type {OptionSpec[]} */ (preset.options || [])) {
      if (spec.type === "bool") options[spec.name] = !!(elements[spec.name] && elements[spec.name].checked);
      else if (spec.type === "int") options[spec.name] = data.has(spec.name) ? wireNumber(spec, Number(data.get(spec.name))) : spec.default;
      else options[spec.name] = String(data.get(spec.name) ?? spec.default);
    }
    return options;
  }

  /**
   * The host request of the form: the game, its preset and every option, seats, bots; or a deal code.
   * @param {HTMLFormElement} form
   * @returns {Message}
   */
  hostRequest(form) {
    const data = new FormData(form);
    const desc = this.games.get(String(data.get("game") || "")) || this.games.list[0];
    const preset = /** @type {Preset} */ (this.games.preset(desc.name, String(data.get("preset") || "")));
    const options = { preset: preset.name, ...this.formOptions(form, preset) };
    const level = String(data.get("bots") || desc.default_level);
    const deal = String(data.get("deal_code") || "").trim();
    // The turn timer: "" leaves it to the server (off unless its operator set one), 0 is off.
    const limit = String(data.get("turn_limit_s") ?? "");
    const timer = limit === "" ? {} : { turn_limit_s: Number(limit) };
    const talkMap = talkFromForm(form); // only what differs from the server's defaults
    const talk = talkMap ? { talk: talkMap } : {};
    if (!deal) return { type: "host", game: desc.name, options, seats: Number(data.get("seats")), bots: level, ...talk, ...timer };
    // A deal code alone is enough: the server reads its game, preset and seats from it. The
    // form's options go with it only where the form shows that very game and preset.
    /** @type {Message} */
    const msg = { type: "host", deal_code: deal, ...talk, ...timer };
    const read = this.games.readDealCode(deal);
    if (read && read.game === desc.name && read.preset === preset.name) {
      msg.game = desc.name;
      msg.options = options;
      msg.bots = level;
    } else if (this.games.list.filter((g) => g.deal_codes).every((g) => (g.levels || []).includes(level))) {
      msg.bots = level;
    }
    return msg;
  }

  /**
   * @param {HTMLFormElement} form
   * @param {HTMLElement} status
   */
  async host(form, status) {
    const name = this.playerName();
    if (!this.checkName(name, status)) return;
    if (!this.games.ready) return;
    await this.enter({ ...this.hostRequest(form), name }, status);
  }

  /**
   * @param {string} code
   * @param {HTMLElement} status
   */
  async join(code, status) {
    const name = this.playerName();
    const normal = normalizeRoomCode(code);
    if (!normal) {
      status.textContent = t("error.code_format");
      return;
    }
    // A seat this browser already holds at that table: back to it (joining again was refused as
    // "that seat is taken", or "already started", to a player who only wanted to get back in).
    const held = Object.entries(store.seats()).find(([, info]) => info && normalizeRoomCode(info.code || "") === normal);
    if (held) {
      await this.continueAt(held[0]);
      return;
    }
    if (!this.checkName(name, status)) return;
    await this.enter({ type: "join", code: normal, name }, status);
  }

  /**
   * @param {Message} msg
   * @param {HTMLElement} status
   */
  async enter(msg, status) {
    status.textContent = "";
    this.spectating = false;
    this.tableId = null;
    this.fair = null;
    this.resetLog(null);
    try {
      await this.conn.request(msg, { wait: true });
    } catch (err) {
      status.textContent = this.errorText(err);
    }
  }

  /**
   * @param {string} code
   * @param {HTMLElement} [status]
   * @returns {Promise<void>}
   */
  async watch(code, status) {
    const normal = normalizeRoomCode(code);
    if (!normal) {
      if (status) status.textContent = t("error.code_format");
      return;
    }
    this.spectating = true;
    this.tableId = null;
    this.fair = {};
    this.resetLog(null);
    // A watcher that comes in late (a shared screen opened mid-game, or reloaded) asks for the
    // latest versions as a reloaded seat does: their events give the move log and the latest
    // moves under the pile (a new user's trial: a reloaded TV showed none until the next move).
    // The server replays at most its max_resume_updates; the state after them is drawn.
    this.link = linkAfter.resumeSent(this.link, 0, true);
    try {
      await this.conn.request({ type: "watch", code: normal, since: 0, ...this.screenField() }, { wait: true });
    } catch (/** @type {any} */ err) {
      this.link = linkAfter.resumeRefused(this.link);
      if (err.code === "connection/closed") return; // the next welcome watches again
      const owned = this.ownedHost();
      if (owned && err.code === "auth/bad_token") {
        // Another table has this code now (the hosted one expired): watch it as any screen does.
        store.forget(owned.table);
        await this.watch(code, status);
        return;
      }
      if (this.tv) {
        this.showMessageScreen(this.errorText(err));
        return;
      }
      this.spectating = false;
      if (status) status.textContent = this.errorText(err);
      else this.showToast(this.errorText(err));
    }
  }

  /**
   * The host's shared screen watches with the table's screen token (PROTOCOL.md 5, `watch.screen`),
   * in a place of its own that other watchers from the same address cannot take. It comes in the
   * link the host's lobby shows (`/tv/CODE?screen=TOKEN`): the page keeps it for this tab
   * (sessionStorage: a reload watches with it again) and takes it out of the address bar, where a
   * photo of the TV or a copied address would hand it on.
   */
  takeScreenToken() {
    const key = `meja.screen.${this.tvRoom}`;
    const given = this.params.get("screen");
    try {
      if (given) sessionStorage.setItem(key, given);
      if (given && window.history && history.replaceState) history.replaceState(null, "", location.pathname);
      return given || sessionStorage.getItem(key);
    } catch (err) {
      return given; /* storage refused: this load still uses it */
    }
  }

  /** The watch request's field that says which screen watches: its host token, its screen token, or none. @returns {Message} */
  screenField() {
    const owned = this.ownedHost(); // the room this screen hosts: it comes back as its host
    if (owned) return { host_token: owned.host_token };
    return this.tv && this.screenToken ? { screen: this.screenToken } : {};
  }

  /**
   * Send a table request (act, seat, start, rematch); errors show as a notice.
   * @param {Message} msg
   */
  async send(msg) {
    try {
      return await this.conn.request({ ...msg, table: this.tableId });
    } catch (/** @type {any} */ err) {
      // Not connected: the banner says so and the client is reconnecting; nothing was sent.
      this.showToast(err.code === "connection/closed" ? t("conn.not_sent") : this.errorText(err));
      return null;
    }
  }

  /** @param {Action} action */
  act(action) {
    return this.send({ type: "act", version: this.version, action });
  }

  async leave() {
    if (this.tableId && !this.spectating) {
      await this.send({ type: "leave" });
      store.forget(this.tableId);
    }
    // The invite that brought this page is spent: home opens as home, not as that table's join
    // form with its code filled in (a new user's trial, after leaving a finished table).
    this.params.delete("join");
    this.params.delete("watch");
    this.leaveToHome(null);
  }

  goHome() {
    // Going home keeps the seat: "continue your game" brings the player back.
    if (!this.tv && location.pathname + location.search !== "/") history.replaceState(null, "", "/");
    // The connection was the table's (seated or watching): the server went on sending it the
    // table's changes, and the next one drew the table again over the home screen (a new user
    // was taken back to the table within a second at a fast bot's turn). A new connection holds
    // no table: the seat is away as when a tab closes (the others see it, a bot plays for it
    // after the grace), and "Continue your game" takes it back.
    if (this.tableId) this.conn.reconnectNow();
    this.screen = null;
    this.tableId = null;
    this.spectating = false;
    this.view = null;
    this.table = null;
    this.seat = null;
    this.fair = null;
    this.lobbyNotice = null;
    this.resetLog(null);
    this.talk.reset(null);
    this.call.reset(null);
    store.setCurrent(null);
    this.showHome();
  }

  /** @param {string | null} notice */
  leaveToHome(notice) {
    if (this.tv) {
      this.showMessageScreen(notice || t("conn.gone"));
      return;
    }
    this.homeNotice = notice;
    this.goHome();
  }

  /** @param {string} table */
  async continueAt(table) {
    const info = store.seat(table);
    if (!info) return;
    if (info.seatless) {
      location.assign(`/tv/${encodeURIComponent(info.code)}`); // a room hosted by a shared screen: back there
      return;
    }
    store.setCurrent(table);
    this.tableId = table;
    this.spectating = false;
    this.fair = info.fair || {};
    this.showMessageScreen(t("conn.connecting"));
    if (this.conn.ready) await this.resume(table, info);
    else this.conn.connect();
  }

  // ------------------------------------------------------------------ screens

  /**
   * @param {string} screen
   * @param {Node} node
   */
  mount(screen, node) {
    if (this.screen === "table" && screen !== "table" && this.tableScreen) {
      this.tableScreen.destroy();
      this.tableScreen = null;
    }
    // A new screen starts at its top (the home page may have been scrolled down to its button).
    if (screen !== this.screen) window.scrollTo(0, 0);
    this.screen = screen;
    document.body.dataset.screen = screen;
    this.root.replaceChildren(node);
    this.relabelStatic();
    this.paintHostStrip(); // the strip belongs to some screens only
  }

  /**
   * @param {string} text
   * @param {string | null} [key] the strings key of `text`, to say it again in another language
   */
  showMessageScreen(text, key = null) {
    this.messageKey = key;
    const parts = [el("p", { role: "status", id: "message" }, text)];
    if (this.tv) parts.push(el("p", {}, el("a", { href: "/" }, t("tv.home"))));
    this.mount("message", el("section", { class: "panel message-screen" }, el("h2", { class: "visually-hidden" }, t("app.title")), parts));
  }

  showHome() {
    this.home.show();
  }

  /** The seat this browser holds is open in another of its tabs: play here, or go home. @param {string} table */
  showOtherTab(table) {
    const held = store.seat(table) || {};
    this.mount(
      "other-tab",
      el(
        "section",
        { class: "panel message-screen other-tab", "aria-labelledby": "other-tab-title" },
        el("h2", { id: "other-tab-title" }, t("tab.other.title")),
        el("p", { id: "other-tab-text" }, t("tab.other.text", { code: spacedCode(held.code || "") })),
        el(
          "div",
          { class: "row" },
          el("button", { type: "button", class: "primary", id: "other-tab-here", onclick: () => this.continueAt(table) }, t("conn.take_back")),
          el("button", { type: "button", id: "other-tab-home", onclick: () => this.showHome() }, t("nav.home")),
        ),
      ),
    );
    /** @type {HTMLElement} */ (document.getElementById("other-tab-here")).focus();
  }

  /** Answer another tab that asks whether this one plays at a table (otherTabHolds). */
  answerTabs() {
    if (!TABS) return;
    TABS.addEventListener("message", (ev) => {
      const ask = ev.data && ev.data.ask;
      const playing = this.screen === "table" || this.screen === "lobby";
      if (ask && ask === this.tableId && !this.spectating && playing && this.conn.ready) TABS.postMessage({ here: ask });
    });
  }

  /**
   * Whether the address is an invite link (?join=CODE) to another table than the seat this
   * browser holds: a new user's friend's link once took them back to their old table, silently.
   * @param {SeatInfo} held
   */
  inviteElsewhere(held) {
    const invited = this.invitedCode();
    return !!invited && !!held.code && invited !== normalizeRoomCode(held.code);
  }

  /** The room code of the address's invite: a join link's (?join=CODE), else a watch link's
   * (?watch=CODE: a watch link to another table also took the player back to their seat,
   * silently). A link to the held table itself resumes it (during play the table's own address
   * is its watch link). @returns {string} */
  invitedCode() {
    return normalizeRoomCode(this.params.get("join") || "") || normalizeRoomCode(this.params.get("watch") || "") || "";
  }

  /** Whether the address's invite is a watch link (no join link beside it). */
  invitedToWatch() {
    return !normalizeRoomCode(this.params.get("join") || "") && !!normalizeRoomCode(this.params.get("watch") || "");
  }

  /**
   * The seat held, or the table the link invites to: the player chooses. Back to the seat
   * resumes it; the new table opens the home screen with the invite's code filled in, the old
   * seat kept (the home screen's "Continue your game" offers it until the new seat is taken).
   * @param {string} table the held seat's table
   */
  showSeatOrInvite(table) {
    const held = store.seat(table) || {};
    const invited = this.invitedCode();
    const seat = spacedCode(held.code || "");
    const other = spacedCode(invited);
    const w = this.invitedToWatch() ? "invite.watch" : "invite.other";
    this.mount(
      "invite-choice",
      el(
        "section",
        { class: "panel message-screen invite-choice", "aria-labelledby": "invite-choice-title" },
        el("h2", { id: "invite-choice-title" }, t(`${w}.title`, { code: other })),
        el("p", { id: "invite-choice-text" }, t(`${w}.text`, { seat, code: other })),
        el(
          "div",
          { class: "row" },
          el("button", { type: "button", class: "primary", id: "invite-join", onclick: () => this.joinInstead() }, t(`${w}.join`, { code: other })),
          el("button", { type: "button", id: "invite-back", onclick: () => this.continueAt(table) }, t("invite.other.back", { code: seat })),
        ),
      ),
    );
    /** @type {HTMLElement} */ (document.getElementById("invite-join")).focus();
  }

  /** The invite's table rather than the seat held: the home screen's join form, filled in; or,
   * for a watch link, that table watched. */
  joinInstead() {
    store.setCurrent(null); // the seat stays stored: "Continue your game" still offers it
    const watch = this.invitedToWatch() ? this.invitedCode() : "";
    this.showHome();
    if (watch) this.watch(watch);
  }

  /** The home screen's fields as the player left them (home.js). */
  homeFields() {
    return this.home.fields();
  }

  /** @param {ReturnType<Home["fields"]>} kept */
  restoreHomeFields(kept) {
    this.home.restoreFields(kept);
  }

  fillHostPanel() {
    this.home.fillHostPanel();
  }

  // The host form's pieces, which the shared screen's host form (tvhost.js) uses too.
  turnLimitField() {
    return this.home.turnLimitField();
  }

  /**
   * @param {GameDescription} desc
   * @param {Preset} preset
   */
  optionFields(desc, preset) {
    return this.home.optionFields(desc, preset);
  }

  /**
   * @param {HTMLFormElement} form
   * @param {HTMLElement} box
   * @param {Preset} preset
   */
  showApplicableOptions(form, box, preset) {
    this.home.showApplicableOptions(form, box, preset);
  }

  /**
   * @param {GameDescription} desc
   * @param {OptionSpec} spec
   */
  optionField(desc, spec) {
    return this.home.optionField(desc, spec);
  }

  showLobby() {
    this.lobby.show();
  }

  showTvLobby() {
    this.lobby.showTv();
  }

  /** The lobby drawn again as this page shows it (a shared screen's, or a seat's). */
  redrawLobby() {
    this.lobby.redraw();
  }

  /** The host's screen token of this table (the TV link of its lobby carries it), or null. */
  hostScreenToken() {
    return this.isHost ? (store.seat(this.tableId) || {}).screen_token || null : null;
  }

  /** The shared screen's host form (tvhost.js), once the catalog has come. */
  showTvHost() {
    if (!this.games.ready) {
      this.showMessageScreen(t("home.loading"));
      this.screen = "tv-host";
      return;
    }
    this.mount("tv-host", el("div", { class: "tv-host-screen" }, tvHostScreen(this)));
    /** @type {HTMLInputElement | null} */
    const first = this.root.querySelector('input[name="game"]:checked');
    if (first) first.focus();
  }

  /** Host from the shared screen's form: the request is the form's, with `seated: false`. */
  /**
   * @param {Message} msg
   * @param {HTMLElement} status
   */
  async hostHere(msg, status) {
    await this.enter(msg, status);
  }

  /** @param {GameEvent[]} events */
  showTable(events) {
    const table = /** @type {TableMap} */ (this.table);
    if (this.screen !== "table" || !this.tableScreen || this.tableScreen.desc.name !== table.game) {
      const desc = this.gameOf(table) || { name: table.game, title: readable(table.game || ""), presets: [] };
      if (this.tableScreen) this.tableScreen.destroy();
      this.tableScreen = null;
      const screen = new TableScreen(this, desc, this.games.module(desc.name), { tv: this.tv });
      this.mount("table", /** @type {Node} */ (screen.node));
      this.tableScreen = screen;
      screen.render(events, true);
    } else {
      this.tableScreen.render(events, false);
    }
  }
}

/** @type {any} */ (window).meja = new App();
registerWorker();
