// @ts-check
// Updates in the patch form (client-protocol/PROTOCOL.md section 7.5), applied in the connection
// layer so that the rest of the page only ever sees whole `update`s.
//
// A `patch` message lists operations on the document {table, view} this connection was last sent
// for that table: ["s", path, value] sets a map key or list index, ["d", path] deletes a map key,
// ["t", path, n, items] keeps a list's first n items and appends items. A path is map keys and
// list indexes from the document's root. Nothing here knows any game.

export class PatchError extends Error {}

/** A wire value (msgpack's maps, lists and scalars). @typedef {any} Wire */

/** @param {Wire} v @returns {v is Record<string, Wire>} */
const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * @param {Wire} node
 * @param {(string | number)[]} path
 * @returns {Wire}
 */
function walk(node, path) {
  for (const key of path) {
    const inMap = isMap(node) && typeof key === "string" && Object.prototype.hasOwnProperty.call(node, key);
    const inList = Array.isArray(node) && typeof key === "number" && Number.isInteger(key) && key >= 0 && key < node.length;
    if (!inMap && !inList) throw new PatchError(`no ${JSON.stringify(key)} on the path ${JSON.stringify(path)}`);
    node = node[key];
  }
  return node;
}

/**
 * A copy of `doc` with `ops` applied; PatchError if they do not fit it.
 * @param {Wire} doc
 * @param {unknown} ops
 * @returns {Wire}
 */
export function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list");
  for (const op of ops) {
    if (!Array.isArray(op) || op.length < 2 || !Array.isArray(op[1])) throw new PatchError("not an operation");
    const [name, path] = op;
    if (name === "t" && op.length === 4) {
      const list = walk(root, path);
      const keep = op[2];
      if (!Array.isArray(list) || !Number.isInteger(keep) || keep < 0 || keep > list.length) {
        throw new PatchError(`cannot splice at ${JSON.stringify(path)}`);
      }
      list.splice(keep, list.length - keep, ...structuredClone(op[3]));
    } else if (name === "s" && op.length === 3 && path.length === 0) {
      root = structuredClone(op[2]);
    } else if ((name === "s" && op.length === 3) || (name === "d" && op.length === 2)) {
      const holder = walk(root, path.slice(0, -1));
      const key = path[path.length - 1];
      if (isMap(holder) && typeof key === "string" && (name === "s" || key in holder)) {
        if (name === "s") holder[key] = structuredClone(op[2]);
        else delete holder[key];
      } else if (name === "s" && Array.isArray(holder) && Number.isInteger(key) && key >= 0 && key < holder.length) {
        holder[key] = structuredClone(op[2]);
      } else {
        throw new PatchError(`nothing at ${JSON.stringify(path)} for ${name}`);
      }
    } else {
      throw new PatchError(`unknown operation ${JSON.stringify(op)}`);
    }
  }
  return root;
}

/**
 * One connection's documents, by table id: `take(msg)` returns the message the page should see
 * (a `patch` becomes the whole `update` it stands for; anything else as it came) and keeps each
 * table's latest table map and view. A new connection starts with a new one.
 */
export class Documents {
  constructor() {
    /** table id -> {table, view}. @type {Map<string, Wire>} */
    this.docs = new Map();
  }

  /** @param {Record<string, Wire>} msg @returns {Record<string, Wire>} */
  take(msg) {
    if (msg.type === "patch") {
      const last = this.docs.get(msg.table);
      if (!last) throw new PatchError("a patch before any state of its table");
      const doc = applyPatch(last, msg.patch);
      /** @type {Record<string, Wire>} */
      const update = { ...msg, type: "update", table: doc.table, view: doc.view };
      delete update.patch;
      msg = update;
    }
    if ((msg.type === "state" || msg.type === "update") && isMap(msg.table) && typeof msg.table.id === "string") {
      // a copy: the page may change what it is given
      this.docs.set(msg.table.id, structuredClone({ table: msg.table, view: msg.view ?? null }));
    }
    return msg;
  }
}
