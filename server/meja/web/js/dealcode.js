// @ts-check
// The shared deal-code format (server: meja/rules/dealcode.py), read in the browser so that a
// game's page module can fill the host form from a code as it is typed. Every game's codes are
// this format: the Crockford-like alphabet (I and L read as 1, O as 0; dashes and spaces
// ignored), a Luhn mod 32 check character, and a number whose low 2 bits are the format (2)
// and next 5 bits the game's tag. What the rest of the number means is the game's to read.
// Only to fill a form: the server checks every code again and is the one that deals.

export const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const FORMAT = 2n;

/**
 * The number a code carries, above its format and tag bits (``number >> 7``), or null when the
 * text is not a code of ``chars`` characters (the check character included) with game ``tag``.
 * @param {unknown} text
 * @param {{chars: number, tag: bigint | number}} shape
 */
export function readCodeNumber(text, { chars, tag }) {
  const values = [];
  for (const raw of String(text).trim().toUpperCase()) {
    if (raw === "-" || raw === " ") continue;
    const c = raw === "I" || raw === "L" ? "1" : raw === "O" ? "0" : raw;
    const v = ALPHABET.indexOf(c);
    if (v < 0) return null;
    values.push(v);
  }
  if (values.length !== chars) return null;
  // The check character: Luhn mod 32 over the data characters, doubling every second from the right.
  let total = 0;
  values.slice(0, -1).reverse().forEach((v, i) => {
    let x = v;
    if (i % 2 === 0) {
      x *= 2;
      x = Math.floor(x / 32) + (x % 32);
    }
    total += x;
  });
  if ((32 - (total % 32)) % 32 !== values[values.length - 1]) return null;
  let number = 0n;
  for (const v of values.slice(0, -1)) number = (number << 5n) | BigInt(v);
  if ((number & 3n) !== FORMAT || ((number >> 2n) & 31n) !== BigInt(tag)) return null;
  return number >> 7n;
}
