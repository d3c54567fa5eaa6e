"""Login throttling (django-axes) for every login that comes with a request: web, admin and API."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


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
        return super().authenticate(request, username, password, **kwargs)
