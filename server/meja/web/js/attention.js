// "Your turn" when the player is elsewhere: while the tab is hidden and a decision waits for
// this page's seat, the tab's title says so (a mark in front of it, in the page's language),
// and, if the player switched it on, a short chime plays. The title comes back as soon as
// the tab is seen again or the decision is gone.
//
// The chime is made with the Web Audio API (two short tones): no sound file, nothing for the
// Content-Security-Policy to allow. Browsers let a page make sound only after the player
// touched it; switching the sound on is such a touch, and the context is made then.

const SOUND_KEY = "meja.sound";

export class Attention {
  /** title(): the page's normal title; turnTitle(title): the title while a turn waits. */
  constructor({ title, turnTitle }) {
    this.title = title;
    this.turnTitle = turnTitle;
    this.waiting = false;
    this.audio = null;
    try {
      this.sound = localStorage.getItem(SOUND_KEY) === "on";
    } catch (err) {
      this.sound = false;
    }
    document.addEventListener("visibilitychange", () => this.refresh());
  }

  /** Whether a decision of this page's seat waits now. */
  setWaiting(waiting) {
    const started = waiting && !this.waiting;
    this.waiting = waiting;
    if (started && document.hidden && this.sound) this.chime();
    this.refresh();
  }

  refresh() {
    const base = this.title();
    document.title = this.waiting && document.hidden ? this.turnTitle(base) : base;
  }

  setSound(on) {
    this.sound = !!on;
    try {
      localStorage.setItem(SOUND_KEY, this.sound ? "on" : "off");
    } catch (err) {
      /* not remembered: still on for this page */
    }
    if (this.sound) this.context(); // made now, while the player's touch allows it
  }

  context() {
    if (!this.audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      try {
        this.audio = new Ctx();
      } catch (err) {
        return null;
      }
    }
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  /** Two soft tones, a fifth apart (about a third of a second). */
  chime() {
    const ctx = this.context();
    if (!ctx) return;
    this.chimed = (this.chimed || 0) + 1; // for tests: how often it sounded
    const now = ctx.currentTime;
    [659.25, 987.77].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const t0 = now + i * 0.14;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.22);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + 0.25);
    });
  }
}
