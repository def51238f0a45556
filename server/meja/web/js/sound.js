// @ts-check
// The table's sounds, made in the page with the Web Audio API: no recording (nothing to
// license, nothing to download, nothing for the Content-Security-Policy to allow). Each
// moment has its own short sound:
//
//   play     a card (or a token) goes from a seat to the table: a short flick
//   draw     a card comes from the table to a seat: a softer slide
//   shuffle  a new round is dealt: a riffle
//   turn     a decision of this page's seat starts (out of turn too): two soft tones
//   call     an announcement of a game (its page module names it: a call, a catch, a bid)
//   win      this seat (or its side) won the round or the match; on the shared screen any
//            round's end (the room hears it)
//
// What the shell can tell by itself (a piece flying from a seat or to one, the game's round
// start, the turn, the summary) it names; a game's page module names the rest, game-free for
// the shell: `move(event).sound` (a moment's name, or null for silence) and `host.sound(name)`
// (see the interface in contract.js).
//
// One control (the table's bar): on or off, and a volume, remembered in localStorage. On a
// player's page the sound is on until switched off; the shared screen (`/tv/<code>`, a TV in a
// room) is silent until it is switched on there, and remembers that apart. Browsers let a page
// make sound only after a person touched it: the first click or key anywhere (the control's
// own click among them) wakes the audio; before that nothing is played (no late burst).

const KEY = "meja.sound";
const TV_KEY = "meja.sound.tv";
const VOLUME_KEY = "meja.sound.volume";
const DEFAULT_VOLUME = 0.7;
/** The moments the sound knows (a game's module may name any of them). */
export const SOUNDS = ["play", "draw", "shuffle", "turn", "call", "win"];
/** Each moment's sound (a method of Sound). */
/** @type {Record<string, "flick" | "slide" | "riffle" | "chime" | "announce" | "fanfare">} */
const SYNTH = { play: "flick", draw: "slide", shuffle: "riffle", turn: "chime", call: "announce", win: "fanfare" };

/** @param {string} key */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string} value
 */
function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    /* not remembered: still so for this page */
  }
}

export class Sound {
  /** tv: the shared screen (silent until switched on there). @param {{tv?: boolean}} [options] */
  constructor({ tv = false } = {}) {
    this.key = tv ? TV_KEY : KEY;
    const saved = stored(this.key);
    this.on = tv ? saved === "on" : saved !== "off";
    const volume = Number.parseFloat(stored(VOLUME_KEY) ?? "");
    this.volume = Number.isFinite(volume) && volume >= 0 && volume <= 1 ? volume : DEFAULT_VOLUME;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** @type {GainNode | null} */
    this.master = null;
    /** @type {AudioBuffer | null} */
    this.noise = null;
    /** The latest moments sounded, newest last (for tests; bounded). @type {string[]} */
    this.played = [];
    /** How often each moment sounded (for tests). @type {Record<string, number>} */
    this.counts = {};
    // The first touch of the page may start the audio (the browser's rule).
    const wake = () => {
      if (this.on) this.context();
    };
    document.addEventListener("pointerdown", wake, true);
    document.addEventListener("keydown", wake, true);
  }

  /** @param {boolean} on */
  setOn(on) {
    this.on = !!on;
    remember(this.key, this.on ? "on" : "off");
    if (this.on) {
      this.context(); // made now, while the player's touch allows it
      this.play("turn"); // what it sounds like, at the volume set
    }
  }

  /** volume: 0..1. @param {number} volume */
  setVolume(volume) {
    this.volume = Math.min(1, Math.max(0, Number(volume) || 0));
    remember(VOLUME_KEY, String(this.volume));
    if (this.master) this.master.gain.value = this.volume;
  }

