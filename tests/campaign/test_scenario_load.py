"""load_scenario europe-1805 and the export/import round trip (issue 2, CONTRACT.md)."""

import io
import json
from collections import Counter, deque

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign.backup.document import campaign_export
from campaign.models import Campaign, LedgerEntry, Nation
from rules.ruleset import BIG_CLASSES, DEFAULT_RULESET, SOL_CLASSES
from tests.support.exports import as_restored, strip_ids

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def europe() -> dict:
    assert run("load_scenario", "europe-1805", "--start", "--seed", "1805").strip() == "europe-1805"
    return json.loads(run("export_campaign", "europe-1805"))


def sol_by_navy(doc: dict) -> Counter:
    return Counter(
        s["nation"] for s in doc["ships"] if s["class"] in SOL_CLASSES and s["condition"] not in ("sunk", "expended")
    )


def test_the_1805_scenario_has_the_powers_zones_and_ports(europe: dict) -> None:
    codes = {n["code"] for n in europe["nations"]}
    assert {"GB", "FR", "ES", "RU", "OT", "NL", "DK", "SE", "PT", "NA", "US"} <= codes
    assert 35 <= len(europe["sea_zones"]) <= 45
    assert len(europe["ports"]) >= 35
    ports = {p["key"]: p for p in europe["ports"]}
    gibraltar = next(p for p in europe["ports"] if p["gibraltar"])
    assert gibraltar["fortification"] == 3
    alexandria = next(p for p in ports.values() if p["name"].startswith("Alexandria"))
    assert alexandria["fortification"] == 3


def test_the_sea_zone_graph_is_connected_and_every_port_is_on_a_zone(europe: dict) -> None:
    adjacency = {z["key"]: set(z["adjacent"]) for z in europe["sea_zones"]}
    for key, others in adjacency.items():
        assert all(key in adjacency[o] for o in others), key
    seen, queue = {next(iter(adjacency))}, deque([next(iter(adjacency))])
    while queue:
        for other in adjacency[queue.popleft()] - seen:
            seen.add(other)
            queue.append(other)
    assert seen == set(adjacency)
    assert all(p["sea_zone"] in adjacency for p in europe["ports"])


def test_the_fleets_match_the_historical_totals_within_quota(europe: dict) -> None:
    sol = sol_by_navy(europe)
    for navy, target in {"GB": 136, "FR": 41, "ES": 40, "RU": 47, "NL": 15, "DK": 20}.items():
        assert abs(sol[navy] - target) <= 3, (navy, sol[navy])
    big = Counter(
        s["nation"]
        for s in europe["ships"]
        if s["class"] in BIG_CLASSES and not s["captured"] and s["condition"] not in ("sunk", "expended")
    )
    for nation in europe["nations"]:
        pct = DEFAULT_RULESET.quota_percent(nation["navy"], 1805)
        assert 100 * big[nation["code"]] <= pct * sol[nation["code"]], nation["code"]
    four_deckers = [s for s in europe["ships"] if s["class"] == "four-decker"]
    assert [(s["name"], s["nation"]) for s in four_deckers] == [("Santisima Trinidad", "ES")]
    assert sum(1 for s in europe["ships"] if s["class"] not in SOL_CLASSES) > 100  # frigates and smaller


def test_admirals_are_named_and_graded(europe: dict) -> None:
    grades = {f["admiral"]["name"]: f["admiral"]["grade"] for f in europe["fleets"] if f["admiral"]}
    grades |= {a["name"]: a["grade"] for a in europe["admirals"]}
    assert grades["Horatio Nelson"] == "A"
    assert any(name.endswith("Villeneuve") and grade == "F" for name, grade in grades.items())


def test_treasuries_open_with_one_ledger_line_and_never_below_zero(europe: dict) -> None:
    campaign = Campaign.objects.get(slug="europe-1805")
    for nation in Nation.objects.filter(campaign=campaign):
        lines = list(LedgerEntry.objects.filter(nation=nation))
        assert nation.treasury >= 0
        assert nation.treasury == sum(line.amount for line in lines)
        if nation.treasury:
            assert [line.kind for line in lines] == ["opening"]
        assert nation.base_income >= 0
    relations = {(r["a"], r["b"]): r["state"] for r in europe["relations"]}
    assert relations[("FR", "GB")] == "war" and relations[("ES", "GB")] == "war"
    assert relations[("ES", "FR")] == "alliance" and relations[("FR", "NL")] == "alliance"


def test_loading_the_same_slug_twice_fails_clearly_unless_replace(europe: dict) -> None:
    with pytest.raises(CommandError, match="already exists; use --replace"):
        run("load_scenario", "europe-1805", "--start")
    assert run("load_scenario", "europe-1805", "--start", "--replace", "--seed", "7").strip() == "europe-1805"
    assert Campaign.objects.get(slug="europe-1805").seed == 7


