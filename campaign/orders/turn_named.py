"""The turn a web write names (issue 26): every form that writes about a turn carries a hidden ``turn``
field with the number of the turn its page showed, and a write for a turn that is no longer open is
refused with the fresh page ("Turn 4 has resolved — here is turn 5"), nothing stored.

A refused htmx request is answered 200 with ``HX-Redirect``: htmx swaps nothing on a 4xx by default,
so a 409 would be dropped silently; with the header htmx loads the fresh page, where the message is
shown (Django's messages ride along, as after any post/redirect/get).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from campaign.orders.errors import TurnClosed

#: The hidden field (and the API's body key) naming the turn a write was made for.
TURN_FIELD = "turn"


def named_turn(request: HttpRequest) -> int | None:
    """The turn the form names, or None when it names none (a form from before issue 26, a script)."""
    raw = request.POST.get(TURN_FIELD, "")
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        return int(raw)
    return None


def turn_moved_check(named: int | None, open_number: int | None) -> None:
    """Refuse before anything is read for the write when the page's turn is not the open one."""
    if named is not None and named != open_number:
        raise TurnClosed(asked=named, open_turn=open_number)


def turn_moved_answer(request: HttpRequest, refused: TurnClosed, url: str) -> HttpResponse:
    """The fresh page at ``url``, saying what happened: a redirect, or for htmx an ``HX-Redirect``."""
    messages.error(request, refused.message)
    if getattr(request, "htmx", False):
        response = HttpResponse(status=200)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)
