"""CI and ``make test``: PostgreSQL and Redis on 127.0.0.1."""

import os

from config.queues import MAIL, task_queues, task_routes
from config.settings.base import *  # noqa: F403
from config.settings.base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-not-secret-" + "x" * 32)
DEBUG = False
DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/test")}
# Fresh connections per test unless asked (the fleet bench runs its workers as production does).
DATABASES["default"].update({"CONN_MAX_AGE": env.int("DATABASE_CONN_MAX_AGE", default=0), "CONN_HEALTH_CHECKS": True})
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/5")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405 — whitenoise warns when the folder is missing

# One test database per pytest process: two suites running side by side (a developer and CI, or
# several developers on one machine) must not create and drop each other's database.
DATABASES["default"]["TEST"] = {"NAME": env("TEST_DATABASE_NAME", default=f"test_admiralty_{os.getpid()}")}
# Likewise one set of Celery queues (turns, battles, mail) per pytest process; its workers are told
# the prefix and consume all three.
CELERY_QUEUE_PREFIX = env("CELERY_QUEUE_PREFIX", default=f"admiralty-test-{os.getpid()}-")
CELERY_TASK_QUEUES = task_queues(CELERY_QUEUE_PREFIX)
CELERY_TASK_ROUTES = task_routes(CELERY_QUEUE_PREFIX)
CELERY_TASK_DEFAULT_QUEUE = CELERY_TASK_QUEUES[0].name
MAIL_QUEUE = CELERY_QUEUE_PREFIX + MAIL
# And its own cache keys (rate-limit counters), so that parallel runs do not count each other's.
CACHES["default"]["KEY_PREFIX"] = f"admiralty-test-{os.getpid()}"  # noqa: F405
# Writes unthrottled but for the tests of the throttle, which set their own rates.
API_THROTTLE_RATES = {"api_write": "100000/minute", "simulator": "100000/minute"}

# The webhook tests' receivers listen on 127.0.0.1; tests/campaign/test_webhook_addresses.py turns it off.
WEBHOOK_PRIVATE_ADDRESSES = env.bool("WEBHOOK_PRIVATE_ADDRESSES", default=True)
