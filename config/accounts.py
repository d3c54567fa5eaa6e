"""Password reset that does the same work for every address, limited per address and per client.

Django's own view looks the address up and renders and sends the mail inside the request, so a
known address answered measurably later than an unknown one, and nothing bounded how many mails a
client could have sent. Here the request only counts the attempt and queues one task after commit
(config.tasks.password_reset_send), whatever the address; the task finds the accounts and sends.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse

from campaign.plumbing.queueing import BROKER_ERRORS
from config.client_address import client_address
from config.rate_limits import rate_limit_hit
from config.tasks import password_reset_send

logger = logging.getLogger(__name__)


class QueueDown(Exception):
    """The reset mail could not be queued: the broker is unreachable."""


class QueuedPasswordResetForm(PasswordResetForm):
    """Queues the mail instead of sending it; the same call for known and unknown addresses.

    Nothing is written to the database here, so the task is sent at once rather than after commit; no
    sweep knows of it, so a broker outage is said to the user (:class:`QueueDown`) instead of lost."""

    def save(self, *args: Any, request: HttpRequest | None = None, use_https: bool = False, **kwargs: Any) -> None:
        assert request is not None
        try:
            password_reset_send.apply_async(
                kwargs={"email": self.cleaned_data["email"], "domain": request.get_host(), "use_https": use_https},
                ignore_result=True,  # as campaign.plumbing.queueing sends: no result store to reach
            )
        except BROKER_ERRORS as exc:
            logger.warning("password reset mail not queued (%s: the broker is unreachable)", type(exc).__name__)
            raise QueueDown from exc


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """At most PASSWORD_RESET_PER_ADDRESS requests per address and PASSWORD_RESET_PER_CLIENT per
    client address in an hour; beyond that the form says so (429) and no mail is queued."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"].strip().lower()
        client = client_address(self.request)  # behind the proxy, the client's own (TRUSTED_PROXY_COUNT)
        # Counted where every rate limit is (config.rate_limits): a cache outage lets the request through.
        per_address = f"{settings.PASSWORD_RESET_PER_ADDRESS}/hour"
        per_client = f"{settings.PASSWORD_RESET_PER_CLIENT}/hour"
        over_address = not rate_limit_hit("password-reset:address", email, per_address).allowed
        over_client = not rate_limit_hit("password-reset:client", client, per_client).allowed
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
        try:
            return super().form_valid(form)
        except QueueDown:
            form.add_error(
                None,
                "The reset mail cannot be sent just now: the site's mail queue is down. "
                "Nothing was sent; please try again in a few minutes.",
            )
            response = self.form_invalid(form)
            response.status_code = 503
            response["Retry-After"] = "120"
            return response
