"""``make run``: its own PostgreSQL server (data in ``var/postgres``) and kombu's filesystem broker, unless
the environment names other services (``DATABASE_URL``, ``CELERY_BROKER_URL``)."""

import os

from config import dev_database
from config.settings.base import *  # noqa: F403
from config.settings.base import VAR_DIR, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-not-secret-" + "x" * 32)

# PostgreSQL, as in the tests and in production: the server scripts/run_dev.sh starts
# (config/dev_database.py, a Unix socket in var/postgres), or the one DATABASE_URL names.
DATABASES = {"default": env.db("DATABASE_URL") if "DATABASE_URL" in env else dev_database.connection_settings()}
# No persistent connection by default: Django's development server answers each request in a new
# thread, and a connection kept past the request stays open, idle, for every thread that served one
# (issue 24: 28–71 idle backends after ten minutes, then "too many clients"). scripts/run_dev.sh gives
# the Celery worker, whose prefork children serve one task at a time, DATABASE_CONN_MAX_AGE=60.
DATABASES["default"].update({"CONN_MAX_AGE": env.int("DATABASE_CONN_MAX_AGE", default=0), "CONN_HEALTH_CHECKS": True})

VAR_DIR.mkdir(parents=True, exist_ok=True)
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

if "EMAIL_URL" not in env:
    # make run shows every mail in the console unless told where to send it.
    EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")

# Static files are served as they lie in static/ and the apps' folders (whitenoise's finders), never
# collected: a start does no collectstatic and no compression (issue 24: compressing ~1,200 files was
# most of a first start's minutes). Production keeps the compressed, hashed manifest (base.py).
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405 — whitenoise warns when the folder is missing

# A webhook receiver on one's own machine is how a hook is tried out (README, Webhooks).
WEBHOOK_PRIVATE_ADDRESSES = env.bool("WEBHOOK_PRIVATE_ADDRESSES", default=True)
