"""The published campaign-document schema: generated from the code, served, and what import checks."""

from __future__ import annotations

import io
import json
from copy import deepcopy
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import Client
from jsonschema import Draft202012Validator

from campaign.backup.document import campaign_export
from campaign.backup.schemas.campaign_document import (
    SCHEMA_FILE,
    campaign_document_schema,
    campaign_document_schema_text,
)
from campaign.models import Campaign, Nation
from fleets.models import ShipClass
from rules.ruleset import SETTINGS


def test_the_file_in_the_repository_is_the_generated_schema() -> None:
    """Enums and bounds come from the models and the ruleset; the file must not drift from them.
    After changing a model:
    ``manage.py export_campaign --schema > campaign/backup/schemas/campaign-document.schema.json``."""
    assert SCHEMA_FILE.read_text(encoding="utf-8") == campaign_document_schema_text()


def test_the_schema_is_valid_draft_2020_12_with_the_codes_enums() -> None:
    schema = campaign_document_schema()
    Draft202012Validator.check_schema(schema)
    ship = schema["properties"]["ships"]["items"]["properties"]
    assert ship["class"]["enum"] == list(ShipClass.values)
    assert set(schema["properties"]["ruleset"]["properties"]) == {s.key for s in SETTINGS}


def test_export_prints_the_schema() -> None:
    out = io.StringIO()
    call_command("export_campaign", "--schema", stdout=out)
    assert out.getvalue() == campaign_document_schema_text()


def test_the_schema_is_served_to_anyone() -> None:
    response = Client().get("/schemas/campaign-document.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/schema+json"
    assert response.json() == campaign_document_schema()


@pytest.fixture(scope="module")
def europe_document(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    """europe-1805 loaded and exported once for the module, in a transaction rolled back at once: the
    tests read (or import) the document alone and need none of the loaded rows."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_scenario", "europe-1805", "--start", "--seed", "1805", stdout=io.StringIO())
        document = json.loads(json.dumps(campaign_export(campaign=Campaign.objects.get(slug="europe-1805"))))
        transaction.set_rollback(True)
    return document


@pytest.fixture
def europe(db: Any, europe_document: dict[str, Any]) -> dict[str, Any]:
    """The document, each test's own copy to spoil."""
    return deepcopy(europe_document)


def test_an_export_is_valid_against_the_published_schema(europe: dict[str, Any]) -> None:
    errors = list(Draft202012Validator(json.loads(SCHEMA_FILE.read_text())).iter_errors(europe))
    assert errors == []


def _import(document: dict[str, Any], tmp_path: Any, *args: str) -> str:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    out = io.StringIO()
    call_command("import_campaign", str(path), "--slug", "copy", *args, stdout=out)
    return out.getvalue().strip()


def test_import_gives_no_role_from_the_usernames_in_the_file(europe: dict[str, Any], tmp_path: Any) -> None:
    users = get_user_model().objects
    users.create_user("mallory"), users.create_user("nelson")
    europe["campaign"]["gm"] = "mallory"
    europe["nations"][0]["player"] = "mallory"
    assert _import(europe, tmp_path) == "copy"
    copy = Campaign.objects.get(slug="copy")
    assert copy.gm is None
    assert not Nation.objects.filter(campaign=copy, player__isnull=False).exists()


def test_import_maps_the_gm_and_players_named_on_the_command_line(europe: dict[str, Any], tmp_path: Any) -> None:
    users = get_user_model().objects
    barham, nelson, villeneuve = users.create_user("barham"), users.create_user("nelson"), users.create_user("pvn")
    _import(europe, tmp_path, "--gm", "barham", "--player", "GB=nelson", "--player", "fr=pvn")
    copy = Campaign.objects.get(slug="copy")
    assert copy.gm == barham
    players = dict(Nation.objects.filter(campaign=copy, player__isnull=False).values_list("code", "player"))
    assert players == {"GB": nelson.pk, "FR": villeneuve.pk}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--gm", "nobody"), "--gm: no user named 'nobody'"),
        (("--player", "GB=nobody"), "no user named 'nobody'"),
        (("--player", "GB"), "write it as NATION=USER"),
        (("--player", "XX=nelson"), "--player: no nation XX in the document"),
        (("--player", "GB=nelson", "--player", "FR=nelson"), "nelson would play more than one nation"),
    ],
)
def test_a_bad_people_mapping_is_refused_with_nothing_written(
    europe: dict[str, Any], tmp_path: Any, args: tuple[str, ...], words: str
) -> None:
    get_user_model().objects.create_user("nelson")
    with pytest.raises(CommandError, match=words) as refused:
        _import(europe, tmp_path, *args)
    assert refused.value.returncode == 2
    assert not Campaign.objects.filter(slug="copy").exists()


def test_the_demo_still_gets_its_gm_and_players(db: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """setup_demo names its GM through scenario_load → campaign_import(gm=...), its players after."""
    from campaign.scenarios import demo

    monkeypatch.setattr(demo, "logins_file", lambda: tmp_path / "demo-logins.txt")
    campaign, logins, created = demo.demo_setup()
    assert created and campaign.gm is not None and campaign.gm.get_username() == "gm"
    assert not Nation.objects.filter(campaign=campaign, player__isnull=True).exists()
    assert len(logins) == 1 + Nation.objects.filter(campaign=campaign).count()
