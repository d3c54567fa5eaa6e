"""The client's address, as the login lockout, the password-reset limits and the throttles count it.

Behind a reverse proxy every request comes from the proxy's address (``REMOTE_ADDR``): counted by it,
one client's failures would lock out every user of the site. ``TRUSTED_PROXY_COUNT`` (default 0: no
proxy, ``REMOTE_ADDR`` is the client) says how many proxies of our own stand in front of the server;
each appends the address it received the request from to ``X-Forwarded-For``, so the client is the
address that many entries from the right. Entries further left were written by the client itself and
are never trusted. A header too short or not an address falls back to ``REMOTE_ADDR``.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address of the client that sent ``request`` (see the module's docstring)."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < proxies:
        return remote
    candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
