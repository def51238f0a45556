// The table screen's frame: the table's name and round, the seats around the table (name,
// the game's count, presence, bot level, whose move), the game's centre and actions, the
// hold notice, the hand widget, the move log, the round-summary frame with the fair-deal
// check, and the choice dialog. What lies on the table is the game's: its page module's
// table (or the generic renderer) draws the centre and says what the frame shows (see the
// interface at the top of app.js).
//
// Keyboard: the hand is one tab stop (hand.js); the choice dialog is a modal <dialog>
// (dialog.js). The log is a polite live region: each move is announced once, as it is
// added. The hold notice is a status region.

import { ChoiceDialog } from "./dialog.js";
import { checkDeal } from "./fair.js";
import { GenericTable } from "./generic.js";
import { HandWidget } from "./hand.js";
import { t, textFor } from "./strings.js";
import { copyText, el, sleep, spacedCode } from "./ui.js";

const LOG_MAX = 80;
/** Table events (meja.rules.game.TABLE_EVENT_KINDS) the log speaks of; the game's own are its module's. */
const TABLE_EVENTS = new Set([
  "seat_changed", "connected", "away", "auto", "started", "rematch", "closed", "commitment", "reveal", "timeout", "act",
]);

export class TableScreen {
  /** app: the App (app.js); desc: the table's game's catalog entry; module: its page module or null. */
  constructor(app, desc, module) {
    this.app = app;
    this.desc = desc;
    this.summaryShownFor = null;
    this.build();
    const host = this.host();
    this.game = module && typeof module.createTable === "function" ? module.createTable(host) : new GenericTable(host, desc);
    this.centreSlot.replaceChildren(...(this.game.centre ? [this.game.centre] : []));
    this.actionsSlot.replaceChildren(...(this.game.actions ? [this.game.actions] : []));
  }

  /** What the game's table may call back (the interface at the top of app.js). */
  host() {
    const screen = this;
    return {
      t: textFor(this.desc.name),
      el,
      act: (action) => this.app.act(action),
      get seat() {
        return screen.mySeat;
      },
      get isHost() {
        return screen.app.isHost;
      },
      seatName: (i) => this.seatName(i),
      say: (text) => this.say(text),
      choose: (spec) => this.dialog.open(spec),
      closeChoice: () => this.dialog.close(),
      focusHand: () => this.hand.wantFocus(),
    };
  }

  // ------------------------------------------------------------------ structure

  build() {
    this.title = el("h2", { id: "table-title" });
    this.roundLabel = el("p", { class: "round-label", id: "round-label" });
    this.opponents = el("ul", { class: "opponents", id: "opponents" });
    this.opponentsTitle = el("h3", { class: "visually-hidden", id: "opponents-title" });
    this.centreSlot = el("div", { class: "game-slot", id: "game-centre" });
    this.actionsSlot = el("div", { class: "game-slot", id: "game-actions" });
    this.turnStatus = el("p", { class: "turn-status", id: "turn-status" });
    this.spectatorNote = el("p", { class: "hint", id: "spectator-note", hidden: true });
    this.handTitle = el("h3", { id: "hand-title" });
    this.hand = new HandWidget({
      labelledBy: "hand-title",
      onChoose: (id) => this.game.play(id),
      emptyText: () => t("table.hand_empty"),
    });
    this.handSection = el(
      "section",
      { class: "my-area", "aria-labelledby": "hand-title" },
      this.handTitle,
      this.hand.node,
      this.actionsSlot,
    );
    this.holdBox = el("div", { class: "hold", id: "hold", role: "status", hidden: true });
    this.summary = el("section", { class: "panel summary", id: "summary", hidden: true, "aria-labelledby": "summary-title" });
    this.logTitle = el("h3", { id: "log-title" });
    // tabindex: the log scrolls, so keyboard users must be able to reach it to scroll it.
    this.log = el("ol", {
      class: "log",
      id: "log",
      "aria-live": "polite",
      "aria-relevant": "additions",
      "aria-labelledby": "log-title",
      tabindex: "0",
    });
    this.logBox = el("section", { class: "log-box", "aria-labelledby": "log-title" }, this.logTitle, this.log);
    this.dialog = new ChoiceDialog({
      restoreFocus: (returnTo) => {
        if (!this.hand.restoreFocus() && returnTo && returnTo.isConnected) returnTo.focus();
      },
    });
    this.notice = el("p", { class: "play-notice", id: "play-notice", role: "status" });
    this.node = el(
      "div",
      { class: "table-screen" },
      el("div", { class: "table-head" }, this.title, this.roundLabel),
      el("section", { class: "opponents-box", "aria-labelledby": "opponents-title" }, this.opponentsTitle, this.opponents),
      this.centreSlot,
      this.holdBox,
      this.turnStatus,
      this.spectatorNote,
      this.summary,
      this.handSection,
      this.notice,
      this.logBox,
      this.dialog.node,
    );
  }

