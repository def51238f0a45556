// @ts-check
// The lobby: the screen of a table before its start, on a seat's page (the invite, the seats
// and the host's controls of each, the table's game and rules in words, the talk) and on the
// shared screen (how to join, who sits where, the rules). One of the screens the App routes
// to (app.js): it draws from what the App holds of the table (its table map, this page's seat,
// whether it hosts) and sends through it; what it keeps of its own is the host's armed
// "remove" of a seat (a second click confirms), and the seat this page asked to move to
// ("Sit here" on an empty seat, `sit`: PROTOCOL.md 5), whose arrival takes the focus and is said.

import { optionApplies } from "./games.js";
import { gameText, hasText, isolate, readable, t } from "./strings.js";
import { seatLabel } from "./table.js";
import { startWaitKey } from "./tvhost.js";
import { copyText, el, spacedCode } from "./ui.js";

/** @typedef {import("./contract.js").TableMap} TableMap */
/** @typedef {import("./games.js").GameDescription} GameDescription */
/** A seat of the table map (PROTOCOL.md 7.1): `seat`, `kind` (human, bot, empty), `name`, `level`... @typedef {Record<string, any>} SeatMap */

/** The element of `id`, focused if it is there; whether it was. @param {string} id */
function focusById(id) {
  const node = document.getElementById(id);
  if (node) node.focus();
  return !!node;
}

/**
 * Whether ``link`` names this machine only (127.0.0.0/8, ::1, localhost): nobody else can open it.
 * @param {string} link
 */
