// The games this server offers (welcome.catalog) and their page modules, loaded by name.
//
// Each catalog entry is a game's description (GamePlugin.describe() on the server); its
// `page` is the URL of the game's module ("/games/<name>/page.js") or null. A module is
// imported once, its strings registered and its stylesheet linked (and loaded) before it
// draws anything. A module that fails to load leaves its game to the generic renderer:
// the game stays playable.

import { addGameStrings } from "./strings.js";

const modules = new Map(); // page URL -> Promise of the module (or null)

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

async function importModule(desc) {
  try {
    const module = await import(desc.page);
    addGameStrings(desc.name, module.strings);
    if (typeof module.stylesheet === "string") await linkStylesheet(module.stylesheet);
    return module;
  } catch (err) {
    console.warn(`the page module of ${desc.name} did not load; the generic renderer shows it`, err);
    return null;
  }
}

export class Games {
  constructor() {
    this.list = []; // the catalog, in the server's order (its default game first)
    this.byName = new Map();
    this.loaded = new Map(); // name -> module or null
  }

  get ready() {
    return this.list.length > 0;
  }

  /** Take a catalog (from welcome) and load every game's module; resolves when all are in. */
  async use(catalog) {
    const list = Array.isArray(catalog) ? catalog.filter((g) => g && typeof g.name === "string") : [];
    await Promise.all(
      list.map(async (desc) => {
        let module = null;
        if (typeof desc.page === "string" && desc.page) {
          if (!modules.has(desc.page)) modules.set(desc.page, importModule(desc));
          module = await modules.get(desc.page);
        }
        this.loaded.set(desc.name, module);
      }),
    );
    this.list = list;
    this.byName = new Map(list.map((g) => [g.name, g]));
  }

  get(name) {
    return this.byName.get(name) || null;
  }

  module(name) {
    return this.loaded.get(name) || null;
  }

  /** The preset description of `game` called `name` (the game's first if there is none). */
  preset(game, name) {
    const desc = this.get(game);
    if (!desc) return null;
    return desc.presets.find((p) => p.name === name) || desc.presets[0] || null;
  }

  /** What a deal code names, as the first game whose module reads it says: {game, preset, seats} or null. */
  readDealCode(code) {
    if (!String(code || "").trim()) return null;
    for (const desc of this.list) {
      const module = this.module(desc.name);
      if (!desc.deal_codes || !module || typeof module.readDealCode !== "function") continue;
      const spec = module.readDealCode(code);
      if (spec) return { game: desc.name, ...spec };
    }
    return null;
  }
}
