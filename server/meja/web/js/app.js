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
// Screens follow the table's status: no table -> home; "lobby" -> lobby (Lobby in lobby.js); "playing" or
// "finished" -> table (TableScreen in table.js). `/tv/<code>` is the shared screen: a
// spectator of that room (never a seat, so never a hand), with the room code and a QR code to
// join while in the lobby, then the table for a room to read (TableScreen with `tv`).
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
import { Games, optionApplies } from "./games.js";
import { Learn } from "./learn.js";
import { Lobby, isLoopback } from "./lobby.js";
import { Replay, recentPanel, rememberReplay, replayId } from "./replay.js";
import { DealBoardScreen, dealBoardCode } from "./dealboard.js";
import { Connection } from "./net.js";
import { registerWorker } from "./pwa.js";
import { Sound } from "./sound.js";
import { LANGUAGES, gameText, hasText, initialLanguage, language, readable, setLanguage, t, textFor } from "./strings.js";
import { TableScreen, isLogged } from "./table.js";
import { Talk, talkFields, talkFromForm } from "./talk.js";
import { hostStrip, pageArrows, remoteKeys, tvHostPointer, tvHostScreen } from "./tvhost.js";
import { el, nextId, spacedCode } from "./ui.js";

const SEATS_KEY = "meja.seats";
const CURRENT_KEY = "meja.current";
const LANG_KEY = "meja.lang";
const NAME_KEY = "meja.name";
const SHORTCUTS_KEY = "meja.shortcuts";
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Versions asked for again after a reload, to rebuild the move log (the server replays at most its max_resume_updates). */
const LOG_REPLAY_VERSIONS = 200;
/** Events kept for the move log: a whole round of ten seats, and more (table.js's LOG_MAX lines). */
const LOG_EVENTS_MAX = 4000;

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

// (isLoopback is the lobby's, optionApplies the games'; both stay importable from here.)
export { isLoopback, optionApplies };

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

/** The room code of a shared-screen address (/tv/CODE), or undefined when the page is not one. */
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

