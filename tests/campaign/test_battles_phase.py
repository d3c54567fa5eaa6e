"""Phase 4: battles fought inline from the engagements phase 3 found, their records and results,
sallies, fights in and at ports, and blockades (rules §4, §5, §0).

Where dice decide, the campaign seed was checked to give the case under test, and the test also
checks the stored battle report (the engine's dice and fates) against what was applied.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from battles.engagements import (
    engagement_zones_pending,
    engagement_zones_to_dispatch,
    engagements_fight_zone,
    fleets_worsted,
)
from battles.models import Battle, Engagement
from campaign.backup.document import campaign_export, campaign_import
from campaign.models import Nation, Relation, Turn
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit
from rules.dice import derive_seed
from rules.turn_events import PortLookedInto, event_from_json
from tests.factories import AdmiralFactory, NationFactory
from tests.support.turns import events_seen, order_store, phases_run, seen, where
from tests.worlds import World, fleet, port, sea_world, two_sallies, zone

pytestmark = pytest.mark.django_db


def meeting(seed: int) -> tuple[World, dict[str, Fleet]]:
    """GB and FR both seeking at sea in the Channel (each with three frigates, so a battle is all
    but certain): GB's "Flag" has the admiral and leads though "Van" has more SOL; FR's line has an
    admiral too, and FR brings two transports with a land unit each."""
    world = sea_world(seed=seed)
    gb_flag = fleet(world, world.gb, "Flag", "channel", [("3rd-74", 2)])
    gb_flag.admiral = AdmiralFactory.create(nation=world.gb, name="Hood", grade="C")
    gb_flag.save()
    gb_van = fleet(world, world.gb, "Van", "channel", [("3rd-74", 4), ("frigate", 3)])
    fr_line = fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 5), ("frigate", 3)])
    fr_line.admiral = AdmiralFactory.create(nation=world.fr, name="Villeneuve", grade="D")
    fr_line.save()
    fr_convoy = fleet(world, world.fr, "Convoi", "channel", [("transport", 2)], posture="avoid")
    for ship in fr_convoy.ships.all():
        ship.cargo = LandUnit.objects.create(campaign=world.campaign, nation=world.fr, state="embarked")
        ship.save()
    return world, {"flag": gb_flag, "van": gb_van, "line": fr_line, "convoy": fr_convoy}


def report_of(battle: Battle) -> dict[str, Any]:
    return battle.report


def fates(battle: Battle) -> dict[int, dict[str, Any]]:
    return {s["ref"]: s for s in battle.report["ships"]}


BATTLE_SEED = 1  # checked: a battle in the Channel
PRIZE_SEED = 1  # checked: GB takes at least one FR ship of the line
ADMIRAL_LOST_SEED = 1  # checked: Villeneuve's flagship is sunk or taken
ROUT_SEED = 1  # checked: FR breaks or is beaten while GB holds: the transports are taken
RETREAT_SEED = 6  # checked: FR retires and withdraws, transports included
CONVOY_SEED = 1  # checked: the transports are sighted and intercepted
SALLY_SEED = 1  # checked: the blockaders are driven off


def test_a_battle_is_recorded_with_its_seed_and_its_results_are_applied_to_every_ship() -> None:
    """§3: battles are phase 4; each is recorded with seed (campaign seed, turn, 4, place, sequence),
    sides (nations and fleets), winner and the engine's report; sunk ships leave their fleets but stay
    in history; §4 line: the lead fleet's line first, then the others by descending SOL."""
    world, f = meeting(BATTLE_SEED)
    gb_line = list(f["flag"].ships.order_by("id").values_list("pk", flat=True)) + list(
        f["van"].ships.filter(ship_class="3rd-74").order_by("id").values_list("pk", flat=True)
    )
    phases_run(world.turn, 3, 4)
    engagement = Engagement.objects.get()
    battle = Battle.objects.get()
    assert engagement.status == "fought" and engagement.battle == battle and engagement.fought_by == "inline"
    assert (battle.kind, battle.place, battle.sequence) == ("fleet_action", "channel", 1)
    assert battle.seed == derive_seed(world.campaign.seed, 1, 4, "channel", 1)
    assert [s["nations"] for s in battle.sides] == [["FR"], ["GB"]]
    assert battle.sides[1]["fleets"] == [f["flag"].pk, f["van"].pk]  # the admiral's fleet leads
    assert battle.sides[0]["fleets"] == [f["line"].pk, f["convoy"].pk]
    assert battle.sides[1]["admiral"] == {"name": "Hood", "grade": "C"}
    spec_lines = [[s["ref"] for s in report_of(battle)["ships"] if s["side"] == k] for k in (0, 1)]
    assert spec_lines[1] == gb_line  # frigates do not form the line when a side has SOL
    assert battle.winner == report_of(battle)["winner"]
    for ref, ship_result in fates(battle).items():
        ship = Ship.objects.get(pk=ref)
        fate = ship_result["fate"]
        if fate == "sunk":
            assert ship.condition == "sunk" and ship.fleet is None and ship.lost_turn == 1
        elif fate == "captured":
            assert ship.nation == (world.gb if ship_result["side"] == 0 else world.fr)
        elif fate in ("damaged", "disabled"):
            assert ship.condition == fate
        else:
            assert ship.condition == "ready"
    assert engagements_fight_zone(turn_id=world.turn.pk, zone_id=zone(world, "channel").pk, fought_by="again") == []
    assert Battle.objects.count() == 1


