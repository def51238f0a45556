#!/usr/bin/env bash
# Refresh the browser client's SHA-256 (@noble/hashes) from the npm registry.
#
# The fair-deal check (PROTOCOL.md section 7: hash = sha256(deal_code + ":" + salt))
# runs in the page. crypto.subtle exists only in secure contexts, and a table reached
# over plain http on a LAN address must be able to check its deals too, so the page
# uses @noble/hashes, an audited JavaScript implementation. The package ships plain ES
# modules: the client loads sha2.js and the three files it imports as they are
# published, byte for byte, with the package's licence beside them (no build step).
# Run this to move to another version, review the diff, run the browser tests, commit:
#
#   tools/refresh-noble.sh            # the version pinned below
#   tools/refresh-noble.sh 2.5.0      # another version
#
# Needs npm (it only downloads the package tarball: `npm pack`).
set -euo pipefail
VERSION="${1:-2.4.0}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/server/meja/web/vendor/noble-hashes"
FILES=(sha2.js _md.js _u64.js utils.js)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

(cd "$TMP" && npm pack --silent "@noble/hashes@$VERSION" >/dev/null)
tar -xzf "$TMP"/noble-hashes-"$VERSION".tgz -C "$TMP"
# The files sha2.js needs, and nothing else: fail if that set has changed.
for f in "${FILES[@]}"; do
  for dep in $(grep -oE 'from "\./[^"]+"' "$TMP/package/$f" | sed -E 's/from "\.\/(.*)"/\1/'); do
    case " ${FILES[*]} " in *" $dep "*) ;; *) echo "$f imports $dep, which is not vendored: add it to FILES" >&2; exit 1;; esac
  done
done
rm -rf "$DEST"
mkdir -p "$DEST"
for f in "${FILES[@]}"; do cp "$TMP/package/$f" "$DEST/$f"; done
cp "$TMP"/package/LICENSE "$DEST"/LICENSE
{
  echo "@noble/hashes $VERSION: ${FILES[*]} from the npm registry tarball, unmodified."
  echo "Refreshed by tools/refresh-noble.sh. Licence: LICENSE (MIT)."
  echo
  echo "sha256 of the files:"
  (cd "$DEST" && printf '%s\n' "${FILES[@]}" | LC_ALL=C sort | xargs sha256sum)
} > "$DEST/VERSION"
echo "vendored @noble/hashes $VERSION into ${DEST#"$ROOT"/}"