def test_an_unknown_scenario_names_the_ones_available() -> None:
    with pytest.raises(CommandError, match="available: europe-1805"):
        run("load_scenario", "pacific-1942")


def test_an_export_imports_into_a_new_slug_and_exports_identically(europe: dict, tmp_path) -> None:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(europe))
    assert run("import_campaign", str(path), "--slug", "copy").strip() == "copy"
    again = campaign_export(campaign=Campaign.objects.get(slug="copy"))
    assert again["campaign"]["slug"] == "copy"
    assert strip_ids(as_restored(again)) == strip_ids(europe)
    snapshot = json.loads(run("export_campaign", "copy", "--turn", "1"))
    assert snapshot["campaign"]["turn"] == 1


def test_importing_over_an_existing_slug_is_refused_and_changes_nothing(europe: dict, tmp_path) -> None:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(europe))
    with pytest.raises(CommandError, match="already exists"):
        run("import_campaign", str(path))
    assert Campaign.objects.count() == 1


def test_a_malformed_export_is_refused_without_a_half_restored_campaign(europe: dict, tmp_path) -> None:
    broken = json.loads(json.dumps(europe))
    del broken["ships"][0]["class"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(CommandError, match="incomplete or malformed"):
        run("import_campaign", str(path), "--slug", "broken")
    assert not Campaign.objects.filter(slug="broken").exists()


def test_a_campaign_in_play_round_trips_with_its_orders_reports_and_history(tmp_path) -> None:
    """A backup is "a full backup that round-trips exactly": orders (ids inside bodies remapped),
    readiness, phase records, reports, ledger, blockades and repair marks come back."""
    from django.utils import timezone

    from campaign.models import Order, Turn
    from campaign.orders.services import order_add
    from campaign.tasks import turn_resolve
    from campaign.turn.lifecycle import nation_ready_set, turn_claim
    from fleets.models import Blockade, Ship
    from tests.worlds import two_power_world

    world = two_power_world(treasury=60)
    order_add(nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Amazon", "port": "portsmouth"})
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"
    turn2 = Turn.objects.get(campaign=world.campaign, number=2)
    Blockade.objects.create(campaign=world.campaign, turn=2, port=world.brest, fleet=world.channel_fleet)
    ship = Ship.objects.filter(fleet=world.channel_fleet).first()
    assert ship is not None
    Ship.objects.filter(pk=ship.pk).update(repair_port=world.portsmouth, repair_ready_turn=2)
    order_add(nation=world.gb, body={"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "avoid"})
    nation_ready_set(nation=world.gb, ready=True)
    before = campaign_export(campaign=world.campaign)
    assert before["orders"] and before["reports"] and before["phases"] and before["blockades"]

    path = tmp_path / "in-play.json"
    path.write_text(json.dumps(before))
    run("import_campaign", str(path), "--slug", "in-play-copy")
    copy = Campaign.objects.get(slug="in-play-copy")
    after = campaign_export(campaign=copy)
    assert strip_ids(as_restored(after)) == strip_ids(before)
    posture = Order.objects.get(campaign=copy, kind="posture", turn__number=turn2.number)
    assert posture.fleet is not None and posture.body["fleet"] == posture.fleet.pk != world.channel_fleet.pk


def test_an_export_describes_the_database_not_a_stale_campaign_object() -> None:
    """Resolution moves the campaign to the next turn with an UPDATE, so an instance loaded before it
    still says turn 1. The export must give the turn that is open — else a copy restored from it
    posts its next turn's ledger lines and raised units to turn 1 (§2: "turn, amount, reason")."""
    from django.utils import timezone

    from campaign.backup.document import campaign_import
    from campaign.models import Turn
    from campaign.orders.services import order_add
    from campaign.tasks import turn_resolve
    from campaign.turn.lifecycle import turn_claim
    from tests.worlds import two_power_world

    world = two_power_world(treasury=60)
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"
    assert world.campaign.turn_number == 1  # the caller's copy is stale
    document = json.loads(json.dumps(campaign_export(campaign=world.campaign)))
    assert document["campaign"]["turn"] == 2
    assert (document["campaign"]["year"], document["campaign"]["season"]) == (1805, "summer")

    copy = campaign_import(document=document, slug="restored")
    assert copy.turn_number == 2
    gb = Nation.objects.get(campaign=copy, code="GB")
    order_add(nation=gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    turn = Turn.objects.get(campaign=copy, number=2)
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    raised = LedgerEntry.objects.get(nation=gb, kind=LedgerEntry.Kind.RAISE)
    assert raised.turn == 2
