"""The API's authentication: personal tokens as ``Authorization: Bearer <token>``.

It is the first of ``DEFAULT_AUTHENTICATION_CLASSES``, so a request with no credentials is answered
401 with ``WWW-Authenticate: Bearer realm="api"`` (and a Basic challenge beside it where HTTP Basic is
on), while a logged-in user who may not see something still gets 403.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from campaign.accounts.api_tokens import api_token_user

REALM = "api"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>`` with a personal token from the Settings page."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, None] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"bearer":
            return None  # no token: another class (session, Basic) may know the user
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send the token as “Authorization: Bearer <token>”, one word.")
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("That token is not one this server made.") from None
        user = api_token_user(raw)
        if user is None:
            raise exceptions.AuthenticationFailed(
                "That token is wrong or revoked; make a new one on the Settings page."
            )
        return user, None

    def authenticate_header(self, request: Request) -> str:
        challenges = [f'Bearer realm="{REALM}"']
        if any(issubclass(cls, authentication.BasicAuthentication) for cls in _classes()):
            challenges.append(f'Basic realm="{REALM}"')
        return ", ".join(challenges)


class LockoutAwareBasicAuthentication(authentication.BasicAuthentication):
    """HTTP Basic, counted by the login lockout (django-axes): a locked-out client is told to wait —
    429 with ``Retry-After`` — never 401 "invalid password", which it would read as a wrong password
    even when it sent the right one."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # Axes flags the request it was given: DRF's Request here, which keeps its own attributes.
            flagged = [r for r in (request, request._request) if r.__dict__.get("axes_locked_out")]
            if flagged:
                wait = flagged[0].__dict__.get("login_retry_after")
                if wait is None:
                    wait = int(settings.AXES_COOLOFF_TIME.total_seconds())
                raise exceptions.Throttled(
                    wait=wait, detail="Too many failed logins: wait before trying again."
                ) from None
            raise


def _classes() -> list[Any]:
    return list(api_settings.DEFAULT_AUTHENTICATION_CLASSES)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The schema's ``bearerAuth`` security scheme, so generated clients know to send the token."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "A personal token from the Settings page."}


def document_unauthorized(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Schema post-processing: every operation that needs credentials also answers 401 (no or bad ones)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            needs_credentials = {} not in operation.get("security", [{}])
            if needs_credentials and "401" not in operation["responses"]:
                operation["responses"]["401"] = {
                    "description": "No credentials, or a wrong or revoked token (see WWW-Authenticate).",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
    return result


class LockoutAwareBasicScheme(OpenApiAuthenticationExtension):
    """The schema's ``basicAuth`` scheme (where HTTP Basic is on), as drf-spectacular gives DRF's own."""

    target_class = LockoutAwareBasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "basic"}
