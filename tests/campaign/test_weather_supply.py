"""Phase 7 through the pipeline: storms, supply and attrition (rules §8, §4 blockade lift, §2).

As in test_sieges, a test that needs given faces gives the campaign the first seed whose dice at
(turn, phase, place) show them — the pipeline's own derivation — and checks the result against
the rules and against the stored dice log.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.utils import timezone

from campaign.models import LedgerEntry, Nation, Turn
from campaign.services import treasury_adjust
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.dice import SeededDice, derive_seed
from tests.factories import FleetFactory, PortFactory, SeaZoneFactory, ShipFactory
from tests.support.turns import open_turn, phases_run, report_texts
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

WEATHER = 7


def ship_of(die: dict) -> int:
    """The ship id in a strategic die's subject ("Victory (GB) [ship:12]")."""
    found = re.search(r"ship:(\d+)", str(die["subject"]))
    assert found is not None, die
    return int(found.group(1))


def resolve(world: World) -> Turn:
    turn = open_turn(world.campaign)
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    turn.refresh_from_db()
    return turn


def dice(turn: Turn, purpose: str, place: str | None = None) -> list[dict[str, object]]:
    turn.refresh_from_db()
    return [d for d in turn.dice_log if d["purpose"] == purpose and (place is None or d["place"] == place)]


def faces(seed: int, turn: int, place: str, sides: list[int]) -> list[int]:
    rolled = SeededDice(derive_seed(seed, turn, WEATHER, place))
    return [rolled.roll(s) for s in sides]


def seed_where(world: World, wanted: Callable[[int], bool]) -> int:
    """Give the campaign the first seed for which ``wanted(seed)`` holds."""
    seed = next(s for s in range(200_000) if wanted(s))
    world.campaign.seed = seed
    world.campaign.save(update_fields=["seed"])
    return seed


def blockade(world: World, fleet: Fleet, port: Port, turn: int) -> Blockade:
    """The record phase 4 leaves for a fleet blockading ``port`` this turn (§4)."""
    return Blockade.objects.create(campaign=world.campaign, turn=turn, port=port, fleet=fleet)


def squadron(world: World, nation: Nation, zone: SeaZone, name: str, **fleet: object) -> Fleet:
    return FleetFactory.create(nation=nation, name=name, sea_zone=zone, port=None, **fleet)


# --- storms -------------------------------------------------------------------------------------


def test_a_storm_sinks_a_damaged_ship_at_sea_and_lifts_the_blockade_it_hit() -> None:
    """§8: a storm on 6 (spring); "1 = damaged, or lost if already damaged or disabled". §4: "A storm
    in phase 7 that damages or sinks at least half the blockading fleet's ships lifts it for
    supply, repairs and income" — so France gets Brest's income this turn (§2)."""
    w = two_power_world()
    inshore = squadron(w, w.gb, w.biscay, "Inshore Squadron", posture="blockade", blockade_port=w.brest)
    battered = ShipFactory.create(fleet=inshore, name="HMS Battered", condition="damaged", line_position=1)
    sound = ShipFactory.create(fleet=inshore, name="HMS Sound", line_position=2)
    record = blockade(w, inshore, w.brest, 1)
    seed_where(w, lambda s: faces(s, 1, "biscay", [6, 10])[:2] == [6, 1])
    phases_run(w.turn, 6, WEATHER)

    [storm] = dice(w.turn, "storm", "biscay")
    assert storm["raw"] == 6
    hits = dice(w.turn, "storm_damage", "biscay")
    assert [ship_of(d) for d in hits] == [battered.pk, sound.pk]
    assert hits[0]["subject"] == f"{battered.name} (Great Britain) [ship:{battered.pk}]"  # named in the dice log
    battered.refresh_from_db()
    assert (battered.condition, battered.fleet_id, battered.lost_turn) == ("sunk", None, 1)
    record.refresh_from_db()
    assert record.lifted
    phases_run(w.turn, 9, 10)
    assert any("lifted the blockade of Brest" in t for t in report_texts(w.turn, w.fr))
    assert any("lost HMS Battered" in t for t in report_texts(w.turn, w.gb))
    # Base 2 + Brest 2: the lifted blockade no longer keeps Brest's income from France.
    assert LedgerEntry.objects.get(nation=w.fr, turn=1, kind=LedgerEntry.Kind.INCOME).amount == 4


