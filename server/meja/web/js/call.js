// @ts-check
// The video call in the room (PROTOCOL.md 16.5): WebRTC between the browsers, each person to
// each other person (a mesh); the server only relays the signalling (`call`, `ice`, `signal`)
// and never sees the media. No STUN or TURN server is named here: the ICE servers are the
// ones the server's operator configured, given in `ice` (none: host candidates, one network).
//
// Joining: the camera and microphone are asked for first (a person who refuses joins without
// them), then `call {join: true, mic, cam}`; the answer `ice` gives this connection's call id,
// its ICE servers and whether to relay only; the `call` roster follows, to everyone at the
// table. For each other person in the roster the lower seat of the two makes the offer:
// each connection carries one audio and one video transceiver from the start, so turning the
// camera or the microphone on and off never negotiates again (a track is swapped or left
// empty, and the roster says mic and cam). A person whose call id changes rejoined (a reload,
// a new connection): their old RTCPeerConnection is closed and a new one made.
//
// Candidates are sent in batches (at most 32 a message, every 100 ms) so that a connection
// stays well under the server's signal rate (20 a second). Speaking is measured here, from
// the microphone (an AudioContext analyser), and sent on change at most twice a second.
// Video goes to at most `video_max` people (the first in seat order): past them a person
// sends sound only, as a mesh costs each sender one upload per peer.
//
// Coming back: sessionStorage "meja.call" names the tables this tab was in the call at (with
// mic and cam): after a reload, or a dropped connection (the server lets the call go with the
// connection), the call is joined again once the table's `state` came.
//
// Where it shows: each person's tile (their video, or their name's initial while their camera
// is off; a speaking ring; mic and camera marks) sits in their seat's box on the table or
// their row in the lobby (beside the name; on a narrow screen under it, talk.css, so that a
// phone's narrow box keeps the name and the count whole); the shared screen shows who is in
// the call and who speaks, and never joins.

import { t } from "./strings.js";
import { el } from "./ui.js";

const CALL_KEY = "meja.call";
const CANDIDATE_BATCH = 32;
const CANDIDATE_EVERY_MS = 100;
const SDP_PIECE = 1000;
const SPEAK_LEVEL = 0.015; // RMS of the microphone's samples (0..1) above which a person speaks
const SPEAK_HOLD_MS = 700; // speaking lasts this long after the last loud sample
const SPEAK_SEND_MS = 500; // at most two roster updates a second
const VIDEO = { width: { ideal: 320 }, height: { ideal: 240 }, frameRate: { ideal: 15 } };