  context() {
    if (!this.audio) {
      const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
      if (!Ctx) return null;
      try {
        this.audio = new Ctx();
      } catch (err) {
        return null;
      }
      this.master = this.audio.createGain();
      this.master.gain.value = this.volume;
      this.master.connect(this.audio.destination);
    }
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  /**
   * Sound one moment (a name of SOUNDS), `delay` seconds from now; nothing while off or before the page was touched.
   * @param {string} name
   * @param {number} [delay]
   */
  play(name, delay = 0) {
    if (!this.on || !SOUNDS.includes(name)) return false;
    // Only a touch of the page makes the audio (the listeners above, the control): a context made
    // before one is not allowed to start, and the browser says so in the console (a reopened tab
    // sounded its first update before the player had touched it).
    if (!this.audio) return false;
    const ctx = this.context();
    if (!ctx || ctx.state !== "running") return false;
    const t0 = ctx.currentTime + 0.01 + delay;
    this[SYNTH[name]](ctx, t0);
    this.played.push(name);
    this.counts[name] = (this.counts[name] || 0) + 1;
    if (this.played.length > 50) this.played.shift();
    return true;
  }

  /** Several moments of one update: each once, one after another. @param {string[]} names */
  playAll(names) {
    let delay = 0;
    for (const name of new Set(names)) {
      if (this.play(name, delay)) delay += 0.12;
    }
  }

  // ------------------------------------------------------------------ the sounds

  /**
   * A note: an oscillator's tone that rises and dies away.
   * @param {AudioContext} ctx
   * @param {number} t0
   * @param {number} freq
   * @param {{type?: OscillatorType, peak?: number, length?: number}} [shape]
   */
  tone(ctx, t0, freq, { type = "sine", peak = 0.2, length = 0.22 } = {}) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(peak, t0 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    osc.connect(gain).connect(/** @type {GainNode} */ (this.master));
    osc.start(t0);
    osc.stop(t0 + length + 0.03);
  }

  /**
   * A burst of filtered noise: the sound of a card.
   * @param {AudioContext} ctx
   * @param {number} t0
   * @param {{freq?: number, q?: number, peak?: number, length?: number}} [shape]
   */
  rustle(ctx, t0, { freq = 2500, q = 0.8, peak = 0.5, length = 0.07 } = {}) {
    if (!this.noise) {
      const size = Math.floor(ctx.sampleRate * 0.5);
      this.noise = ctx.createBuffer(1, size, ctx.sampleRate);
      const data = this.noise.getChannelData(0);
      for (let i = 0; i < size; i++) data[i] = Math.random() * 2 - 1;
    }
    const src = ctx.createBufferSource();
    src.buffer = this.noise;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = freq;
    filter.Q.value = q;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(peak, t0);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    src.connect(filter).connect(gain).connect(/** @type {GainNode} */ (this.master));
    src.start(t0, Math.random() * 0.3);
    src.stop(t0 + length + 0.02);
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  flick(ctx, t0) {
    this.rustle(ctx, t0, { freq: 1800, peak: 0.6, length: 0.06 });
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  slide(ctx, t0) {
    this.rustle(ctx, t0, { freq: 3600, q: 0.5, peak: 0.35, length: 0.12 });
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  riffle(ctx, t0) {
    for (let i = 0; i < 8; i++) this.rustle(ctx, t0 + i * 0.045, { freq: 2200 + (i % 3) * 500, peak: 0.35, length: 0.05 });
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  chime(ctx, t0) {
    [659.25, 987.77].forEach((freq, i) => this.tone(ctx, t0 + i * 0.14, freq, { peak: 0.18 }));
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  announce(ctx, t0) {
    [523.25, 659.25, 783.99].forEach((freq, i) => this.tone(ctx, t0 + i * 0.08, freq, { type: "triangle", peak: 0.22, length: 0.14 }));
  }

  /** @param {AudioContext} ctx @param {number} t0 */
  fanfare(ctx, t0) {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) =>
      this.tone(ctx, t0 + i * 0.11, freq, { type: "triangle", peak: 0.22, length: i === 3 ? 0.5 : 0.16 }),
    );
  }
}

/**
 * The moment of a move as the shell sees it (see table.js): the game's own name first
 * (`move.sound`: a name, or null for none), else a new round's deal, else the way its piece
 * flies (from a seat: played; to a seat: drawn).
 * @param {Record<string, any> | null} move
 * @param {{kind?: string} | null | undefined} ev
 * @param {string} roundStart
 * @returns {string | null}
 */
export function moveSound(move, ev, roundStart) {
  if (move && Object.prototype.hasOwnProperty.call(move, "sound")) return move.sound || null;
  if (ev && (ev.kind === roundStart || ev.kind === "rematch")) return "shuffle";
  const motion = move && move.motion;
  if (!motion || !motion.piece) return null;
  if (motion.from === "seat") return "play";
  if (motion.to === "seat") return "draw";
  return null;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A bell (struck through when the sound is off): decorative, the button's words say it. @param {boolean} on */
function bellIcon(on) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "bell");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const paths = ["M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z", "M9.5 19a2.5 2.5 0 0 0 5 0"];
  if (!on) paths.push("M4 4l16 16");
  for (const d of paths) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/**
 * The one sound control of the table's bar: a button for on and off (pressed: on) and, while
 * on, the volume (a slider, 0-100). `el`: ui.js's DOM helper.
 */
export class SoundControl {
  /**
   * @param {Sound} sound
   * @param {typeof import("./ui.js").el} el
   */
  constructor(sound, el) {
    this.sound = sound;
    this.el = el;
    /** The page's words, as last drawn. @type {(key: string) => string} */
    this.t = (key) => key;
    this.button = el("button", {
      type: "button",
      class: "small",
      id: "sound-button",
      "aria-pressed": "false",
      onclick: () => {
        this.sound.setOn(!this.sound.on);
        this.render(this.t);
      },
    });
    this.volume = el("input", {
      type: "range",
      id: "sound-volume",
      class: "sound-volume",
      min: "0",
      max: "100",
      step: "10",
      oninput: (/** @type {Event} */ ev) => this.sound.setVolume(Number(/** @type {HTMLInputElement} */ (ev.target).value) / 100),
      onchange: () => this.sound.play("draw"),
    });
    this.node = el("div", { class: "sound-control", id: "sound-control" }, this.button, this.volume);
  }

  /** t: the page's words (table.sound.*). @param {(key: string) => string} t */
  render(t) {
    this.t = t;
    const on = this.sound.on;
    this.button.setAttribute("aria-pressed", on ? "true" : "false");
    this.button.replaceChildren(bellIcon(on), this.el("span", { class: "sound-word" }, on ? t("table.sound.on") : t("table.sound.off")));
    this.button.title = t("table.sound.hint");
    this.volume.value = String(Math.round(this.sound.volume * 100));
    this.volume.setAttribute("aria-label", t("table.sound.volume"));
    this.volume.hidden = !on;
  }
}