def test_a_transport_lost_in_a_storm_takes_its_land_unit_down_with_it() -> None:
    """§8: "A lost transport loses its land unit"."""
    w = two_power_world()
    convoy = squadron(w, w.fr, w.biscay, "Convoy", posture="avoid")
    unit = LandUnit.objects.create(campaign=w.campaign, nation=w.fr, state=LandUnit.State.EMBARKED)
    transport = ShipFactory.create(
        fleet=convoy, name="Transport", ship_class="transport", condition="damaged", cargo=unit
    )
    seed_where(w, lambda s: faces(s, 1, "biscay", [6, 10]) == [6, 1])
    phases_run(w.turn, 6, WEATHER)
    transport.refresh_from_db()
    unit.refresh_from_db()
    assert transport.condition == "sunk" and transport.cargo is None
    assert unit.state == LandUnit.State.LOST
    assert not dice(w.turn, "attrition_unit")  # it drowned; it does not also roll for supply


def test_ships_in_port_never_roll_for_storms() -> None:
    """§8: "ships in port or building never roll"; a zone with no ship at sea rolls nothing."""
    w = two_power_world()
    phases_run(w.turn, 6, WEATHER)
    assert dice(w.turn, "storm") == []


# --- supply and attrition ------------------------------------------------------------------------


def _expected_after(condition: str, result: int, hit_on: int) -> str:
    """§8 attrition: a hit damages, or sinks a ship already damaged or disabled."""
    if result > hit_on:
        return condition
    return "sunk" if condition in ("damaged", "disabled") else "damaged"


def test_a_blockade_starves_a_besieged_port_turn_after_turn() -> None:
    """§8: fleets in port are out of supply if "that port is both besieged and blockaded against
    it"; land units there too ("starvation"); besiegers "are in supply unless the port is blockaded
    against them". Out-of-supply ships and units roll d10: 1, "or 1–2 from its fleet's third
    consecutive turn out of supply"."""
    w = two_power_world()
    garrison = [
        LandUnit.objects.create(campaign=w.campaign, nation=w.fr, port=w.brest, state=LandUnit.State.GARRISON)
        for _ in range(6)
    ]
    besieger = LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.brest, state=LandUnit.State.ASHORE)
    inshore = squadron(w, w.gb, w.biscay, "Inshore Squadron", posture="blockade", blockade_port=w.brest)
    for i in range(3):
        ShipFactory.create(fleet=inshore, name=f"HMS Inshore {i}", line_position=i)
    # No storm in Biscay in turns 1–3, so nothing lifts the blockade.
    seed_where(w, lambda s: all(faces(s, t, "biscay", [6])[0] < 6 for t in (1, 2, 3)))

    conditions = {s.pk: s.condition for s in w.brest_fleet.ships.all()}
    for number in (1, 2, 3):
        turn = open_turn(w.campaign)
        blockade(w, inshore, w.brest, number)
        phases_run(turn, 6, WEATHER)
        w.brest.refresh_from_db()
        assert w.brest.siege_turns == number and w.brest.owner_id == w.fr.pk

        w.brest_fleet.refresh_from_db()
        inshore.refresh_from_db()
        assert not w.brest_fleet.in_supply and w.brest_fleet.out_of_supply_turns == number
        assert inshore.in_supply  # Portsmouth is one step away (§8 b)
        besieger.refresh_from_db()
        assert besieger.out_of_supply_turns == 0 and besieger.state == LandUnit.State.ASHORE
        hit_on = 2 if number >= 3 else 1

        ship_dice = dice(turn, "attrition", "brest")
        afloat = [pk for pk, c in conditions.items() if c != "sunk"]
        assert sorted(ship_of(d) for d in ship_dice) == sorted(afloat)
        for d in ship_dice:
            assert f"hit on 1–{hit_on}" in str(d["detail"])
            pk = ship_of(d)
            conditions[pk] = _expected_after(conditions[pk], int(str(d["result"])), hit_on)
        assert conditions == {s.pk: s.condition for s in Ship.objects.filter(pk__in=conditions)}

        unit_dice = dice(turn, "attrition_unit", "brest")
        for d in unit_dice:
            unit = LandUnit.objects.get(pk=int(str(d["subject"]).split(":")[1]))
            assert unit.nation_id == w.fr.pk  # the besieger is fed
            assert (unit.state == LandUnit.State.LOST) == (int(str(d["result"])) <= hit_on)
        phases_run(turn, 9, 10)
        assert any("Brest Fleet is out of supply (starved)" in t for t in report_texts(turn, w.fr))
    assert any(u.out_of_supply_turns == 3 for u in LandUnit.objects.filter(pk__in=[g.pk for g in garrison]))


