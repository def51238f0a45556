// @ts-check
// Small DOM helpers. Everything is built with createElement and textContent: no HTML
// strings, so nothing a player types (names) can become markup, and no inline styles or
// scripts, which the Content-Security-Policy forbids.

/**
 * el("button", {class: "x", onclick: f, "aria-label": "…"}, "text", child…)
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = /** @type {any} */ (document.createElement(tag));
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let uid = 0;
/** A fresh element id: "<prefix>-<n>". @param {string} prefix */
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/**
 * Copy `text` to the clipboard. The clipboard API exists only on HTTPS or localhost
 * (docs/architecture.md 5), and may be refused: then the text is shown in `fallback` (a read-only
 * input), selected, for the player to copy by hand. Resolves to true when copied.
 * @param {string} text
 * @param {HTMLInputElement | null} [fallback]
 */
export async function copyText(text, fallback) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (err) {
    /* fall through to the visible text */
  }
  if (fallback) {
    fallback.hidden = false;
    fallback.value = text;
    fallback.focus();
    fallback.select();
  }
  return false;
}

export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {number} ms @returns {Promise<void>} */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A room code as shown: "7K3 QXM". @param {unknown} code */
export function spacedCode(code) {
  const c = String(code || "");
  return c.length === 6 ? `${c.slice(0, 3)} ${c.slice(3)}` : c;
}

/**
 * Whether two actions are the same (the same fields and values, in any order of the keys).
 * @param {any} a
 * @param {any} b
 */
export function sameAction(a, b) {
  /** @param {Record<string, unknown>} x */
  const key = (x) => JSON.stringify(Object.keys(x).sort().map((k) => [k, x[k]]));
  return !!a && !!b && typeof a === "object" && typeof b === "object" && key(a) === key(b);
}

/**
 * Words on one line made smaller until they fit their box, rather than cut with an ellipsis
 * ("Suggest …", "Last ca…"): ``node`` is zoomed down (everything in it, badges sized in rem
 * too) to as little as ``floor`` of its size; past that it is cut as before. Drawn again, a
 * node starts from its full size. A node not drawn (hidden, no width) is left alone.
 * @param {HTMLElement} node
 * @param {number} [floor]
 */
export function fitWidth(node, floor = 0.6) {
  node.style.removeProperty("zoom");
  if (!node.isConnected || !node.clientWidth) return;
  let zoom = 1;
  for (let i = 0; i < 6 && node.scrollWidth > node.clientWidth + 0.5 && zoom > floor; i++) {
    zoom = Math.max(floor, zoom * (node.clientWidth / node.scrollWidth) * 0.98);
    node.style.setProperty("zoom", zoom.toFixed(3));
  }
}