def test_the_gauge_is_a_strategic_die_of_the_turn_log() -> None:
    """§3: "Every roll outside battles (sighting, intercept, gauge, …) is stored in the turn's dice
    log"; §4: the gauge at the start of each battle day, ties re-rolled."""
    world, _ = meeting(BATTLE_SEED)
    phases_run(world.turn, 3, 4)
    battle = Battle.objects.get()
    gauge = [d for d in Turn.objects.get(pk=world.turn.pk).dice_log if d["purpose"] == "gauge"]
    rolled = [d for day in battle.report["days"] for d in day["gauge"]["dice"]]
    assert [(d["raw"], d["mod"]) for d in gauge] == [(d["raw"], d["mod"]) for d in rolled]
    assert gauge and all(d["place"] == "channel" for d in gauge)


def test_prizes_join_the_captors_lead_fleet_in_the_condition_they_were_taken_in() -> None:
    """§3: "captured ships change owner and are marked captured"; §4: "Prizes join the captor's lead
    fleet in the condition they were taken in"; §0: prizes take their captor's crew grade."""
    world, f = meeting(PRIZE_SEED)
    phases_run(world.turn, 3, 4)
    battle = Battle.objects.get()
    taken = [ref for ref, s in fates(battle).items() if s["fate"] == "captured" and s["side"] == 0]
    assert taken, "the checked seed gives GB a prize"
    for ref in taken:
        prize = Ship.objects.get(pk=ref)
        assert prize.captured and prize.original_nation == world.fr and prize.nation == world.gb
        assert prize.fleet == f["flag"] and prize.crew == world.gb.crew
        assert prize.condition in ("ready", "damaged", "disabled")


def test_an_admiral_is_lost_with_his_flagship() -> None:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost"."""
    world, f = meeting(ADMIRAL_LOST_SEED)
    flagship = f["line"].ships.earliest("id")
    phases_run(world.turn, 3, 4)
    assert fates(Battle.objects.get())[flagship.pk]["fate"] in ("sunk", "captured")
    villeneuve = Admiral.objects.get(name="Villeneuve")
    assert villeneuve.status == "lost"
    assert Fleet.objects.get(pk=f["line"].pk).admiral is None
    assert any("Villeneuve" in t and "lost" in t for t in seen(world.turn, "GB"))


def test_ships_not_in_the_line_share_a_routed_sides_fate_and_their_troops_are_lost() -> None:
    """§4: "if it broke or was beaten and the enemy held, the winner captures them and any land
    units aboard are lost"."""
    world, f = meeting(ROUT_SEED)
    phases_run(world.turn, 3, 4)
    battle = Battle.objects.get()
    fr_side = 0
    assert battle.report["outcome"][fr_side] in ("broke", "beaten") and battle.report["outcome"][1] == "held"
    for transport in Ship.objects.filter(original_nation=world.fr, ship_class="transport"):
        assert transport.nation == world.gb and transport.fleet == f["flag"] and transport.cargo is None
    assert LandUnit.objects.filter(nation=world.fr, state="lost").count() == 2


