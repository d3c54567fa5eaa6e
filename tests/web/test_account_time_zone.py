"""The time zone lives on the user's account: the Settings page writes it, a new browser falls back
to it, and mail shows times in it."""

import pytest
from django import forms
from django.utils import timezone

from campaign.accounts.preferences import time_zone_of_user
from campaign.models import Delivery, MailEvent
from campaign.pages.views import ManyOptionsSelect, TimeZoneForm
from campaign.tasks import mail_deliveries_send
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.web.fog_worlds import client_for, user
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_the_settings_page_keeps_the_zone_on_the_account_for_any_browser() -> None:
    nelson = user("nelson")
    first = client_for(nelson)
    assert first.post("/settings/", {"time_zone": "Asia/Kolkata"}).status_code == 302
    assert time_zone_of_user(nelson.pk) == "Asia/Kolkata"
    other_browser = client_for(nelson)  # no cookie: the account's zone
    assert "Times are now shown in <strong>Asia/Kolkata</strong>" in other_browser.get("/settings/").content.decode()


def test_an_unknown_zone_is_refused_and_changes_nothing() -> None:
    nelson = user("nelson")
    client = client_for(nelson)
    client.post("/settings/", {"time_zone": "Europe/Paris"})
    response = client.post("/settings/", {"time_zone": "Mars/Olympus_Mons"})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert time_zone_of_user(nelson.pk) == "Europe/Paris"


def test_mail_shows_the_deadline_in_the_players_zone(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    client_for(people["GB"]).post("/settings/", {"time_zone": "Asia/Kolkata"})
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    opened = Delivery.objects.get(event=MailEvent.TURN_OPENED, recipient=people["GB"])
    assert opened.turn is not None and opened.turn.deadline is not None
    local = timezone.localtime(opened.turn.deadline, timezone.get_fixed_timezone(330))
    [mail] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GB"].email and "open" in m["Subject"]]
    assert f"{local:%H:%M} IST" in parts(mail)["text/plain"]
    [french] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["FR"].email and "open" in m["Subject"]]
    assert " UTC" in parts(french)["text/plain"]
    assert inbox_of(smtp_inbox.messages, people["GB"].email)


def test_the_zone_select_is_written_as_djangos_select_templates_write_it() -> None:
    """The Settings page writes its ~600 options without the templates (campaign.pages.views.ManyOptionsSelect):
    byte for byte what Django's own Select renders, for any value chosen or posted and any attributes."""
    zones = list(TimeZoneForm.base_fields["time_zone"].choices)  # type: ignore[attr-defined]
    odd = [("a&b", "x<y>"), (3, "three"), ('q"', "quote ' \"")]
    grouped = [("Group", [("a", "A")]), ("b", "B")]  # left to the templates
    for choices in (zones, zones + odd, [], grouped):
        for value in ("", None, "Europe/London", "Etc/GMT+1", "nowhere\x00", "a&b", 3, ["Europe/London"], "<b>"):
            for attrs in (
                None,
                {"id": "id_time_zone"},
                {"id": "x", "required": True, "disabled": False, "data-x": 'a"<'},
            ):
                expected = forms.Select(choices=choices).render("time_zone", value, attrs)
                assert ManyOptionsSelect(choices=choices).render("time_zone", value, attrs) == expected
