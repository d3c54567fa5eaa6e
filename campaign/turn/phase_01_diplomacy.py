"""Phase 1: diplomacy (RULES.md §10), and the services that change relations.

"Each pair of nations is at peace (the default), at war, or allied; changes apply in phase 1 for
the whole turn. "Declare war on X" is unilateral, from peace or alliance, and beats any other order
between the pair that turn. "Offer peace" (from war) and "propose alliance" (from peace) take effect
when X gives the same order towards you in the same turn, or in the next turn after reading the
offer. "Leave alliance" is unilateral and gives peace."

How it runs:

* Every order is checked against the relation as the turn began (a change applies for the whole
  turn, so one turn's orders cannot chain: leaving an alliance and proposing a new one in the same
  turn is refused). An order whose target is unknown, is the nation itself, or does not fit the
  relation is skipped and reported.
* Pairs are taken in the order of their codes. A declaration of war between the pair wins: both
  declarations (if both declared) are carried out, every other order between the pair is skipped.
* An offer (peace or alliance) meets the same order from the other nation this turn, or the other
  nation's offer stored last turn (:class:`~campaign.models.DiplomaticOffer`, one per direction and
  kind): then the relation changes. Otherwise it is stored with this turn's number, and the other
  nation can take it up next turn. Offers that could only be taken up this turn expire at the end of
  the phase, and every offer between a pair is dropped when its relation changes.
* Relation rows are stored once per pair, the lower nation id as ``a``; a missing row is peace.
* Every change is reported to every nation ("all relations" are public, §3 "Fog of war").
* A nation without a player changes nothing unless the GM entered its orders: orders exist only if
  somebody entered them, so the phase simply carries out the orders there are.

Consequences (§10, §7 "Treachery in port"):

* An alliance ending in peace: "each nation's fleets in the other's ports are put in the port's
  zone at the start of phase 3, its land units there stay as guests until they re-embark." Phase 3
  follows at once and nothing in phase 2 looks at fleets in ports, so the fleets are moved out here,
  in phase 1: at sea in the port's zone, with ``left_port_turn`` set to this turn (they were in an
  allied port until the alliance ended, which counts for supply, §8 (c)). Each is reported to both
  nations. Land units stay ashore as guests: nothing to change.
* An alliance ending in war: "everything stays where it is (Treachery in Port), units ashore become
  besiegers" — nothing moves; phase 4 (hostile fleets in one port), phase 5 (the garrison guns) and
  phase 6 (sieges: land units ashore of nations at war with the owner) take it from there. The
  nations with forces in each other's ports are told.
* A war ending in peace: "sieges between the two end; besiegers stay ashore as guests until they
  re-embark." A port of either whose besiegers are now all at peace with (or allied to) its owner
  is no longer besieged: its siege count (``Port.siege_turns``) resets to 0. The units stay ashore.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.models import DiplomaticOffer, Nation, Order, Relation
from campaign.orders.schema import DIPLOMACY_FROM, DIPLOMACY_KINDS
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.services import offer_store, offers_expire, relation_set
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from campaign.turn.sea.nmr import late_orders_report
from fleets.models import Fleet
from fleets.services import guests_put_to_sea
from ports.models import LandUnit
from ports.services import sieges_end
from rules.turn_events import FleetNoted, Note, OfferMade, PortNoted, RelationChanged, counted

#: The relation each order starts from (§10: "from peace or alliance", "from war", "from peace"), as
#: checked when the order was submitted; checked again here against the relation as the turn began.
KINDS, _FROM = DIPLOMACY_KINDS, DIPLOMACY_FROM
_OFFER_KIND: dict[str, str] = {
    Order.Kind.OFFER_PEACE: DiplomaticOffer.Kind.PEACE,
    Order.Kind.PROPOSE_ALLIANCE: DiplomaticOffer.Kind.ALLIANCE,
}
_OFFER_GIVES: dict[str, str] = {
    Order.Kind.OFFER_PEACE: Relation.State.PEACE,
    Order.Kind.PROPOSE_ALLIANCE: Relation.State.ALLIANCE,
}


@dataclass(frozen=True, slots=True)
class _Move:
    order: Order
    target: Nation


# --- the phase ----------------------------------------------------------------------------------------


def diplomacy_phase(ctx: PhaseContext) -> None:
    """Phase 1 (see the module docstring)."""
    late_orders_report(ctx)  # orders a GM entered after the deadline: each nation reads which and why
    turn = ctx.turn.number
    nations = {n.code: n for n in Nation.objects.filter(campaign=ctx.campaign)}
    start = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)

    by_pair: dict[tuple[str, str], list[_Move]] = {}
    for order in orders_pending(ctx, KINDS):
        code = order.body.get("nation")
        target = nations.get(code) if isinstance(code, str) else None
        if target is None:
            order_skip(ctx, order, f"there is no nation {code!r} in this campaign", "unknown_nation")
            continue
        if target.pk == order.nation_id:
            order_skip(ctx, order, "a nation has no relation with itself", "own_nation")
            continue
        state = start.state(order.nation_id, target.pk)
        if state not in _FROM[order.kind]:
            allowed = " or ".join(_FROM[order.kind])
            order_skip(
                ctx,
                order,
                f"{order.nation.name} and {target.name} are at {state}; {order.get_kind_display().lower()} "
                f"is given from {allowed} (rules §10)",
                "wrong_relation",
            )
            continue
        key = (min(order.nation.code, target.code), max(order.nation.code, target.code))
        by_pair.setdefault(key, []).append(_Move(order, target))

    changed: dict[tuple[str, str], tuple[str, str]] = {}  # pair → (old, new state)
    for key in sorted(by_pair):
        moves = by_pair[key]
        a, b = nations[key[0]], nations[key[1]]
        old = start.state(a.pk, b.pk)
        new = _pair_resolve(ctx, moves, turn)
        if new is not None and new != old:
            relation_set(campaign=ctx.campaign, a=a, b=b, state=new)
            changed[key] = (old, new)
            text = _change_text(moves, a, b, old, new)
            ctx.report(None, RelationChanged(text=text, a=a.code, b=b.code, state=new))

    after = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    for key, (old, new) in changed.items():
        a, b = nations[key[0]], nations[key[1]]
        _consequences(ctx, a, b, old, new, after)
    offers_expire(campaign=ctx.campaign, before_turn=turn)


def _pair_resolve(ctx: PhaseContext, moves: list[_Move], turn: int) -> str | None:
    """Settle one pair's orders; the new state, or None if it stays as it is."""

    wars = [m for m in moves if m.order.kind == Order.Kind.DECLARE_WAR]
    if wars:
        declared = " and ".join(sorted({m.order.nation.code for m in wars}))
        for m in moves:
            if m.order.kind == Order.Kind.DECLARE_WAR:
                order_done(ctx, m.order, f"war declared on {m.target.name}")
            else:
                order_skip(
                    ctx,
                    m.order,
                    f"war declared by {declared} beats any other order between the pair (rules §10)",
                    "overruled",
                )
        return Relation.State.WAR
    leaves = [m for m in moves if m.order.kind == Order.Kind.LEAVE_ALLIANCE]
    if leaves:
        # From alliance the only other valid order is a declaration of war, handled above.
        for m in leaves:
            order_done(ctx, m.order, f"left the alliance with {m.target.name}")
        return Relation.State.PEACE
    new: str | None = None
    for m in moves:  # offers of peace (at war) or of alliance (at peace): one kind per pair
        order, target = m.order, m.target
        kind = _OFFER_KIND[order.kind]
        mutual = any(o.order.kind == order.kind and o.order.nation_id == target.pk for o in moves)
        stored = DiplomaticOffer.objects.filter(
            campaign=ctx.campaign, from_nation=target, to_nation=order.nation, kind=kind, turn=turn - 1
        ).exists()
        what = "peace" if kind == DiplomaticOffer.Kind.PEACE else "an alliance"
        if mutual:
            new = _OFFER_GIVES[order.kind]
            order_done(ctx, order, f"{target.name} gave the same order this turn: {what} agreed", "agreed")
        elif stored:
            new = _OFFER_GIVES[order.kind]
            order_done(
                ctx, order, f"accepted {target.name}'s offer of {what} made in turn {turn - 1}", "offer_accepted"
            )
        else:
            offer_store(campaign=ctx.campaign, from_nation=order.nation, to_nation=target, kind=kind, turn=turn)
            order_done(ctx, order, f"offer of {what} made to {target.name}; it can be accepted next turn", "offer_made")
            ctx.report(
                [order.nation.code, target.code],
                OfferMade(
                    text=f"{order.nation.name} offers {what} to {target.name}. {target.name} can accept it by giving "
                    f"the same order next turn (turn {turn + 1}).",
                    from_nation=order.nation.code,
                    to_nation=target.code,
                    offer=kind,
                    turn=turn,
                ),
            )
    return new


