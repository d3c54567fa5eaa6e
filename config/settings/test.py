"""CI and ``make test``: PostgreSQL and Redis on 127.0.0.1, never SQLite."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-not-secret-" + "x" * 32)
DEBUG = False
DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/test")}
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
# Likewise one Celery queue per pytest process; the test's workers are told its name.
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default=f"admiralty-test-{os.getpid()}")
# The mail tasks too: a shared "mail" queue would let another run's worker take this run's mail.
MAIL_QUEUE = CELERY_TASK_DEFAULT_QUEUE
# And its own cache keys (rate-limit counters), so that parallel runs do not count each other's.
CACHES["default"]["KEY_PREFIX"] = f"admiralty-test-{os.getpid()}"  # noqa: F405
