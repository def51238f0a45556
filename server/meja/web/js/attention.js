// @ts-check
// "Your turn" when the player is elsewhere: while the tab is hidden and a decision waits for
// this page's seat, the tab's title says so (a mark in front of it, in the page's language).
// The title comes back as soon as the tab is seen again or the decision is gone. The turn's
// sound (sound.js) plays when the decision starts, hidden tab or not.

export class Attention {
  /**
   * title(): the page's normal title; turnTitle(title): the title while a turn waits; sound: the page's Sound.
   * @param {{title: () => string, turnTitle: (title: string) => string, sound: {play: (name: string, gain?: number) => void}}} parts
   */
  constructor({ title, turnTitle, sound }) {
    this.title = title;
    this.turnTitle = turnTitle;
    this.sound = sound;
    this.waiting = false;
    document.addEventListener("visibilitychange", () => this.refresh());
  }

  /** Whether a decision of this page's seat waits now. @param {boolean} waiting */
  setWaiting(waiting) {
    const started = waiting && !this.waiting;
    this.waiting = waiting;
    if (started) this.sound.play("turn", 0.25); // after the sounds of the move that brought it
    this.refresh();
  }

  refresh() {
    const base = this.title();
    document.title = this.waiting && document.hidden ? this.turnTitle(base) : base;
  }
}