def test_a_side_that_withdraws_goes_towards_its_nearest_own_port() -> None:
    """§4: "A side that retired, broke or evaded goes with all its surviving ships ... to the adjacent
    zone its order names (default: the first step towards its nearest own port; ties: lower zone
    key)" — Biscay (Brest), not the Approaches though its key is lower; "The winner stays"."""
    world, f = meeting(RETREAT_SEED)
    phases_run(world.turn, 3, 4)
    outcome = Battle.objects.get().report["outcome"]
    assert outcome == ["retired", "held"]
    assert where(f["line"]) == ("biscay", None)
    assert where(f["convoy"]) == ("biscay", None) and f["convoy"].ships.count() == 2  # it leaves with its side
    assert where(f["flag"]) == ("channel", None)
    assert fleets_worsted(turn_id=world.turn.pk) >= {f["line"].pk, f["convoy"].pk}


def test_a_side_with_no_line_is_captured_whole_without_a_battle() -> None:
    """§4: "A side with no ship able to form a line, intercepted by one that has, is captured whole
    without a battle"; §7: "A lost or captured transport loses its unit"."""
    world = sea_world(seed=CONVOY_SEED)
    hunters = fleet(world, world.gb, "Hunters", "channel", [("3rd-74", 1), ("frigate", 3)])
    convoy = fleet(world, world.fr, "Convoi", "channel", [("transport", 2)])  # seek, but transports never seek
    for ship in convoy.ships.all():
        ship.cargo = LandUnit.objects.create(campaign=world.campaign, nation=world.fr, state="embarked")
        ship.save()
    phases_run(world.turn, 3)
    engagement = Engagement.objects.get()
    assert engagement.kind == "capture" and engagement.sides[engagement.interceptor]["nations"] == ["GB"]
    phases_run(world.turn, 4)
    assert not Battle.objects.exists()
    assert set(Ship.objects.filter(ship_class="transport").values_list("nation", "fleet")) == {
        (world.gb.pk, hunters.pk)
    }
    assert LandUnit.objects.filter(state="lost").count() == 2
    assert any("without a battle" in t for t in seen(world.turn, "FR"))


def running_fight(seed: int) -> tuple[World, Fleet, Fleet]:
    """Equal lines in the Channel, one round a day so that both sides hold: GB's standing order is to
    continue, FR's to evade."""
    world = sea_world(seed=seed)
    world.campaign.settings = {**world.campaign.settings, "battle.max_rounds": 1}
    world.campaign.save()
    gb = fleet(world, world.gb, "Squadron", "channel", [("3rd-74", 8), ("frigate", 3)], after_battle="continue")
    fr = fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 8), ("frigate", 3)], after_battle="evade")
    return world, gb, fr


def test_after_a_day_both_held_standing_orders_decide_and_a_pursuer_re_sights() -> None:
    """§5: "after a day in which both held, each side continues or evades by its standing order ...; a
    pursuer re-sights at +1 and intercepts"; §4 gauge: "the side that intercepted (the pursuer, on a
    pursuit day) +1"."""
    world, _, _ = running_fight(1)  # checked: FR evades after day 1, GB catches it, a second day
    phases_run(world.turn, 3, 4)
    report = Battle.objects.get().report
    assert len(report["days"]) == 2
    (pursuit,) = report["pursuits"]
    assert pursuit["decisions"] == ["evade", "continue"] and pursuit["pursuer"] == 1
    assert pursuit["sighted"] is True and pursuit["intercepted"] is True
    log = Turn.objects.get(pk=world.turn.pk).dice_log
    (resighting,) = [d for d in log if d["purpose"] == "sighting" and "pursuit" in d["detail"]]
    assert resighting["subject"] == "GB" and resighting["mod"] == 1 + 1  # light ships, pursuit
    day_two = report["days"][1]["gauge"]["dice"]
    assert [d["mod"] for d in day_two[:2]] == [0, 1 + 1]  # GB: British +1, pursuer +1


