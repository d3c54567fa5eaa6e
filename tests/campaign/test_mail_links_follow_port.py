"""Links in mail follow the port the site is served on (issue 24): under ``PORT=8101 make run`` the mailed
invitation and the turn report's links pointed at port 8000. ``SITE_URL`` is taken from the settings as
``PORT=8101`` gives them (tests/test_mail_settings.py reads them the same way), and every link of the
mails a real SMTP server receives must lead there."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from campaign.tasks import mail_deliveries_send
from tests.support.mail import html_links, parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.test_mail_settings import settings_under
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db

PORT = "8101"


@pytest.fixture(scope="module")
def site_url_for_port() -> str:
    """What SITE_URL is when the site is started with PORT=8101 and no SITE_URL."""
    url = settings_under("config.settings.dev", PORT=PORT)[6]
    assert url == f"http://127.0.0.1:{PORT}"
    return str(url)


def _links(message: Any) -> list[str]:
    both = parts(message)
    return [*re.findall(r"https?://[^\s<>\"')]+", both["text/plain"]), *html_links(both["text/html"])]


def test_the_mailed_invitation_link_follows_the_port(smtp_inbox: Any, settings: Any, site_url_for_port: str) -> None:
    settings.SITE_URL = site_url_for_port
    world = two_power_world()
    out = StringIO()
    call_command(
        "invite_player", world.campaign.slug, "--nation", "FR", "--email", "collingwood@example.org", stdout=out
    )
    printed = out.getvalue().rsplit("The link: ", 1)[1].strip()
    assert printed.startswith(f"{site_url_for_port}/")

    mail_deliveries_send()
    [invitation] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == "collingwood@example.org"]
    links = _links(invitation)
    # The link mailed is the invitation's link printed (signed a moment apart: the same up to the stamp).
    invitation_link = printed.rsplit(":", 2)[0] + ":"
    assert any(link.startswith(invitation_link) for link in links), (invitation_link, links)
    assert links and all(link.startswith(f"{site_url_for_port}/") for link in links), links
    assert ":8000" not in parts(invitation)["text/plain"] + parts(invitation)["text/html"]


def test_the_report_mails_links_follow_the_port(smtp_inbox: Any, settings: Any, site_url_for_port: str) -> None:
    settings.SITE_URL = site_url_for_port
    world = two_power_world()
    players_with_mail(world)
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    assert smtp_inbox.messages
    for message in smtp_inbox.messages:
        links = _links(message)
        assert links, message["Subject"]
        assert all(link.startswith(f"{site_url_for_port}/") for link in links), (message["Subject"], links)
        unsubscribe = str(message["List-Unsubscribe"] or "")
        assert ":8000" not in unsubscribe and (not unsubscribe or site_url_for_port in unsubscribe), unsubscribe
