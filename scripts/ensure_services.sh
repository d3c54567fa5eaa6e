#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on 127.0.0.1 and Chromium (and poppler-utils) are installed (STACK.md).
# Idempotent: on the project's machines both services already run, so this only checks.
set -euo pipefail

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if ! pg_isready -q -h 127.0.0.1 2>/dev/null; then
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
fi
pg_isready -q -h 127.0.0.1 || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }

if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done
fi
redis-cli -h 127.0.0.1 ping >/dev/null || { echo "Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }

if ! command -v chromium >/dev/null; then
  apt_install chromium
fi
# Debian's old headless shell of the same Chromium: the browser tests and the battle pack's PDF use it
# where it is installed (settings.CHROMIUM_PATH), at about half the CPU of the full browser.
if ! command -v chromium-headless-shell >/dev/null; then
  apt_install chromium-headless-shell
fi
# The battle pack's PDF test turns its pages into PNGs with poppler's pdftoppm (issue 15).
if ! command -v pdftoppm >/dev/null; then
  apt_install poppler-utils
fi
