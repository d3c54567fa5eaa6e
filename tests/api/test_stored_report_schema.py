"""The schema's StoredBattleReport lists every key the writers store (issue 12): a fireship attack and a
battle fought on the table, written by the turn and the table's services, each validate against it with
no key the schema does not name; its discriminator maps each stored ``type`` to its component."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

from battles.api.seeds import seeds_as_text
from battles.models import Battle
from campaign.tabletop.services import table_pack_roll, table_result_approve, table_result_enter
from tests.campaign.test_guns import blockade, levant_world
from tests.factories import ShipFactory
from tests.support.tabletop import gibraltar_siege, table_ships
from tests.support.turns import order_store, phase_events

pytestmark = pytest.mark.django_db


def _strict(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema, closed: ``nullable`` as a null alternative, component refs
    under ``$defs``, and no key allowed in an object beyond the properties it lists."""
    if isinstance(node, list):
        return [_strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _strict(v) for k, v in node.items() if k not in ("nullable", "discriminator")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
    if "properties" in node and "additionalProperties" not in node:
        out["additionalProperties"] = False
    return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return dict(schema["components"]["schemas"])


def _problems(report: dict[str, Any], components: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(
        {"$defs": _strict(components), "$ref": "#/$defs/StoredBattleReport"},
    )
    # As the API sends it: its seeds as strings (battles.api.seeds).
    sent = seeds_as_text(report)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(sent)]


def fireship_report() -> dict[str, Any]:
    """Two fireships sent into Alexandria, whose guns fire for Egypt (a fort die at each)."""
    world = levant_world(french_ships=3)
    for k in range(2):
        ShipFactory.create(fleet=world.french, nation=world.fr, name=f"Brulot {k}", ship_class="fireship", crew="D")
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "fireships", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    return dict(Battle.objects.get(turn=world.turn, kind=Battle.Kind.FIRESHIPS).report)


def tabletop_report() -> dict[str, Any]:
    """The besieged-port engagement at Gibraltar fought on the table, the pack's dice rolled by the
    server, one French ship taken by Britain, Britain holding the field; entered by the GM, approved."""
    world, table, _ = gibraltar_siege()
    table_pack_roll(table=table)
    ships = table_ships(table)
    french = next(s for s in ships if s.nation_id == world.fr.pk)
    rows = [{"ship": s.pk, "fate": "intact"} for s in ships if s.pk != french.pk]
    rows.append({"ship": french.pk, "fate": "captured", "captured_by": "GB", "taken_in": "damaged"})
    held = 0 if ships[0].nation_id == world.gb.pk else 1  # the ships come side 0 first
    table_result_enter(table=table, body={"ships": rows, "admirals_lost": [], "held_field": held}, side=None, by="gm")
    battle = table_result_approve(table=table)
    assert battle is not None  # a battle's result makes its Battle row (a storming's makes none)
    return dict(battle.report)


def test_a_fireship_attack_is_a_fireship_report_with_every_key_listed(components: dict[str, Any]) -> None:
    report = fireship_report()
    assert report["type"] == "fireships" and all(a["fort_die"] for a in report["attacks"])
    assert _problems(report, components) == []


def test_a_battle_on_the_table_is_a_tabletop_report_with_every_key_listed(components: dict[str, Any]) -> None:
    report = tabletop_report()
    assert report["type"] == "tabletop" and report["dice"] and report["contact"] is not None
    assert any(s["fate"] == "captured" for s in report["ships"])
    assert _problems(report, components) == []


def test_a_key_the_schema_does_not_list_is_found(components: dict[str, Any]) -> None:
    """The check above can fail: a stored key the schema does not name, or a type it does not know."""
    report = fireship_report()
    assert _problems({**report, "storming": []}, components) != []
    assert _problems({**report, "type": "storming"}, components) != []


def test_the_discriminator_maps_every_stored_type_to_its_component(components: dict[str, Any]) -> None:
    stored = components["StoredBattleReport"]
    mapping = {k: v.rsplit("/", 1)[1] for k, v in stored["discriminator"]["mapping"].items()}
    assert mapping == {
        "fleet_action": "BattleReport",
        "running_the_guns": "BattleReport",
        "garrison_guns": "BattleReport",
        "engagement": "EngagementReport",
        "fireships": "FireshipReport",
        "tabletop": "TabletopReport",
    }
    assert sorted(arm["$ref"].rsplit("/", 1)[1] for arm in stored["oneOf"]) == sorted(set(mapping.values()))
