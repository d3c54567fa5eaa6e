#!/usr/bin/env bash
# `make run`: start make run's own PostgreSQL server (data in var/postgres; not when DATABASE_URL names
# another), migrate, load the demo campaign once, then serve on http://127.0.0.1:8000 (PORT to change it)
# with a Celery worker and beat. Ctrl-C stops all of it, the database server last. A serverless broker
# unless CELERY_BROKER_URL is set (config/settings/dev.py). ADMIRALTY_VAR_DIR puts var/ elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.dev}"
export PORT="${PORT:-8000}"  # also SITE_URL's default port (config/settings/base.py)
VAR="${ADMIRALTY_VAR_DIR:-var}"
mkdir -p "$VAR"

# Seconds since the start, on each step's line: where a slow start spends its time.
began=${EPOCHREALTIME/./}
took() {
  local tenths=$(((${EPOCHREALTIME/./} - began) / 100000))
  echo "[$((tenths / 10)).$((tenths % 10)) s] $1"
}

pids=()
db_pid=
stop() {
  trap - INT TERM EXIT
  echo "Stopping Admiralty..."
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # The database last, once nothing is connected: SIGINT is PostgreSQL's fast shutdown.
  if [[ -n $db_pid ]]; then
    kill -INT "$db_pid" 2>/dev/null || true
    # Bounded, and asked again: a run once hung here with the server still up (cause not found).
    for tenth in {1..300}; do
      # (A zombie is gone too: this trap may run before the shell reaps it.)
      [[ $(awk '/^State:/ {print $2}' "/proc/$db_pid/status" 2>/dev/null) =~ ^[^ZX]$ ]] || break
      if ((tenth % 50 == 0)); then kill -INT "$db_pid" 2>/dev/null || true; fi
      sleep 0.1
    done
    kill -QUIT "$db_pid" 2>/dev/null || true # immediate shutdown if still up after 30 s
    wait "$db_pid" 2>/dev/null || true
  fi
}
trap stop INT TERM EXIT

if [[ -z ${DATABASE_URL:-} ]]; then
  echo "Starting PostgreSQL (data in $VAR/postgres, log in $VAR/postgres.log)..."
  # In a session of its own (config/dev_database.py): Ctrl-C reaches this script, which stops it last.
  $PY -m config.dev_database serve >>"$VAR/postgres.log" 2>&1 &
  db_pid=$!
  set_up=$($PY -m config.dev_database ready --pid "$db_pid" --set-up)
  took "PostgreSQL ready"
fi


# The development settings serve static files from their folders as they are (config/settings/dev.py):
# nothing to collect. Another settings module (DJANGO_SETTINGS_MODULE) gets its collection, redone only
# when a static source changed: the stamp hashes our own static files and what decides the apps' files.
if [[ $DJANGO_SETTINGS_MODULE != config.settings.dev ]]; then
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
    echo "Collecting static files (the next start skips this unless they change)..."
    $PY manage.py collectstatic --noinput -v 0
    echo "$static_sources_sha1" >"$static_stamp"
  fi
fi
runserver_checks=()
if [[ ${set_up:-} == "set up" ]]; then
  # Our own database, marked set up for these migrations, the demo still there (config/dev_database.py):
  # nothing for setup_demo to do, and a start of Django saved. The logins as setup_demo prints them.
  took "database already migrated for these migrations, demo already loaded"
  logins="$VAR/demo-logins.txt"
  if [[ -f $logins ]]; then
    echo "Demo logins (also in $(cd "$(dirname "$logins")" && pwd)/$(basename "$logins")):"
    while IFS=$'\t' read -r username password role; do
      printf '  %-12s %-18s %s\n' "$username" "$password" "$role"
    done <"$logins"
  else
    echo "Demo logins were created earlier and their file is gone; reset with changepassword."
  fi
else
  # Migrations and the demo in one process (each start of Django costs seconds on a busy machine).
  $PY manage.py setup_demo --migrate
  # Its system checks ran in setup_demo: the web server need not run them again.
  runserver_checks=(--skip-checks)
  if [[ -n $db_pid ]]; then
    $PY -m config.dev_database mark-set-up
  fi
  took "database migrated, demo ready"
fi

# The web server first and alone, so that it is up soonest on a busy machine (2 cores): the worker and
# beat start once it answers, rather than competing with it for the CPU while Django starts.
DATABASE_CONN_MAX_AGE=0 $PY manage.py runserver "127.0.0.1:$PORT" --noreload "${runserver_checks[@]}" &
web_pid=$!
pids+=("$web_pid")
# Answering, not only listening: the first request imports the views and templates, which is CPU too.
web_answers() {
  exec 3<>"/dev/tcp/127.0.0.1/$PORT" || return 1
  printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  local status=
  IFS= read -r -t 120 status <&3 || true
  [[ $status == HTTP/* ]]
}
until (web_answers) 2>/dev/null; do
  if ! kill -0 "$web_pid" 2>/dev/null; then
    echo "The web server stopped before it answered (is port $PORT in use? PORT=... to choose another)." >&2
    exit 1
  fi
  sleep 0.1
done
took "web server answering"
# The worker's prefork children serve one task at a time: each keeps its connection (DATABASE_CONN_MAX_AGE).
# The development server answers each request in a new thread: it must keep none (config/settings/dev.py).
DATABASE_CONN_MAX_AGE="${DATABASE_CONN_MAX_AGE:-60}" \
  $PY -m celery -A config worker --loglevel=INFO --concurrency=2 -n "admiralty-dev-$$@%h" &
pids+=($!)
$PY -m celery -A config beat --loglevel=INFO --pidfile= &
pids+=($!)
took "worker and beat started"
echo "Admiralty is at http://127.0.0.1:$PORT/ (admin: /admin/). Ctrl-C stops the server, worker, beat and database."
# Whichever stops first (or Ctrl-C) stops the rest.
wait -n "${pids[@]}" ${db_pid:+"$db_pid"}
