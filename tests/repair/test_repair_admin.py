"""The repair pages of the GM's admin: a form with a required reason, a confirmation page saying what
will be set aside, then the service; scoped to the campaigns the GM runs."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, CampaignRevert, Turn
from campaign.models.audit import AuditEntry
from tests.factories import CampaignFactory
from tests.repair.worlds import Players, sallies_with_snapshot, with_players
from tests.support.played_campaign import kept
from tests.support.turns import turn_resolve_inline
from tests.worlds import World

pytestmark = pytest.mark.django_db


def _resolved() -> tuple[World, Players]:
    world = sallies_with_snapshot()
    players = with_players(world)
    turn_resolve_inline(world.turn)
    return world, players


@pytest.fixture
def resolved_world():
    """The sallies resolved, their rows copied in (resolved once, kept in the played-rows cache): the pages
    read and repair the rows; tests/repair's service tests resolve it for real."""
    world, players = kept(_resolved)
    gm = Client()
    gm.force_login(players.gm)
    return world, players, gm


def test_the_gm_reverts_through_a_confirmation_page(resolved_world) -> None:
    world, players, gm = resolved_world
    url = reverse("admin:campaign_campaign_revert", args=[world.campaign.pk])
    page = gm.get(url)
    assert page.status_code == 200
    assert "Turn 1 (Spring 1805)" in page.content.decode()

    # No reason: the form says so and nothing changes.
    refused = gm.post(url, {"turn": "1", "reason": "  "})
    assert refused.status_code == 200 and "This field is required." in refused.content.decode()
    confirm = gm.post(url, {"turn": "1", "reason": "Orders lost"})
    html = confirm.content.decode()
    assert confirm.status_code == 200 and "Please confirm" in html
    assert "<li>1 later turn</li><li>2 battles</li><li>2 reports</li><li>4 ledger lines</li></ul>" in html
    assert "“Orders lost”" in html
    assert Battle.objects.count() == 2 and not CampaignRevert.objects.exists()  # nothing yet

    done = gm.post(url, {"turn": "1", "reason": "Orders lost", "confirm": "yes"})
    assert done.status_code == 302 and done["Location"] == reverse(
        "admin:campaign_campaign_change", args=[world.campaign.pk]
    )
    assert not Battle.objects.exists()
    assert Turn.objects.get(campaign=world.campaign).status == "open"
    assert AuditEntry.objects.get(action="campaign_reverted").actor_id == players.gm.pk
    # The campaign's page links every repair and the archive.
    change = gm.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk])).content.decode()
    for text in ("Revert to the start of a turn", "Re-run the open turn", "Re-fight a battle", "Archived turns"):
        assert text in change


def test_the_battle_page_leads_to_its_refight_with_the_battle_chosen(resolved_world) -> None:
    world, _, gm = resolved_world
    battle = Battle.objects.get(place="biscay")
    page = gm.get(reverse("admin:battles_battle_change", args=[battle.pk])).content.decode()
    link = reverse("admin:campaign_campaign_refight", args=[world.campaign.pk]) + f"?battle={battle.pk}"
    assert f'href="{link}"' in page
    form = gm.get(link).content.decode()
    assert f'<option value="{battle.pk}" selected>fleet action at Brest (Bay of Biscay), turn 1' in form
    confirm = gm.post(link, {"battle": battle.pk, "seed": "", "reason": "Disputed"})
    assert "Please confirm" in confirm.content.decode() and "Yes, re-fight it" in confirm.content.decode()


def test_a_gm_reaches_only_the_campaigns_they_run(resolved_world) -> None:
    world, _, _ = resolved_world
    stranger = get_user_model().objects.create_user("other-gm", "o@example.org", "pw-123456789", is_staff=True)
    CampaignFactory.create(slug="theirs", name="Theirs", gm=stranger)
    client = Client()
    client.force_login(stranger)
    for name in ("revert", "rerun", "refight"):
        url = reverse(f"admin:campaign_campaign_{name}", args=[world.campaign.pk])
        assert client.get(url).status_code == 404  # another GM's campaign does not exist for them
        assert client.post(url, {"turn": "1", "reason": "mine now", "confirm": "yes"}).status_code == 404
    assert Battle.objects.count() == 2 and Campaign.objects.get(pk=world.campaign.pk).turn_number == 2
    gm = Client()
    gm.force_login(world.campaign.gm)
    gm.post(
        reverse("admin:campaign_campaign_revert", args=[world.campaign.pk]),
        {"turn": "1", "reason": "Orders lost", "confirm": "yes"},
    )
    revert = CampaignRevert.objects.get()
    assert "Channel 1805" not in client.get(reverse("admin:campaign_campaignrevert_changelist")).content.decode()
    assert client.get(reverse("admin:campaign_campaignrevert_change", args=[revert.pk])).status_code == 302