def test_a_side_that_evades_unseen_withdraws_and_the_pursuer_stays() -> None:
    """§5 evade; §4: "A side that retired, broke or evaded goes ... (default: the first step towards
    its nearest own port)"; "The winner stays"."""
    world, gb, fr = running_fight(3)  # checked: FR evades after day 1 and is not caught
    phases_run(world.turn, 3, 4)
    assert Battle.objects.get().report["outcome"] == ["evaded", "held"]
    assert where(fr) == ("biscay", None) and where(gb) == ("channel", None)
    assert any("Escadre withdrew to Bay of Biscay" in t for t in seen(world.turn, "FR"))


def blockade_of_brest(seed: int) -> tuple[World, Fleet]:
    """A British squadron (two 74s) blockades Brest from Biscay; the Brest fleet is at home."""
    world = sea_world(seed=seed)
    squadron = fleet(
        world, world.gb, "Inshore", "biscay", [("3rd-74", 2)], posture="blockade", blockade_port=world.brest
    )
    return world, squadron


def test_a_blockade_is_established_with_a_ship_of_the_line_at_sea_in_the_zone() -> None:
    """§4: a fleet with posture "blockade P" blockades P if, at the end of phase 4, it is at sea in
    P's zone and has at least 1 SOL; everyone sees it; the blockader sees the ships in the port."""
    world, squadron = blockade_of_brest(1)
    frigates = fleet(
        world, world.gb, "Frigates", "biscay", [("frigate", 3)], posture="blockade", blockade_port=world.brest
    )
    phases_run(world.turn, 3, 4)
    assert list(Blockade.objects.values_list("turn", "port", "fleet")) == [(1, world.brest.pk, squadron.pk)]
    assert not Blockade.objects.filter(fleet=frigates).exists()
    assert any("blockades Brest" in t for t in seen(world.turn, "FR"))
    (view,) = [e for e in map(event_from_json, events_seen(world.turn, "GB")) if isinstance(e, PortLookedInto)]
    assert len(view.ships) == 10 and not [e for e in events_seen(world.turn, "FR") if "Blockading" in e["text"]]


def test_a_sally_that_drives_the_blockaders_off_lifts_the_blockade() -> None:
    """§4 Sally: "its battle with the blockaders needs no sighting or intercept. If the blockaders
    retire, break, evade or are beaten, they leave the zone and the port is not blockaded this turn;
    the sallying fleet returns to port at the end of phase 4"."""
    world, squadron = blockade_of_brest(SALLY_SEED)
    world.brest_fleet.admiral = AdmiralFactory.create(nation=world.fr, name="Ganteaume", grade="A")
    world.brest_fleet.save()
    sally = order_store(world.turn, world.fr, "sally", fleet=world.brest_fleet.pk)
    phases_run(world.turn, 3)
    sally.refresh_from_db()
    assert sally.outcome == "done"
    engagement = Engagement.objects.get()
    assert engagement.kind == "sally" and engagement.place == "biscay" and engagement.port == world.brest
    phases_run(world.turn, 4)
    battle = Battle.objects.get()
    gb_side = 1
    assert battle.report["outcome"][gb_side] in ("retired", "broke", "evaded", "beaten")
    assert not [d for d in Turn.objects.get(pk=world.turn.pk).dice_log if d["purpose"] in ("sighting", "intercept")]
    assert not Blockade.objects.exists()
    if Ship.objects.filter(fleet=squadron, condition__in=Ship.AFLOAT).exists():
        assert where(squadron) == ("channel", None)  # out of the zone, towards Portsmouth
    assert where(world.brest_fleet) == ("biscay", "brest")
    assert any("blockade of Brest by Great Britain was broken" in t for t in seen(world.turn, "GB"))


