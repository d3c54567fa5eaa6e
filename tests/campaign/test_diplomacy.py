"""Phase 1: diplomacy (RULES.md §10), through orders, one phase or whole turns resolved inline."""

from __future__ import annotations

import pytest

from campaign.models import DiplomaticOffer, Nation, Order, Relation, Turn, TurnPhase, TurnReport
from fleets.models import Fleet
from ports.models import LandUnit
from rules.turn_events import RelationChanged, event_from_json
from tests.factories import FleetFactory, NationFactory, ShipFactory
from tests.support.turns import order_store, phases_run, turn_resolve_inline
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db


def state(a: Nation, b: Nation) -> str:
    low, high = sorted((a.pk, b.pk))
    row = Relation.objects.filter(a_id=low, b_id=high).first()
    return row.state if row is not None else "peace"


def relation(world: World, a: Nation, b: Nation, value: str) -> None:
    low, high = sorted((a.pk, b.pk))
    Relation.objects.update_or_create(campaign=world.campaign, a_id=low, b_id=high, defaults={"state": value})


def events(turn: Turn) -> list[dict]:
    summary = TurnPhase.objects.get(turn=turn, phase=1).summary
    return summary["events"]


def ashore(world: World, nation: Nation) -> LandUnit:
    return LandUnit.objects.create(
        campaign=world.campaign, nation=nation, state=LandUnit.State.ASHORE, port=world.portsmouth
    )


def spain(world: World) -> Nation:
    return NationFactory.create(campaign=world.campaign, code="ES", name="Spain", navy="ES", crew="E")


def test_declaring_war_beats_a_simultaneous_alliance_proposal() -> None:
    """§10: "Declare war on X" is unilateral, from peace or alliance, and beats any other order between
    the pair that turn."""
    world = two_power_world()
    relation(world, world.gb, world.fr, "peace")
    proposal = order_store(world.turn, world.fr, "propose_alliance", nation="GB")
    declaration = order_store(world.turn, world.gb, "declare_war", nation="FR")
    phases_run(world.turn, 1)
    assert state(world.gb, world.fr) == "war"
    declaration.refresh_from_db()
    proposal.refresh_from_db()
    assert declaration.outcome == "done"
    assert proposal.outcome == "skipped" and "war declared by GB beats" in proposal.outcome_note
    assert not DiplomaticOffer.objects.exists()


def test_declaring_war_beats_a_simultaneous_peace_offer() -> None:
    """§10: a declaration of war beats any other order between the pair: a peace offer made the same
    turn (it needs a war to be given at all) changes nothing and stores no offer."""
    world = two_power_world()
    relation(world, world.gb, world.fr, "peace")
    offer = order_store(world.turn, world.fr, "offer_peace", nation="GB")
    order_store(world.turn, world.gb, "declare_war", nation="FR")
    phases_run(world.turn, 1)
    assert state(world.gb, world.fr) == "war"
    offer.refresh_from_db()
    assert offer.outcome == "skipped"
    assert not DiplomaticOffer.objects.exists()


def test_both_declaring_war_on_each_other_are_both_carried_out() -> None:
    """§10: a declaration is unilateral; two of them between one pair simply both happen."""
    world = two_power_world()
    relation(world, world.gb, world.fr, "alliance")
    first = order_store(world.turn, world.gb, "declare_war", nation="FR")
    second = order_store(world.turn, world.fr, "declare_war", nation="GB")
    phases_run(world.turn, 1)
    assert state(world.gb, world.fr) == "war"
    assert {o.outcome for o in Order.objects.filter(pk__in=[first.pk, second.pk])} == {"done"}


def test_mutual_alliance_proposals_in_the_same_turn_make_an_alliance() -> None:
    """§10: "propose alliance" (from peace) takes effect "when X gives the same order towards you in
    the same turn"."""
    world = two_power_world()
    es = spain(world)
    order_store(world.turn, es, "propose_alliance", nation="FR")
    order_store(world.turn, world.fr, "propose_alliance", nation="ES")
    phases_run(world.turn, 1)
    assert state(es, world.fr) == "alliance"
    assert set(Order.objects.filter(turn=world.turn).values_list("outcome", flat=True)) == {"done"}
    assert not DiplomaticOffer.objects.exists()