def test_a_garrison_starved_to_the_last_man_loses_the_port_to_its_besiegers() -> None:
    """§8: "A garrison wiped out this way loses the port to its besiegers at the end of the turn"
    — one GB unit in its third turn out of supply (lost on 1–2) at a Gibraltar too strong to storm
    (G = 5 against B = 1) but besieged and blockaded against its owner."""
    w = two_power_world()
    strait = SeaZoneFactory.create(campaign=w.campaign, key="strait", name="The Strait", type="narrows")
    strait.adjacent.add(w.biscay)
    rock = PortFactory.create(owner=w.gb, sea_zone=strait, key="gibraltar", name="Gibraltar", gibraltar=True)
    last = LandUnit.objects.create(
        campaign=w.campaign, nation=w.gb, port=rock, state=LandUnit.State.GARRISON, out_of_supply_turns=2
    )
    besieger = LandUnit.objects.create(campaign=w.campaign, nation=w.fr, port=rock, state=LandUnit.State.ASHORE)
    Port.objects.filter(pk=rock.pk).update(siege_turns=2)
    cordon = squadron(w, w.fr, strait, "Cordon", posture="blockade", blockade_port=rock)
    ShipFactory.create(fleet=cordon, name="Cordon 74")
    blockade(w, cordon, rock, 1)
    seed_where(w, lambda s: faces(s, 1, "strait", [6])[0] < 6 and faces(s, 1, "attrition:gibraltar", [10])[0] <= 2)
    phases_run(w.turn, 6, WEATHER)
    [die] = dice(w.turn, "attrition_unit", "gibraltar")
    assert die["subject"] == f"unit:{last.pk}" and int(str(die["result"])) <= 2
    last.refresh_from_db()
    rock.refresh_from_db()
    assert last.state == LandUnit.State.LOST
    assert (rock.owner_id, rock.captor_id, rock.taken_turn) == (w.gb.pk, w.fr.pk, 1)
    phases_run(w.turn, 9, 10)
    rock.refresh_from_db()
    besieger.refresh_from_db()
    assert rock.owner_id == w.fr.pk and rock.captor is None
    assert besieger.state == LandUnit.State.GARRISON
    assert any("starved to the last man" in t for t in report_texts(w.turn, w.gb))


