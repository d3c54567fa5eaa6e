"""Login throttling (django-axes) for every login that comes with a request: web, admin and API."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from django.conf import settings
from django.http import HttpRequest

from config.client_address import client_address
from config.rate_limits import rate_limit_hit


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' lockout check; an ``authenticate()`` without a request (a script, the test client's
    ``login``) has no client address to throttle, so it passes on to the model backend unchecked.

    Every login over HTTP — the login page, the admin's, the API's Basic authentication — carries
    its request and is counted.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> None:
        if request is None:
            return None
        # Per address, logins are only slowed: past LOGIN_ATTEMPTS_PER_ADDRESS in a window this address
        # waits out the window; no account is locked by it, and no other address is affected.
        verdict = rate_limit_hit("login-address", client_address(request), settings.LOGIN_ATTEMPTS_PER_ADDRESS)
        if not verdict.allowed:
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.login_retry_after = verdict.retry_after  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("Too many logins from this address; wait for the window to end.")
        return super().authenticate(request, username, password, **kwargs)