def _change_text(moves: list[_Move], a: Nation, b: Nation, old: str, new: str) -> str:
    if new == Relation.State.WAR:
        declared = sorted({m.order.nation.name for m in moves if m.order.kind == Order.Kind.DECLARE_WAR})
        victims = sorted({m.target.name for m in moves if m.order.kind == Order.Kind.DECLARE_WAR})
        broken = " The alliance between them is broken." if old == Relation.State.ALLIANCE else ""
        return f"{' and '.join(declared)} declared war on {' and '.join(victims)}.{broken}"
    if new == Relation.State.PEACE and old == Relation.State.ALLIANCE:
        leavers = sorted({m.order.nation.name for m in moves if m.order.kind == Order.Kind.LEAVE_ALLIANCE})
        return f"{' and '.join(leavers)} left the alliance between {a.name} and {b.name}: they are at peace."
    if new == Relation.State.PEACE:
        return f"{a.name} and {b.name} made peace."
    return f"{a.name} and {b.name} are now allied."


def _consequences(ctx: PhaseContext, a: Nation, b: Nation, old: str, new: str, after: Diplomacy) -> None:
    turn = ctx.turn.number
    codes = [a.code, b.code]
    if old == Relation.State.ALLIANCE and new == Relation.State.PEACE:
        for owner, guest in ((a, b), (b, a)):
            for fleet in guests_put_to_sea(owner_id=owner.pk, guest_id=guest.pk, turn=turn):
                port = fleet.port
                assert port is not None
                ctx.report(
                    codes,
                    FleetNoted(
                        text=f"The alliance has ended: {guest.name}'s {fleet.name} left {owner.name}'s {port.name} "
                        f"for {port.sea_zone.name}.",
                        fleet_id=fleet.pk,
                        fleet_name=fleet.name,
                        port_key=port.key,
                        port_name=port.name,
                        code="guest_put_to_sea",
                    ),
                )
            units = LandUnit.objects.filter(nation=guest, port__owner=owner, state=LandUnit.State.ASHORE).count()
            if units:
                ctx.report(
                    codes,
                    Note(
                        text=f"{guest.name}'s {counted(units, 'land unit')} in {owner.name}'s ports stay ashore as "
                        "guests until they re-embark."
                    ),
                )
    elif old == Relation.State.ALLIANCE and new == Relation.State.WAR:
        for owner, guest in ((a, b), (b, a)):
            fleets = list(Fleet.objects.filter(nation=guest, port__owner=owner).select_related("port").order_by("id"))
            units = LandUnit.objects.filter(nation=guest, port__owner=owner, state=LandUnit.State.ASHORE).count()
            for fleet in fleets:
                assert fleet.port is not None
                ctx.report(
                    codes,
                    FleetNoted(
                        text=f"Treachery in port: {guest.name}'s {fleet.name} is inside {owner.name}'s "
                        f"{fleet.port.name}, whose guns are now hostile to it (rules §7).",
                        fleet_id=fleet.pk,
                        fleet_name=fleet.name,
                        port_key=fleet.port.key,
                        port_name=fleet.port.name,
                        code="treachery_in_port",
                    ),
                )
            if units:
                ctx.report(
                    codes,
                    Note(
                        text=f"Treachery in port: {guest.name}'s {counted(units, 'land unit')} ashore in "
                        f"{owner.name}'s ports now besiege them (rules §7, §10)."
                    ),
                )
    elif old == Relation.State.WAR and new == Relation.State.PEACE:
        for port in sieges_end(a_id=a.pk, b_id=b.pk, at_war=after.at_war):
            ctx.report(
                None,
                PortNoted(
                    text=f"The siege of {port.name} ends with the peace; the besiegers stay ashore as guests until "
                    "they re-embark.",
                    port_key=port.key,
                    port_name=port.name,
                    code="siege_ended_by_peace",
                ),
            )
