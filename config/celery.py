"""The Celery application; workers start with ``celery -A config worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("admiralty")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The site's own tasks (password-reset mail) live in config/, which is not an app.
app.autodiscover_tasks(["config"])
