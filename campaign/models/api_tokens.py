"""The personal API token: what a script sends as ``Authorization: Bearer <token>`` (README "API").

Only a SHA-256 digest of the secret is stored; the short ``prefix`` (the token's first characters,
not secret on their own) finds the row, and the digest is compared in constant time. See
:mod:`campaign.accounts.api_tokens` for why this and not django-rest-knox.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """One named token of one user; revoking keeps the row (the Settings page lists it as revoked)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=80, help_text="The owner's name for it, e.g. “my bot”.")
    prefix = models.CharField(max_length=12, unique=True, help_text="The token's public start, to find it.")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the whole token, hex.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="api_token_named"),
            models.CheckConstraint(condition=models.Q(digest__regex=r"^[0-9a-f]{64}$"), name="api_token_digest_hex"),
        ]

    def __str__(self) -> str:
        return f"API token {self.name!r} of {self.user_id}"
