#!/usr/bin/env bash
# Install the system programs the test suite starts, where they are missing.
# The tests start their own private redis-server on a free port: they never use
# a Redis that happens to run on 6379; likewise coturn, on 127.0.0.1 only.
set -euo pipefail
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || need+=(redis-tools)
if [ -d "$(dirname "$0")/../tests/browser" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  # the call's relayed tests start their own coturn on 127.0.0.1 (never a public server)
  command -v turnserver >/dev/null 2>&1 || need+=(coturn)
  # and keep the call's host candidates on loopback inside a network namespace of their own
  command -v ip >/dev/null 2>&1 || need+=(iproute2)
fi
# `make lint` type-checks the page's JavaScript with TypeScript, which npm installs (and node runs)
command -v npm >/dev/null 2>&1 || need+=(npm)
# the shipped proxy config (deploy/nginx.conf) is tested in front of a real server
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
