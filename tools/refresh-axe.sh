#!/usr/bin/env bash
# Refresh axe-core, the accessibility rules engine the browser tests inject into
# each screen (tests/browser/test_accessibility.py), from the npm registry.
#
# The audit runs offline: Playwright evaluates axe.min.js inside the page, which
# works under the client's strict Content-Security-Policy. The file is committed
# with its licence (MPL-2.0) so that CI needs no network for it.
#
#   tools/refresh-axe.sh            # the version pinned below
#   tools/refresh-axe.sh 4.14.0     # another version
set -euo pipefail
VERSION="${1:-4.14.1}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/tests/browser/vendor"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

(cd "$TMP" && npm pack --silent "axe-core@$VERSION" >/dev/null)
tar -xzf "$TMP"/axe-core-"$VERSION".tgz -C "$TMP"
mkdir -p "$DEST"
cp "$TMP"/package/axe.min.js "$DEST"/axe.min.js
cp "$TMP"/package/LICENSE "$DEST"/axe-LICENSE
{
  echo "axe-core $VERSION: axe.min.js from the npm registry tarball, unmodified."
  echo "Refreshed by tools/refresh-axe.sh. Licence: axe-LICENSE (MPL-2.0)."
  echo "sha256: $(sha256sum "$DEST/axe.min.js" | cut -d' ' -f1)"
} > "$DEST/axe-VERSION"
echo "vendored axe-core $VERSION into ${DEST#"$ROOT"/}"
