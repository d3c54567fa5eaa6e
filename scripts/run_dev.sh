#!/usr/bin/env bash
# `make run`: migrate, load the demo campaign once, then serve on http://127.0.0.1:8000 with a Celery
# worker and beat. Ctrl-C stops all of it. SQLite and a serverless broker unless DATABASE_URL /
# CELERY_BROKER_URL are set (config/settings/dev.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.dev}"
mkdir -p var

$PY manage.py migrate --noinput
$PY manage.py collectstatic --noinput -v 0
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
$PY manage.py runserver 127.0.0.1:8000 --noreload &
pids+=($!)
echo "Admiralty is at http://127.0.0.1:8000/ (admin: /admin/). Ctrl-C stops the server, worker and beat."
# Whichever stops first (or Ctrl-C) stops the rest.
wait -n "${pids[@]}"
