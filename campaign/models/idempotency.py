"""An API write's ``Idempotency-Key`` and the answer it got (issue 26; :mod:`campaign.api.idempotency`).

One row per (user, key), kept by a unique constraint: two requests with one key cannot both claim it,
so a retried or duplicated write runs once. ``status`` is null while the first request runs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotencyKey(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_keys")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, path and body, hex.")
    status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The answer's status; null: running.")
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True, help_text="The answer's headers a replay repeats.")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_one_per_user"),
            models.CheckConstraint(condition=~models.Q(key=""), name="idempotency_key_not_empty"),
        ]

    def __str__(self) -> str:
        return f"Idempotency-Key {self.key!r} of {self.user_id}"
