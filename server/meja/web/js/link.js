// @ts-check
// The connection's state as the page sees it: one value, changed only by the named transitions
// below (as h11 keeps a connection's state: every move of it in one place). The socket itself
// (net.js) reconnects with backoff and says open, connecting, waiting or closed; this is what
// the App makes of that for its table: whether it was ever connected, whether a resume (or a
// watch) waits for its state, and whether a resume that asked for the missed versions failed.

/**
 * @typedef {object} Link
 * @property {boolean} opened a welcome has come on some connection (before it, a quiet notice is enough)
 * @property {{since: number | undefined} | null} resuming a resume or watch sent whose state has not come yet
 * @property {boolean} catchingUp the updates that come now are a resume's replayed versions: their
 *   events go to the move log, and the state that follows is drawn
 * @property {boolean} sinceFailed a resume that asked for the missed versions (`since`) lost its
 *   connection before its state came (as when a far-behind catch-up overflows the server's
 *   outbox): the next resume asks for the state alone, which gives the whole picture
 */

/** Before any connection. @type {Readonly<Link>} */
export const LINK_START = Object.freeze({ opened: false, resuming: null, catchingUp: false, sinceFailed: false });

/** The transitions: each takes the state and gives the next. */
export const linkAfter = {
  /** @param {Link} link A welcome came. */
  welcome: (link) => ({ ...link, opened: true }),
  /**
   * A resume or watch was sent asking for the versions after `since` (undefined: the state alone).
   * @param {Link} link
   * @param {number | undefined} since
   * @param {boolean} catchingUp whether the updates before its state are replayed versions
   */
  resumeSent: (link, since, catchingUp) => ({ ...link, resuming: { since }, catchingUp }),
  /** @param {Link} link The resume's request was refused (a bad token, a table gone...). */
  resumeRefused: (link) => ({ ...link, catchingUp: false }),
  /** @param {Link} link A state came: the resume (or watch) worked. */
  state: (link) => ({ ...link, resuming: null, catchingUp: false, sinceFailed: false }),
  /** @param {Link} link The connection went (closed, or waiting to reconnect) before the resume's state came. */
  lost: (link) =>
    link.resuming ? { ...link, resuming: null, sinceFailed: link.sinceFailed || link.resuming.since !== undefined } : link,
};
