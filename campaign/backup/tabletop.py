"""Battles on the table (issue 15) in a campaign backup: their section of the export and their restore.

``table_battles`` holds each place marked "to the table" (or asked for) in a turn, as it stands: its
status, the result as entered, the sides that confirmed it, a dispute, the battle pack's dice and
set-up; and, once phase 4 held the battle back, the ``engagement`` it holds — the fight as phase 4
found it, with the battle it became once its result was applied. Files written before table battles
have no such key: they read as none.

References inside are the document's own: a turn by number, places by key, nations by code, fleets
and ships by the document's ids, the battle by its ``id`` in ``battles`` and a lost admiral by name
(admirals carry no id in the document). Import maps each to the row it wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from battles.models import Engagement, TablePost, TabletopBattle
from campaign.backup.rows import DocKeys, RowRefs
from campaign.models import Campaign
from fleets.models import Admiral


@dataclass(frozen=True)
class TableRefs:
    """The references a table battle's record makes, as the import wrote them."""

    rows: RowRefs
    turn: Mapping[int, int]  # turn number → turn id
    battle: Mapping[int, int]  # document battle id → battle id
    ship: Mapping[int, int]  # document ship id → ship id
    admiral: Mapping[str, int]  # admiral's name → admiral id


def _dt(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def table_battles_export(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    """The ``table_battles`` section, by turn and place."""
    code, zone, port = keys.code, keys.zone, keys.port
    admirals = dict(Admiral.objects.filter(campaign=campaign).values_list("pk", "name"))
    rows = (
        TabletopBattle.objects.filter(campaign=campaign)
        .select_related("turn", "engagement")
        .prefetch_related("posts")
        .defer("turn__snapshot", "turn__dice_log")  # only the turn's number is written
        .order_by("turn__number", "kind", "place")
    )
    return [
        {
            "turn": t.turn.number,
            "kind": t.kind,
            "place": t.place,
            "sea_zone": zone[t.sea_zone_id],
            "port": port[t.port_id] if t.port_id else None,
            "origin": t.origin,
            "requested_by": code[t.requested_by_id] if t.requested_by_id else None,
            "status": t.status,
            "engagement": _engagement(t.engagement, zone, port) if t.engagement is not None else None,
            "result": _result_out(t.result, admirals),
            "entered_by": t.entered_by,
            "confirmed": t.confirmed,
            "dispute": t.dispute,
            "pack": t.pack,
            "note": t.note,
            "record": t.record,
            "approved_at": _dt(t.approved_at),
            "history": t.history,
            "posts": [
                {"author": p.author_name, "side": p.side, "body": p.body, "at": _dt(p.created_at)}
                for p in t.posts.all()
            ],
        }
        for t in rows
    ]


def _engagement(e: Engagement, zone: Mapping[int, str], port: Mapping[int, str]) -> dict[str, Any]:
    """The engagement a table battle holds; its ``result`` is history, kept as written."""
    return {
        "sea_zone": zone[e.sea_zone_id],
        "port": port[e.port_id] if e.port_id else None,
        "place": e.place,
        "sequence": e.sequence,
        "kind": e.kind,
        "step": e.step,
        "sides": e.sides,
        "interceptor": e.interceptor,
        "context": e.context,
        "status": e.status,
        "dispatched_at": _dt(e.dispatched_at),
        "fought_at": _dt(e.fought_at),
        "fought_by": e.fought_by,
        "battle": e.battle_id,
        "result": e.result,
    }


def _result_out(result: Mapping[str, Any], admirals: Mapping[int, str]) -> dict[str, Any]:
    """The entered result with its lost admirals named (their ids mean nothing in another database)."""
    if "admirals_lost" not in result:
        return dict(result)
    return {**result, "admirals_lost": [admirals.get(a, a) for a in result["admirals_lost"]]}


def result_ships_renamed(result: Mapping[str, Any], ship: Mapping[int, int]) -> dict[str, Any]:
    """An entered result with its ships named by ``ship`` (the document's id → the row's)."""
    out = dict(result)
    if isinstance(out.get("ships"), list):
        out["ships"] = [
            {**row, "ship": ship.get(row["ship"], row["ship"])} if isinstance(row, dict) else row
            for row in out["ships"]
        ]
    return out


def _result_in(result: Mapping[str, Any], refs: TableRefs) -> dict[str, Any]:
    """The entered result with its ships and lost admirals named by the rows the import wrote."""
    out = result_ships_renamed(result, refs.ship)
    if isinstance(out.get("admirals_lost"), list):
        out["admirals_lost"] = [refs.admiral.get(a, a) if isinstance(a, str) else a for a in out["admirals_lost"]]
    return out


def pack_units_renamed(pack: Any, land_unit: Mapping[int, int]) -> Any:
    """A storming's pack keeps the siege as phase 6 found it, its units as [id, nation, siege train]:
    the ids become those the import wrote (the storming's result removes those very units)."""
    if not isinstance(pack, dict) or not isinstance(pack.get("siege"), dict):
        return pack
    siege = dict(pack["siege"])
    for side in ("besiegers", "garrison"):
        if isinstance(siege.get(side), list):
            siege[side] = [[land_unit.get(u[0], u[0]), *u[1:]] if isinstance(u, list) and u else u for u in siege[side]]
    return {**pack, "siege": siege}


def sides_fleets_renamed(sides: list[Any], fleet: Mapping[int, int]) -> list[Any]:
    """An engagement's sides naming the fleets the import wrote (phase 4 and the pack load them)."""
    out = []
    for side in sides:
        if not isinstance(side, dict):
            out.append(side)
            continue
        side = dict(side)
        if isinstance(side.get("fleets"), list):
            side["fleets"] = [fleet.get(f, f) for f in side["fleets"]]
        if isinstance(side.get("lead_fleet"), int):
            side["lead_fleet"] = fleet.get(side["lead_fleet"], side["lead_fleet"])
        if isinstance(side.get("retreat"), dict):
            side["retreat"] = {str(fleet.get(int(k), k)) if k.isdigit() else k: v for k, v in side["retreat"].items()}
        out.append(side)
    return out


def table_battles_restore(doc: Mapping[str, Any], *, refs: TableRefs) -> None:
    """Write the document's table battles, each with the engagement it holds (absent: none)."""
    rows = refs.rows
    for t in doc.get("table_battles", []):
        e = t["engagement"]
        engagement = None
        if e is not None:
            engagement = Engagement.objects.create(
                campaign_id=rows.campaign_id,
                turn_id=refs.turn[t["turn"]],
                sea_zone_id=rows.zone[e["sea_zone"]],
                port_id=rows.port_id(e["port"]),
                place=e["place"],
                sequence=e["sequence"],
                kind=e["kind"],
                step=e["step"],
                sides=sides_fleets_renamed(e["sides"], rows.fleet),
                interceptor=e["interceptor"],
                context=e["context"],
                status=e["status"],
                dispatched_at=_when(e["dispatched_at"]),
                fought_at=_when(e["fought_at"]),
                fought_by=e["fought_by"],
                battle_id=refs.battle[e["battle"]] if e["battle"] is not None else None,
                result=e["result"],
            )
        table = TabletopBattle.objects.create(
            campaign_id=rows.campaign_id,
            turn_id=refs.turn[t["turn"]],
            kind=t.get("kind", TabletopBattle.Kind.BATTLE),
            place=t["place"],
            sea_zone_id=rows.zone[t["sea_zone"]],
            port_id=rows.port_id(t["port"]),
            origin=t["origin"],
            requested_by_id=rows.nation[t["requested_by"]] if t["requested_by"] else None,
            status=t["status"],
            engagement=engagement,
            result=_result_in(t["result"], refs),
            entered_by=t["entered_by"],
            confirmed=t["confirmed"],
            dispute=t["dispute"],
            pack=pack_units_renamed(t["pack"], rows.land_unit),
            note=t["note"],
            record=t.get("record", ""),
            approved_at=_when(t.get("approved_at")),
            history=t.get("history", []),
        )
        # The thread as it was: names as they were written (accounts are not part of a campaign's file).
        for post in t.get("posts", []):
            made = TablePost.objects.create(
                table=table, author_name=post["author"], side=post["side"], body=post["body"]
            )
            TablePost.objects.filter(pk=made.pk).update(created_at=_when(post["at"]) or made.created_at)
