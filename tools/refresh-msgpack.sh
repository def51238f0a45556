#!/usr/bin/env bash
# Refresh the browser client's msgpack codec from the npm registry.
#
# The client is plain ES modules with no build step (issue 5), so it loads
# @msgpack/msgpack's prebuilt ES module files (dist.esm/*.mjs) as they are
# published, byte for byte, with the package's licence beside them. Run this
# to move to another version, review the diff, run the browser tests, commit:
#
#   tools/refresh-msgpack.sh            # the version pinned below
#   tools/refresh-msgpack.sh 3.1.4      # another version
#
# Needs npm (it only downloads the package tarball: `npm pack`).
set -euo pipefail
VERSION="${1:-3.1.3}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/server/meja/web/vendor/msgpack"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

(cd "$TMP" && npm pack --silent "@msgpack/msgpack@$VERSION" >/dev/null)
tar -xzf "$TMP"/msgpack-msgpack-"$VERSION".tgz -C "$TMP"
rm -rf "$DEST"
mkdir -p "$DEST/utils"
cp "$TMP"/package/dist.esm/*.mjs "$DEST"/
cp "$TMP"/package/dist.esm/utils/*.mjs "$DEST"/utils/
cp "$TMP"/package/LICENSE "$DEST"/LICENSE
{
  echo "@msgpack/msgpack $VERSION: dist.esm/*.mjs from the npm registry tarball, unmodified."
  echo "Refreshed by tools/refresh-msgpack.sh. Licence: LICENSE (ISC)."
  echo
  echo "sha256 of the files:"
  (cd "$DEST" && find . -name '*.mjs' | LC_ALL=C sort | xargs sha256sum)
} > "$DEST/VERSION"
echo "vendored @msgpack/msgpack $VERSION into ${DEST#"$ROOT"/}"