def test_a_fleet_beyond_two_steps_of_a_supply_point_starves_with_the_troops_aboard() -> None:
    """§8: in supply if "(b) its zone is at most 2 adjacency steps from the zone of an own or
    allied port [...]; or (c) it left an own or allied port this turn or in one of the two previous
    turns"; "embarked units share their fleet's supply"."""
    w = two_power_world()
    strait = SeaZoneFactory.create(campaign=w.campaign, key="strait", name="The Strait", type="narrows")
    med = SeaZoneFactory.create(campaign=w.campaign, key="med", name="Western Med", type="open")
    strait.adjacent.add(w.biscay)
    med.adjacent.add(strait)
    Turn.objects.filter(pk=w.turn.pk).update(number=5)
    w.turn.refresh_from_db()
    adrift = squadron(w, w.gb, med, "Adrift", left_port_turn=2)
    ShipFactory.create(fleet=adrift, name="HMS Adrift", line_position=1)
    unit = LandUnit.objects.create(campaign=w.campaign, nation=w.gb, state=LandUnit.State.EMBARKED)
    ShipFactory.create(fleet=adrift, name="HMS Trooper", ship_class="transport", line_position=2, cargo=unit)
    fresh = squadron(w, w.gb, med, "Fresh", left_port_turn=3)
    ShipFactory.create(fleet=fresh, name="HMS Fresh")
    seed_where(w, lambda s: faces(s, 5, "med", [6])[0] < 6)
    phases_run(w.turn, 6, WEATHER)
    adrift.refresh_from_db()
    fresh.refresh_from_db()
    unit.refresh_from_db()
    assert not adrift.in_supply and adrift.out_of_supply_turns == 1
    assert fresh.in_supply and fresh.out_of_supply_turns == 0  # left port two turns ago (§8 c)
    assert unit.out_of_supply_turns == 1
    ship_dice = dice(w.turn, "attrition", "med")
    assert [ship_of(d) for d in ship_dice] == [s.pk for s in adrift.ships.order_by("line_position")]
    # The transport was ready, so attrition could only damage it: its unit rolls for itself.
    [unit_die] = dice(w.turn, "attrition_unit", "med")
    assert unit_die["subject"] == f"unit:{unit.pk}"
    assert (unit.state == LandUnit.State.LOST) == (int(str(unit_die["result"])) <= 1)


def test_unpaid_upkeep_puts_every_fleet_of_the_nation_out_of_supply_in_the_next_turn() -> None:
    """§2: "If upkeep exceeds the treasury [...] all that nation's ships count as out of supply
    until the end of the next turn" — even in their own port; paid again, they are back in supply."""
    w = two_power_world(treasury=1)
    for i in range(2):  # upkeep ceil(12 × 10 / 20) = 6 against 1 + income 4
        ShipFactory.create(fleet=w.brest_fleet, nation=w.fr, name=f"Vaisseau extra {i}", crew="D")
    turn1 = resolve(w)
    w.fr.refresh_from_db()
    w.brest_fleet.refresh_from_db()
    assert w.fr.unpaid_upkeep_turn == 1
    assert w.brest_fleet.in_supply  # phase 7 of turn 1 came before the unpaid upkeep of phase 9
    assert dice(turn1, "attrition") == []

    treasury_adjust(nation=w.fr, amount=40, reason="subsidy")
    turn2 = resolve(w)
    w.brest_fleet.refresh_from_db()
    w.channel_fleet.refresh_from_db()
    assert not w.brest_fleet.in_supply and w.brest_fleet.out_of_supply_turns == 1
    assert w.channel_fleet.in_supply
    attrition = dice(turn2, "attrition")
    assert len(attrition) == 12 and {d["place"] for d in attrition} == {"brest"}
    assert any("Brest Fleet is out of supply (unpaid upkeep)" in t for t in report_texts(turn2, w.fr))

    # The GM's grant let France pay in turn 2's phase 9: turn 3 finds it back in supply.
    turn3 = resolve(w)
    w.fr.refresh_from_db()
    w.brest_fleet.refresh_from_db()
    assert w.fr.unpaid_upkeep_turn == 1
    assert w.brest_fleet.in_supply and w.brest_fleet.out_of_supply_turns == 0
    assert dice(turn3, "attrition") == []
