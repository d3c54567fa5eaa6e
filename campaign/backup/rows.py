"""One way to rebuild a row from a campaign document's record, for the import and the revert alike.

``import_campaign`` (campaign.backup.restore) writes a campaign's rows afresh from an export; a GM's
revert (campaign.gm.repair.restore) lays a turn's snapshot — the same document — back over the live rows.
Both turn a record of the document into the fields of its row here, so the two cannot drift apart:
a field added to the export is read back by both or by neither.

Each builder takes the record and a :class:`RowRefs` (the document's keys → the ids of the rows they
name in the campaign being written) and returns the row's fields by attribute name (``nation_id``),
ready for ``Model(**fields)``, ``Model.objects.create(**fields)`` or a bulk update. :class:`DocKeys`
is the way there: the ids of the rows the export writes as the document's keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaign.models import DiplomaticOffer, LedgerEntry
from fleets.models import Blockade


@dataclass(frozen=True)
class DocKeys:
    """The export's side: a row's database id → the document's key for each kind of row the sections
    refer to (what :class:`RowRefs` maps back on import)."""

    code: dict[int, str]  # nation
    zone: dict[int, str]  # sea zone
    port: dict[int, str]  # port
    turn: dict[int, int]  # turn's number

    def port_or_none(self, port_id: int | None) -> str | None:
        return self.port[port_id] if port_id else None

    def zone_or_none(self, zone_id: int | None) -> str | None:
        return self.zone[zone_id] if zone_id else None


@dataclass(frozen=True)
class RowRefs:
    """What the document's references name in the campaign being written: nations by code, sea zones
    and ports by key, fleets by the document's fleet id (known once the fleets are written)."""

    campaign_id: int
    nation: Mapping[str, int]
    zone: Mapping[str, int]
    port: Mapping[str, int]
    fleet: Mapping[int, int] = field(default_factory=dict)
    land_unit: Mapping[int, int] = field(default_factory=dict)  # the document's unit id → the new one

    def port_id(self, key: str | None) -> int | None:
        return self.port[key] if key else None

    def zone_id(self, key: str | None) -> int | None:
        return self.zone[key] if key else None

    def fleet_id(self, doc_id: int | None) -> int | None:
        return None if doc_id is None else self.fleet[doc_id]


def nation_state_fields(n: Mapping[str, Any]) -> dict[str, Any]:
    """What a turn changes of a nation (its code, name, navy, colour and player are the GM's)."""
    return {
        "treasury": n["treasury"],
        "base_income": n["base_income"],
        "crew": n["crew"],
        "unpaid_upkeep_turn": n.get("unpaid_upkeep_turn"),
    }


def port_state_fields(p: Mapping[str, Any], refs: RowRefs) -> dict[str, Any]:
    """What a turn (or the GM) changes of a port; its key, name, sea zone and place on the map stay."""
    return {
        "owner_id": refs.nation[p["owner"]],
        "fortification": p["fortification"],
        "capacity": p["capacity"],
        "ep_value": p["ep_value"],
        "dockyard": p["dockyard"],
        "gibraltar": p["gibraltar"],
        "batteries": p["batteries"],
        "commander": p["commander"] or "",
        "taken_turn": p["taken_turn"],
        "captor_id": refs.nation[p["captor"]] if p["captor"] else None,
        "siege_turns": p["siege_turns"],
    }


def land_unit_fields(u: Mapping[str, Any], refs: RowRefs) -> dict[str, Any]:
    return {
        "campaign_id": refs.campaign_id,
        "nation_id": refs.nation[u["nation"]],
        "siege_train": u["siege_train"],
        "state": u["state"],
        "port_id": refs.port_id(u["port"]),
        "out_of_supply_turns": u["out_of_supply_turns"],
        "raised_turn": u["raised_turn"],
    }


def fleet_fields(f: Mapping[str, Any], refs: RowRefs) -> dict[str, Any]:
    """A fleet without its admiral: admirals are written after the fleets and then given command."""
    return {
        "campaign_id": refs.campaign_id,
        "nation_id": refs.nation[f["nation"]],
        "name": f["name"],
        "admiral_id": None,
        "sea_zone_id": refs.zone[f["sea_zone"]],
        "port_id": refs.port_id(f["port"]),
        "crew": f["crew"],
        "posture": f["posture"],
        "blockade_port_id": refs.port_id(f["blockade_port"]),
        "after_battle": f["after_battle"],
        "retreat_port_id": refs.port_id(f["retreat_port"]),
        "retreat_zone_id": refs.zone_id(f["retreat_zone"]),
        "left_port_turn": f["left_port_turn"],
        "in_supply": f["in_supply"],
        "out_of_supply_turns": f["out_of_supply_turns"],
        "created_turn": f["created_turn"],
    }


def ship_fields(s: Mapping[str, Any], refs: RowRefs, *, cargo_id: int | None) -> dict[str, Any]:
    """A ship in its fleet (``refs.fleet`` must hold the fleets), carrying ``cargo_id`` (a land unit)."""
    return {
        "campaign_id": refs.campaign_id,
        "name": s["name"],
        "ship_class": s["class"],
        "nation_id": refs.nation[s["nation"]],
        "original_nation_id": refs.nation[s["original_nation"]],
        "condition": s["condition"],
        "in_ordinary": s["in_ordinary"],
        "crew": s["crew"],
        "fleet_id": refs.fleet_id(s["fleet"]),
        "building_turns_left": s["building_turns_left"],
        "building_port_id": refs.port_id(s["building_port"]),
        "line_position": s["line_position"],
        "repair_port_id": refs.port_id(s.get("repair_port")),
        "repair_ready_turn": s.get("repair_ready_turn"),
        "cargo_id": cargo_id,
        "laid_down_turn": s["laid_down_turn"],
        "lost_turn": s["lost_turn"],
        "source": s["source"],
    }


def admiral_state_fields(a: Mapping[str, Any], refs: RowRefs) -> dict[str, Any]:
    """An admiral's grade, status and port (his nation and name identify him; his fleet is the fleet's)."""
    return {"grade": a["grade"], "status": a["status"], "port_id": refs.port_id(a["port"])}


def ledger_entry(e: Mapping[str, Any], refs: RowRefs) -> LedgerEntry:
    return LedgerEntry(
        campaign_id=refs.campaign_id,
        nation_id=refs.nation[e["nation"]],
        turn=e["turn"],
        kind=e["kind"],
        amount=e["amount"],
        reason=e["reason"],
        balance=e["balance"],
        unpaid=e["unpaid"],
    )


def diplomatic_offer(o: Mapping[str, Any], refs: RowRefs) -> DiplomaticOffer:
    return DiplomaticOffer(
        campaign_id=refs.campaign_id,
        from_nation_id=refs.nation[o["from"]],
        to_nation_id=refs.nation[o["to"]],
        kind=o["kind"],
        turn=o["turn"],
    )


def blockade(b: Mapping[str, Any], refs: RowRefs) -> Blockade:
    return Blockade(
        campaign_id=refs.campaign_id,
        turn=b["turn"],
        port_id=refs.port[b["port"]],
        fleet_id=refs.fleet[b["fleet"]],
        lifted=b["lifted"],
    )
