"""Backup and copy in the admin without a shell (issue 29): the GM downloads a campaign's export and
uploads it as a copy under a new name and address, players mapped; both audited, the copy's log
opening with its "imported" entry. Bad uploads are refused, saying why, and write nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Nation
from campaign.models.audit import AuditEntry
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = Client()
    client.force_login(gm)
    return gm, client


def _export(client: Client, world: World) -> bytes:
    response = client.post(reverse("admin:campaign_campaign_export", args=[world.campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="channel-1805-turn-1.json"'
    return response.content


def test_the_gm_exports_and_imports_a_copy_in_the_admin() -> None:
    world = two_power_world()
    gm, client = _gm(world)
    nelson = User.objects.create_user("nelson", "Nelson@Example.org")
    raw = _export(client, world)
    document = json.loads(raw)
    assert document["campaign"]["slug"] == "channel-1805" and {n["code"] for n in document["nations"]} == {"GB", "FR"}
    exported = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="campaign_exported")
    assert exported.actor_name == "barham" and exported.summary == "Channel 1805 exported (turn 1)."

    form = client.get(reverse("admin:campaign_campaign_import")).content.decode()
    assert 'enctype="multipart/form-data"' in form
    response = client.post(
        reverse("admin:campaign_campaign_import"),
        {
            "document": SimpleUploadedFile("backup.json", raw, content_type="application/json"),
            "name": "Channel 1805 (practice)",
            "slug": "channel-1805-practice",
            "players": "gb = nelson@example.org\n",
        },
    )
    copy = Campaign.objects.get(slug="channel-1805-practice")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:campaign_campaign_desk", args=[copy.pk])
    assert (copy.name, copy.gm, copy.seed) == ("Channel 1805 (practice)", gm, world.campaign.seed)
    assert Nation.objects.get(campaign=copy, code="GB").player == nelson
    assert Nation.objects.get(campaign=copy, code="FR").player is None
    entry = AuditEntry.objects.filter(campaign_id=copy.pk).order_by("-pk").first()
    assert entry is not None and entry.action == "campaign_imported"
    assert entry.summary == (
        "Channel 1805 (practice) imported from an export of Channel 1805 (channel-1805), turn 1, run by barham."
    )
    assert entry.after is not None and entry.after["players"] == {"GB": "nelson"}
    # The original is untouched and the GM runs both.
    assert Campaign.objects.get(pk=world.campaign.pk).name == "Channel 1805"
    assert client.get(reverse("admin:campaign_campaign_desk", args=[copy.pk])).status_code == 200


@pytest.mark.parametrize(
    ("upload", "fields", "error"),
    [
        (b"{not json", {}, "The file is not JSON"),
        (b'{"campaign": {}}', {}, "The export is incomplete or malformed"),
        (None, {"slug": "channel-1805"}, "A campaign with the address &#x27;channel-1805&#x27; exists already"),
        (None, {"players": "GB=nobody"}, "Line 1: no account with the username or email &#x27;nobody&#x27;."),
        (None, {"players": "GB nelson"}, "write it as CODE=username"),
        (None, {"players": "XX=barham"}, "no nation XX in the document"),
    ],
)
def test_a_bad_upload_is_refused_saying_why_and_writes_nothing(
    upload: bytes | None, fields: dict[str, str], error: str
) -> None:
    world = two_power_world()
    _, client = _gm(world)
    raw = upload if upload is not None else _export(client, world)
    before = Campaign.objects.count()
    post = {"name": "Copy", "slug": "the-copy", "players": "", **fields}
    response = client.post(
        reverse("admin:campaign_campaign_import"),
        {"document": SimpleUploadedFile("backup.json", raw, content_type="application/json"), **post},
    )
    assert response.status_code == 400 and error in response.content.decode()
    assert Campaign.objects.count() == before
    assert not AuditEntry.objects.filter(action="campaign_imported").exists()


def test_another_gm_cannot_export_a_campaign_they_do_not_run() -> None:
    world = two_power_world()
    _gm(world)
    rival = User.objects.create_user("rival", "rival@example.org", "pw", is_staff=True)
    client = Client()
    client.force_login(rival)
    assert client.post(reverse("admin:campaign_campaign_export", args=[world.campaign.pk])).status_code == 404
    assert client.get(reverse("admin:campaign_campaign_export", args=[world.campaign.pk])).status_code == 405
    assert not AuditEntry.objects.filter(action="campaign_exported").exists()