def test_a_relation_row_is_created_once_per_pair_with_the_lower_id_first() -> None:
    """§10: each pair is at peace by default; a change is stored once per pair (lower nation id as a)."""
    world = two_power_world()
    es = spain(world)
    assert not Relation.objects.filter(a__in=[es, world.fr], b__in=[es, world.fr]).exists()
    order_store(world.turn, es, "propose_alliance", nation="FR")
    order_store(world.turn, world.fr, "propose_alliance", nation="ES")
    phases_run(world.turn, 1)
    row = Relation.objects.get(a__in=[es, world.fr], b__in=[es, world.fr])
    assert row.a_id < row.b_id and row.state == "alliance"


def test_an_offer_is_stored_and_accepted_the_next_turn() -> None:
    """§10: "Offer peace" takes effect when X gives the same order "in the next turn after reading the
    offer"."""
    world = two_power_world()
    order_store(world.turn, world.gb, "offer_peace", nation="FR")
    turn_2 = turn_resolve_inline(world.turn)
    assert state(world.gb, world.fr) == "war"
    offer = DiplomaticOffer.objects.get()
    assert (offer.from_nation, offer.to_nation, offer.kind, offer.turn) == (world.gb, world.fr, "peace", 1)
    # France read the offer in its report, and answers it in turn 2.
    report = TurnReport.objects.get(turn=world.turn, nation=world.fr).body
    assert any("offers peace to France" in e["text"] for e in report["events"])
    acceptance = order_store(turn_2, world.fr, "offer_peace", nation="GB")
    phases_run(turn_2, 1)
    assert state(world.gb, world.fr) == "peace"
    acceptance.refresh_from_db()
    assert acceptance.outcome == "done" and "accepted Great Britain's offer" in acceptance.outcome_note
    assert not DiplomaticOffer.objects.exists()


def test_an_offer_not_taken_up_the_next_turn_expires() -> None:
    """§10: the offer can be taken up "in the next turn after reading the offer" — not later."""
    world = two_power_world()
    order_store(world.turn, world.gb, "offer_peace", nation="FR")
    turn_2 = turn_resolve_inline(world.turn)
    turn_3 = turn_resolve_inline(turn_2)
    assert not DiplomaticOffer.objects.exists()
    late = order_store(turn_3, world.fr, "offer_peace", nation="GB")
    phases_run(turn_3, 1)
    assert state(world.gb, world.fr) == "war"
    late.refresh_from_db()
    assert late.outcome == "done" and "can be accepted next turn" in late.outcome_note
    assert DiplomaticOffer.objects.get().from_nation == world.fr


def test_an_order_that_does_not_fit_the_relation_is_skipped_and_reported() -> None:
    """§10: peace is offered from war and an alliance proposed from peace; §3: an order that became
    impossible is skipped and reported to its nation."""
    world = two_power_world()
    proposal = order_store(world.turn, world.gb, "propose_alliance", nation="FR")
    leave = order_store(world.turn, world.gb, "leave_alliance", nation="FR")
    unknown = order_store(world.turn, world.gb, "declare_war", nation="XX")
    phases_run(world.turn, 1)
    assert state(world.gb, world.fr) == "war"
    for o in (proposal, leave, unknown):
        o.refresh_from_db()
        assert o.outcome == "skipped"
    assert "are at war" in proposal.outcome_note and "given from peace" in proposal.outcome_note
    assert "no nation 'XX'" in unknown.outcome_note
    skipped = [e for e in events(world.turn) if "skipped" in e["text"]]
    assert len(skipped) == 3 and all(e["nations"] == ["GB"] for e in skipped)


def test_every_nation_is_told_of_every_change() -> None:
    """§3 "Fog of war": a nation sees "all relations"; §10 changes are reported to everyone."""
    world = two_power_world()
    es = spain(world)
    order_store(world.turn, world.gb, "offer_peace", nation="FR")
    order_store(world.turn, world.fr, "offer_peace", nation="GB")
    turn_resolve_inline(world.turn)
    assert state(world.gb, world.fr) == "peace"
    for nation in (world.gb, world.fr, es):
        report = TurnReport.objects.get(turn=world.turn, nation=nation).body
        assert any(e["text"] == "France and Great Britain made peace." for e in report["events"])
        changed = RelationChanged(text="France and Great Britain made peace.", phase=1, a="FR", b="GB", state="peace")
        assert changed in map(event_from_json, report["events"])


