"""Full backups of a campaign: ``export_campaign`` / ``import_campaign`` (CONTRACT.md).

Export writes the document here; import checks it in full (campaign.backup.schemas.checks), maps people
only from the caller's ``gm``/``players``, and writes the rows through campaign.backup.restore.

The export holds everything a campaign is, so that importing it into a new slug and exporting
again gives the same document except for the slug and the database ids. Ids in the document are
only references inside it (a ship's ``fleet`` is a fleet's ``id``); import gives new ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from battles.models import Battle
from campaign.audit import audit_entries_for_campaign, audit_entry_as_json
from campaign.backup.dispatches import dispatches_export
from campaign.backup.restore import campaign_rows_restore
from campaign.backup.rows import DocKeys
from campaign.backup.schemas.campaign_document import FORMAT_VERSION
from campaign.backup.schemas.checks import document_problems
from campaign.backup.tabletop import table_battles_export
from campaign.models import (
    DISPATCH_OPTIONS,
    Campaign,
    DiplomaticOffer,
    LedgerEntry,
    Nation,
    NationTurn,
    Order,
    Relation,
    Turn,
    TurnPhase,
    TurnReport,
    slug_validator,
)
from campaign.outbox.mail import players_given_record
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone

# A campaign document is refused unread beyond these: a long campaign's export with every turn's
# snapshot stays far below them.
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024
MAX_DOCUMENT_DEPTH = 64


class BackupError(ValueError):
    """The document is not a campaign export this version can restore, or the slug is taken.

    ``problems`` lists each problem of the document by its path, when there are several.
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


