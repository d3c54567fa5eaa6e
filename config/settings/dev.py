"""``make run``: SQLite and kombu's filesystem broker unless the environment names real services."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, VAR_DIR, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-not-secret-" + "x" * 32)

VAR_DIR.mkdir(exist_ok=True)
_queue = VAR_DIR / "broker"
_results = VAR_DIR / "results"
if "CELERY_BROKER_URL" not in os.environ:
    # A broker that needs no server: kombu's filesystem transport and the file result backend
    # work together, chords included (STACK.md).
    _queue.mkdir(exist_ok=True)
    _results.mkdir(exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(_queue),
        "store_processed": False,
        # The exchange tables too, or kombu writes them to ./control in whatever folder it runs from.
        "control_folder": str(VAR_DIR / "control"),
    }
    CELERY_RESULT_BACKEND = f"file://{_results}"

if "CACHE_URL" not in os.environ and "CELERY_BROKER_URL" not in os.environ:
    # No Redis in the embedded default: the rate-limit counters live in a file cache under var/.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The server, the worker and beat share the file: wait for locks instead of failing, take the
    # write lock at the start of a transaction, and let readers work alongside a writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )

if "EMAIL_URL" not in env:
    # make run shows every mail in the console unless told where to send it.
    EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