export function isLoopback(link) {
  try {
    const host = new URL(link).hostname;
    return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Where a game's page module keeps a phone's Focus (the hand alone, big cards) between pages:
 * localStorage "meja.<game>.focus", "on" or "off" (contract.js). The lobby sets it too, so a phone
 * that joins early can choose it before the start.
 * @param {string} game
 */
export function focusKey(game) {
  return `meja.${game}.focus`;
}

/**
 * The table's teams of partners (the table map's `teams`), or none where every seat plays for
 * itself (each of its teams one seat).
 * @param {TableMap} table
 * @returns {number[][]}
 */
export function teamsOf(table) {
  const teams = Array.isArray(table.teams) ? table.teams : [];
  return teams.some((team) => Array.isArray(team) && team.length > 1) ? teams : [];
}

export class Lobby {
  /**
   * app: the App (app.js), whose table, seat and connection the lobby shows and uses.
   * @param {any} app
   */
  constructor(app) {
    this.app = app;
    /** Whose "remove" the host clicked once, by seat and name (a second click confirms). @type {{seat: number, name: string} | null} */
    this.kickArmed = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.kickTimer = undefined;
    /** Keeps the Start bar's height in the page's --lobby-bar (style.css). @type {ResizeObserver | undefined} */
    this.barWatch = undefined;
    /** The seat this page asked to move to ("Sit here"), until the table puts it there. @type {number | null} */
    this.movingTo = null;
    /** A move asked for and not answered yet. */
    this.sitting = false;
  }

  /**
   * Who would be this person's partner at seat `target` (the table map's teams, any game's): the
   * other seats of its team as they are now, the seat this person leaves counted as open. Null
   * where every seat plays for itself.
   * @param {TableMap} table
   * @param {number} target
   */
  partnerWords(table, target) {
    const team = teamsOf(table).find((seats) => seats.includes(target));
    if (!team) return null;
    const seats = table.seats || [];
    const who = team
      .filter((i) => i !== target)
      .map((i) => {
        const s = seats[i];
        if (!s || s.kind === "empty" || i === this.app.seat) return t("lobby.sit.partner.open");
        if (s.kind === "bot") return t("seat.bot_name", { n: i + 1 });
        return isolate(s.name || t("seat.label", { n: i + 1 }));
      });
    return who.length ? t("lobby.sit.partner", { who: who.join(", ") }) : null;
  }

  /**
   * "Sit here" on an empty seat, for a person seated at this table (not a spectator, nor the
   * shared screen): the button names the seat, and at a game with teams it says (and its
   * description reads) who the partner there would be.
   * @param {SeatMap} s
   * @param {TableMap} table
   */
  sitHere(s, table) {
    const mine = this.app.seat;
    if (s.kind !== "empty" || this.app.tv || this.app.spectating || mine === null || mine === undefined) return null;
    if (table.status !== "lobby") return null;
    const partner = this.partnerWords(table, s.seat);
    const described = partner ? `sit-partner-${s.seat}` : null;
    return [
      partner ? el("span", { class: "hint sit-partner", id: described }, partner) : null,
      el(
        "button",
        {
          type: "button",
          class: "small sit-here",
          id: `sit-${s.seat}`,
          "aria-label": `${t("lobby.sit")}: ${t("seat.label", { n: s.seat + 1 })}`,
          "aria-describedby": described,
          onclick: async () => {
            if (this.sitting) return; // one move at a time (a second press was refused as "yours already")
            this.sitting = true;
            this.movingTo = s.seat;
            const answer = await this.app.send({ type: "sit", seat: s.seat }).finally(() => {
              this.sitting = false;
            });
            if (!answer) this.movingTo = null; // refused (its reason is shown): stay where the focus is
          },
        },
        t("lobby.sit"),
      ),
    ];
  }

  /**
   * After this page's move has come (the table map puts it at the seat it asked for): the focus
   * goes to its new seat in the list (the button pressed is gone), and the page's alert says
   * where it sits now, and with whom at a game with teams. Whether it did.
   */
  arrived() {
    const seat = this.movingTo;
    if (seat === null || this.app.seat !== seat || !this.app.table) return false;
    this.movingTo = null;
    focusById(`lobby-seat-${seat}`);
    const partner = this.partnerWords(this.app.table, seat);
    const where = t("lobby.sit.moved", { seat: t("seat.label", { n: seat + 1 }) });
    this.app.showToast(partner ? `${where} ${partner}.` : where);
    return true;
  }

  /**
   * The seats' Start bar sticks to the screen's foot: its height, kept in --lobby-bar, is the
   * room a control scrolled into view keeps clear above the foot (style.css), so that it does
   * not land under the bar (a phone's second seat's "Seat a bot" did). Two lines of buttons
   * (large text) make a taller bar.
   * @param {HTMLElement} bar
   */
  watchBar(bar) {
    if (typeof ResizeObserver !== "function") return;
    if (!this.barWatch) {
      this.barWatch = new ResizeObserver((entries) => {
        const box = entries[entries.length - 1].target;
        if (box.isConnected) document.documentElement.style.setProperty("--lobby-bar", `${Math.ceil(box.getBoundingClientRect().height)}px`);
      });
    }
    this.barWatch.disconnect();
    this.barWatch.observe(bar);
  }

  /**
   * The invite: the room code large and spelled, copy and share, the link and its QR code.
   * @param {TableMap} table
   * @param {GameDescription | null} desc
   */
  invitePanel(table, desc, { tv = false } = {}) {
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
    /** @param {string} text */
    const copy = async (text) => {
      const ok = await copyText(text, fallback);
      copied.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
    };
    const buttons = [
      el("button", { type: "button", id: "copy-code", onclick: () => copy(code) }, t("lobby.copy_code")),
      el("button", { type: "button", id: "copy-link", onclick: () => copy(link) }, t("lobby.copy_link")),
    ];
    if (navigator.share) {
      const text = t("lobby.share.text", { code, game: this.app.gameTitle(desc) });
      buttons.push(
        el(
          "button",
          {
            type: "button",
            id: "share",
            onclick: () => navigator.share({ title: document.title, text, url: link }).catch(() => {}),
          },
          t("lobby.share"),
        ),
      );
    }
    const qr = el("img", {
      class: "qr",
      id: "qr",
      src: `/qr/${encodeURIComponent(code)}.svg`,
      alt: tv ? t("tv.qr", { link }) : t("lobby.qr"),
      width: 180,
      height: 180,
    });
    qr.addEventListener("error", () => {
      qr.hidden = true;
    });
    // The host's link carries the table's screen token (its TV gets a place of its own); nobody
    // else is shown it.
    const screen = this.app.hostScreenToken();
    const tvLink = el(
      "a",
      { href: `/tv/${encodeURIComponent(code)}${screen ? `?screen=${encodeURIComponent(screen)}` : ""}`, id: "tv-link", target: "_blank", rel: "noopener" },
      t("lobby.tv"),
    );
    return el(
      "section",
      { class: `panel invite-panel${tv ? " tv-invite" : ""}`, "aria-labelledby": "lobby-title" },
      // (focusable by script, as the seats' heading: a redraw gives the focus back to it)
      el("h2", { id: "lobby-title", tabindex: "-1" }, tv ? t("tv.join_title") : t("lobby.title")),
      el(
        "div",
        { class: "invite" },
        el(
          "div",
          { class: "code-box" },
          el("p", { class: "label", id: "room-code-label" }, t("lobby.code")),
          el("p", { class: "room-code", id: "room-code", "aria-hidden": "true" }, spacedCode(code)),
          el("p", { class: "visually-hidden" }, t("lobby.code.spoken", { spelled: code.split("").join(" ") })),
          tv ? el("p", { class: "tv-scan" }, t("tv.scan")) : el("div", { class: "row" }, buttons),
        ),
        qr,
      ),
      tv ? null : fallback,
      tv ? null : copied,
      el("p", { class: "invite-link" }, el("span", { class: "label" }, `${t("lobby.link")}: `), el("a", { href: link, id: "invite-link" }, link)),
      // A link to this machine's loopback address opens nowhere else: say so, and what to do, to
      // the host, who ran the server (a guest's page had the operator's advice too), and on a
      // shared screen, the only screen a living room sees before anyone joins (a new user's phones
      // scanned a TV's code that could not open).
      (!tv && !this.app.isHost) || !isLoopback(link) ? null : el("p", { class: "notice", id: "loopback-note" }, t("lobby.loopback")),
      tv ? null : el("p", { class: "hint" }, tvLink, " ", t("lobby.tv.hint")),
    );
  }

  /**
   * Who sits where, the host's Start (or what the others wait for), and Leave.
   * @param {TableMap} table
   * @param {GameDescription | null} desc
   */
  seatsPanel(table, desc, { tv = false } = {}) {
    const seats = el(
      "ul",
      { class: "seats", id: "seats" },
      (table.seats || []).map((/** @type {SeatMap} */ s) => this.seatItem(s, table, desc)),
    );
    const empty = (table.seats || []).some((/** @type {SeatMap} */ s) => s.kind === "empty");
    // Partners (the table map's teams, any game's): who plays with whom is said before the start.
    const partners = teamsOf(table).length > 0;
    let start = null;
    if (!tv || this.app.isHost) {
      start = this.app.isHost
        ? el("button", { type: "button", class: "primary big", id: "start", onclick: () => this.app.send({ type: "start" }) }, t("lobby.start"))
        : el("p", { class: "hint", id: "start-wait" }, this.app.spectating ? t("lobby.start.watch") : t(startWaitKey(table)));
    }
    return el(
      "section",
      { class: "panel seats-panel", "aria-labelledby": "seats-title" },
      // Focusable by script (tabindex -1) in every drawing, not only the first: the lobby is drawn
      // again on every change (someone joins, an option changes), and the focus is given back to
      // the heading that had it by its id, which a plain heading would refuse (left on the page's body).
      el("h2", { id: "seats-title", tabindex: "-1" }, t("lobby.seats")),
      seats,
      partners ? el("p", { class: "hint", id: "teams-note" }, t("lobby.teams")) : null,
      empty ? el("p", { class: "hint", id: "bots-fill" }, t("lobby.bots_fill", { level: this.app.levelName(desc, table.bots) })) : null,
      // how this seat's own screen will show the table, with the seats it is about (it stood loose
      // between two panels: a new user's trial)
      tv ? null : this.focusToggle(desc),
      tv ? start : this.actionsBar(start),
    );
  }

  /** Start (or what the others wait for) and Leave, in a bar at the screen's foot. @param {HTMLElement | null} start */
  actionsBar(start) {
    const bar = el(
      "div",
      { class: "row lobby-actions" },
      start,
      this.app.spectating ? null : el("button", { type: "button", id: "leave", onclick: () => this.app.leave() }, t("nav.leave")),
    );
    this.watchBar(bar);
    return bar;
  }

  /** A seat's page before the start: the invite, the seats, the table's game and rules, the talk. */
  show() {
    const table = this.app.table;
    if (!table) return;
    const desc = this.app.gameOf(table);
    const node = el(
      "div",
      // A guest's phone shows the seats first (style.css): the invitation is the host's business.
      { class: `lobby${this.app.isHost ? "" : " guest"}` },
      this.app.lobbyNotice ? el("p", { class: "notice", role: "alert", id: "lobby-notice" }, this.app.lobbyNotice) : null,
      this.invitePanel(table, desc),
      this.seatsPanel(table, desc),
      desc ? this.about(desc, table) : null,
      this.talkPanel(),
    );
    const focused = document.activeElement && document.activeElement.id;
    const arriving = this.app.screen !== "lobby";
    this.app.mount("lobby", node);
    this.app.talk.paint();
    this.app.call.paint();
    if (this.arrived()) return;
    if (focused && focusById(focused)) return;
    if (arriving) {
      // Just hosted or joined: the focus goes to the lobby's heading (a keyboard or screen reader
      // user starts there, not back at the top of the page: the button they pressed is gone).
      const title = document.getElementById(this.app.isHost ? "lobby-title" : "seats-title");
      if (title) title.focus();
    }
  }

  /** The shared screen before the start: how to join (code, QR code, link), who sits where, the rules. */
  showTv() {
    const table = this.app.table;
    if (!table) return;
    const desc = this.app.gameOf(table);
    const node = el(
      "div",
      { class: "lobby tv-lobby" },
      this.invitePanel(table, desc, { tv: true }),
      this.seatsPanel(table, desc, { tv: true }),
      desc ? this.about(desc, table) : null,
      this.app.call.node,
      this.app.talk.tvChatNode(),
    );
    const focused = document.activeElement && document.activeElement.id;
    const arriving = this.app.screen !== "tv-lobby";
    this.app.mount("tv-lobby", node);
    this.app.talk.paint();
    this.app.call.paint();
    // The host's remote starts at Start (or stays where it was); a screen that only shows, nowhere.
    if (focused && focusById(focused)) return;
    if (arriving) focusById("start");
  }

  /**
   * Focus before the start, for a seat's page whose game offers it (its strings have
   * "table.focus"): the same choice as the table's own Focus button, kept where the game keeps it.
   * @param {GameDescription | null} desc
   */
  focusToggle(desc) {
    if (!desc || this.app.tv || this.app.seat === null || this.app.seat === undefined) return null;
    if (!hasText(desc.name, "table.focus")) return null;
    const key = focusKey(desc.name);
    let on = false;
    try {
      on = localStorage.getItem(key) === "on";
    } catch {
      // storage refused (a private window): the choice lasts for this page only
    }
    const button = el(
      "button",
      {
        type: "button",
        class: "small focus-toggle",
        id: "lobby-focus",
        "aria-pressed": on ? "true" : "false",
        title: gameText(desc.name, "table.focus.hint"),
        onclick: () => {
          on = button.getAttribute("aria-pressed") !== "true";
          button.setAttribute("aria-pressed", on ? "true" : "false");
          try {
            localStorage.setItem(key, on ? "on" : "off");
          } catch {
            // as above
          }
        },
      },
      gameText(desc.name, "table.focus"),
    );
    return el("p", { class: "lobby-focus" }, button, " ", el("span", { class: "hint" }, gameText(desc.name, "table.focus.hint")));
  }

  /** The lobby drawn again as this page shows it (a shared screen's, or a seat's). */
  redraw() {
    if (this.app.tv) this.showTv();
    else this.show();
  }

  /** The lobby's talk: reactions, the chat and its settings, and the call (talk.js, call.js). */
  talkPanel() {
    const { bar, panel } = this.app.talk.parts();
    this.app.talk.callSlot.append(this.app.call.node);
    return el(
      "section",
      { class: "panel talk-lobby", "aria-labelledby": "talk-lobby-title" },
      el("h2", { id: "talk-lobby-title" }, t("talk.title")),
      bar,
      panel,
    );
  }

  /**
   * The table's game, preset and options in words, and its rules in plain words.
   * @param {GameDescription} desc
   * @param {TableMap} table
   */
  about(desc, table) {
    const preset = this.app.games.preset(desc.name, table.preset);
    const options = table.options || {};
    const rows = [
      [t("lobby.game"), this.app.gameTitle(desc), "game"],
      [t("lobby.rules"), preset ? this.app.presetName(desc, preset) : readable(table.preset || ""), "preset"],
    ];
    for (const spec of (preset && preset.options) || []) {
      if (!(spec.name in options) || !optionApplies(spec, options)) continue;
      rows.push([this.app.optionLabel(desc, spec), this.app.optionValue(desc, spec, options[spec.name]), spec.name]);
    }
    if (table.turn_limit_s) rows.push([t("home.turn_limit"), t("home.turn_limit.s", { n: table.turn_limit_s }), "turn-limit"]);
    if (table.deal_code_given) rows.push([t("summary.deal"), t("lobby.deal_given"), "deal"]);
    if (table.talk && table.talk.chat) rows.push([t("talk.mode"), t(`talk.mode.${table.talk.chat}`), "talk"]);
    const lines = this.app.rulesLines(desc, table);
    return el(
      "section",
      { class: "panel about", "aria-labelledby": "about-title" },
      el("h2", { id: "about-title" }, t("lobby.about")),
      el(
        "dl",
        { class: "table-rules", id: "table-rules" },
        rows.map(([dt, dd, key]) => [el("dt", { dataset: { key } }, dt), el("dd", { dataset: { key } }, dd)]),
      ),
      lines.length
        ? [el("h3", { id: "lobby-rules-title" }, t("lobby.rules.title")), el("ul", { class: "rules", id: "lobby-rules", "aria-labelledby": "lobby-rules-title" }, lines.map((/** @type {string} */ l) => el("li", {}, l)))]
        : null,
      this.app.learn.lobbyLink(desc.name),
    );
  }

  /**
   * One seat of the list: who sits there, notes, and the host's controls for it.
   * @param {SeatMap} s
   * @param {TableMap} table
   * @param {GameDescription | null} desc
   */
  seatItem(s, table, desc) {
    const level = this.app.levelName(desc, s.level || table.bots);
    const notes = [];
    if (s.kind === "bot") notes.push(t("seat.level", { level }));
    if (s.kind === "empty") notes.push(t("seat.empty.note", { level }));
    if ((s.seat === table.host_seat || s.seat === table.host_rights) && s.kind === "human") notes.push(t("lobby.host"));
    if (s.seat === this.app.seat) notes.push(t("lobby.you"));
    if (s.kind === "human" && !s.connected) notes.push(t("seat.offline"));
    const controls = [];
    if (this.app.isHost && s.seat !== this.app.seat) {
      const seatNo = t("seat.label", { n: s.seat + 1 });
      if (s.kind === "human") {
        // Taking a person's seat keeps them out of this table for good (a kick sticks): a second click confirms.
        // Armed for the person, not the seat: one who moved there since is not the one confirmed.
        const armed = !!this.kickArmed && this.kickArmed.seat === s.seat && this.kickArmed.name === s.name;
        controls.push(
          el(
            "button",
            {
              type: "button",
              class: `small${armed ? " danger" : ""}`,
              id: `seat-control-${s.seat}`,
              "aria-label": armed ? null : `${t("lobby.seat.remove")}: ${seatNo}`,
              onclick: () => {
                if (!armed) {
                  this.kickArmed = { seat: s.seat, name: s.name };
                  clearTimeout(this.kickTimer);
                  this.kickTimer = setTimeout(() => {
                    this.kickArmed = null;
                    if (this.app.screen === "lobby" || this.app.screen === "tv-lobby") this.redraw();
                  }, 6000);
                  this.redraw();
                  return;
                }
                this.kickArmed = null;
                this.app.send({ type: "seat", seat: s.seat, to: "empty" });
              },
            },
            armed ? t("lobby.seat.remove_confirm", { name: s.name }) : t("lobby.seat.remove"),
          ),
        );
      } else {
        if (s.kind === "bot" && desc && (desc.levels || []).length > 1) {
          // Each bot's level is the host's to choose, seat by seat (the form's level is only the default).
          const pick = el(
            "select",
            {
              id: `seat-level-${s.seat}`,
              class: "small",
              "aria-label": `${t("lobby.seat.level")}: ${seatNo}`,
              onchange: (/** @type {Event} */ ev) =>
                this.app.send({ type: "seat", seat: s.seat, to: "bot", level: /** @type {HTMLSelectElement} */ (ev.target).value }),
            },
            ...desc.levels.map((/** @type {string} */ lvl) => el("option", { value: lvl }, this.app.levelName(desc, lvl))),
          );
          pick.value = s.level || table.bots;
          controls.push(pick);
        }
        const to = s.kind === "bot" ? "empty" : "bot";
        const words = t(to === "bot" ? "lobby.seat.to_bot" : "lobby.seat.to_empty");
        controls.push(
          el(
            "button",
            { type: "button", class: "small", id: `seat-control-${s.seat}`, "aria-label": `${words}: ${seatNo}`, onclick: () => this.app.send({ type: "seat", seat: s.seat, to }) },
            words,
          ),
        );
      }
    }
    const team = teamsOf(table).findIndex((seats) => seats.includes(s.seat));
    return el(
      "li",
      {
        class: `seat seat-${s.kind}`,
        id: `lobby-seat-${s.seat}`,
        // (one's own seat takes the focus after a move: "Sit here")
        tabindex: s.seat === this.app.seat && !this.app.spectating ? "-1" : null,
        dataset: team >= 0 ? { seat: s.seat, team: team } : { seat: s.seat },
      },
      el("span", { class: "seat-no" }, t("seat.label", { n: s.seat + 1 })),
      team >= 0 ? el("span", { class: "seat-team" }, t("outcome.team.n", { n: team + 1 })) : null,
      seatLabel(t, s, s.seat, level),
      notes.length ? el("span", { class: "seat-notes" }, notes.join(" · ")) : null,
      controls,
      this.sitHere(s, table),
    );
  }
}