def _dt(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def campaign_export(*, campaign: Campaign, turn: int | None = None, with_snapshots: bool = True) -> dict[str, Any]:
    """The campaign's full state as a JSON-ready dict; with ``turn``, as it was when that turn opened.

    ``with_snapshots=False`` leaves out the stored opening states of the turns: that is the form a
    turn's own snapshot takes (a snapshot holding every earlier one would grow with the square of
    the campaign's length).

    The returned literal is the document's table of contents, section by section in the order the
    schema (campaign/backup/schemas/) and the restore (campaign.backup.restore) follow; each section is
    built by its own ``_export_*`` function below.
    """
    if turn is not None:
        return _turn_snapshot(campaign, turn)

    # The row as it stands, not the caller's copy: resolution advances the turn counter, year and
    # season with an UPDATE, so an instance loaded before a turn resolved holds the old ones (and
    # a copy restored from them would post the next turn's ledger lines to the wrong turn).
    campaign = Campaign.objects.select_related("gm").get(pk=campaign.pk)
    nations = list(Nation.objects.filter(campaign=campaign).select_related("player").order_by("code"))
    zones = list(SeaZone.objects.filter(campaign=campaign).prefetch_related("adjacent").order_by("key"))
    ports = list(Port.objects.filter(campaign=campaign).order_by("key"))
    units = list(LandUnit.objects.filter(campaign=campaign).order_by("id"))
    fleets = list(Fleet.objects.filter(campaign=campaign).select_related("admiral").order_by("id"))
    ships = list(Ship.objects.filter(campaign=campaign).order_by("id"))
    admirals = list(Admiral.objects.filter(campaign=campaign).select_related("fleet").order_by("id"))
    turn_rows = Turn.objects.filter(campaign=campaign).order_by("number")
    turns = list(turn_rows if with_snapshots else turn_rows.defer("snapshot"))
    keys = DocKeys(
        code={n.pk: n.code for n in nations},
        zone={z.pk: z.key for z in zones},
        port={p.pk: p.key for p in ports},
        turn={t.pk: t.number for t in turns},
    )

    return {
        "format": FORMAT_VERSION,
        "campaign": _export_campaign(campaign),
        "ruleset": dict(sorted(campaign.settings.items())),
        "nations": [_export_nation(n, keys) for n in nations],
        "relations": _export_relations(campaign, keys),
        "sea_zones": [_export_sea_zone(z, keys) for z in zones],
        "ports": _export_ports(ports, units, keys),
        "land_units": _export_land_units(units, ships, keys),
        "admirals": [_export_admiral(a, keys) for a in admirals],
        "fleets": [_export_fleet(f, keys) for f in fleets],
        "ships": [_export_ship(s, keys) for s in ships],
        "ledger": _export_ledger(campaign, keys),
        "turns": [_export_turn(t) for t in turns],
        "orders": _export_orders(campaign, keys),
        "offers": _export_offers(campaign, keys),
        "nation_turns": _export_nation_turns(campaign, keys),
        "phases": _export_phases(campaign, keys),
        "reports": _export_reports(campaign, keys),
        "blockades": _export_blockades(campaign, keys),
        # The state as each turn opened, for ``export_campaign --turn N`` after a restore.
        "snapshots": {str(t.number): t.snapshot for t in turns if t.snapshot is not None} if with_snapshots else {},
        "battles": _export_battles(campaign, keys),
        **dispatches_export(campaign, keys),  # "conversations" and "dispatch_mutes" (issue 16)
        "table_battles": table_battles_export(campaign, keys),  # issue 15
        # The GM's audit log (issue 11), oldest first; only in a full export, never in a turn's
        # snapshot (a revert restores the state, not the history of what the GMs did), and only when
        # there is one, so that files of campaigns without GM actions read as before.
        **({"audit": audit} if (audit := _export_audit(campaign)) and with_snapshots else {}),
    }


def _turn_snapshot(campaign: Campaign, turn: int) -> dict[str, Any]:
    """The stored opening state of ``turn``; a ``BackupError`` naming the turns that have one."""
    stored = Turn.objects.filter(campaign=campaign, number=turn).values_list("snapshot", flat=True).first()
    if stored is None:
        with_snapshot = Turn.objects.filter(campaign=campaign, snapshot__isnull=False)
        known = list(with_snapshot.values_list("number", flat=True))
        raise BackupError(f"No snapshot of turn {turn} in {campaign.slug!r}; turns with one: {known or 'none'}.")
    return dict(stored)


def _export_campaign(campaign: Campaign) -> dict[str, Any]:
    return {
        "slug": campaign.slug,
        "name": campaign.name,
        "scenario": campaign.scenario,
        "start_year": campaign.start_year,
        "year": campaign.year,
        "season": campaign.season,
        "turn": campaign.turn_number,
        "status": campaign.status,
        "seed": campaign.seed,
        "last_turn": campaign.last_turn,
        "gm": campaign.gm.get_username() if campaign.gm is not None else None,
        # House options are written only when they differ from the default, so files written
        # before they existed and files that leave them alone read the same.
        **({} if campaign.show_readiness else {"show_readiness": False}),
        **{
            name: getattr(campaign, name)
            for name, default in DISPATCH_OPTIONS.items()
            if getattr(campaign, name) != default
        },
    }


def _export_nation(n: Nation, keys: DocKeys) -> dict[str, Any]:
    return {
        "code": n.code,
        "name": n.name,
        "navy": n.navy,
        "treasury": n.treasury,
        "player": n.player.get_username() if n.player is not None else None,
        "base_income": n.base_income,
        "crew": n.crew,
        "color": n.color,
        "unpaid_upkeep_turn": n.unpaid_upkeep_turn,
        # Written only when set, so files written before capitals existed read the same.
        **({"capital": keys.port[n.capital_id]} if n.capital_id else {}),
    }


def _export_relations(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    code = keys.code
    return sorted(
        (
            {"a": min(code[r.a_id], code[r.b_id]), "b": max(code[r.a_id], code[r.b_id]), "state": r.state}
            for r in Relation.objects.filter(campaign=campaign)
        ),
        key=lambda r: (r["a"], r["b"]),
    )


def _lon_lat(place: SeaZone | Port) -> dict[str, float]:
    """A place's coordinates, only if it has them: older documents have none and still import."""
    return {"lon": place.lon, "lat": place.lat} if place.lon is not None and place.lat is not None else {}


def _export_sea_zone(z: SeaZone, keys: DocKeys) -> dict[str, Any]:
    return {
        "key": z.key,
        "name": z.name,
        "type": z.type,
        "x": z.x,
        "y": z.y,
        **_lon_lat(z),
        "adjacent": sorted(keys.zone[a.pk] for a in z.adjacent.all()),
    }


def _export_ports(ports: list[Port], units: list[LandUnit], keys: DocKeys) -> list[dict[str, Any]]:
    owner_of = {p.pk: p.owner_id for p in ports}
    garrison: dict[int, int] = defaultdict(int)  # CONTRACT's "garrison": the owner's units in the port
    for u in units:
        if u.state == LandUnit.State.GARRISON and u.port_id is not None and u.nation_id == owner_of[u.port_id]:
            garrison[u.port_id] += 1
    code = keys.code
    return [
        {
            "key": p.key,
            "name": p.name,
            "sea_zone": keys.zone[p.sea_zone_id],
            "owner": code[p.owner_id],
            "fortification": p.fortification,
            "capacity": p.capacity,
            "ep_value": p.ep_value,
            "dockyard": p.dockyard,
            "gibraltar": p.gibraltar,
            "garrison": garrison[p.pk],
            "batteries": p.batteries,
            "commander": p.commander or None,
            "x": p.x,
            "y": p.y,
            **_lon_lat(p),
            "taken_turn": p.taken_turn,
            "captor": code[p.captor_id] if p.captor_id else None,
            "siege_turns": p.siege_turns,
        }
        for p in ports
    ]


def _export_land_units(units: list[LandUnit], ships: list[Ship], keys: DocKeys) -> list[dict[str, Any]]:
    transport_of = {s.cargo_id: s.pk for s in ships if s.cargo_id is not None}
    return [
        {
            "id": u.pk,
            "nation": keys.code[u.nation_id],
            "siege_train": u.siege_train,
            "state": u.state,
            "port": keys.port.get(u.port_id) if u.port_id else None,
            "transport": transport_of.get(u.pk),
            "out_of_supply_turns": u.out_of_supply_turns,
            "raised_turn": u.raised_turn,
        }
        for u in units
    ]


def _export_admiral(a: Admiral, keys: DocKeys) -> dict[str, Any]:
    return {
        "name": a.name,
        "nation": keys.code[a.nation_id],
        "grade": a.grade,
        "status": a.status,
        "port": keys.port_or_none(a.port_id),
        "fleet": _fleet_id(a),
    }


def _fleet_id(admiral: Admiral) -> int | None:
    try:
        return admiral.fleet.pk
    except Fleet.DoesNotExist:
        return None


def _export_fleet(f: Fleet, keys: DocKeys) -> dict[str, Any]:
    return {
        "id": f.pk,
        "name": f.name,
        "nation": keys.code[f.nation_id],
        "admiral": {"name": f.admiral.name, "grade": f.admiral.grade} if f.admiral else None,
        "sea_zone": keys.zone[f.sea_zone_id],
        "port": keys.port_or_none(f.port_id),
        "crew": f.crew,
        "posture": f.posture,
        "blockade_port": keys.port_or_none(f.blockade_port_id),
        "after_battle": f.after_battle,
        "retreat_port": keys.port_or_none(f.retreat_port_id),
        "retreat_zone": keys.zone_or_none(f.retreat_zone_id),
        "left_port_turn": f.left_port_turn,
        "in_supply": f.in_supply,
        "out_of_supply_turns": f.out_of_supply_turns,
        "created_turn": f.created_turn,
    }


def _export_ship(s: Ship, keys: DocKeys) -> dict[str, Any]:
    return {
        "id": s.pk,
        "name": s.name,
        "class": s.ship_class,
        "nation": keys.code[s.nation_id],
        "original_nation": keys.code[s.original_nation_id],
        "captured": s.captured,
        "condition": s.condition,
        "in_ordinary": s.in_ordinary,
        "crew": s.crew,
        "fleet": s.fleet_id,
        "building_turns_left": s.building_turns_left,
        "building_port": keys.port_or_none(s.building_port_id),
        "line_position": s.line_position,
        "repair_port": keys.port_or_none(s.repair_port_id),
        "repair_ready_turn": s.repair_ready_turn,
        "laid_down_turn": s.laid_down_turn,
        "lost_turn": s.lost_turn,
        "source": s.source,
    }


def _export_ledger(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {
            "nation": keys.code[e.nation_id],
            "turn": e.turn,
            "kind": e.kind,
            "amount": e.amount,
            "reason": e.reason,
            "balance": e.balance,
            "unpaid": e.unpaid,
        }
        for e in LedgerEntry.objects.filter(campaign=campaign).order_by("id")
    ]


def _export_turn(t: Turn) -> dict[str, Any]:
    return {
        "number": t.number,
        "year": t.year,
        "season": t.season,
        "deadline": _dt(t.deadline),
        "status": t.status,
        "resolved_at": _dt(t.resolved_at),
        "paused_at": _dt(t.paused_at),
        "dice_log": t.dice_log,
        "reseeds": t.reseeds,  # a re-fought battle's new seed, by rules.dice.reseed_key (issue 11)
    }


def _export_orders(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {
            "turn": keys.turn[o.turn_id],
            "nation": keys.code[o.nation_id],
            "position": o.position,
            "kind": o.kind,
            "body": o.body,
            "fleet": o.fleet_id,
            "outcome": o.outcome,
            "outcome_note": o.outcome_note,
            # Only on an order a GM entered after the deadline, so on-time orders export as before.
            **({"late_by": o.late_by, "late_reason": o.late_reason} if o.late_by else {}),
        }
        for o in Order.objects.filter(campaign=campaign).order_by("turn__number", "nation__code", "position")
    ]


def _export_offers(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {"from": keys.code[o.from_nation_id], "to": keys.code[o.to_nation_id], "kind": o.kind, "turn": o.turn}
        for o in DiplomaticOffer.objects.filter(campaign=campaign).order_by("turn", "id")
    ]


def _export_nation_turns(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {
            "turn": keys.turn[t.turn_id],
            "nation": keys.code[t.nation_id],
            "ready": t.ready,
            "submitted_at": _dt(t.submitted_at),
        }
        for t in NationTurn.objects.filter(turn__campaign=campaign).order_by("turn__number", "nation__code")
    ]


def _export_phases(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {"turn": keys.turn[p.turn_id], "phase": p.phase, "summary": p.summary}
        for p in TurnPhase.objects.filter(turn__campaign=campaign).order_by("turn__number", "phase")
    ]


def _export_reports(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {
            "turn": keys.turn[r.turn_id],
            "nation": keys.code[r.nation_id],
            "body": r.body,
            "emailed_at": _dt(r.emailed_at),
        }
        for r in TurnReport.objects.filter(turn__campaign=campaign).order_by("turn__number", "nation__code")
    ]


def _export_blockades(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {"turn": b.turn, "port": keys.port[b.port_id], "fleet": b.fleet_id, "lifted": b.lifted}
        for b in Blockade.objects.filter(campaign=campaign).order_by("turn", "id")
    ]


def _export_battles(campaign: Campaign, keys: DocKeys) -> list[dict[str, Any]]:
    return [
        {
            "id": b.pk,
            "turn": keys.turn[b.turn_id],
            "sea_zone": keys.zone[b.sea_zone_id],
            "port": keys.port_or_none(b.port_id),
            "type": b.kind,
            "place": b.place,
            "sequence": b.sequence,
            "seed": b.seed,
            "winner": b.winner,
            "sides": b.sides,
            "report": b.report,
            "seen_by": b.seen_by,
        }
        for b in Battle.objects.filter(campaign=campaign).order_by("id")
    ]


def _export_audit(campaign: Campaign) -> list[dict[str, Any]]:
    return [audit_entry_as_json(e) for e in audit_entries_for_campaign(campaign_id=campaign.pk).reverse()]


def campaign_import(
    *,
    document: Any,
    slug: str | None = None,
    replace: bool = False,
    gm: User | None = None,
    players: Mapping[str, User] | None = None,
) -> Campaign:
    """Restore an export as a new campaign (``slug`` overrides the document's); all or nothing.

    The document is checked in full first (:func:`campaign.backup.schemas.checks.document_problems`);
    a ``BackupError`` lists every problem by its path and nothing is written. People are never
    taken from the file: ``gm`` becomes the GM and ``players`` maps nation codes to their players;
    without them the campaign starts with no GM and no players (the usernames in the document are
    a record of who they were, nothing more).
    """
    problems = document_problems(document)
    if problems:
        raise BackupError("The export is incomplete or malformed:\n  " + "\n  ".join(problems), problems)
    people = players or {}
    codes = {n["code"] for n in document["nations"]}
    unknown = sorted(set(people) - codes)
    if unknown:
        raise BackupError(
            f"--player: no nation {', '.join(unknown)} in the document; its nations: {', '.join(sorted(codes))}."
        )
    twice = [u.get_username() for u, n in Counter(people.values()).items() if n > 1]
    if twice:
        raise BackupError(f"--player: {', '.join(sorted(twice))} would play more than one nation; one each.")
    try:
        with transaction.atomic():
            campaign = _restore(document, slug, replace, gm, people)
            # Each mapped player is told of their nation, once the import commits (never if it fails).
            players_given_record(campaign_id=campaign.pk, now=timezone.now())
            return campaign
    except (IntegrityError, DataError) as exc:
        # The checks above mirror the database's constraints; this is the net under them.
        raise BackupError(f"The database refused the document: {str(exc).splitlines()[0]}") from exc


def _restore(
    doc: dict[str, Any], slug: str | None, replace: bool, gm: User | None, players: Mapping[str, User]
) -> Campaign:
    """The slug checked (and a campaign holding it replaced, if asked), then the rows written."""
    slug = slug or doc["campaign"]["slug"]
    try:
        slug_validator(slug)
    except Exception as exc:
        raise BackupError(f"slug {slug!r} is not valid: use lower-case letters, digits and hyphens.") from exc
    existing = Campaign.objects.filter(slug=slug).first()
    if existing is not None:
        if not replace:
            raise BackupError(f"A campaign with slug {slug!r} already exists; pass --replace or another --slug.")
        existing.delete()
    return campaign_rows_restore(doc, slug=slug, gm=gm, players=players)
