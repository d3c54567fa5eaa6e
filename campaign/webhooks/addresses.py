"""Where a webhook may post: never into the server's own network, unless the site allows it.

Any player may register a hook's URL. Unchecked, ``http://127.0.0.1:6379/`` or a cloud's metadata
address (``169.254.169.254``) would have the server post into its own network for them (server-side
request forgery). With ``WEBHOOK_PRIVATE_ADDRESSES`` off — production's default — a URL whose host is,
or resolves to, a loopback, private, link-local, shared, reserved, multicast or unspecified address
is refused when it is registered; and every post checks the address it actually connected to, since
a name may resolve elsewhere by the time a delivery goes out: nothing is sent there, and the attempt
fails like any unreachable receiver. Development and the tests allow such addresses: a receiver on
one's own machine is how a webhook is tried out.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.request
from typing import Any

from django.conf import settings


class PrivateAddress(OSError):
    """A post was about to go to an address of a private network: the connection was closed unused."""


def address_is_private(address: str) -> bool:
    """True for any address that is not a public unicast one (an IPv4-mapped IPv6 address as its IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope ("fe80::1%eth0") names no other address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def private_allowed() -> bool:
    return bool(settings.WEBHOOK_PRIVATE_ADDRESSES)


def host_refusal(host: str, port: int | None) -> str | None:
    """Why ``host`` may not receive webhooks here, or None: it must resolve, and only to public addresses."""
    if private_allowed():
        return None
    try:
        found = socket.getaddrinfo(host, port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return f"The url's host {host} could not be found: give the address of a server on the internet."
    private = sorted({str(info[4][0]) for info in found if address_is_private(str(info[4][0]))})
    if private:
        return (
            f"The url's host {host} is the address {private[0]}, of a private network: webhooks are posted "
            "only to public internet addresses."
        )
    return None


def _connected_address_checked(connection: http.client.HTTPConnection) -> None:
    """After the connection is made: close it, unused, if its peer is a private address."""
    if private_allowed() or connection.sock is None:
        return
    peer = str(connection.sock.getpeername()[0])
    if address_is_private(peer):
        connection.close()
        raise PrivateAddress(f"{connection.host} is the address {peer}, of a private network: nothing was sent.")


class _CheckedHTTPConnection(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        _connected_address_checked(self)


class _CheckedHTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()  # TCP, then TLS: the request itself is not sent before the check
        _connected_address_checked(self)


class CheckedHTTPHandler(urllib.request.HTTPHandler):
    """``http://`` through a connection that refuses a private peer."""

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_CheckedHTTPConnection, req)


class CheckedHTTPSHandler(urllib.request.HTTPSHandler):
    """``https://`` through a connection that refuses a private peer."""

    def https_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(
            _CheckedHTTPSConnection,
            req,
            context=self._context,  # type: ignore[attr-defined]  # set by HTTPSHandler.__init__
            check_hostname=self._check_hostname,  # type: ignore[attr-defined]
        )