function loadCalls() {
  try {
    return JSON.parse(sessionStorage.getItem(CALL_KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

/** A server message (PROTOCOL.md 16.2). @typedef {Record<string, any>} Message */

/** @param {Record<string, {mic: boolean, cam: boolean}>} all */
function saveCalls(all) {
  try {
    sessionStorage.setItem(CALL_KEY, JSON.stringify(all));
  } catch (err) {
    /* private mode: no rejoin after a reload */
  }
}

/** A session description cut into the protocol's pieces (PROTOCOL.md 16.1: at most 1,000 characters). */
/** @param {string} sdp */
export function cutSdp(sdp) {
  const pieces = [];
  for (let i = 0; i < sdp.length; i += SDP_PIECE) pieces.push(sdp.slice(i, i + SDP_PIECE));
  return pieces;
}

export class Call {
  /** @param {any} app the App (app.js) */
  constructor(app) {
    this.app = app;
    /** @type {string | null} */
    this.tableId = null;
    /** The latest `call.peers`. @type {Record<string, any>[]} */
    this.roster = [];
    this.videoMax = 4;
    /** {id, servers, relay} from `ice` while in the call. @type {{id: string, servers: RTCIceServer[], relay: boolean} | null} */
    this.me = null;
    this.joining = false;
    /** {mic, cam}: this tab means to be in the call. @type {{mic: boolean, cam: boolean} | null} */
    this.want = null;
    /** The camera and microphone. @type {MediaStream | null} */
    this.local = null;
    this.mic = true;
    this.cam = true;
    this.speaking = false;
    /** @type {boolean | undefined} */
    this.sentSpeaking = undefined;
    /** @type {string} */
    this.error = "";
    /** @type {AudioContext | null} */
    this.audioCtx = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.speakTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.speakSendTimer = null;
    /** @type {number | undefined} */
    this.speakSentAt = undefined;
    /** seat -> Peer. @type {Map<number, Peer>} */
    this.peers = new Map();
    /** The seat this page sat at when it made its connections (who offers depends on it). @type {number | null} */
    this.peersSeat = null;
    // The controls, made by build() below.
    const late = /** @type {any} */ (null);
    /** @type {HTMLButtonElement} */
    this.joinButton = late;
    /** @type {HTMLButtonElement} */
    this.joinAudio = late;
    /** @type {HTMLButtonElement} */
    this.micButton = late;
    /** @type {HTMLButtonElement} */
    this.camButton = late;
    /** @type {HTMLButtonElement} */
    this.leaveButton = late;
    /** @type {HTMLButtonElement} */
    this.soundButton = late;
    /** @type {HTMLVideoElement} */
    this.selfVideo = late;
    /** @type {HTMLSpanElement} */
    this.selfBox = late;
    /** @type {HTMLParagraphElement} */
    this.rosterLine = late;
    /** @type {HTMLParagraphElement} */
    this.status = late;
    /** @type {HTMLDivElement} */
    this.controls = late;
    /** @type {HTMLDivElement} */
    this.node = late;
    this.media = el("div", { class: "call-media", id: "call-media", "aria-hidden": "true" });
    document.body.append(this.media);
    this.build();
  }

  // ------------------------------------------------------------------ state

  get seated() {
    return !this.app.spectating && this.app.seat !== null && this.app.seat !== undefined;
  }

  get inCall() {
    return !!this.me;
  }

  get muted() {
    const talk = this.app.table && this.app.table.talk;
    return this.seated && !!talk && (talk.muted || []).includes(this.app.seat);
  }

  /** A new table (or none): leave the last one's call. @param {string | null} tableId */
  reset(tableId) {
    if (tableId === this.tableId) return;
    if (this.tableId) this.stop(false);
    this.tableId = tableId;
    this.roster = [];
    this.refresh();
  }

  /** @param {boolean} on */
  remember(on) {
    const all = loadCalls();
    if (on && this.tableId) all[this.tableId] = { mic: this.mic, cam: this.cam };
    else if (this.tableId) delete all[this.tableId];
    saveCalls(all);
  }

  // ------------------------------------------------------------------ joining and leaving

  /** @param {boolean} cam */
  async join(cam) {
    if (this.joining || this.inCall || !this.seated || this.muted) return;
    this.joining = true;
    this.error = "";
    this.want = { mic: true, cam };
    this.refresh();
    try {
      await this.getMedia(cam);
      await this.sendJoin();
      this.remember(true);
    } finally {
      this.joining = false;
      this.refresh();
    }
  }

  /** The camera and microphone; what cannot be had is done without (a person may listen only). */
  /** @param {boolean} cam */
  async getMedia(cam) {
    const wantVideo = cam;
    if (this.local) {
      const hasVideo = this.local.getVideoTracks().length > 0;
      if (hasVideo || !wantVideo) {
        this.cam = wantVideo && hasVideo;
        this.applyTracks();
        return;
      }
      this.stopLocal();
    }
    const tries = wantVideo ? [{ audio: true, video: VIDEO }, { audio: true }, { video: VIDEO }] : [{ audio: true }];
    /** @type {any} */
    let failure = null;
    for (const constraints of tries) {
      try {
        this.local = await navigator.mediaDevices.getUserMedia(constraints);
        break;
      } catch (err) {
        failure = failure || err;
      }
    }
    if (!this.local) {
      this.local = new MediaStream();
      this.error = t("call.media_failed", { message: (failure && failure.name) || "?" });
    } else if (failure) {
      this.error = t("call.media_partly", { message: failure.name || "?" });
    }
    this.mic = this.mic && this.local.getAudioTracks().length > 0;
    this.cam = wantVideo && this.local.getVideoTracks().length > 0;
    this.applyTracks();
    this.listen();
  }

  async sendJoin() {
    try {
      // The answer, `ice`, reaches onIce through the app (before the roster that follows it).
      await this.app.conn.request({ type: "call", table: this.tableId, join: true, mic: this.mic, cam: this.cam });
    } catch (/** @type {any} */ err) {
      if (err.code === "connection/closed") return; // joined again once the connection is back
      this.want = null;
      this.remember(false);
      this.error = this.app.errorText(err);
      this.stopLocal();
    }
  }

  leave() {
    if (this.inCall) this.app.conn.sendRaw({ type: "call", table: this.tableId, join: false });
    this.stop(true);
  }

  /** Out of the call: every connection closed, the camera and microphone released. @param {boolean} forget */
  stop(forget) {
    if (forget) this.remember(false);
    this.want = null;
    this.me = null;
    for (const seat of [...this.peers.keys()]) this.dropPeer(seat);
    this.stopLocal();
    this.refresh();
  }

  stopLocal() {
    clearInterval(this.speakTimer);
    this.speakTimer = undefined;
    if (this.audioCtx) this.audioCtx.close().catch(() => {});
    this.audioCtx = null;
    if (this.local) for (const track of this.local.getTracks()) track.stop();
    this.local = null;
    this.speaking = false;
  }

  /** The connection to the server went (the server lets the call go with it): connections close, the camera stays. */
  connectionLost() {
    if (!this.me) return;
    this.me = null;
    for (const seat of [...this.peers.keys()]) this.dropPeer(seat);
    this.roster = [];
    this.refresh();
  }

  /** The table's state came (a join, a reload, a reconnection): back into the call this tab was in. */
  afterState() {
    if (!this.seated || this.inCall || this.joining) return;
    const saved = this.tableId ? loadCalls()[this.tableId] : undefined;
    if (!saved || this.muted) return;
    this.mic = saved.mic !== false;
    this.joining = true;
    this.want = { mic: this.mic, cam: !!saved.cam };
    (async () => {
      try {
        await this.getMedia(!!saved.cam);
        await this.sendJoin();
      } finally {
        this.joining = false;
        this.refresh();
      }
    })();
  }

  /** @param {boolean} on */
  setMic(on) {
    this.mic = on && !!this.local && this.local.getAudioTracks().length > 0;
    this.applyTracks();
    this.sendState();
    this.remember(true);
  }

  /** @param {boolean} on */
  async setCam(on) {
    if (on && this.local && !this.local.getVideoTracks().length) {
      try {
        const stream = await navigator.mediaDevices.getUserMedia({ video: VIDEO });
        for (const track of stream.getVideoTracks()) this.local.addTrack(track);
      } catch (err) {
        this.error = t("call.media_partly", { message: /** @type {any} */ (err).name || "?" });
      }
    }
    this.cam = on && !!this.local && this.local.getVideoTracks().length > 0;
    this.applyTracks();
    this.sendState();
    this.remember(true);
  }

  sendState() {
    if (!this.inCall) return;
    this.app.conn.sendRaw({ type: "call", table: this.tableId, join: true, mic: this.mic, cam: this.cam, speaking: this.speaking && this.mic });
    this.refresh();
  }

  /** Whether this person sends video: the camera is on and they are among the first `video_max` in the call. */
  sendsVideo() {
    if (!this.cam || !this.local || !this.local.getVideoTracks().length) return false;
    const order = this.roster.map((p) => p.seat).sort((a, b) => a - b);
    const at = order.indexOf(this.app.seat);
    return at < 0 || at < this.videoMax;
  }

  /** The microphone and camera as chosen, on every connection (a track swapped, never negotiated). */
  applyTracks() {
    const audio = this.local ? this.local.getAudioTracks()[0] || null : null;
    const video = this.local ? this.local.getVideoTracks()[0] || null : null;
    if (audio) audio.enabled = this.mic;
    const sendVideo = this.sendsVideo();
    if (video) video.enabled = sendVideo;
    for (const peer of this.peers.values()) peer.attach(this.mic ? audio : null, sendVideo ? video : null);
    this.selfVideo.srcObject = video && this.cam ? this.local : null;
  }

  /** Speaking, measured from the microphone's own samples (no one else's sound). */
  listen() {
    const track = this.local && this.local.getAudioTracks()[0];
    if (!track || !window.AudioContext) return;
    try {
      this.audioCtx = new AudioContext();
      const source = this.audioCtx.createMediaStreamSource(new MediaStream([track]));
      const analyser = this.audioCtx.createAnalyser();
      analyser.fftSize = 1024;
      source.connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      let loudAt = 0;
      const ctx = this.audioCtx;
      this.speakTimer = setInterval(() => {
        if (ctx.state === "suspended") ctx.resume().catch(() => {});
        analyser.getFloatTimeDomainData(samples);
        let sum = 0;
        for (const s of samples) sum += s * s;
        const now = performance.now();
        if (Math.sqrt(sum / samples.length) > SPEAK_LEVEL && this.mic) loudAt = now;
        const speaking = now - loudAt < SPEAK_HOLD_MS;
        if (speaking !== this.speaking) {
          this.speaking = speaking;
          this.queueSpeaking();
        }
      }, 100);
    } catch (err) {
      this.audioCtx = null; // no analyser: nobody sees this person speak, the call goes on
    }
  }

  queueSpeaking() {
    if (this.speakSendTimer) return;
    const wait = Math.max(0, (this.speakSentAt || 0) + SPEAK_SEND_MS - performance.now());
    this.speakSendTimer = setTimeout(() => {
      this.speakSendTimer = null;
      this.speakSentAt = performance.now();
      if (this.sentSpeaking !== this.speaking) {
        this.sentSpeaking = this.speaking;
        this.sendState();
      }
    }, wait);
  }

  // ------------------------------------------------------------------ the server's messages

  /** @param {Message} msg */
  onIce(msg) {
    if (msg.table && msg.table !== this.tableId) return;
    this.me = { id: msg.id, servers: Array.isArray(msg.servers) ? msg.servers : [], relay: !!msg.relay };
    this.sentSpeaking = false;
    // The server sends the roster after the `ice` (PROTOCOL.md 16.5); were one that names this
    // call id already here, the connections start now, not at the roster's next change.
    this.connectRoster();
    this.refresh();
  }

  /** @param {Message} msg */
  onRoster(msg) {
    if (msg.table && msg.table !== this.tableId) return;
    this.roster = Array.isArray(msg.peers) ? msg.peers : [];
    if (Number.isInteger(msg.video_max)) this.videoMax = msg.video_max;
    // The host muted this seat: the server let it out of the call.
    if (this.me && this.muted) this.stop(true);
    this.connectRoster();
    this.applyTracks();
    this.refresh();
  }

  /** A connection to each person of the roster, made or kept; none to those who left it. */
  connectRoster() {
    const mine = this.roster.find((p) => p.seat === this.app.seat && this.seated);
    // A roster without this connection's call id is older than its joining (another process
    // sent it before): the next one will have it.
    if (this.me && mine && mine.id === this.me.id) {
      // This person moved to another seat in the lobby (`sit`): the others drop their connections
      // to the seat left and make new ones to this one, so this page makes its own anew as well.
      if (this.peersSeat !== this.app.seat) for (const seat of [...this.peers.keys()]) this.dropPeer(seat);
      this.peersSeat = this.app.seat;
      for (const p of this.roster) {
        if (p.seat === this.app.seat) continue;
        const peer = this.peers.get(p.seat);
        if (peer && peer.id !== p.id) this.dropPeer(p.seat);
        if (!this.peers.has(p.seat) && this.app.seat < p.seat) this.makePeer(p.seat, p.id).offer();
      }
      for (const seat of [...this.peers.keys()]) if (!this.roster.some((p) => p.seat === seat)) this.dropPeer(seat);
    }
  }

  /** @param {Message} msg */
  async onSignal(msg) {
    if (!this.me || (msg.table && msg.table !== this.tableId)) return;
    const seat = msg.from;
    let peer = this.peers.get(seat);
    if (peer && peer.id !== msg.peer) {
      this.dropPeer(seat);
      peer = undefined;
    }
    if (!peer) {
      if (msg.kind !== "offer") return; // candidates or an answer of a connection already closed
      // Only a person of the roster may open a call with us (a muted seat is out of it; the server
      // refuses its signals too, and the roster comes before any offer of a new peer).
      if (!this.roster.some((p) => p.seat === seat && p.id === msg.peer)) return;
      peer = this.makePeer(seat, msg.peer);
      this.paint(); // its tile shows its video from now on, not from the roster's next change
    }
    try {
      await peer.onSignal(msg);
    } catch (err) {
      console.warn("call signal", err);
    }
  }

  /**
   * @param {number} seat
   * @param {string} id
   */
  makePeer(seat, id) {
    const peer = new Peer(this, seat, id);
    this.peers.set(seat, peer);
    this.peersSeat = this.app.seat;
    const audio = this.local ? this.local.getAudioTracks()[0] || null : null;
    const video = this.local ? this.local.getVideoTracks()[0] || null : null;
    peer.attach(this.mic ? audio : null, this.sendsVideo() ? video : null);
    return peer;
  }

  /** @param {number} seat */
  dropPeer(seat) {
    const peer = this.peers.get(seat);
    if (!peer) return;
    peer.close();
    this.peers.delete(seat);
  }

  /**
   * @param {number} seat
   * @param {string} id
   * @param {Record<string, any>} fields
   */
  signal(seat, id, fields) {
    return this.app.conn.sendRaw({ type: "signal", table: this.tableId, to: seat, peer: id, ...fields });
  }

  // ------------------------------------------------------------------ the controls

  build() {
    // (the fields below are declared in the constructor)
    this.joinButton = el("button", { type: "button", class: "small", id: "call-join", onclick: () => this.join(true) });
    this.joinAudio = el("button", { type: "button", class: "small", id: "call-join-audio", onclick: () => this.join(false) });
    this.micButton = el("button", { type: "button", class: "small", id: "call-mic", onclick: () => this.setMic(!this.mic) });
    this.camButton = el("button", { type: "button", class: "small", id: "call-cam", onclick: () => this.setCam(!this.cam) });
    this.leaveButton = el("button", { type: "button", class: "small", id: "call-leave", onclick: () => this.leave() });
    this.soundButton = el("button", { type: "button", class: "small", id: "call-sound", hidden: true, onclick: () => this.playAll() });
    this.selfVideo = el("video", { class: "call-self", id: "call-self", muted: true, autoplay: true, playsinline: true });
    this.selfVideo.muted = true;
    this.selfBox = el("span", { class: "call-self-box" }, this.selfVideo);
    this.rosterLine = el("p", { class: "call-roster", id: "call-roster" });
    this.status = el("p", { class: "call-status", id: "call-status", role: "status" });
    this.controls = el(
      "div",
      { class: "call-controls", id: "call-controls", role: "group", "aria-labelledby": "call-roster" },
      this.joinButton,
      this.joinAudio,
      this.micButton,
      this.camButton,
      this.leaveButton,
      this.soundButton,
      this.selfBox,
    );
    this.node = el("div", { class: "call-box", id: "call-box" }, this.controls, this.rosterLine, this.status);
  }

  refresh() {
    const inCall = this.inCall;
    const can = this.seated && !this.app.tv && !!window.RTCPeerConnection;
    this.joinButton.textContent = t("call.join");
    this.joinAudio.textContent = t("call.join_audio");
    this.joinAudio.setAttribute("aria-label", t("call.join_audio.label"));
    this.micButton.textContent = this.mic ? t("call.mute") : t("call.unmute");
    this.camButton.textContent = this.cam ? t("call.cam_off") : t("call.cam_on");
    this.leaveButton.textContent = t("call.leave");
    this.soundButton.textContent = t("call.sound");
    this.selfVideo.setAttribute("aria-label", t("call.self"));
    const busy = this.joining || (!!this.want && !inCall);
    this.joinButton.hidden = !can || inCall || busy;
    this.joinAudio.hidden = this.joinButton.hidden;
    this.joinButton.disabled = this.muted;
    this.joinAudio.disabled = this.muted;
    this.micButton.hidden = !inCall;
    this.camButton.hidden = !inCall;
    this.leaveButton.hidden = !inCall && !busy;
    this.micButton.disabled = !this.local || !this.local.getAudioTracks().length;
    this.selfBox.hidden = !inCall || !this.cam;
    this.controls.hidden = !can;
    // Who is in the call, and who speaks: for everyone (the shared screen too).
    // Each name in a <bdi> of its own: a right-to-left name before a comma or a mark stays whole
    // and in place in a left-to-right line (and the other way round); the text reads the same.
    /** @type {(string | Node)[]} */
    const names = [];
    for (const p of this.roster) {
      const marks = [];
      if (p.speaking) marks.push(t("call.speaking"));
      if (!p.mic) marks.push(t("call.mic_off"));
      if (names.length) names.push(", ");
      names.push(el("bdi", {}, this.app.seatDisplayName(p.seat)));
      if (marks.length) names.push(` (${marks.join(", ")})`);
    }
    if (names.length) {
      const [before, after = ""] = t("call.roster", { names: "\u0001" }).split("\u0001");
      this.rosterLine.replaceChildren(before, ...names, after);
    } else {
      this.rosterLine.textContent = t("call.nobody");
    }
    this.rosterLine.hidden = !names.length; // nobody in it: the join buttons say enough
    this.node.hidden = !can && !names.length; // a spectator's or the shared screen's, while nobody is in it
    const notes = [];
    if (busy) notes.push(t("call.connecting"));
    if (this.error) notes.push(this.error);
    if (inCall && this.cam && !this.sendsVideo()) notes.push(t("call.audio_only", { n: this.videoMax }));
    // A muted person is told once, by the talk bar beside these buttons (talk.js), not here too.
    this.status.textContent = notes.join(" ");
    this.status.hidden = !notes.length;
    this.paint();
    // a tile came or went: the seats' points may need their own line (table.js)
    if (this.app.tableScreen) this.app.tableScreen.fitLabels();
  }

  /** Play what autoplay refused (a reload rejoined without a click): one tap turns the sound on. */
  playAll() {
    for (const peer of this.peers.values()) peer.play();
    this.soundButton.hidden = true;
  }

  blocked() {
    this.soundButton.hidden = false;
  }

  /**
   * Each person of the roster at their seat: a tile with their video, or their initial; speaking,
   * mic and camera marks. Tiles are kept and changed in place (speaking changes a few times a
   * second: a screen reader's or a test's walk through the page must not lose its place).
   */
  paint() {
    const root = this.app.root;
    const opponents = root.querySelector("#opponents");
    if (opponents) opponents.classList.toggle("call-on", this.roster.length > 0);
    const kept = new Set();
    for (const p of this.roster) {
      if (this.seated && p.seat === this.app.seat) continue; // this person's own picture is beside the call's buttons
      const peer = this.peers.get(p.seat);
      const name = this.app.seatDisplayName(p.seat);
      const showVideo = !!peer && p.cam && !this.app.tv;
      for (const target of root.querySelectorAll(`.seat-box[data-seat="${p.seat}"], li.seat[data-seat="${p.seat}"]`)) {
        let tile = target.querySelector(":scope > .call-tile");
        if (!tile) {
          tile = el(
            "span",
            { class: "call-tile", dataset: { seat: p.seat } },
            el("span", { class: "call-picture" }),
            el("span", { class: "call-marks", "aria-hidden": "true" }),
            el("span", { class: "visually-hidden call-words" }),
          );
          target.prepend(tile);
          target.classList.add("with-tile");
        }
        kept.add(tile);
        const [picture, marks, words] = tile.children;
        tile.classList.toggle("speaking", !!p.speaking);
        tile.classList.toggle("video", showVideo);
        tile.dataset.speaking = p.speaking ? "1" : "0";
        const pictureKey = showVideo ? `video:${peer.id}` : `initial:${name}`;
        if (picture.dataset.key !== pictureKey) {
          picture.dataset.key = pictureKey;
          picture.replaceChildren(showVideo ? peer.video : el("span", { class: "call-initial", "aria-hidden": "true" }, (name || "?").slice(0, 1).toUpperCase()));
        }
        const marksKey = `${p.mic}/${p.cam}/${t("call.mic_off")}`; // the marks' titles are in the page's language
        if (marks.dataset.key !== marksKey) {
          marks.dataset.key = marksKey;
          marks.replaceChildren(
            ...(p.mic ? [] : [el("span", { class: "call-mark mic-off", title: t("call.mic_off") }, "🔇")]),
            ...(p.cam ? [] : [el("span", { class: "call-mark cam-off", title: t("call.cam_off_tag") }, "📷")]),
          );
        }
        const said = [t("call.in_call", { who: name })];
        if (p.speaking) said.push(t("call.speaking"));
        if (!p.mic) said.push(t("call.mic_off"));
        if (!p.cam) said.push(t("call.cam_off_tag"));
        const text = said.join(", ");
        if (words.textContent !== text) words.textContent = text;
        if (showVideo) peer.play();
      }
    }
    for (const tile of root.querySelectorAll(".call-tile")) {
      if (kept.has(tile)) continue;
      tile.parentElement.classList.remove("with-tile");
      tile.remove();
    }
  }
}

/** One other person in the call: their RTCPeerConnection, their media, and its signalling. */
class Peer {
  /**
   * @param {Call} call
   * @param {number} seat
   * @param {string} id
   */
  constructor(call, seat, id) {
    this.call = call;
    this.seat = seat;
    this.id = id;
    this.offerer = call.app.seat < seat;
    /** Candidates gathered, waiting to be sent together (the wire's {candidate, mid, mline}). @type {Record<string, any>[]} */
    this.outgoing = [];
    /** Candidates that came before the remote description. @type {Record<string, any>[]} */
    this.incoming = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.flushTimer = undefined;
    const me = /** @type {NonNullable<Call["me"]>} */ (call.me); // a peer is made only while in the call
    this.pc = new RTCPeerConnection({ iceServers: me.servers, iceTransportPolicy: me.relay ? "relay" : "all" });
    this.stream = new MediaStream();
    this.video = el("video", { class: "call-video", autoplay: true, playsinline: true, muted: true });
    this.video.muted = true; // the sound plays from the audio element, which does not move with the tiles
    this.video.srcObject = this.stream;
    this.audio = el("audio", { autoplay: true });
    this.audio.srcObject = this.stream;
    call.media.append(this.audio);
    if (this.offerer) {
      this.audioTx = this.pc.addTransceiver("audio", { direction: "sendrecv" });
      this.videoTx = this.pc.addTransceiver("video", { direction: "sendrecv" });
    }
    this.pc.ontrack = (ev) => {
      if (!this.stream.getTracks().includes(ev.track)) this.stream.addTrack(ev.track);
      this.play();
    };
    this.pc.onicecandidate = (ev) => {
      const c = ev.candidate;
      this.outgoing.push(c ? { candidate: c.candidate, mid: c.sdpMid ?? null, mline: c.sdpMLineIndex ?? null } : { candidate: "" });
      if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), CANDIDATE_EVERY_MS);
    };
    this.pc.oniceconnectionstatechange = () => {
      // A network change: the offerer restarts ICE on the same connection.
      if (this.pc.iceConnectionState === "failed" && this.offerer) {
        this.pc.restartIce();
        this.offer();
      }
    };
  }

  /** The local tracks to send (null: nothing on that transceiver for now). */
  /**
   * @param {MediaStreamTrack | null} audio
   * @param {MediaStreamTrack | null} video
   */
  attach(audio, video) {
    this.tracks = { audio, video };
    if (this.audioTx) this.audioTx.sender.replaceTrack(audio).catch(() => {});
    if (this.videoTx) this.videoTx.sender.replaceTrack(video).catch(() => {});
  }

  async offer() {
    if (this.closed) return;
    await this.pc.setLocalDescription(await this.pc.createOffer());
    this.call.signal(this.seat, this.id, { kind: "offer", sdp: cutSdp(this.pc.localDescription ? this.pc.localDescription.sdp : "") });
  }

  /** @param {Message} msg */
  async onSignal(msg) {
    if (msg.kind === "offer" || msg.kind === "answer") {
      const sdp = (msg.sdp || []).join("");
      if (msg.kind === "answer" && this.pc.signalingState !== "have-local-offer") return;
      await this.pc.setRemoteDescription({ type: msg.kind, sdp });
      if (msg.kind === "offer") {
        // The answerer's transceivers came with the offer: send on them both ways.
        for (const tx of this.pc.getTransceivers()) {
          tx.direction = "sendrecv";
          const kind = tx.receiver.track.kind;
          if (kind === "audio") this.audioTx = tx;
          if (kind === "video") this.videoTx = tx;
        }
        if (this.tracks) this.attach(this.tracks.audio, this.tracks.video);
        await this.pc.setLocalDescription(await this.pc.createAnswer());
        this.call.signal(this.seat, this.id, { kind: "answer", sdp: cutSdp(this.pc.localDescription ? this.pc.localDescription.sdp : "") });
      }
      const waiting = this.incoming;
      this.incoming = [];
      for (const c of waiting) await this.addCandidate(c);
      return;
    }
    for (const c of msg.candidates || []) {
      if (!this.pc.remoteDescription) this.incoming.push(c);
      else await this.addCandidate(c);
    }
  }

  /** @param {Record<string, any>} c a candidate as the wire carries it */
  async addCandidate(c) {
    try {
      await this.pc.addIceCandidate(c.candidate ? { candidate: c.candidate, sdpMid: c.mid ?? null, sdpMLineIndex: c.mline ?? null } : null);
    } catch (err) {
      /* a candidate of an ended generation: the rest serve */
    }
  }

  flush() {
    this.flushTimer = undefined;
    if (this.closed || !this.outgoing.length) return;
    const batch = this.outgoing.splice(0, CANDIDATE_BATCH);
    this.call.signal(this.seat, this.id, { kind: "candidates", candidates: batch });
    if (this.outgoing.length) this.flushTimer = setTimeout(() => this.flush(), CANDIDATE_EVERY_MS);
  }

  play() {
    for (const media of [this.video, this.audio]) {
      if (media.paused && media.isConnected) {
        media.play().catch((err) => {
          if (media === this.audio && err && err.name === "NotAllowedError") this.call.blocked();
        });
      }
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.flushTimer);
    this.pc.close();
    this.audio.srcObject = null;
    this.audio.remove();
    this.video.srcObject = null;
  }
}
