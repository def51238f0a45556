// @ts-check
// The games this server offers (welcome.catalog) and their page modules, loaded by name.
//
// Each catalog entry is a game's description (GamePlugin.describe() on the server); its
// `page` is the URL of the game's module ("/games/<name>/page.js") or null. A module is
// imported once, its strings registered and its stylesheet linked (and loaded) before it
// draws anything. A module that fails to load leaves its game to the generic renderer:
// the game stays playable. What a module exports is the contract of contract.js (GameModule).

import { addGameStrings } from "./strings.js";

/** @typedef {import("./contract.js").GameModule} GameModule */

/**
 * A game's catalog entry (GamePlugin.describe() on the server): its `name`, `page` (the URL of
 * its module, or null), `presets`, whether it reads `deal_codes`, and the rest of its description.
 * @typedef {{name: string, page?: string | null, presets: {name: string}[], deal_codes?: boolean} & Record<string, any>} GameDescription
 */

/** page URL -> Promise of the module (or null). @type {Map<string, Promise<GameModule | null>>} */
const modules = new Map();

/**
 * @param {string} href
 * @returns {Promise<void>}
 */
function linkStylesheet(href) {
  if (document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => resolve());
    document.head.append(link);
  });
}

/**
 * @param {GameDescription & {page: string}} desc
 * @returns {Promise<GameModule | null>}
 */
async function importModule(desc) {
  try {
    /** @type {GameModule} */
    const module = await import(desc.page);
    addGameStrings(desc.name, module.strings);
    if (typeof module.stylesheet === "string") await linkStylesheet(module.stylesheet);
    return module;
  } catch (err) {
    console.warn(`the page module of ${desc.name} did not load; the generic renderer shows it`, err);
    return null;
  }
}

/**
 * Whether an option means something under ``values`` (its spec's ``when``: other options' values).
 * @param {{when?: Record<string, unknown[]>}} spec
 * @param {Record<string, unknown>} values
 */
export function optionApplies(spec, values) {
  return Object.entries(spec.when || {}).every(([name, allowed]) => !(name in values) || allowed.includes(values[name]));
}

/**
 * A number option's value as its form field shows it: a spec with `unit` "ms" in seconds
 * (1500 -> 1.5), any other as it is on the wire.
 * @param {{unit?: string}} spec
 * @param {number} value
 */
export function formNumber(spec, value) {
  return spec.unit === "ms" ? value / 1000 : value;
}

/**
 * A number option's value as the wire carries it, from its form field's number: the inverse of
 * {@link formNumber} (1.5 -> 1500 for `unit` "ms").
 * @param {{unit?: string}} spec
 * @param {number} shown
 */
export function wireNumber(spec, shown) {
  return spec.unit === "ms" ? Math.round(shown * 1000) : shown;
}

/**
 * The step of a number option's form field: a spec in milliseconds steps by a tenth of a second
 * where its own step divides it (the server takes any multiple of its step), else by its step.
 * @param {{unit?: string, step?: number}} spec
 */
export function formStep(spec) {
  const step = spec.step || 1;
  if (spec.unit !== "ms") return step;
  return 100 % step === 0 ? 0.1 : step / 1000;
}

export class Games {
  constructor() {
    /** The catalog, in the server's order (its default game first). @type {GameDescription[]} */
    this.list = [];
    /** @type {Map<string, GameDescription>} */
    this.byName = new Map();
    /** name -> module or null. @type {Map<string, GameModule | null>} */
    this.loaded = new Map();
  }

  get ready() {
    return this.list.length > 0;
  }

  /**
   * Take a catalog (from welcome) and load every game's module; resolves when all are in.
   * @param {unknown} catalog
   */
  async use(catalog) {
    /** @type {GameDescription[]} */
    const list = Array.isArray(catalog) ? catalog.filter((g) => g && typeof g.name === "string") : [];
    await Promise.all(
      list.map(async (desc) => {
        /** @type {GameModule | null | undefined} */
        let module = null;
        const page = desc.page;
        if (typeof page === "string" && page) {
          if (!modules.has(page)) modules.set(page, importModule({ ...desc, page }));
          module = await modules.get(page);
        }
        this.loaded.set(desc.name, module || null);
      }),
    );
    this.list = list;
    this.byName = new Map(list.map((g) => [g.name, g]));
  }

  /** @param {string} name */
  get(name) {
    return this.byName.get(name) || null;
  }

  /** @param {string} name */
  module(name) {
    return this.loaded.get(name) || null;
  }

  /**
   * The preset description of `game` called `name` (the game's first if there is none).
   * @param {string} game
   * @param {string} name
   */
  preset(game, name) {
    const desc = this.get(game);
    if (!desc) return null;
    return desc.presets.find((p) => p.name === name) || desc.presets[0] || null;
  }

  /**
   * What a deal code names, as the first game whose module reads it says: {game, preset, seats} or null.
   * @param {unknown} code
   */
  readDealCode(code) {
    if (!String(code || "").trim()) return null;
    for (const desc of this.list) {
      const module = this.module(desc.name);
      if (!desc.deal_codes || !module || typeof module.readDealCode !== "function") continue;
      const spec = module.readDealCode(String(code));
      if (spec) return { game: desc.name, ...spec };
    }
    return null;
  }
}