def test_an_alliance_ending_in_peace_puts_the_guests_fleets_to_sea_and_leaves_its_units_as_guests() -> None:
    """§10: "An alliance ending in peace: each nation's fleets in the other's ports are put in the port's
    zone at the start of phase 3, its land units there stay as guests until they re-embark." (Done in
    phase 1: nothing before phase 3 looks at fleets in port.)"""
    world = two_power_world()
    es = spain(world)
    relation(world, world.gb, es, "alliance")
    squadron = FleetFactory.create(nation=es, name="Escuadra", sea_zone=world.channel, port=world.portsmouth)
    ShipFactory.create(fleet=squadron, nation=es, name="Santa Ana", crew="E")
    guests = ashore(world, es)
    own = Fleet.objects.get(pk=world.channel_fleet.pk)
    leave = order_store(world.turn, es, "leave_alliance", nation="GB")
    phases_run(world.turn, 1)
    assert state(world.gb, es) == "peace"
    leave.refresh_from_db()
    assert leave.outcome == "done"
    squadron.refresh_from_db()
    assert squadron.port is None and squadron.sea_zone == world.channel and squadron.left_port_turn == 1
    guests.refresh_from_db()
    assert guests.state == "ashore" and guests.port == world.portsmouth
    own.refresh_from_db()
    assert own.port == world.portsmouth  # Britain's own fleet stays home
    texts = [e["text"] for e in events(world.turn)]
    assert any("Escuadra left Great Britain's Portsmouth for The Channel" in t for t in texts)


def test_an_alliance_ending_in_war_leaves_everything_where_it_is() -> None:
    """§10: "An alliance ending in war: everything stays where it is (Treachery in Port), units ashore
    become besiegers"."""
    world = two_power_world()
    ru = NationFactory.create(campaign=world.campaign, code="RU", name="Russia", navy="RU", crew="D")
    relation(world, world.gb, ru, "alliance")
    squadron = FleetFactory.create(
        nation=ru, name="Mediterranean Squadron", sea_zone=world.channel, port=world.portsmouth
    )
    ShipFactory.create(fleet=squadron, nation=ru, name="Uriil", crew="D")
    army = LandUnit.objects.create(
        campaign=world.campaign, nation=ru, state=LandUnit.State.ASHORE, port=world.portsmouth
    )
    order_store(world.turn, ru, "declare_war", nation="GB")
    phases_run(world.turn, 1)
    assert state(world.gb, ru) == "war"
    squadron.refresh_from_db()
    army.refresh_from_db()
    assert squadron.port == world.portsmouth
    assert army.state == "ashore" and army.port == world.portsmouth
    texts = [e["text"] for e in events(world.turn)]
    assert "Russia declared war on Great Britain. The alliance between them is broken." in texts
    assert any(
        t.startswith("Treachery in port: Russia's Mediterranean Squadron is inside Great Britain's Portsmouth")
        for t in texts
    )
    assert any("now besiege them" in t for t in texts)


def test_a_war_ending_in_peace_ends_the_sieges_between_the_two() -> None:
    """§10: "A war ending in peace: sieges between the two end; besiegers stay ashore as guests until they
    re-embark."""
    world = two_power_world()
    world.portsmouth.siege_turns = 2
    world.portsmouth.save()
    besiegers = [
        LandUnit.objects.create(
            campaign=world.campaign, nation=world.fr, state=LandUnit.State.ASHORE, port=world.portsmouth
        )
        for _ in range(2)
    ]
    order_store(world.turn, world.gb, "offer_peace", nation="FR")
    order_store(world.turn, world.fr, "offer_peace", nation="GB")
    phases_run(world.turn, 1)
    assert state(world.gb, world.fr) == "peace"
    world.portsmouth.refresh_from_db()
    assert world.portsmouth.siege_turns == 0
    for unit in besiegers:
        unit.refresh_from_db()
        assert unit.state == "ashore" and unit.port == world.portsmouth
    assert any(
        e["text"].startswith("The siege of Portsmouth ends") and e["nations"] is None for e in events(world.turn)
    )


def test_a_siege_goes_on_while_another_nation_at_war_still_besieges() -> None:
    """§10 ends only the sieges "between the two": a third nation's besiegers keep the port besieged."""
    world = two_power_world()
    es = spain(world)
    relation(world, world.gb, es, "war")
    world.portsmouth.siege_turns = 1
    world.portsmouth.save()
    for nation in (world.fr, es):
        LandUnit.objects.create(
            campaign=world.campaign, nation=nation, state=LandUnit.State.ASHORE, port=world.portsmouth
        )
    order_store(world.turn, world.gb, "offer_peace", nation="FR")
    order_store(world.turn, world.fr, "offer_peace", nation="GB")
    phases_run(world.turn, 1)
    world.portsmouth.refresh_from_db()
    assert world.portsmouth.siege_turns == 1