  destroy() {
    this.game.destroy();
    if (this.dialog.isOpen) this.dialog.close();
  }

  relabel() {
    this.render([], false, true);
  }

  // ------------------------------------------------------------------ data

  get view() {
    return this.app.view;
  }

  get table() {
    return this.app.table;
  }

  get mySeat() {
    return this.app.seat;
  }

  seatName(i) {
    if (i === this.mySeat) return t("table.you");
    const s = (this.table.seats || [])[i];
    if (!s) return t("seat.label", { n: i + 1 });
    if (s.kind === "bot") return t("seat.bot_name", { n: i + 1 });
    return s.name || t("seat.label", { n: i + 1 });
  }

  say(text) {
    this.notice.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice.textContent = "";
    }, 6000);
  }

  // ------------------------------------------------------------------ updates

  /**
   * Called before an update is applied: hold the table while each event the game holds
   * for (its GameInfo.hold_events) is shown, the way the game's table says (`hold`).
   */
  async beforeUpdate(events) {
    const declared = Array.isArray(this.desc.hold_events) ? this.desc.hold_events : null;
    for (const ev of events) {
      if (TABLE_EVENTS.has(ev.kind)) continue;
      // Without the game's list, only a module can know its own held events; the generic renderer holds for none.
      if (declared ? !declared.includes(ev.kind) : this.game instanceof GenericTable) continue;
      const how = this.game.hold(ev);
      if (!how || !how.node) continue;
      this.holdBox.replaceChildren(how.node);
      this.holdBox.hidden = false;
      await sleep(how.ms ?? 1500);
      this.holdBox.hidden = true;
      this.holdBox.replaceChildren();
    }
  }

  render(events, first, relabelOnly = false) {
    const v = this.view;
    const table = this.table;
    if (!v || !table) return;
    const frame = this.game.render(v) || {};
    if (!relabelOnly) for (const ev of events) this.logEvent(ev);
    this.title.textContent = t("table.title", { code: spacedCode(table.code) });
    const round = frame.round;
    this.roundLabel.hidden = round === null || round === undefined;
    this.roundLabel.textContent = this.roundLabel.hidden ? "" : t("table.round", { n: round });
    this.opponentsTitle.textContent = t("lobby.seats");
    this.handTitle.textContent = t("table.your_hand");
    this.logTitle.textContent = t("table.log");
    this.renderSeats(frame.seats || []);
    const status = table.status === "finished" ? null : frame.status; // a match over waits for nobody
    this.turnStatus.textContent = status ? status.text : "";
    this.turnStatus.classList.toggle("mine", !!(status && status.mine));
    this.turnStatus.hidden = !(status && status.text);
    const spectator = this.mySeat === null || this.mySeat === undefined;
    this.spectatorNote.hidden = !spectator;
    this.spectatorNote.textContent = t("table.spectating");
    this.handSection.hidden = spectator;
    const hasHand = Array.isArray(frame.hand);
    this.handTitle.hidden = !hasHand;
    this.hand.node.hidden = !hasHand;
    if (!spectator && hasHand) this.hand.set(frame.hand);
    this.renderSummary(frame.summary || this.outcomeSummary());
  }

  renderSeats(seatInfo) {
    const items = [];
    const seats = this.table.seats || [];
    const n = seats.length;
    const start = this.mySeat === null || this.mySeat === undefined ? 0 : this.mySeat + 1;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      if (i === this.mySeat) continue;
      const s = seats[i] || {};
      const info = seatInfo[i] || {};
      const turn = !!info.active;
      const flags = [];
      if (s.kind === "bot") flags.push(t("seat.level", { level: this.app.levelName(this.desc, s.level) }));
      if (s.kind === "human" && s.auto) flags.push(t("seat.auto"));
      else if (s.kind === "human" && !s.connected) flags.push(t("seat.away"));
      items.push(
        el(
          "li",
          { class: `opponent${turn ? " on-turn" : ""}`, dataset: { seat: i }, "aria-current": turn ? "true" : null },
          el("span", { class: "opp-name" }, this.seatName(i)),
          info.count !== undefined && info.count !== null ? el("span", { class: "opp-count" }, String(info.count)) : null,
          flags.length ? el("span", { class: "opp-flags" }, flags.join(", ")) : null,
          turn ? el("span", { class: "opp-turn" }, "◀") : null,
        ),
      );
    }
    this.opponents.replaceChildren(...items);
  }

  // ------------------------------------------------------------------ the log

  logEvent(ev) {
    const me = this.mySeat;
    const who = (seat) => this.seatName(seat);
    let text = null;
    switch (ev.kind) {
      case "rematch":
        text = t("log.rematch");
        break;
      case "away":
        if (ev.seat !== me) text = t("log.away", { who: who(ev.seat) });
        break;
      case "connected":
        if (ev.seat !== me && ev.seat !== undefined) text = t("log.back", { who: who(ev.seat) });
        break;
      case "auto":
        if (ev.seat !== me && ev.seat !== undefined && ev.auto !== false) text = t("log.auto", { who: who(ev.seat) });
        break;
      default:
        if (!TABLE_EVENTS.has(ev.kind)) text = this.game.logLine(ev);
        break;
    }
    if (!text) return;
    const item = el("li", { class: ev.seat === me ? "mine" : "" }, text);
    this.log.append(item);
    while (this.log.children.length > LOG_MAX) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  // ------------------------------------------------------------------ the round summary

  /** The end of a match as the table map says it (`outcome`), for a game whose table gives no summary. */
  outcomeSummary() {
    const table = this.table;
    const outcome = table.outcome;
    if (table.status !== "finished" || !outcome) return null;
    const teams = Array.isArray(outcome.team_scores) && outcome.team_scores.length ? table.teams || [] : null;
    let rows;
    let head;
    if (teams) {
      head = [t("outcome.team"), t("outcome.seats"), t("outcome.score")];
      rows = outcome.team_scores.map((score, i) => [
        t("outcome.team.n", { n: i + 1 }),
        (teams[i] || []).map((s) => this.seatName(s)).join(", "),
        String(score),
        (outcome.teams || []).includes(i),
      ]);
    } else {
      head = [t("outcome.player"), t("outcome.score")];
      rows = (outcome.scores || []).map((score, i) => [this.seatName(i), String(score), (outcome.winners || []).includes(i)]);
    }
    const details = el(
      "table",
      { class: "scores", id: "outcome" },
      el("caption", {}, t("outcome.scores")),
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        rows.map((cells) => {
          const won = cells.pop();
          const [first, ...rest] = cells;
          return el("tr", { class: won ? "winner" : "" }, el("th", { scope: "row" }, first), rest.map((c) => el("td", {}, c)));
        }),
      ),
    );
    return { round: null, details, dealCode: null, match: true, winners: outcome.winners || [], next: null };
  }

  renderSummary(summary) {
    if (!summary) {
      this.summary.hidden = true;
      this.summary.replaceChildren();
      return;
    }
    const v = this.view;
    const focusedId = this.summary.contains(document.activeElement) ? document.activeElement.id : null;
    const hasRound = summary.round !== null && summary.round !== undefined;
    const title = el(
      "h2",
      { id: "summary-title", tabindex: "-1" },
      hasRound ? t("summary.title", { n: summary.round }) : t("summary.match_over"),
    );
    const parts = [title];
    if (summary.details) parts.push(summary.details);
    if (hasRound) parts.push(this.dealBox(summary.round, summary.dealCode));
    if (summary.match) {
      const names = (summary.winners || []).map((s) => this.seatName(s));
      if (hasRound) parts.push(el("h3", {}, t("summary.match_over")));
      parts.push(el("p", { class: "winners", id: "winners" }, t("summary.winners", { n: names.length, names: names.join(", ") })));
      if (this.app.isHost) {
        parts.push(el("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.app.send({ type: "rematch" }) }, t("summary.rematch")));
      } else {
        parts.push(el("p", { class: "hint" }, t("summary.rematch.wait")));
      }
      parts.push(el("button", { type: "button", id: "leave-table", onclick: () => this.app.leave() }, t("nav.leave")));
    } else if (summary.next) {
      const next = summary.next;
      parts.push(el("button", { type: "button", class: "primary", id: "next-round", onclick: () => this.app.act(next) }, t("summary.next")));
    } else if (this.mySeat !== null && this.mySeat !== undefined) {
      parts.push(el("p", { class: "hint", id: "waiting", role: "status" }, t("summary.waiting")));
    }
    this.summary.replaceChildren(...parts);
    this.summary.hidden = false;
    const key = `${summary.round}/${summary.match}/${v ? v.phase : ""}`;
    if (focusedId && document.getElementById(focusedId)) {
      document.getElementById(focusedId).focus();
    } else if (this.summaryShownFor !== key) {
      // Move focus to the summary when it appears, so keyboard and screen reader users land on it.
      this.summaryShownFor = key;
      title.focus();
    } else if (!this.summary.contains(document.activeElement) && document.activeElement === document.body) {
      title.focus();
    }
  }

  /** The round's deal code (to share and replay) and the fair-deal check of its commitment. */
  dealBox(round, code) {
    const fair = (this.app.fair || {})[round] || {};
    const status = el("p", { class: "commitment", id: "commitment" });
    const check = checkDeal(fair, code);
    status.dataset.check = check;
    if (check === "none") status.textContent = t("summary.commit.none");
    else if (check === "wait") status.textContent = t("summary.commit.wait");
    else status.textContent = check === "ok" ? t("summary.commit.ok", { hash: fair.hash.slice(0, 12) }) : t("summary.commit.bad");
    status.classList.toggle("bad", check === "bad");
    if (!code) return el("div", { class: "deal" }, status);
    const link = dealLink(this.table, code);
    const fallback = el("input", { type: "text", readonly: true, hidden: true, class: "copy-fallback", "aria-label": t("summary.deal") });
    const copied = el("span", { class: "form-status", role: "status" });
    return el(
      "div",
      { class: "deal" },
      el("p", {}, el("span", { class: "label" }, `${t("summary.deal")}: `), el("code", { id: "deal-code-shown" }, code)),
      el("p", { class: "hint" }, t("summary.deal.hint")),
      el(
        "button",
        {
          type: "button",
          id: "copy-deal",
          dataset: { link },
          onclick: async () => {
            const ok = await copyText(link, fallback);
            copied.textContent = ok ? t("lobby.copied") : t("lobby.copy_failed");
          },
        },
        t("summary.copy_deal"),
      ),
      copied,
      fallback,
      status,
    );
  }
}

/**
 * The deal's link on the table's public origin: /play?deal=CODE (the server answers /play
 * with the page; the page reads `deal` on any path and opens the host form with it).
 */
export function dealLink(table, code) {
  let origin = location.origin;
  try {
    if (table && table.link) origin = new URL(table.link).origin;
  } catch (err) {
    /* keep the page's origin */
  }
  return `${origin}/play?deal=${encodeURIComponent(code)}`;
}
