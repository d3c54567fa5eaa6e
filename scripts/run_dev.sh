#!/usr/bin/env bash
# `make run`: migrate, load the demo campaign once, then serve on http://127.0.0.1:8000 (PORT to change
# it) with a Celery worker and beat. Ctrl-C stops all of it. SQLite and a serverless broker unless DATABASE_URL /
# CELERY_BROKER_URL are set (config/settings/dev.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.dev}"
mkdir -p var

$PY manage.py migrate --noinput
PORT="${PORT:-8000}"

# collectstatic compresses every file (about 1,200, most from Django's admin): minutes of work that only
# needs doing when a static source changed. The stamp hashes our own static files and what decides the
# apps' files (the pinned requirements, the installed app list); a later start skips the step when it
# matches, or when the collected manifest is missing redoes it.
static_stamp=staticfiles/.sources-sha1
static_sources_sha1=$(
  {
    find static -type f -print0 | sort -z | xargs -0 sha1sum
    sha1sum requirements.txt config/settings/base.py
  } | sha1sum | cut -c1-40
)
if [[ -f staticfiles/staticfiles.json && -f $static_stamp && "$(cat "$static_stamp")" == "$static_sources_sha1" ]]; then
  echo "Static files unchanged since the last collection: not collecting them again."
else
  echo "Collecting and compressing static files (the next start skips this unless they change)..."
  $PY manage.py collectstatic --noinput -v 0
  echo "$static_sources_sha1" >"$static_stamp"
fi
$PY manage.py setup_demo

pids=()
stop() {
  trap - INT TERM EXIT
  echo "Stopping Admiralty..."
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

$PY -m celery -A config worker --loglevel=INFO --concurrency=2 -n "admiralty-dev-$$@%h" &
pids+=($!)
$PY -m celery -A config beat --loglevel=INFO --pidfile= &
pids+=($!)
$PY manage.py runserver "127.0.0.1:$PORT" --noreload &
pids+=($!)
echo "Admiralty is at http://127.0.0.1:$PORT/ (admin: /admin/). Ctrl-C stops the server, worker and beat."
# Whichever stops first (or Ctrl-C) stops the rest.
wait -n "${pids[@]}"
