"""Accounts in the GM's admin (issue 29): the pickers (GM, co-GM, "Replace the player", a nation's
player) offer only the campaign's own people, and anyone else is found by exact email; a new staff GM's
admin index leads to "Start a campaign"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Nation
from campaign.players.services import player_invite
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _options(page: str, select: str) -> set[str]:
    found = re.search(rf'<select[^>]*name="{select}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select named {select}"
    return set(re.findall(r"<option[^>]*>([^<]+)</option>", found.group(1))) - {"---------"}


def _people(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    player_invite(nation=world.fr, email="villeneuve@example.org", actor=gm)
    # Accounts of the site that have nothing to do with this campaign.
    User.objects.create_user("stranger", "stranger@example.org", is_staff=True)
    User.objects.create_user("rodney", "rodney@example.org")
    client = Client()
    client.force_login(gm)
    return gm, client


def test_the_campaign_pickers_offer_only_its_own_people() -> None:
    world = two_power_world()
    _, client = _people(world)
    page = client.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk])).content.decode()
    assert _options(page, "gm") == {"barham", "nelson", "villeneuve"}
    assert _options(page, "co_gms") == {"barham", "nelson", "villeneuve"}
    nation_page = client.get(reverse("admin:campaign_nation_change", args=[world.gb.pk])).content.decode()
    assert _options(nation_page, "player") == {"barham", "nelson", "villeneuve"}
    replace = client.get(reverse("admin:campaign_nation_replace", args=[world.gb.pk])).content.decode()
    assert _options(replace, "player") == {"barham", "nelson", "villeneuve"}
    assert "stranger" not in page + nation_page + replace and "rodney" not in page + nation_page + replace


def test_a_co_gm_is_added_by_the_exact_address_of_a_staff_account() -> None:
    world = two_power_world()
    _, client = _people(world)
    url = reverse("admin:campaign_campaign_change", args=[world.campaign.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update({"nations-TOTAL_FORMS": 0, "nations-INITIAL_FORMS": 0, "co_gms": []})
    for refused, why in (
        ("nobody@example.org", "No account has the address nobody@example.org"),
        ("rodney@example.org", "The account of rodney@example.org is not staff"),
    ):
        page = client.post(url, {**data, "co_gm_email": refused}).content.decode()
        assert why in page
        assert not Campaign.objects.get(pk=world.campaign.pk).co_gms.exists()
    response = client.post(url, {**data, "co_gm_email": "Stranger@Example.org"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert [u.username for u in Campaign.objects.get(pk=world.campaign.pk).co_gms.all()] == ["stranger"]


def test_replace_the_player_finds_an_account_outside_the_campaign_by_exact_email() -> None:
    world = two_power_world()
    _, client = _people(world)
    url = reverse("admin:campaign_nation_replace", args=[world.gb.pk])
    missing = client.post(url, {"email": "rodney@example", "reason": "Nelson sailed away"}).content.decode()
    assert "Enter a valid email address." in missing
    unknown = client.post(url, {"email": "hood@example.org", "reason": "Nelson sailed away"}).content.decode()
    assert "No account has the address hood@example.org" in unknown
    assert Nation.objects.get(pk=world.gb.pk).player.get_username() == "nelson"  # type: ignore[union-attr]
    done = client.post(url, {"email": "RODNEY@example.org", "reason": "Nelson sailed away"})
    assert done.status_code == 302
    assert Nation.objects.get(pk=world.gb.pk).player.get_username() == "rodney"  # type: ignore[union-attr]


def test_a_new_staff_gm_is_led_to_start_a_campaign() -> None:
    newcomer = User.objects.create_user("ada", "ada@example.org", "pw", is_staff=True)
    client = Client()
    client.force_login(newcomer)
    page = client.get(reverse("admin:index")).content.decode()
    assert "have permission to view or edit anything" not in page
    assert reverse("admin:campaign_campaign_start") in page and "Start a campaign" in page