def test_hostile_fleets_in_one_port_fight_with_the_gauge_to_the_guns() -> None:
    """§4: "Hostile fleets in one port (after a declaration of war) fight in phase 4 without sighting
    or intercept; neither is at anchor; the side holding the port's guns has the gauge"."""
    world = sea_world()
    guests = fleet(world, world.gb, "Guests", "calais", [("3rd-74", 2)])
    hosts = fleet(world, world.fr, "Hosts", "calais", [("3rd-74", 2)])
    phases_run(world.turn, 3, 4)
    engagement = Engagement.objects.get()
    assert (engagement.kind, engagement.place, engagement.context["guns_side"]) == ("in_port", "calais", 0)
    battle = engagement.battle
    assert battle is not None and battle.port == port(world, "calais")
    (day,) = battle.report["days"]
    assert day["gauge"] == {"winner": 0, "dice": []}
    assert day["report"]["first"] == 0
    assert where(guests)[1] == "calais" and where(hosts)[1] == "calais"
    assert not [d for d in Turn.objects.get(pk=world.turn.pk).dice_log if d["purpose"] == "sighting"]


def test_the_besieged_port_engagement_catches_the_ships_inside_at_anchor() -> None:
    """§4 [S]: "a fleet at sea (seek or blockade) in the zone of a besieged port, at war with the
    besiegers' ships inside, may fight them as a fleet action in phase 4: sighting 3+ at +2, a
    modified 6+ catching them at anchor; intercept +1 unless they sally; weather gauge +2 to the
    fleet at sea. If the side in port retires, breaks or evades, it stays in port"."""
    world = sea_world(seed=1)  # checked: sighted on a 5 (+1 = 6: at anchor), intercepted, GB retires
    Relation.objects.filter(campaign=world.campaign).update(state=Relation.State.WAR)
    LandUnit.objects.create(campaign=world.campaign, nation=world.gb, state="ashore", port=world.brest)
    Fleet.objects.filter(pk=world.brest_fleet.pk).update(port=None, sea_zone=zone(world, "approaches"))
    inside = fleet(world, world.gb, "Treachery", "brest", [("3rd-74", 3)])
    outside = fleet(world, world.fr, "Relief", "biscay", [("3rd-74", 3)])
    phases_run(world.turn, 3)
    engagement = Engagement.objects.get()
    assert engagement.kind == "besieged_port" and engagement.place == "brest"
    assert engagement.context == {"in_port_side": 1} and engagement.sides[1]["nations"] == ["GB"]
    phases_run(world.turn, 4)
    engagement.refresh_from_db()
    log = Turn.objects.get(pk=world.turn.pk).dice_log
    sighting, intercept_fr, intercept_gb, gauge_fr, *_ = log
    assert (sighting["purpose"], sighting["place"], sighting["mod"]) == ("sighting", "brest", -1 + 2)
    assert sighting["result"] >= 6
    assert (intercept_fr["mod"], intercept_gb["mod"]) == (0 + 1, 1)  # FR +1 besieged port; GB nationality +1
    assert intercept_fr["result"] >= intercept_gb["result"]
    assert gauge_fr["purpose"] == "gauge" and gauge_fr["mod"] == 2 + 1  # at sea off a besieged port; intercepted
    battle = engagement.battle
    assert battle is not None and battle.port == world.brest
    assert battle.report["contact"]["at_anchor"] is True and battle.report["contact"]["needed"] == 3
    first_round = battle.report["days"][0]["report"]["round_lines"][0]
    assert first_round["initiative"] == 0  # §5: "a side at anchor loses the initiative without a roll"
    day_one = battle.report["days"][0]["report"]["dice"]
    assert not [d for d in day_one if d["round"] == 1 and d["purpose"] == "initiative"]
    assert battle.report["outcome"] == ["held", "retired"]
    assert where(inside) == ("biscay", "brest") and where(outside) == ("biscay", None)


def test_neutrals_learn_nothing_of_a_battle() -> None:
    """§3 fog of war: a nation "sees nothing of neutral fleets"."""
    world, _ = meeting(BATTLE_SEED)
    NationFactory.create(campaign=world.campaign, code="US", name="United States", crew="C")
    phases_run(world.turn, 3, 4)
    assert any("Battle at" in t for t in seen(world.turn, "GB")) and any(
        "Battle at" in t for t in seen(world.turn, "FR")
    )
    assert not any("Battle at" in t or "Escadre" in t for t in seen(world.turn, "US"))