class App {
  constructor() {
    this.root = document.getElementById("app");
    this.banner = document.getElementById("banner");
    this.toast = document.getElementById("toast");
    this.games = new Games();
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
    this.lobbyNotice = null;
    this.queue = Promise.resolve();
    this.catchingUp = false;
    this.resuming = null; // {since}: a resume (or watch) sent whose state has not come yet
    this.sinceFailed = false;
    this.logEvents = []; // the table's events the move log is drawn from (table.js)
    this.logTable = null;
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
    this.lobby = new Lobby(this); // the lobby's screen (lobby.js)
    this.learn = new Learn(this); // "Learn to play" (learn.js): /?learn=<game>
    this.replay = new Replay(this); // a finished match's replay (replay.js): /replay/<id>
    this.dealBoard = new DealBoardScreen(this); // a deal's board (dealboard.js): /deal/<short code>
    this.conn = new Connection({
      onOpen: (welcome) => this.onOpen(welcome),
      onMessage: (msg) => this.enqueue(msg),
      onStatus: (status) => this.onStatus(status),
    });
    this.tvRoom = tvCode(location.pathname);
    // `/tv/` alone: the shared screen's own host form (tvhost.js), for a room it hosts without a seat.
    this.tvHostForm = /^\/tv\/?$/.test(location.pathname);
    this.tv = this.tvRoom !== undefined || this.tvHostForm;
    this.screenToken = this.tv ? this.takeScreenToken() : null;
    const current = store.current();
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
      this.replay.open(replayId(location.pathname), this.params);
    } else if (dealBoardCode(location.pathname)) {
      this.dealBoard.open(dealBoardCode(location.pathname));
    } else if (this.params.get("learn")) {
      this.learn.open(this.params.get("learn"));
    } else if (current && store.seat(current)) {
      this.tableId = current;
      this.showMessageScreen(t("conn.connecting"));
    } else {
      const watch = this.params.get("watch");
      if (watch) this.pendingWatch = watch;
      this.showHome();
    }
    this.conn.connect();
  }

  // ------------------------------------------------------------------ games in words

  /** The table's game's description (or null before the catalog came). */
  gameOf(table) {
    return table ? this.games.get(table.game) : null;
  }

  gameTitle(desc) {
    if (!desc) return "";
    return hasText(desc.name, "game.title") ? gameText(desc.name, "game.title") : desc.title || readable(desc.name);
  }

  presetName(desc, preset) {
    return gameText(desc.name, preset.label || `preset.${preset.name}`);
  }

  levelName(desc, level) {
    const name = level || (desc && desc.default_level) || "normal";
    if (desc && hasText(desc.name, `level.${name}`)) return gameText(desc.name, `level.${name}`);
    const shell = t(`bot.${name}`); // the shell's words for the usual levels (easy, normal, hard)
    return shell === `bot.${name}` ? readable(name) : shell;
  }

  optionLabel(desc, spec) {
    return gameText(desc.name, spec.label || `option.${spec.name}`);
  }

  choiceLabel(desc, spec, choice) {
    const key = `${spec.label || `option.${spec.name}`}.${choice}`;
    return hasText(desc.name, key) ? gameText(desc.name, key) : readable(choice);
  }

  optionValue(desc, spec, value) {
    if (spec.type === "bool") return t(`bool.${!!value}`);
    if (spec.type === "choice") return this.choiceLabel(desc, spec, value);
    // A game may say a number in its players' units ("<label>.value", given {n}: 1500 -> "1.5 s").
    const key = `${spec.label || `option.${spec.name}`}.value`;
    return hasText(desc.name, key) ? gameText(desc.name, key, { n: value }) : String(value);
  }

  /** The preset's rules in brief (the host form): the game's "rules.<preset>" lines. */
  presetRules(desc, presetName) {
    const lines = desc && hasText(desc.name, `rules.${presetName}`) ? gameText(desc.name, `rules.${presetName}`) : null;
    return Array.isArray(lines) ? lines : [];
  }

  /** A table's rules in plain words: the module's `rules(table, t)`, else the preset's lines. */
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

  /** "<game> · <preset> · 3 seats": the table's game in one line. */
  tableGameLine(desc, table) {
    const preset = this.games.preset(desc.name, table.preset);
    const parts = [this.gameTitle(desc)];
    if (preset) parts.push(this.presetName(desc, preset));
    parts.push(t("table.seat_count", { n: (table.seats || []).length }));
    return parts.join(" · ");
  }

  setShortcuts(on) {
    this.shortcuts = !!on;
    localStorage.setItem(SHORTCUTS_KEY, on ? "on" : "off");
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
    document.getElementById("app-title").textContent = t("app.title");
    document.getElementById("lang-label").textContent = t("lang.label");
    document.getElementById("home-link").textContent = t("nav.home");
    document.getElementById("skip-link").textContent = t("nav.skip");
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
    else if (this.screen === "message" && this.messageKey) this.showMessageScreen(t(this.messageKey), this.messageKey);
    this.paintHostStrip();
    this.talk.refresh();
    this.call.refresh();
  }

  onStatus(status) {
    this.lastStatus = status;
    // The server lets the call go with the connection: it is joined again after the next state.
    if (status.state !== "open") this.call.connectionLost();
    if (status.state !== "open" && status.state !== "connecting" && this.resuming) {
      // The connection closed before the resume's state came: that resume failed.
      if (this.resuming.since !== undefined) this.sinceFailed = true;
      this.resuming = null;
    }
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

  /** An error of the server in the player's words. Its message is written for developers (wire
   * names, rule numbers: "'play 6S' refused (see rule 4.6.3)"), so it is never
   * shown but where a string asks for it (a limit's name); a code the page has no words for is
   * said plainly, and its message goes to the console for whoever debugs. */
  errorText(err) {
    const key = `error.${err.code}`;
    const text = t(key, { message: err.message });
    if (text !== key) return text;
    console.info("the server refused:", err.code, err.message);
    return t("error.refused");
  }

  // ------------------------------------------------------------------ connection

  async onOpen(welcome) {
    this.everOpen = true;
    const catalog = (welcome && welcome.catalog) || [];
    const key = JSON.stringify(catalog);
    if (key !== this.catalogKey) {
      this.catalogKey = key;
      await this.games.use(catalog);
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
      const since = this.version && !this.sinceFailed ? this.version : undefined;
      this.resuming = { since };
      // What was missed goes to the log; the state after it is drawn (no pause per missed version).
      this.catchingUp = since !== undefined;
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

  async resume(tableId, info) {
    const msg = { type: "resume", table: tableId, token: info.token };
    // Within one page, ask for what was missed since the last version seen. After a reload
    // the page has no log: ask for the latest versions again, whose events rebuild it (the
    // server replays at most its max_resume_updates; the state after them is the picture).
    // After a resume with `since` failed (the connection closed before the state came, as
    // when the server's outbox overflows on a far-behind catch-up, close 4004), the next
    // one asks for the state alone: it gives the whole picture, and asking for the same
    // catch-up again would fail the same way.
    if (!this.sinceFailed) {
      if (this.tableId === tableId && this.view !== null && this.version) msg.since = this.version;
      else if (Number.isInteger(info.since) && info.since > 0) msg.since = Math.max(0, info.since - LOG_REPLAY_VERSIONS);
    }
    if (msg.since === undefined || this.logTable !== tableId) this.resetLog(tableId);
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

  /** Messages are handled one at a time, in order, so that a held event can pause the table. */
  enqueue(msg) {
    // The call's messages do not wait behind a held event: a call connects while the table pauses.
    if (msg.type === "ice") return this.call.onIce(msg);
    if (msg.type === "call") return this.call.onRoster(msg);
    if (msg.type === "signal") return this.call.onSignal(msg);
    this.queue = this.queue.then(() => this.handle(msg)).catch((err) => console.error(err));
  }

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
        this.catchingUp = false;
        // The resume (or watch) worked: only now does the connection's backoff start again from the least.
        this.resuming = null;
        this.sinceFailed = false;
        this.conn.healthy();
        this.apply(msg, []);
        this.call.afterState();
        break;
      case "update": {
        if (this.tableId && msg.table && msg.table.id && msg.table.id !== this.tableId) break;
        const events = msg.events || [];
        if (this.catchingUp) {
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
          await this.tableScreen.holdFor(events, msg);
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

  resetLog(tableId) {
    this.logEvents = [];
    this.logTable = tableId;
  }

  /**
   * The shared screen hosted a room without a seat (PROTOCOL.md 4): it keeps the host token like
   * a seat's (a reload watches with it, `watch.host_token`), watches as the spectator it is, and
   * its address becomes the room's shared screen (/tv/CODE). Not "current": nothing resumes it
   * from the home page but its own address ("continue" opens that).
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

  /** The stored host token of the room this shared screen hosts without a seat, or null. */
  ownedHost() {
    if (!this.tv || !this.tvRoom) return null;
    const found = Object.entries(store.seats()).find(([, i]) => i && i.seatless && i.host_token && i.code === this.tvRoom);
    return found ? { table: found[0], ...found[1] } : null;
  }

  /** The strip of the host's rights at a table whose host holds no seat (tvhost.js): on the TV; on a
   *  phone at the table while a seat holds them (who has the controls; its lobby says it by the seat). */
  paintHostStrip() {
    const old = document.getElementById("host-strip");
    const focused = old && old.contains(document.activeElement) ? document.activeElement.id : null;
    const handed = !!this.table && this.table.host_rights !== null && this.table.host_rights !== undefined;
    const strip =
      this.tv && (this.screen === "tv-lobby" || this.screen === "table")
        ? hostStrip(this, !!this.ownedHost())
        : !this.tv && handed && this.screen === "table"
          ? hostStrip(this, false)
          : null;
    if (old) old.remove();
    if (!strip) return;
    document.querySelector("header.top .lang").before(strip); // the TV's strip at its foot
    // A remote that pressed in the strip stays in it (Hand over gives way to Take back).
    const again = focused && (document.getElementById(focused) || strip.querySelector("button, select"));
    if (again) again.focus();
  }

  /** Reactions (talk.js) enter the move log as the table's own events, and are drawn at once. */
  addTalkLog(events) {
    this.addLog(this.table, events);
    if (this.screen === "table" && this.tableScreen) this.tableScreen.renderLog(false);
  }

  /** Whether the move log is on screen to announce what enters it (talk.js announces otherwise). */
  logAnnounces() {
    return this.screen === "table" && !!this.tableScreen && this.tableScreen.logAnnounces();
  }

  /** A seat as people are named in talk and the call: "You", the person's name, "Bot 3", "Seat 2". */
  seatDisplayName(i) {
    if (!this.spectating && i === this.seat) return t("table.you");
    const s = ((this.table && this.table.seats) || [])[i];
    if (s && s.kind === "bot") return t("seat.bot_name", { n: i + 1 });
    return (s && s.name) || t("seat.label", { n: i + 1 });
  }

  addLog(table, events) {
    const id = (table && table.id) || this.tableId;
    if (id !== this.logTable) this.resetLog(id);
    for (const ev of events) if (isLogged(ev)) this.logEvents.push(ev);
    if (this.logEvents.length > LOG_EVENTS_MAX) this.logEvents.splice(0, this.logEvents.length - LOG_EVENTS_MAX);
  }

  apply(msg, events) {
    const table = msg.table;
    if (!table || typeof table !== "object") return;
    if (this.tableId && table.id && table.id !== this.tableId) return;
    const wasSeated = this.seat !== null && this.seat !== undefined && !this.spectating;
    const wasHost = this.isHost;
    const sameTable = !!this.table && this.table.id === table.id;
    const mySeat = this.seat;
    this.table = table;
    if (table && table.archive) rememberReplay(table); // the home page lists this browser's finished matches
    this.tableId = table.id || this.tableId;
    this.version = msg.version;
    this.seat = msg.seat;
    this.isHost = !!msg.is_host;
    this.view = msg.view || null;
    this.talk.reset(this.tableId);
    this.call.reset(this.tableId);
    this.addLog(table, events);
    this.recordFairness(table, events);
    const kicked = (events || []).some((e) => e && e.kind === "seat_changed" && e.kicked && e.seat === mySeat);
    if (wasSeated && (msg.seat === null || msg.seat === undefined) && kicked) {
      // The host took this seat away (PROTOCOL.md 7.3: seat_changed with kicked; 10, seat/kicked):
      // the connection watches now, and may not join this table again. Say so; offer no join.
      store.forget(this.tableId);
      this.spectating = true;
      this.lobbyNotice = t("lobby.kicked");
    }
    if (!this.spectating && this.seat !== null && this.seat !== undefined) {
      store.putSeat(this.tableId, { since: this.version, code: table.code, link: table.link });
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
    if (code && table.status !== "finished") want = `/?${table.status === "lobby" ? "join" : "watch"}=${encodeURIComponent(code)}`;
    else if (!table) return; // other screens (home, a message) keep the address they came with
    if (location.pathname + location.search !== want) history.replaceState(null, "", want);
  }

  /** Commitments (round start) and reveals (round end), kept with the seat (PROTOCOL.md 7, 12). */
  recordFairness(table, events) {
    const fair = this.fair || (this.fair = (store.seat(this.tableId) || {}).fair || {});
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

  /** The values of the form's fields for ``preset``'s options, by name. */
  formOptions(form, preset) {
    const data = new FormData(form);
    const options = {};
    for (const spec of preset.options || []) {
      if (spec.type === "bool") options[spec.name] = !!(form.elements[spec.name] && form.elements[spec.name].checked);
      else if (spec.type === "int") options[spec.name] = Number(data.get(spec.name) ?? spec.default);
      else options[spec.name] = String(data.get(spec.name) ?? spec.default);
    }
    return options;
  }

  /** The host request of the form: the game, its preset and every option, seats, bots; or a deal code. */
  hostRequest(form) {
    const data = new FormData(form);
    const desc = this.games.get(String(data.get("game") || "")) || this.games.list[0];
    const preset = this.games.preset(desc.name, String(data.get("preset") || ""));
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

  async host(form, status) {
    const name = this.playerName();
    if (!this.checkName(name, status)) return;
    if (!this.games.ready) return;
    await this.enter({ ...this.hostRequest(form), name }, status);
  }

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

  async enter(msg, status) {
    status.textContent = "";
    this.spectating = false;
    this.tableId = null;
    this.fair = null;
    this.resetLog(null);
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
    this.resetLog(null);
    try {
      await this.conn.request({ type: "watch", code: normal, ...this.screenField() });
    } catch (err) {
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

  screenField() {
    const owned = this.ownedHost(); // the room this screen hosts: it comes back as its host
    if (owned) return { host_token: owned.host_token };
    return this.tv && this.screenToken ? { screen: this.screenToken } : {};
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
    if (!this.tv && location.pathname + location.search !== "/") history.replaceState(null, "", "/");
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

  leaveToHome(notice) {
    if (this.tv) {
      this.showMessageScreen(notice || t("conn.gone"));
      return;
    }
    this.homeNotice = notice;
    this.goHome();
  }

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

  showMessageScreen(text, key = null) {
    this.messageKey = key;
    const parts = [el("p", { role: "status", id: "message" }, text)];
    if (this.tv) parts.push(el("p", {}, el("a", { href: "/" }, t("tv.home"))));
    this.mount("message", el("section", { class: "panel message-screen" }, el("h2", { class: "visually-hidden" }, t("app.title")), parts));
  }

  showHome() {
    const latest = store.latest();
    const savedName = localStorage.getItem(NAME_KEY) || "";
    const nameId = "name";
    const children = [];
    children.push(el("h2", { class: "tagline" }, t("app.tagline")));
    if (!this.params.get("join")) children.push(tvHostPointer()); // a TV's way in, above the fold
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
    if (this.params.get("join")) {
      children.push(
        this.joinPanel(),
        el("details", { class: "host-instead", id: "host-instead" }, el("summary", {}, t("home.host.instead")), this.hostSlot),
      );
    } else children.push(this.hostSlot, this.joinPanel());
    children.push(this.learn.panel(), this.tvHostPanel());
    const recent = recentPanel(this); // this browser's finished matches (replay.js)
    if (recent) children.push(recent);
    this.mount("home", el("div", { class: "home" }, children));
    this.fillHostPanel();
    // An invite link fills the room code in: what is left to do is to say one's name.
    const focusTarget = this.params.get("join") ? document.getElementById("name") : null;
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
  homeFields() {
    const fields = [];
    for (const e of this.root.querySelectorAll("input, select, textarea")) {
      if (e.id && e.type !== "hidden") fields.push({ id: e.id, name: e.name, value: e.value, checked: e.checked, radio: e.type === "radio" });
    }
    // The folds are drawn again in the same order (some have no id): their places say which is which.
    const open = Array.from(this.root.querySelectorAll("details"), (d) => d.open);
    return { fields, open };
  }

  /**
   * Put the fields back. The game and its rules come first, each with its change event, since
   * choosing them draws the fields that depend on them (presets, seats, options); then the rest,
   * as values only (a deal code's input event would choose the game again).
   */
  restoreHomeFields({ fields, open }) {
    const put = (f) => {
      const e = document.getElementById(f.id);
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
    const options = this.root.querySelector("form .options");
    if (options) options.dispatchEvent(new Event("change"));
    const folds = this.root.querySelectorAll("details");
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
    const heading = slot.firstElementChild;
    if (!this.games.ready) {
      slot.replaceChildren(heading, el("p", { class: "hint", id: "host-loading", role: "status" }, t("home.loading")));
      return;
    }
    slot.replaceChildren(heading, this.hostForm());
  }

  hostForm() {
    const games = this.games;
    const dealParam = this.params.get("deal") || "";
    const status = el("p", { class: "form-status", role: "alert", id: "host-status" });
    const form = el("form", {
      id: "host-form",
      onsubmit: (ev) => {
        ev.preventDefault();
        this.host(form, status);
      },
    });
    let wanted = games.readDealCode(dealParam); // {game, preset, seats} a code names, to show first
    const gameBox = el("div", { class: "game-choice" });
    const presetSelect = el("select", { id: "preset", name: "preset" });
    const seatsBox = el("div", { class: "choices", role: "radiogroup", "aria-labelledby": "seats-legend" });
    const bots = el("select", { id: "bots", name: "bots" });
    const timer = this.turnLimitField();
    const optionsBox = el("div", { class: "options" });
    const optionsLegend = el("legend", { id: "options-legend" });
    const optionsSet = el("fieldset", {}, optionsLegend, optionsBox);
    const rulesList = el("ul", { class: "rules", id: "rules-summary" });
    const rulesBox = el("details", { class: "rules-box", open: true }, el("summary", {}, t("home.rules.title")), rulesList);
    const currentGame = () => {
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
      // What the host already set stays set when the form is drawn again (a deal code typed after it).
      const kept = new FormData(form);
      optionsBox.replaceChildren(...this.optionFields(desc, preset));
      for (const spec of preset.options || []) {
        if (!kept.has(spec.name) || spec.type === "bool") continue;
        const value = String(kept.get(spec.name));
        if (spec.type === "int") form.elements[spec.name].value = value;
        else if ((spec.choices || []).includes(value)) form.querySelector(`input[name="${CSS.escape(spec.name)}"][value="${CSS.escape(value)}"]`).checked = true;
      }
      showApplicable();
      // The options box is named for the rules chosen, never for another preset.
      optionsLegend.textContent = t("home.options.of", { preset: this.presetName(desc, preset) });
      optionsSet.hidden = !(preset.options || []).length;
      const lines = this.presetRules(desc, preset.name);
      rulesList.replaceChildren(...lines.map((line) => el("li", {}, line)));
      rulesBox.hidden = !lines.length;
    };
    const fillGame = () => {
      const desc = currentGame();
      presetSelect.replaceChildren(
        ...desc.presets.map((p) => el("option", { value: p.name }, this.presetName(desc, p))),
      );
      presetSelect.value = wanted && wanted.game === desc.name ? wanted.preset : desc.default_preset;
      bots.replaceChildren(...(desc.levels || []).map((lvl) => el("option", { value: lvl }, this.levelName(desc, lvl))));
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
        ...games.list.map((desc) => {
          const id = `game-${desc.name}`;
          return el(
            "span",
            { class: "choice" },
            el("input", { type: "radio", name: "game", id, value: desc.name, checked: desc.name === first, onchange: fillGame }),
            el("label", { for: id }, this.gameTitle(desc)),
          );
        }),
      );
    } else {
      // One game: no choice to make, but the form still says which game it hosts.
      gameBox.append(
        el("p", { class: "label" }, t("home.game")),
        el("p", { class: "game-name", id: "game-name" }, this.gameTitle(games.list[0])),
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
      const radio = document.getElementById(`game-${read.game}`);
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
          { class: "deal-box", open: !!dealParam, hidden: !games.list.some((g) => g.deal_codes) },
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
    const [min, max] = (this.conn.limits && this.conn.limits.turn_limit_s) || [5, 600];
    const choices = [15, 30, 60, 120].filter((n) => n >= min && n <= max);
    const select = el(
      "select",
      { id: "turn-limit", name: "turn_limit_s" },
      el("option", { value: "" }, t("home.turn_limit.off")),
      ...choices.map((n) => el("option", { value: n }, t("home.turn_limit.s", { n }))),
    );
    return [el("label", { for: "turn-limit" }, t("home.turn_limit")), select];
  }

  /** The preset's option fields, each marked with its option's name (for its `when`). */
  optionFields(desc, preset) {
    return (preset.options || []).map((spec) => {
      const field = this.optionField(desc, spec);
      field.dataset.option = spec.name;
      return field;
    });
  }

  /** In a host form's ``box``, only the options that mean something under the form's values (`when`). */
  showApplicableOptions(form, box, preset) {
    const values = this.formOptions(form, preset);
    for (const spec of preset.options || []) {
      const field = box.querySelector(`[data-option="${CSS.escape(spec.name)}"]`);
      if (field) field.hidden = !optionApplies(spec, values);
    }
  }

  /** One option of a preset, as its spec says: int a number field, choice radios, bool a checkbox. */
  optionField(desc, spec) {
    const id = `opt-${spec.name}`;
    const label = this.optionLabel(desc, spec);
    if (spec.type === "int") {
      // The number as the game says it to a player (its "<label>.value"), beside the field, as typed.
      const said = hasText(desc.name, `${spec.label || `option.${spec.name}`}.value`);
      const shown = said ? el("output", { id: `${id}-value`, for: id, class: "option-value" }, this.optionValue(desc, spec, spec.default)) : null;
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
        oninput: shown ? () => (shown.textContent = this.optionValue(desc, spec, Number(input.value))) : undefined,
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
      (spec.choices || []).map((value) => {
        const rid = `${id}-${value}`;
        return el(
          "span",
          { class: "choice" },
          el("input", { type: "radio", name: spec.name, id: rid, value, checked: value === spec.default }),
          el("label", { for: rid }, this.choiceLabel(desc, spec, value)),
        );
      }),
    );
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
    const first = this.root.querySelector('input[name="game"]:checked');
    if (first) first.focus();
  }

  /** Host from the shared screen's form: the request is the form's, with `seated: false`. */
  async hostHere(msg, status) {
    await this.enter(msg, status);
  }

  showTable(events) {
    if (this.screen !== "table" || !this.tableScreen || this.tableScreen.desc.name !== this.table.game) {
      const desc = this.gameOf(this.table) || { name: this.table.game, title: readable(this.table.game || ""), presets: [] };
      if (this.tableScreen) this.tableScreen.destroy();
      this.tableScreen = null;
      const screen = new TableScreen(this, desc, this.games.module(desc.name), { tv: this.tv });
      this.mount("table", screen.node);
      this.tableScreen = screen;
      screen.render(events, true);
    } else {
      this.tableScreen.render(events, false);
    }
  }
}

window.meja = new App();
registerWorker();
