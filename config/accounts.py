"""Password reset that does the same work for every address, limited per address and per client.

Django's own view looks the address up and renders and sends the mail inside the request, so a
known address answered measurably later than an unknown one, and nothing bounded how many mails a
client could have sent. Here the request only counts the attempt and queues one task after commit
(config.tasks.password_reset_send), whatever the address; the task finds the accounts and sends.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from config.client_address import client_address
from config.tasks import password_reset_send

WINDOW_SECONDS = 3600


class QueuedPasswordResetForm(PasswordResetForm):
    """Queues the mail instead of sending it; the same call for known and unknown addresses."""

    def save(self, *args: Any, request: HttpRequest | None = None, use_https: bool = False, **kwargs: Any) -> None:
        assert request is not None
        password_reset_send.delay_on_commit(
            email=self.cleaned_data["email"], domain=request.get_host(), use_https=use_https
        )


def _count(kind: str, value: str) -> int:
    """One more attempt for ``value`` in the current window; the count so far, this one included."""
    key = "password-reset:" + kind + ":" + hashlib.sha256(value.encode()).hexdigest()
    cache.add(key, 0, timeout=WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=WINDOW_SECONDS)
        return 1


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """At most PASSWORD_RESET_PER_ADDRESS requests per address and PASSWORD_RESET_PER_CLIENT per
    client address in an hour; beyond that the form says so (429) and no mail is queued."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"].strip().lower()
        client = client_address(self.request)  # behind the proxy, the client's own (TRUSTED_PROXY_COUNT)
        over_address = _count("address", email) > settings.PASSWORD_RESET_PER_ADDRESS
        over_client = _count("client", client) > settings.PASSWORD_RESET_PER_CLIENT
        if over_address or over_client:
            form.add_error(
                None,
                "Too many password reset requests "
                + ("for this address" if over_address else "from your network")
                + " in the last hour. Please wait an hour and try again; a link already sent stays valid.",
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)
