"""Project configuration: settings, URLs and the Celery app."""

import gc

# Starting a process makes a few hundred thousand objects that live as long as it does (Django, DRF,
# Celery, the apps' modules and URL patterns). With the default thresholds (700, 10, 10) the
# collector scanned them again and again while they loaded: about a quarter of the CPU a Celery
# worker, a management command or a web process spends starting (1.55 s -> 1.15 s on this 2-core
# machine). This package is the first of the project any of them imports (``celery -A config``, the
# settings of manage.py and of the WSGI server), so the collector runs less often from here on;
# reference cycles are still collected, only in larger batches.
gc.set_threshold(50_000, 20, 100)

from config.celery import app as celery_app  # noqa: E402 — after the collector is set

__all__ = ("celery_app",)