def test_a_battle_records_who_fought_and_who_was_allied_to_a_side_when_it_was_fought() -> None:
    """Issue 9: a nation sees a battle if it fought in it or was allied to a side at the time; the
    Battle row keeps those nation codes, so an alliance made later opens nothing."""
    world, _ = meeting(BATTLE_SEED)
    us = NationFactory.create(campaign=world.campaign, code="US", name="United States", crew="C")
    NationFactory.create(campaign=world.campaign, code="DK", name="Denmark", crew="C")
    a, b = sorted((us, world.gb), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    phases_run(world.turn, 3, 4)
    assert Battle.objects.get().seen_by == ["FR", "GB", "US"]


def test_who_may_see_a_battle_survives_a_backup_and_an_older_file_opens_it_to_the_sides() -> None:
    """Issue 9: the battle's viewers are part of the campaign document; a file written before they
    were exported restores them from the nations that fought."""
    world, _ = meeting(BATTLE_SEED)
    us = NationFactory.create(campaign=world.campaign, code="US", name="United States", crew="C")
    a, b = sorted((us, world.gb), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    phases_run(world.turn, 3, 4)
    document = campaign_export(campaign=world.campaign)
    assert [battle["seen_by"] for battle in document["battles"]] == [["FR", "GB", "US"]]
    copy = campaign_import(document=document, slug="seen-by-copy")
    assert Battle.objects.get(campaign=copy).seen_by == ["FR", "GB", "US"]
    for battle in document["battles"]:
        del battle["seen_by"]
    older = campaign_import(document=document, slug="seen-by-older")
    assert Battle.objects.get(campaign=older).seen_by == ["FR", "GB"]


def test_nothing_is_fought_twice_when_phase_4_finds_the_zone_already_fought() -> None:
    """Issue 4: "nothing resolved twice" — an engagement is marked fought with its battle."""
    world, _ = meeting(BATTLE_SEED)
    phases_run(world.turn, 3)
    channel = zone(world, "channel")
    first = engagements_fight_zone(turn_id=world.turn.pk, zone_id=channel.pk, fought_by="task 1 on worker")
    assert first
    ships_after = list(Ship.objects.order_by("id").values_list("pk", "condition", "nation", "fleet"))
    phases_run(world.turn, 4)
    assert Battle.objects.count() == 1
    assert list(Ship.objects.order_by("id").values_list("pk", "condition", "nation", "fleet")) == ships_after
    assert Engagement.objects.get().fought_by == "task 1 on worker"
    assert any("Battle at" in t for t in seen(world.turn, "GB"))


def nation(world: World, code: str) -> Nation:
    return Nation.objects.get(campaign=world.campaign, code=code)


def test_zones_are_handed_to_battle_tasks_once_and_only_when_two_or_more_are_contested() -> None:
    """DESIGN.md "A turn": one battle task per contested zone; a zone handed out once is never handed
    out again (phase 4 fights what a lost task left)."""
    world = two_sallies()
    phases_run(world.turn, 3)
    assert engagement_zones_to_dispatch(turn_id=world.turn.pk, now=timezone.now(), minimum=3) == []
    zones = engagement_zones_to_dispatch(turn_id=world.turn.pk, now=timezone.now())
    assert zones == [zone(world, "biscay").pk, zone(world, "channel").pk]
    assert engagement_zones_to_dispatch(turn_id=world.turn.pk, now=timezone.now(), minimum=1) == []
    assert engagement_zones_pending(turn_id=world.turn.pk) == zones


def test_a_turn_resolved_in_process_fights_its_battles_inline() -> None:
    """``turn_resolve`` called directly (not by a worker) runs phase 4 inline: no fan-out."""
    world = two_sallies()
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"
    engagements = Engagement.objects.filter(turn=world.turn)
    assert engagements.count() == 2
    assert {(e.status, e.fought_by, e.dispatched_at) for e in engagements} == {("fought", "inline", None)}
    assert Battle.objects.filter(turn=world.turn).count() == 2
