// @ts-check
// The fair-deal check (PROTOCOL.md section 7): when a round begins the server commits to
// its deal with hash = sha256(deal_code + ":" + salt), and when it ends it reveals the code
// and the salt; the page recomputes the hash and says whether the two agree.
//
// SHA-256 is @noble/hashes (vendor/noble-hashes, refreshed by tools/refresh-noble.sh), not
// crypto.subtle: that exists only in secure contexts, and a table reached over plain http
// on a LAN address must be able to check its deals too.

import { sha256 } from "../vendor/noble-hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "../vendor/noble-hashes/utils.js";

/** SHA-256 of a string (UTF-8), as lowercase hex. @param {unknown} text */
export function sha256Hex(text) {
  return bytesToHex(sha256(utf8ToBytes(String(text))));
}

/**
 * What the page can say of a round's deal: "none" (no commitment was received), "wait"
 * (not revealed yet), "ok" or "bad". `fair` is {hash, deal_code, salt} as recorded from
 * the table's commitment and reveal events; `shown` is the deal code the game shows for
 * the round, if any (it must be the one revealed).
 * @param {{hash?: string, deal_code?: string, salt?: string} | null | undefined} fair
 * @param {string | null | undefined} shown
 */
export function checkDeal(fair, shown) {
  if (!fair || !fair.hash) return "none";
  if (!fair.salt || !fair.deal_code) return "wait";
  const ok = sha256Hex(`${fair.deal_code}:${fair.salt}`) === fair.hash && (!shown || fair.deal_code === shown);
  return ok ? "ok" : "bad";
}
