// @ts-check
// Shapes a game's page draws many times (the marks of its cards), put in the page once as SVG
// <symbol>s and drawn by reference: a page module gives its shapes as data and asks for icons.
// Icons are decorative (aria-hidden): the words or the card's name carry the meaning.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * One shape: its SVG parts, each a tag and its attributes, drawn in a 100x100 box.
 * @typedef {[string, Record<string, string>][]} Shape
 */

/**
 * Put ``shapes`` ({key: [[tag, {attribute: value}], ...]}, drawn in a 100x100 box) in the page
 * once, as symbols ``<prefix>-<key>``; a second call with the same prefix does nothing.
 * @param {string} prefix
 * @param {Record<string, Shape>} shapes
 * @param {Document} [doc]
 */
export function addShapes(prefix, shapes, doc = document) {
  const keys = Object.keys(shapes);
  if (!keys.length || doc.getElementById(`${prefix}-${keys[0]}`)) return;
  const sprite = doc.createElementNS(SVG_NS, "svg");
  sprite.setAttribute("class", "sprite");
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("focusable", "false");
  for (const [key, parts] of Object.entries(shapes)) {
    const symbol = doc.createElementNS(SVG_NS, "symbol");
    symbol.id = `${prefix}-${key}`;
    symbol.setAttribute("viewBox", "0 0 100 100");
    for (const [tag, attrs] of parts) {
      const node = doc.createElementNS(SVG_NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      symbol.append(node);
    }
    sprite.append(symbol);
  }
  doc.body.prepend(sprite);
}

/**
 * An <svg> drawing the symbol ``<prefix>-<key>`` with ``className`` (decorative).
 * @param {string} prefix
 * @param {string} key
 * @param {string} className
 */
export function shapeIcon(prefix, key, className) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#${prefix}-${key}`);
  svg.append(use);
  return svg;
}
