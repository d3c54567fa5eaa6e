"""Archive an ended campaign (issue 29): after a confirmation page it is hidden from the home page and the
admin's campaign list (its "archive" filter finds it), its page is read-only, and it can be taken out of
the archive again; each step audited. A campaign in play cannot be archived."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.gm.archive import ArchiveError, campaign_archive
from campaign.models import Campaign, Nation
from campaign.models.audit import AuditEntry
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm(world: World, status: str = "ended") -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status=status)
    world.campaign.refresh_from_db()
    client = Client()
    client.force_login(gm)
    return gm, client


def test_the_gm_archives_an_ended_campaign_and_takes_it_out_again() -> None:
    world = two_power_world()
    gm, client = _gm(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org", "pw")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    player = Client()
    player.force_login(nelson)
    assert "Channel 1805" in player.get(reverse("campaign:home")).content.decode()
    url = reverse("admin:campaign_campaign_archive", args=[world.campaign.pk])
    desk = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert url in desk and "Archive this campaign" in desk

    asked = client.get(url).content.decode()  # the confirmation page: nothing changed yet
    assert "Yes, archive it" in asked
    assert Campaign.objects.get(pk=world.campaign.pk).archived_at is None
    client.post(url)
    assert Campaign.objects.get(pk=world.campaign.pk).archived_at is not None
    assert AuditEntry.objects.filter(action="campaign_archived", actor=gm).exists()

    assert "Channel 1805" not in player.get(reverse("campaign:home")).content.decode()
    changelist = reverse("admin:campaign_campaign_changelist")
    row = reverse("admin:campaign_campaign_change", args=[world.campaign.pk])
    assert row not in client.get(changelist).content.decode()
    assert row in client.get(changelist + "?archived=yes").content.decode()
    page = client.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk]))
    assert page.status_code == 200
    assert 'name="name"' not in page.content.decode()  # read-only: no field to type in
    client.post(reverse("admin:campaign_campaign_change", args=[world.campaign.pk]), {"name": "Renamed"})
    assert Campaign.objects.get(pk=world.campaign.pk).name == "Channel 1805"

    assert "Yes, take it out of the archive" in client.get(url).content.decode()
    client.post(url)
    assert Campaign.objects.get(pk=world.campaign.pk).archived_at is None
    assert AuditEntry.objects.filter(action="campaign_unarchived").exists()
    assert "Channel 1805" in player.get(reverse("campaign:home")).content.decode()
    assert (
        'name="name"'
        in client.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk])).content.decode()
    )


def test_a_campaign_in_play_is_not_archived() -> None:
    world = two_power_world()
    gm, client = _gm(world, status="active")
    with pytest.raises(ArchiveError, match="Channel 1805 is active: only an ended campaign can be archived"):
        campaign_archive(campaign=world.campaign, actor=gm)
    response = client.post(reverse("admin:campaign_campaign_archive", args=[world.campaign.pk]), follow=True)
    assert "only an ended campaign can be archived" in response.content.decode()
    assert Campaign.objects.get(pk=world.campaign.pk).archived_at is None
    assert not AuditEntry.objects.filter(action="campaign_archived").exists()
