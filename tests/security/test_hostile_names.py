"""Hostile names (issue 27, items 9 and 11): a line break or another control character in a campaign,
nation, fleet or ship name broke every mail of the campaign; an invisible or direction character, or a
full-width look-alike, made a second "Victory" that passed the unique-name checks. One validator
(rules.names) refuses them on every way in — the model (the admin's forms), the database, the orders
(API and web forms), the GM's forms and the import — and names are compared in NFKC.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.gm.admin.forms import LayDownForm, StartCampaignForm
from campaign.models import Campaign, Nation
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.orders.services import order_add
from fleets.models import Fleet, Ship
from rules.names import name_fault, name_normalised
from tests.security.hostile_corpus import HEADER_BREAKING_NAMES, INVISIBLE_NAMES, LOOKALIKE_NAMES
from tests.web.fog_worlds import FogWorld
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

#: Every name of the corpus that must be refused.
HOSTILE = [*HEADER_BREAKING_NAMES, *INVISIBLE_NAMES]
#: Names with no fault at all, accents, apostrophes and all.
FAIR = ["Victory", "Téméraire", "Príncipe de Asturias", "L'Orient", "Ça Ira", "Санкт-Петербург"]


@pytest.fixture
def world() -> World:
    return two_power_world()


@pytest.mark.parametrize("name", HOSTILE)
def test_the_validator_refuses_control_and_invisible_characters_saying_which(name: str) -> None:
    fault = name_fault(name)
    assert fault is not None and "U+" in fault and "letters, digits, spaces and punctuation" in fault


@pytest.mark.parametrize("name", FAIR)
def test_the_validator_accepts_names_in_any_script(name: str) -> None:
    assert name_fault(name) is None and name_normalised(name) == name


@pytest.mark.parametrize(("lookalike", "plain"), LOOKALIKE_NAMES)
def test_a_look_alike_is_stored_as_the_plain_name_and_clashes_with_it(world: World, lookalike: str, plain: str) -> None:
    made = Fleet.objects.create(
        campaign=world.campaign, nation=world.gb, name=lookalike, sea_zone=world.channel_fleet.sea_zone
    )
    made.refresh_from_db()
    assert made.name == plain
    assert Fleet.objects.filter(nation=world.gb, name=lookalike).get() == made  # lookups compare the same form
    with pytest.raises(IntegrityError), transaction.atomic():
        Fleet.objects.create(campaign=world.campaign, nation=world.gb, name=plain, sea_zone=made.sea_zone)


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("model", ["campaign", "nation", "fleet", "ship"])
def test_the_models_refuse_a_hostile_name_as_the_admin_forms_validate(world: World, model: str, name: str) -> None:
    row: Any = {
        "campaign": world.campaign,
        "nation": world.gb,
        "fleet": world.channel_fleet,
        "ship": Ship.objects.filter(fleet=world.channel_fleet).first(),
    }[model]
    row.name = name
    with pytest.raises(ValidationError) as refused:
        row.full_clean()
    assert "name" in refused.value.message_dict
    assert "cannot be used" in " ".join(refused.value.message_dict["name"])


@pytest.mark.parametrize(
    ("table", "name"),
    [("campaign_campaign", "A\r\nBcc: x"), ("campaign_nation", "A\u202eB"), ("fleets_fleet", "A\u200bB"),
     ("fleets_ship", "A\nB")],
)  # fmt: skip
def test_the_database_refuses_what_skips_the_validator(world: World, table: str, name: str) -> None:
    with (
        pytest.raises(IntegrityError, match="has_no_control_characters"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(f"UPDATE {table} SET name = %s", [name])


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("kind", ["lay_down", "form_fleet"])
def test_an_order_naming_a_ship_or_fleet_with_a_hostile_name_is_refused(world: World, kind: str, name: str) -> None:
    ship = Ship.objects.filter(fleet=world.channel_fleet).first()
    assert ship is not None
    body = (
        {"kind": "lay_down", "class": "frigate", "name": name, "port": "portsmouth"}
        if kind == "lay_down"
        else {"kind": "form_fleet", "ships": [ship.pk], "name": name}
    )
    with pytest.raises(OrderRefused) as refused:
        order_add(nation=world.gb, body=body)
    # A NUL is refused by the guard every text of a body passes first (bad_text), the rest as names.
    assert refused.value.code in (RefusalCode.BAD_NAME, RefusalCode.BAD_TEXT) and refused.value.field == "name"
    assert not Ship.objects.filter(name__contains="tory").exclude(pk=ship.pk).exists()


def test_a_full_width_ship_name_clashes_with_the_ship_afloat(world: World) -> None:
    ship = Ship.objects.filter(fleet=world.channel_fleet).first()
    assert ship is not None
    full_width = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in ship.name)
    with pytest.raises(OrderRefused, match="already has a ship named"):
        order_add(
            nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": full_width, "port": "portsmouth"}
        )


def test_the_api_refuses_a_hostile_ship_name_naming_the_field(fw: FogWorld) -> None:
    client = APIClient()
    client.force_authenticate(fw.nelson)
    body = {"kind": "lay_down", "class": "frigate", "name": "Victory\r\nBcc: all@example.org", "port": "portsmouth"}
    response = client.post(f"/api/v1/campaigns/{fw.w.campaign.slug}/orders/", body, format="json")
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    [error] = response.json()["errors"]
    assert error["field"] == "name" and "control character" in error["message"]


@pytest.mark.parametrize("name", HOSTILE)
def test_the_gms_forms_refuse_a_hostile_name(world: World, name: str) -> None:
    lay_down = LayDownForm({"ship_class": "frigate", "name": name, "port": world.portsmouth.pk}, nation=world.gb)
    assert not lay_down.is_valid() and "name" in lay_down.errors
    start = StartCampaignForm({"name": name})
    assert not start.is_valid() and "cannot be used" in str(start.errors["name"])


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("section", ["campaign", "nations", "fleets", "ships"])
def test_the_import_refuses_a_hostile_name_by_its_path(world: World, section: str, name: str) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=world.campaign)))
    hostile = copy.deepcopy(document)
    (hostile["campaign"] if section == "campaign" else hostile[section][0])["name"] = name
    path = "campaign.name" if section == "campaign" else f"{section}[0].name"
    with pytest.raises(BackupError) as refused:
        campaign_import(document=hostile, slug="hostile-copy")
    assert any(p.startswith(path) for p in refused.value.problems), refused.value.problems
    assert not Campaign.objects.filter(slug="hostile-copy").exists()


def test_the_import_refuses_two_fleets_whose_names_look_the_same(world: World) -> None:
    Fleet.objects.create(
        campaign=world.campaign, nation=world.gb, name="Victory", crew="B", sea_zone=world.channel_fleet.sea_zone
    )
    document = json.loads(json.dumps(campaign_export(campaign=world.campaign)))
    [victory] = [f for f in document["fleets"] if f["name"] == "Victory"]
    victory["name"] = "Ｖｉｃｔｏｒｙ"
    other = next(f for f in document["fleets"] if f["nation"] == "GB" and f is not victory)
    other["name"] = "Victory"
    with pytest.raises(BackupError) as refused:
        campaign_import(document=document, slug="lookalike-copy")
    assert any("is already used by" in p for p in refused.value.problems), refused.value.problems
    assert Nation.objects.filter(campaign__slug="lookalike-copy").count() == 0
