"""Players for the mail tests and readers of the messages a test SMTP server received."""

from __future__ import annotations

import re
from email.message import Message
from typing import Any

from django.contrib.auth import get_user_model

from tests.worlds import World


def players_with_mail(world: World) -> dict[str, Any]:
    """Give the world's nations players with addresses, and the campaign a GM; returns them by role."""
    users = get_user_model()
    nelson = users.objects.create_user("nelson", "nelson@example.org", "pw-0123456789")
    villeneuve = users.objects.create_user("villeneuve", "villeneuve@example.org", "pw-0123456789")
    barham = users.objects.create_user("barham", "barham@example.org", "pw-0123456789")
    world.gb.player, world.fr.player, world.campaign.gm = nelson, villeneuve, barham
    world.gb.save()
    world.fr.save()
    world.campaign.save()
    return {"GB": nelson, "FR": villeneuve, "GM": barham}


def parts(message: Message) -> dict[str, str]:
    """A multipart message's text and HTML bodies by content type."""
    found: dict[str, str] = {}
    for part in message.walk():
        if part.get_content_type() in ("text/plain", "text/html") and not part.get_filename():
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            found[part.get_content_type()] = payload.decode()
    return found


def inbox_of(messages: list[Any], address: str) -> list[str]:
    """The subjects the address received, in order."""
    return [str(m["Subject"]) for m in messages if m["X-Envelope-To"] == address]


def html_links(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)
