"""Read side of the players' pages: home, nation dashboard, map and turn history (RULES.md §3 "Fog of war").

Every public function here is a ``*_for_player`` selector: it takes the requesting user, decides
what they may see and returns plain data for the templates. Permissions and fog of war live here,
never only in templates:

* A campaign is visible to its GM (``Campaign.gm``), to staff and to its players; to anybody else
  it does not exist (:class:`~django.http.Http404`). A player sees their own nation only: asking
  for another nation's page is refused with :class:`~django.core.exceptions.PermissionDenied`.
  A GM may pick any nation and then sees exactly what that nation sees.
* "A nation sees its own and allied forces; enemies it sighted or fought this turn; the ships in a
  port it blockades; every port's owner, sieges and blockades; all relations. It sees nothing of
  neutral fleets." So own and allied fleets are read from the database; other nations' Fleet and
  Ship rows are never read, except the ships in a port the nation blockades (a blockader "sees the
  ships in the port it blockades without a roll", RULES.md §4). Enemies otherwise come only from
  the nation's own turn report, which had fog of war applied when it was written.
* Another nation's treasury, ledger and orders are never read.

What a turn report must carry for the "known enemy forces" (see :func:`contacts_from_events`):
the report body is ``{"turn", "season", "year", "events": [{"phase", "text", **data}]}`` as
``campaign.turn.phases._reports_store`` writes it from ``ctx.report(nations, text, **data)`` calls.

* A **battle** event has ``battle`` (the Battle id), ``place`` (zone or port key) and ``ships``:
  ``[{"side", "ship", "name", "class", "fate"}]`` (battles/engagements.py). The enemies are the rows
  of the side whose Battle ``sides[i]["nations"]`` does not hold the viewer's nation.
* A **sighting** event (phase 3, RULES.md §4 "A sighting shows the sighted ships (class, condition)
  in the nation's turn report") is recognised by a ``sighted`` key or ``kind``/``type`` equal to
  ``"sighting"``; its place is ``zone`` (or ``sea_zone``/``place``) and its ships are listed under
  ``sighted``, ``forces``, ``fleets`` or ``ships``: either ship rows ``{"class", "condition",
  "nation"?, "name"?}`` or forces ``{"nation", "name"?, "fleet"?, "ships": [rows]}`` or
  ``{"nation", "counts": {class: n}}``. Rows of the viewer's own or allied nations are ignored
  (they are shown from the database). Anything else in an event is shown as its text only.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, F, OuterRef, Q
from django.http import Http404

from battles.models import Battle
from battles.selectors import ship_line_key
from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Order, Relation, Turn, TurnReport
from campaign.orders.selectors import orders_committed_ep
from campaign.selectors import Diplomacy, campaigns_for_user, diplomacy_for_campaign
from fleets.models import Blockade, Fleet, Ship, ShipClass
from fleets.selectors import navy_counts
from ports.models import LandUnit, Port, SeaZone, ZoneType
from rules.construction import (
    ConstructionRefused,
    NavyCounts,
    big_ships_allowed_now,
    check_limits,
    period_label,
    within_quota,
)
from rules.economy import EconomyShip, IncomePort, economy_turn, income, upkeep
from rules.ruleset import SHIP_CLASSES, SOL_CLASSES, Ruleset

User = AbstractBaseUser | AnonymousUser

LEDGER_PAGE_SIZE = 15
TURNS_PAGE_SIZE = 20
CLASS_LABELS: dict[str, str] = dict(ShipClass.choices)
CONDITION_LABELS: dict[str, str] = dict(Ship.Condition.choices)
ZONE_TYPE_LABELS: dict[str, str] = dict(ZoneType.choices)
AFLOAT = frozenset(Ship.AFLOAT)
#: Battle fates (CONTRACT.md) after which a ship is no longer where the battle was fought.
GONE_FATES = frozenset({"sunk", "captured"})


# --- who is looking ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CurrentTurn:
    """The campaign's latest turn (the open one while a campaign runs)."""

    id: int
    number: int
    status: str
    status_label: str
    season_label: str
    year: int
    deadline: datetime | None

    @property
    def is_open(self) -> bool:
        return self.status == Turn.Status.OPEN


@dataclass
class Viewer:
    """The requesting user, the campaign and the nation whose eyes they look through."""

    user_id: int
    campaign: Campaign
    nation: Nation
    nations: list[Nation]
    is_gm: bool
    diplomacy: Diplomacy
    turn: CurrentTurn | None
    ruleset: Ruleset

    @property
    def nations_by_id(self) -> dict[int, Nation]:
        return {n.pk: n for n in self.nations}

    @property
    def nations_by_code(self) -> dict[str, Nation]:
        return {n.code: n for n in self.nations}

    @property
    def pickable(self) -> list[Nation]:
        """The nations this viewer may look through: all for a GM, their own for a player."""
        return self.nations if self.is_gm else [self.nation]

    def friendly(self, nation_id: int) -> bool:
        """Own or allied (RULES.md §3: "a nation sees its own and allied forces")."""
        return self.diplomacy.allied(self.nation.pk, nation_id)

    @property
    def friendly_codes(self) -> frozenset[str]:
        return frozenset(n.code for n in self.nations if self.friendly(n.pk))

    @property
    def ready(self) -> bool:
        return bool(getattr(self.nation, "ready", False))


def _is_staff(user: User) -> bool:
    return bool(getattr(user, "is_staff", False))


def viewer_for_player(*, user: User, slug: str, nation_code: str | None = None) -> Viewer:
    """Who may look at campaign ``slug`` through which nation's eyes (three queries).

    Raises Http404 for a campaign the user has no part in (or that does not exist) and for an
    unknown nation code; PermissionDenied when a player asks for another nation than their own.
    A GM without a nation of their own looks through the first nation in code order.
    """
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    latest = (
        Turn.objects.select_related("campaign")
        .defer("snapshot", "dice_log")  # large JSON blobs no page header needs
        .filter(campaign__slug=slug)
        .order_by("-number")
        .first()
    )
    if latest is not None:
        campaign = latest.campaign
    else:
        found = Campaign.objects.filter(slug=slug).first()
        if found is None:
            raise Http404("No such campaign.")
        campaign = found
    ready = NationTurn.objects.filter(turn=latest, nation=OuterRef("pk"), ready=True)
    nations: list[Nation] = list(
        Nation.objects.filter(campaign=campaign).annotate(ready=Exists(ready)).order_by("code")
    )
    is_gm = _is_staff(user) or (campaign.gm_id is not None and campaign.gm_id == user.pk)
    own = next((n for n in nations if n.player_id is not None and n.player_id == user.pk), None)
    if not is_gm and own is None:
        raise Http404("No such campaign.")
    if nation_code:
        chosen = next((n for n in nations if n.code == nation_code.upper()), None)
        if chosen is None:
            raise Http404("No such nation in this campaign.")
        if not is_gm and own is not None and chosen.pk != own.pk:
            raise PermissionDenied("You may only look at your own nation.")
    else:
        chosen = own or (nations[0] if nations else None)
    if chosen is None:
        raise Http404("This campaign has no nations yet.")
    turn = None
    if latest is not None:
        turn = CurrentTurn(
            id=latest.pk,
            number=latest.number,
            status=latest.status,
            status_label=latest.get_status_display(),
            season_label=latest.get_season_display(),
            year=latest.year,
            deadline=latest.deadline,
        )
    return Viewer(
        user_id=int(user.pk),
        campaign=campaign,
        nation=chosen,
        nations=nations,
        is_gm=is_gm,
        diplomacy=diplomacy_for_campaign(campaign_id=campaign.pk),
        turn=turn,
        ruleset=campaign.ruleset,
    )


# --- what a turn report says was seen -------------------------------------------------------------------


@dataclass(frozen=True)
class SeenShip:
    ship_class: str
    condition: str
    name: str = ""

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)

    @property
    def condition_label(self) -> str:
        return CONDITION_LABELS.get(self.condition, self.condition)


@dataclass
class Contact:
    """Enemy ships a nation saw in one zone: sighted, met, fought, or in a port it blockades."""

    zone_key: str
    zone_name: str
    nation_code: str
    nation_name: str
    color: str
    how: str  # "sighted" | "met" | "fought" | "in port"
    ships: list[SeenShip] = field(default_factory=list)
    text: str = ""
    step: int | None = None
    port_name: str = ""
    port_key: str = ""
    battle_id: int | None = None

    @property
    def present(self) -> list[SeenShip]:
        """Ships still there after what was seen (a battle's sunk and captured ones are not)."""
        return [s for s in self.ships if s.condition not in GONE_FATES]

    @property
    def summary(self) -> str:
        return ships_summary(self.ships)


def ships_summary(ships: Iterable[SeenShip]) -> str:
    """ "2 × 1st rate, 5 × 3rd rate (74/80) (1 damaged)" in class order."""
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    for ship in ships:
        by_class[ship.ship_class][ship.condition] += 1
    parts = []
    order = {c: i for i, c in enumerate(SHIP_CLASSES)}
    for ship_class in sorted(by_class, key=lambda c: order.get(c, len(order))):
        conditions = by_class[ship_class]
        total = sum(conditions.values())
        notes = ", ".join(
            f"{n} {CONDITION_LABELS.get(c, c).lower()}"
            for c, n in sorted(conditions.items())
            if c not in ("ready", "intact", "")
        )
        label = CLASS_LABELS.get(ship_class, ship_class)
        parts.append(f"{total} × {label}" + (f" ({notes})" if notes else ""))
    return ", ".join(parts) or "no ships"


def _zone_of(place: object, zones: Mapping[str, str], port_zones: Mapping[str, str]) -> str | None:
    if not isinstance(place, str):
        return None
    if place in zones:
        return place
    return port_zones.get(place)


def _ship_rows(item: Mapping[str, Any], nation: str | None) -> list[tuple[str | None, SeenShip]]:
    """(nation code, ship) of a ship row ``{"class", "condition"|"fate", "nation"?, "name"?}``, or of
    a force ``{"nation", "ships": [rows]}`` / ``{"nation", "counts": {class: n}}``."""
    owner = item.get("nation")
    code = owner if isinstance(owner, str) else nation
    if isinstance(item.get("class"), str):
        condition = item.get("condition") or item.get("fate") or "ready"
        name = item.get("name")
        return [(code, SeenShip(item["class"], str(condition), name if isinstance(name, str) else ""))]
    rows: list[tuple[str | None, SeenShip]] = []
    ships = item.get("ships")
    if isinstance(ships, list):
        for ship in ships:
            if isinstance(ship, Mapping):
                rows.extend(_ship_rows(ship, code))
    counts = item.get("counts")
    if isinstance(counts, Mapping):
        for ship_class, n in counts.items():
            if isinstance(ship_class, str) and isinstance(n, int):
                rows.extend((code, SeenShip(ship_class, "ready")) for _ in range(max(0, n)))
    return rows


#: Event keys that list enemy ships seen at sea (campaign/movement.py), and what the page calls them.
SEEN_KEYS = (("met", "met"), ("sighted", "sighted"))


def _is_contact(event: Mapping[str, Any]) -> bool:
    if any(isinstance(event.get(key), list) for key, _ in SEEN_KEYS) or event.get("kind") == "sighting":
        return True
    return isinstance(event.get("battle"), int) or (isinstance(event.get("port"), str) and "ships" in event)


def contacts_from_events(
    events: Sequence[Mapping[str, Any]],
    *,
    viewer_code: str,
    friendly_codes: frozenset[str],
    nations: Mapping[str, tuple[str, str]],
    zones: Mapping[str, str],
    port_zones: Mapping[str, str],
    port_names: Mapping[str, str] | None = None,
    battle_sides: Mapping[int, list[Any]],
) -> list[Contact]:
    """The enemy forces a nation's turn report says it saw, by zone (pure; the event shapes are in
    the module docstring). ``nations``: code → (name, colour); ``zones``: key → name;
    ``port_zones``: port key → zone key; ``battle_sides``: Battle id → its ``sides``.

    Own and allied ships are left out (the pages show them from the database). A sighting followed
    by a meeting in the same zone and step is shown once, as the meeting.
    """
    contacts: dict[tuple[str, str, str, object], Contact] = {}
    seen: dict[tuple[str, str, str, object], Contact] = {}  # the event being read

    def label(code: str) -> tuple[str, str]:
        if code in nations:
            return nations[code]
        parts = [nations[c] for c in code.split("/") if c in nations]
        if parts:  # a side of several nations, when a battle's ship rows do not say whose
            return " & ".join(name for name, _ in parts), parts[0][1]
        return "Unknown colours", "#555555"

    def add(zone_key: str, code: str | None, how: str, ship: SeenShip, text: str, **where: Any) -> None:
        if code is not None and (code in friendly_codes or code == viewer_code):
            return
        code = code or "?"
        key = (zone_key, code, how, where.get("battle_id") or where.get("port_name") or where.get("step"))
        if key not in seen:
            name, color = label(code)
            seen[key] = Contact(
                zone_key=zone_key,
                zone_name=zones.get(zone_key, zone_key),
                nation_code=code,
                nation_name=name,
                color=color,
                how=how,
                text=text,
                **where,
            )
        seen[key].ships.append(ship)

    def keep() -> None:
        # One force reported twice (two blockaders of one port, a battle told to each fleet) is
        # kept once: the fuller report wins.
        for key, contact in seen.items():
            if key not in contacts or len(contact.ships) > len(contacts[key].ships):
                contacts[key] = contact
        seen.clear()

    for event in events:
        keep()
        if not isinstance(event, Mapping) or not _is_contact(event):
            continue
        text = str(event.get("text") or "")
        step = event.get("step") if isinstance(event.get("step"), int) else None
        battle = event.get("battle")
        if isinstance(battle, int):
            zone_key = _zone_of(event.get("place"), zones, port_zones)
            sides = battle_sides.get(battle)
            rows = event.get("ships")
            if zone_key is None or not isinstance(sides, list) or not isinstance(rows, list):
                continue
            for row in rows:
                if not isinstance(row, Mapping) or not isinstance(row.get("side"), int):
                    continue
                if not 0 <= row["side"] < len(sides) or not isinstance(sides[row["side"]], Mapping):
                    continue
                side_nations = [c for c in sides[row["side"]].get("nations") or [] if isinstance(c, str)]
                if viewer_code in side_nations:
                    continue
                for code, ship in _ship_rows(row, "/".join(side_nations) or None):
                    add(zone_key, code, "fought", ship, text, battle_id=battle)
            continue
        listed, how = None, "sighted"
        for key, called in SEEN_KEYS:
            if isinstance(event.get(key), list):
                listed, how = event[key], called
                break
        if listed is not None or event.get("kind") == "sighting":
            zone_key = _zone_of(event.get("zone") or event.get("sea_zone") or event.get("place"), zones, port_zones)
            listed = listed if listed is not None else event.get("forces") or event.get("ships") or []
            port_key = port_name = ""
        else:  # a blockader sees the ships in the port it blockades (RULES.md §4)
            port_key = str(event.get("port"))
            zone_key = _zone_of(port_key, zones, port_zones)
            how, listed = "in port", event.get("ships")
            port_name = (port_names or {}).get(port_key, port_key)
        if zone_key is None or not isinstance(listed, list):
            continue
        default = event.get("nation") if isinstance(event.get("nation"), str) else None
        for item in listed:
            if isinstance(item, Mapping):
                for code, ship in _ship_rows(item, default):
                    add(zone_key, code, how, ship, text, step=step, port_name=port_name, port_key=port_key)
    keep()
    met = {(c.zone_key, c.nation_code, c.step) for c in contacts.values() if c.how == "met"}
    return [c for c in contacts.values() if not (c.how == "sighted" and (c.zone_key, c.nation_code, c.step) in met)]


#: RULES.md §3 resolution phases, as a report groups its events.
PHASE_NAMES = {
    1: "Diplomacy",
    2: "Construction and raising",
    3: "Fleet organisation and movement",
    4: "Battles and blockades",
    5: "Garrison guns, fireships, running the guns",
    6: "Landings and sieges",
    7: "Storms, supply and attrition",
    8: "Repairs",
    9: "Income and upkeep",
    10: "The next turn",
}


@dataclass
class ReportView:
    turn_number: int
    season: str
    year: int
    events: list[Mapping[str, Any]]
    battle_ids: list[int]

    @property
    def by_phase(self) -> list[tuple[str, list[Mapping[str, Any]]]]:
        """The events grouped by phase, in phase order (events keep their order within a phase)."""
        groups: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        for event in self.events:
            phase = event.get("phase")
            groups[phase if isinstance(phase, int) else 0].append(event)
        return [(PHASE_NAMES.get(n, "Other"), groups[n]) for n in sorted(groups)]


def _report(nation: Nation, *, number: int | None = None) -> ReportView | None:
    """The nation's report of turn ``number``, or its latest report (one query)."""
    reports = TurnReport.objects.filter(nation=nation, turn__status=Turn.Status.RESOLVED)
    if number is not None:
        reports = reports.filter(turn__number=number)
    row = reports.order_by("-turn__number").values("body", "turn__number", "turn__season", "turn__year").first()
    if row is None:
        return None
    body = row["body"] if isinstance(row["body"], Mapping) else {}
    events = [e for e in body.get("events", []) if isinstance(e, Mapping)]
    battle_ids = sorted({e["battle"] for e in events if isinstance(e.get("battle"), int)})
    season = dict(Turn._meta.get_field("season").choices or []).get(row["turn__season"], row["turn__season"])
    return ReportView(row["turn__number"], str(season), row["turn__year"], events, battle_ids)


def _battle_sides(ids: Sequence[int], campaign: Campaign) -> dict[int, list[Any]]:
    if not ids:
        return {}
    rows = Battle.objects.filter(campaign=campaign, pk__in=list(ids)).values_list("pk", "sides")
    return {pk: sides if isinstance(sides, list) else [] for pk, sides in rows}


def _nation_labels(viewer: Viewer) -> dict[str, tuple[str, str]]:
    return {n.code: (n.name, n.color) for n in viewer.nations}


# --- the dashboard --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipRow:
    id: int
    name: str
    ship_class: str
    condition: str
    in_ordinary: bool
    crew: str
    captured_from: str
    carrying: bool

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)

    @property
    def condition_label(self) -> str:
        return CONDITION_LABELS.get(self.condition, self.condition)

    @property
    def sol(self) -> bool:
        return self.ship_class in SOL_CLASSES


@dataclass
class FleetView:
    id: int
    name: str
    zone_key: str
    zone_name: str
    port_name: str
    admiral: str
    posture: str
    blockade_port: str
    in_supply: bool
    ships: list[ShipRow] = field(default_factory=list)

    @property
    def sol(self) -> int:
        return sum(1 for s in self.ships if s.sol)

    @property
    def location(self) -> str:
        return f"in {self.port_name}" if self.port_name else f"at sea, {self.zone_name}"

    @property
    def needing_repair(self) -> int:
        return sum(1 for s in self.ships if s.condition in ("damaged", "disabled"))


@dataclass(frozen=True)
class KeelRow:
    id: int
    name: str
    ship_class: str
    port_name: str
    turns_left: int

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)


@dataclass(frozen=True)
class LostRow:
    name: str
    ship_class: str
    condition: str
    turn: int | None

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)


@dataclass(frozen=True)
class PortRow:
    key: str
    name: str
    zone_name: str
    owner_code: str
    owner_name: str
    color: str
    fortification: int
    capacity: int
    ep_value: int
    dockyard: bool
    garrison: int
    siege_turns: int
    besiegers: tuple[str, ...]
    blockaders: tuple[str, ...]
    taken_turn: int | None
    pays: bool
    can_build: bool


@dataclass(frozen=True)
class ClassOption:
    ship_class: str
    cost: int
    build_turns: int
    allowed: bool
    reason: str

    @property
    def label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)


@dataclass(frozen=True)
class QuotaStatus:
    period: str
    percent: int
    counts: NavyCounts
    within: bool
    big_allowed_now: int
    four_decker_limit: int
    options: list[ClassOption]
    dockyards: list[str]
    pending_keels: int

    @property
    def four_decker_allowed(self) -> bool:
        return self.counts.four_deckers < self.four_decker_limit


@dataclass(frozen=True)
class Projection:
    """Next phase 9 if nothing changes (RULES.md §2), after this turn's lay-downs and raises."""

    base: int
    ports: int
    income: int
    upkeep: int
    upkeep_unpaid: int
    treasury_after: int


@dataclass
class LedgerPage:
    entries: list[LedgerEntry]
    page: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.page > 1


@dataclass
class Dashboard:
    viewer: Viewer
    treasury: int
    committed_ep: int
    ledger: LedgerPage
    projection: Projection
    quota: QuotaStatus
    fleets: list[FleetView]
    keels: list[KeelRow]
    lost: list[LostRow]
    ports: list[PortRow]
    sieges: list[PortRow]
    blockades: list[PortRow]
    contacts: list[Contact]
    report: ReportView | None

    @property
    def available_ep(self) -> int:
        return self.treasury - self.committed_ep

    @property
    def ship_count(self) -> int:
        return sum(len(f.ships) for f in self.fleets)

    @property
    def sol_count(self) -> int:
        return sum(f.sol for f in self.fleets)


def _ports_with_status(viewer: Viewer, blockade_turn: int) -> tuple[list[Port], dict[int, list[Any]]]:
    """Every port with its zone and garrison count (one query) and the blockades of ``blockade_turn``
    by port id as (fleet id, nation id, lifted) (one query)."""
    ports: list[Port] = list(
        Port.objects.filter(campaign=viewer.campaign)
        .select_related("sea_zone")
        .annotate(
            garrison=Count(
                "land_units",
                filter=Q(land_units__state=LandUnit.State.GARRISON, land_units__nation_id=F("owner_id")),
            )
        )
        .order_by("key")
    )
    blockades: dict[int, list[Any]] = defaultdict(list)
    rows = Blockade.objects.filter(campaign=viewer.campaign, turn=blockade_turn).values_list(
        "port_id", "fleet_id", "fleet__nation_id", "lifted"
    )
    for port_id, fleet_id, nation_id, lifted in rows:
        blockades[port_id].append((fleet_id, nation_id, lifted))
    return ports, blockades


def _besiegers(viewer: Viewer) -> dict[int, set[int]]:
    """Nations with land units ashore at a port whose owner they are at war with, by port id (one query)."""
    owners = {}
    out: dict[int, set[int]] = defaultdict(set)
    rows = LandUnit.objects.filter(campaign=viewer.campaign, state=LandUnit.State.ASHORE).values_list(
        "port_id", "nation_id", "port__owner_id"
    )
    for port_id, nation_id, owner_id in rows:
        owners[port_id] = owner_id
        if port_id is not None and viewer.diplomacy.at_war(nation_id, owner_id):
            out[port_id].add(nation_id)
    return out


def _port_row(viewer: Viewer, port: Port, *, blockades: list[Any], besiegers: set[int], turn_number: int) -> PortRow:
    by_id = viewer.nations_by_id
    owner = by_id[port.owner_id]
    blockaders = sorted(
        {by_id[n].code for _, n, lifted in blockades if viewer.diplomacy.at_war(n, port.owner_id) and not lifted}
    )
    taken_recently = port.taken_turn is not None and port.taken_turn >= turn_number - 1
    besieged = port.siege_turns > 0
    return PortRow(
        key=port.key,
        name=port.name,
        zone_name=port.sea_zone.name,
        owner_code=owner.code,
        owner_name=owner.name,
        color=owner.color,
        fortification=port.fortification,
        capacity=port.capacity,
        ep_value=port.ep_value,
        dockyard=port.dockyard,
        garrison=int(getattr(port, "garrison", 0)),
        siege_turns=port.siege_turns,
        besiegers=tuple(sorted(by_id[n].code for n in besiegers)),
        blockaders=tuple(blockaders),
        taken_turn=port.taken_turn,
        pays=not (besieged or blockaders or taken_recently),
        can_build=port.dockyard and not besieged and not taken_recently,
    )


def _quota(viewer: Viewer, counts: NavyCounts, pending: list[str], available: int, dockyards: list[str]) -> QuotaStatus:
    """RULES.md §1 for the current year, counting the lay-downs already listed this turn."""
    ruleset, nation = viewer.ruleset, viewer.nation
    year = viewer.turn.year if viewer.turn else viewer.campaign.year
    for ship_class in pending:
        counts = counts.plus(ship_class)
    options = []
    for ship_class in SHIP_CLASSES:
        cost = ruleset.ship_cost[ship_class]
        reason = ""
        try:
            check_limits(
                ruleset, navy=nation.navy, nation_code=nation.code, year=year, ship_class=ship_class, counts=counts
            )
        except ConstructionRefused as refused:
            reason = "four-decker limit reached" if refused.rule == "four_decker_limit" else "over the quota"
        if not reason and cost > available:
            reason = f"needs {cost} EP, {available} EP available"
        if not reason and not dockyards:
            reason = "no dockyard port free to build"
        options.append(
            ClassOption(ship_class, cost, ruleset.ship_build_turns[ship_class], allowed=not reason, reason=reason)
        )
    return QuotaStatus(
        period=period_label(ruleset, year),
        percent=ruleset.quota_percent(nation.navy, year),
        counts=counts,
        within=within_quota(ruleset, navy=nation.navy, year=year, counts=counts),
        big_allowed_now=big_ships_allowed_now(ruleset, navy=nation.navy, year=year, counts=counts),
        four_decker_limit=ruleset["quota.four_decker_limit"],
        options=options,
        dockyards=dockyards,
        pending_keels=len(pending),
    )


def _turn_stub(viewer: Viewer) -> Turn | None:
    """An unsaved Turn carrying the current turn's id and number, for services that take a Turn."""
    if viewer.turn is None:
        return None
    return Turn(pk=viewer.turn.id, campaign_id=viewer.campaign.pk, number=viewer.turn.number, status=viewer.turn.status)


def _pending_keels(viewer: Viewer, turn: Turn | None) -> list[str]:
    if turn is None or turn.status != Turn.Status.OPEN:
        return []
    bodies = Order.objects.filter(turn_id=turn.pk, nation=viewer.nation, kind=Order.Kind.LAY_DOWN).values_list(
        "body", flat=True
    )
    return [b["class"] for b in bodies if isinstance(b, Mapping) and b.get("class") in SHIP_CLASSES]


def dashboard_for_player(*, user: User, slug: str, nation_code: str | None = None, ledger_page: int = 1) -> Dashboard:
    """The nation dashboard: treasury and ledger, projection, quota, fleets, ports, sieges, contacts.

    At most 17 queries plus one each when the latest report holds sightings or battles and when the
    nation blockades a port, whatever the number of ships.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    nation, campaign, ruleset = viewer.nation, viewer.campaign, viewer.ruleset
    turn_number = viewer.turn.number if viewer.turn else campaign.turn_number
    page = max(1, ledger_page)
    rows = list(
        LedgerEntry.objects.filter(nation=nation).order_by("-id")[
            (page - 1) * LEDGER_PAGE_SIZE : page * LEDGER_PAGE_SIZE + 1
        ]
    )
    ledger = LedgerPage(rows[:LEDGER_PAGE_SIZE], page, has_next=len(rows) > LEDGER_PAGE_SIZE)

    fleets: dict[int, FleetView] = {}
    for f in (
        Fleet.objects.filter(nation=nation)
        .select_related("sea_zone", "port", "admiral", "blockade_port")
        .order_by("name")
    ):
        fleets[f.pk] = FleetView(
            id=f.pk,
            name=f.name,
            zone_key=f.sea_zone.key,
            zone_name=f.sea_zone.name,
            port_name=f.port.name if f.port else "",
            admiral=f"{f.admiral.name} ({f.admiral.grade})" if f.admiral else "",
            posture=f.get_posture_display(),
            blockade_port=f.blockade_port.name if f.blockade_port else "",
            in_supply=f.in_supply,
        )
    keels, lost, economy = [], [], []
    by_id = viewer.nations_by_id
    ships = sorted(
        Ship.objects.filter(nation=nation).select_related("building_port"),
        key=lambda s: (s.fleet_id or 0, *ship_line_key(s, ruleset)),
    )
    for s in ships:
        economy.append(EconomyShip(s.ship_class, s.condition, s.in_ordinary))  # type: ignore[arg-type]
        if s.condition == Ship.Condition.BUILDING:
            port = s.building_port.name if s.building_port else ""
            keels.append(KeelRow(s.pk, s.name, s.ship_class, port, s.building_turns_left))
        elif s.condition in Ship.GONE:
            lost.append(LostRow(s.name, s.ship_class, s.condition, s.lost_turn))
        elif s.fleet_id in fleets:
            captured_from = by_id[s.original_nation_id].name if s.original_nation_id != s.nation_id else ""
            fleets[s.fleet_id].ships.append(
                ShipRow(
                    s.pk,
                    s.name,
                    s.ship_class,
                    s.condition,
                    s.in_ordinary,
                    s.crew,
                    captured_from,
                    s.cargo_id is not None,
                )
            )

    ports, blockades = _ports_with_status(viewer, turn_number - 1)
    besiegers = _besiegers(viewer)
    port_rows = [
        _port_row(
            viewer, p, blockades=blockades.get(p.pk, []), besiegers=besiegers.get(p.pk, set()), turn_number=turn_number
        )
        for p in ports
    ]
    own_ports = [r for r in port_rows if r.owner_code == nation.code]
    turn = _turn_stub(viewer)
    committed = orders_committed_ep(nation=nation, turn=turn) if turn is not None and turn.status == "open" else 0
    available = nation.treasury - committed
    pending = _pending_keels(viewer, turn)
    quota = _quota(
        viewer, navy_counts(nation_id=nation.pk), pending, available, [r.name for r in own_ports if r.can_build]
    )

    paying = [
        IncomePort(key=r.key, ep_value=r.ep_value, besieged=r.siege_turns > 0, blockaded=bool(r.blockaders))
        for r in own_ports
    ]
    taken = {r.key for r in own_ports if r.taken_turn is not None and r.taken_turn >= turn_number - 1}
    paying = [p if p.key not in taken else IncomePort(p.key, p.ep_value, taken_recently=True) for p in paying]
    turn_income = income(nation.base_income, paying)
    due = upkeep(economy, ruleset)
    result = economy_turn(max(0, available), turn_income, due)
    projection = Projection(
        base=turn_income.base,
        ports=turn_income.ports,
        income=turn_income.total,
        upkeep=due,
        upkeep_unpaid=result.upkeep_unpaid,
        treasury_after=result.treasury_after,
    )

    report = _report(nation)
    contacts = _contacts(viewer, report, ports)
    return Dashboard(
        viewer=viewer,
        treasury=nation.treasury,
        committed_ep=committed,
        ledger=ledger,
        projection=projection,
        quota=quota,
        fleets=list(fleets.values()),
        keels=keels,
        lost=lost,
        ports=own_ports,
        sieges=[r for r in port_rows if r.siege_turns > 0 or r.besiegers],
        blockades=[r for r in port_rows if r.blockaders],
        contacts=contacts,
        report=report,
    )


def _contacts(viewer: Viewer, report: ReportView | None, ports: Sequence[Port]) -> list[Contact]:
    """Enemy contacts of the report; zone names and battle sides are read only when it has any."""
    if report is None or not any(_is_contact(e) for e in report.events):
        return []
    zones = dict(SeaZone.objects.filter(campaign=viewer.campaign).values_list("key", "name"))
    return contacts_from_events(
        report.events,
        viewer_code=viewer.nation.code,
        friendly_codes=viewer.friendly_codes,
        nations=_nation_labels(viewer),
        zones=zones,
        port_zones={p.key: p.sea_zone.key for p in ports},
        port_names={p.key: p.name for p in ports},
        battle_sides=_battle_sides(report.battle_ids, viewer.campaign),
    )


# --- the map --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapZone:
    key: str
    name: str
    type: str
    x: int
    y: int
    adjacent: tuple[str, ...]

    @property
    def type_label(self) -> str:
        return ZONE_TYPE_LABELS.get(self.type, self.type)


@dataclass(frozen=True)
class MapPort:
    key: str
    name: str
    zone_key: str
    x: int
    y: int
    owner_code: str
    owner_name: str
    color: str
    fortification: int
    dockyard: bool
    siege_turns: int
    besiegers: tuple[str, ...]
    blockaders: tuple[str, ...]


@dataclass
class MapFleet:
    """An own or allied fleet as the map shows it."""

    id: int
    name: str
    nation_code: str
    nation_name: str
    color: str
    own: bool
    zone_key: str
    port_key: str
    port_name: str
    admiral: str
    ships: int
    sol: int


@dataclass(frozen=True)
class Marker:
    x: int
    y: int
    color: str
    label: str
    title: str
    zone_key: str
    fleet_id: int | None  # the one own fleet it stands for: the marker links to it on the dashboard
    kind: str  # "own" | "ally" | "enemy" | "port"
    small: bool = False  # beside a port rather than a zone


@dataclass
class MapView:
    viewer: Viewer
    zones: list[MapZone]
    edges: list[tuple[int, int, int, int]]
    ports: list[MapPort]
    fleets: list[MapFleet]
    contacts: list[Contact]
    markers: list[Marker]
    report_turn: int | None
    selected: ZonePanel | None
    labels: list[ZoneLabel] = field(default_factory=list)
    viewbox: str = "0 0 1000 700"

    def __post_init__(self) -> None:
        if not self.labels:
            self.labels, self.viewbox = _layout(self.zones, self.ports, self.markers)

    @property
    def legend_nations(self) -> list[Nation]:
        owners = {p.owner_code for p in self.ports} | {f.nation_code for f in self.fleets}
        owners |= {c.nation_code for c in self.contacts}
        return [n for n in self.viewer.nations if n.code in owners]


@dataclass
class ZonePanel:
    zone: MapZone
    adjacent: list[MapZone]
    ports: list[MapPort]
    fleets: list[MapFleet]
    contacts: list[Contact]


# --- map layout: zone labels that keep clear of each other, and the drawn area --------------------------

LABEL_FONT = 8.5
#: Where a zone's label may go, relative to the zone's centre: (dx, gap, anchor, vertical), tried in
#: this order of preference; a label takes the place where it overlaps least with what is drawn.
_LABEL_PLACES = (
    (0, 11, "middle", "below"),
    (0, 11, "middle", "above"),
    (12, 0, "start", "beside"),
    (-12, 0, "end", "beside"),
    (7, 8, "start", "below"),
    (-7, 8, "end", "below"),
    (7, 8, "start", "above"),
    (-7, 8, "end", "above"),
)

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class ZoneLabel:
    key: str
    x: float
    y: float
    anchor: str
    lines: tuple[str, ...]


def _label_lines(name: str) -> tuple[str, ...]:
    """The zone's name without its parenthesis, on two lines when long."""
    short = re.sub(r"\s*\(.*?\)", "", name).strip() or name
    words = short.split()
    if len(short) <= 16 or len(words) < 2:
        return (short,)
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda pair: max(len(pair[0]), len(pair[1])))


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _label_box(x: float, y: float, anchor: str, lines: tuple[str, ...]) -> Box:
    width = max(len(line) for line in lines) * LABEL_FONT * 0.5
    left = x - width / 2 if anchor == "middle" else (x if anchor == "start" else x - width)
    top = y - LABEL_FONT * 0.8
    return (left, top, left + width, top + LABEL_FONT * 1.1 * len(lines))


def _layout(
    zones: Sequence[MapZone], ports: Sequence[MapPort], markers: Sequence[Marker]
) -> tuple[list[ZoneLabel], str]:
    """Greedy label placement (most crowded zones first) and the viewBox around everything drawn."""
    obstacles: list[Box] = [(z.x - 10, z.y - 10, z.x + 10, z.y + 10) for z in zones]
    obstacles += [(p.x - 4, p.y - 4, p.x + 4, p.y + 4) for p in ports]
    obstacles += [(m.x, m.y, m.x + (16 if m.small else 22), m.y + (9 if m.small else 11)) for m in markers]

    def crowd(z: MapZone) -> int:
        return sum(1 for b in obstacles if abs((b[0] + b[2]) / 2 - z.x) < 45 and abs((b[1] + b[3]) / 2 - z.y) < 30)

    labels: dict[str, ZoneLabel] = {}
    for zone in sorted(zones, key=lambda z: (-crowd(z), z.key)):
        lines = _label_lines(zone.name)
        height = LABEL_FONT * 1.1 * len(lines)
        # Only what lies near the zone can overlap a label placed around it: scoring against every
        # obstacle of the map gave the same answer a hundred times slower.
        reach = LABEL_FONT * 0.5 * max(len(line) for line in lines) + 40
        nearby = [b for b in obstacles if b[2] > zone.x - reach and b[0] < zone.x + reach and abs(b[1] - zone.y) < 60]
        best: tuple[float, ZoneLabel, Box] | None = None
        for rank, (dx, gap, anchor, vertical) in enumerate(_LABEL_PLACES):
            if vertical == "below":
                y = zone.y + gap + LABEL_FONT * 0.8
            elif vertical == "above":
                y = zone.y - gap - height + LABEL_FONT * 0.8
            else:
                y = zone.y - height / 2 + LABEL_FONT * 0.8
            x = zone.x + dx
            box = _label_box(x, y, anchor, lines)
            own = (zone.x - 10, zone.y - 10, zone.x + 10, zone.y + 10)
            score = sum(_overlap(box, b) for b in nearby if b != own) + rank * 2.0
            if best is None or score < best[0]:
                best = (score, ZoneLabel(zone.key, round(x, 1), round(y, 1), anchor, lines), box)
        assert best is not None
        labels[zone.key] = best[1]
        obstacles.append(best[2])
    if not obstacles:
        return [], "0 0 1000 700"
    box = (
        min(b[0] for b in obstacles) - 10,
        min(b[1] for b in obstacles) - 10,
        max(b[2] for b in obstacles) + 10,
        max(b[3] for b in obstacles) + 10,
    )
    return [labels[z.key] for z in zones], _viewbox(box)


def _viewbox(box: Box) -> str:
    """The drawn area as a viewBox, widened to a landscape shape near the map's own (10:7) and to at
    least a third of the map, so a campaign of three zones is not drawn in giant letters."""
    left, top, right, bottom = box
    width, height = max(right - left, 400.0), max(bottom - top, 280.0)
    width = max(width, height * 1.25)
    height = max(height, width / 1.8)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    width, height = min(width, 1000.0), min(height, 700.0)
    left = min(max(cx - width / 2, 0.0), 1000.0 - width)
    top = min(max(cy - height / 2, 0.0), 700.0 - height)
    return f"{left:.0f} {top:.0f} {width:.0f} {height:.0f}"


def _edges(zones: Sequence[MapZone]) -> list[tuple[int, int, int, int]]:
    at = {z.key: z for z in zones}
    edges = []
    for z in zones:
        for other in z.adjacent:
            if other in at and z.key < other:
                o = at[other]
                edges.append((z.x, z.y, o.x, o.y))
    return edges


def _single_own(group: Sequence[MapFleet]) -> int | None:
    return group[0].id if len(group) == 1 and group[0].own else None


def _markers(
    zones: Sequence[MapZone], ports: Sequence[MapPort], fleets: Sequence[MapFleet], contacts: Sequence[Contact]
) -> list[Marker]:
    """Where the map draws forces: own/allied at sea to the right of the zone, in port beside the port,
    enemies to the left of the zone. A marker links to its zone's panel, or to its fleet on the
    dashboard when it stands for a single own fleet."""
    zone_at = {z.key: z for z in zones}
    port_at = {p.key: p for p in ports}
    markers: list[Marker] = []
    at_sea: dict[str, dict[str, list[MapFleet]]] = defaultdict(lambda: defaultdict(list))
    in_port: dict[str, dict[str, list[MapFleet]]] = defaultdict(lambda: defaultdict(list))
    for f in fleets:
        (in_port[f.port_key] if f.port_key else at_sea[f.zone_key])[f.nation_code].append(f)
    for zone_key, by_nation in at_sea.items():
        zone = zone_at.get(zone_key)
        if zone is None:
            continue
        for i, (_, group) in enumerate(sorted(by_nation.items(), key=lambda kv: (not kv[1][0].own, kv[0]))):
            ships = sum(f.ships for f in group)
            names = ", ".join(f.name for f in group)
            markers.append(
                Marker(
                    zone.x + 12,
                    zone.y - 14 + 13 * i,
                    group[0].color,
                    str(ships),
                    f"{group[0].nation_name}: {names} — {ships} ships at sea in {zone.name}",
                    zone_key,
                    _single_own(group),
                    "own" if group[0].own else "ally",
                )
            )
    for port_key, by_nation in in_port.items():
        port = port_at.get(port_key)
        if port is None:
            continue
        for i, (_, group) in enumerate(sorted(by_nation.items(), key=lambda kv: (not kv[1][0].own, kv[0]))):
            ships = sum(f.ships for f in group)
            names = ", ".join(f.name for f in group)
            markers.append(
                Marker(
                    port.x + 6,
                    port.y - 4 + 11 * i,
                    group[0].color,
                    str(ships),
                    f"{group[0].nation_name}: {names} — {ships} ships in {port.name}",
                    port.zone_key,
                    _single_own(group),
                    "port",
                    small=True,
                )
            )
    # Several reports of one force (step 1 and step 2, a sighting and the battle after it) are not
    # added up: the marker shows the most ships of that nation seen at once in the place. Every
    # enemy marker stands left of its zone (ports lie too close to their zone's circle to carry
    # one); its title says whether the ships were at sea or in a port.
    enemies: dict[str, dict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
    colors: dict[str, str] = {}
    nation_names: dict[str, str] = {}
    for c in contacts:
        place = (c.nation_code, c.port_key if c.port_key in port_at else "")
        enemies[c.zone_key][place] = max(enemies[c.zone_key][place], len(c.present))
        colors[c.nation_code], nation_names[c.nation_code] = c.color, c.nation_name
    for zone_key, counts in enemies.items():
        zone = zone_at.get(zone_key)
        if zone is None:
            continue
        for i, ((code, port_key), n) in enumerate(sorted(counts.items())):
            where = f"in {port_at[port_key].name}" if port_key else f"at sea in {zone.name}"
            markers.append(
                Marker(
                    zone.x - 34,
                    zone.y - 14 + 13 * i,
                    colors[code],
                    str(n),
                    f"{nation_names[code]}: {n} ships seen {where}",
                    zone_key,
                    None,
                    "enemy",
                )
            )
    return markers


def _panel(
    zone_key: str | None,
    zones: Sequence[MapZone],
    ports: Sequence[MapPort],
    fleets: Sequence[MapFleet],
    contacts: Sequence[Contact],
) -> ZonePanel | None:
    if not zone_key:
        return None
    at = {z.key: z for z in zones}
    zone = at.get(zone_key)
    if zone is None:
        raise Http404("No such sea zone.")
    return ZonePanel(
        zone=zone,
        adjacent=sorted((at[k] for k in zone.adjacent if k in at), key=lambda z: z.name),
        ports=[p for p in ports if p.zone_key == zone_key],
        fleets=[f for f in fleets if f.zone_key == zone_key],
        contacts=[c for c in contacts if c.zone_key == zone_key],
    )


def map_for_player(*, user: User, slug: str, nation_code: str | None = None, zone_key: str | None = None) -> MapView:
    """The campaign map as the nation sees it now (fog of war as in the module docstring).

    ``zone_key`` selects a zone for the detail panel (Http404 if unknown). At most 13 queries plus
    one each for a report with contacts, one with battles, and ports the nation blockades.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    campaign = viewer.campaign
    turn_number = viewer.turn.number if viewer.turn else campaign.turn_number
    graph: dict[int, list[str]] = defaultdict(list)
    zone_rows = list(SeaZone.objects.filter(campaign=campaign).order_by("key"))
    keys = {z.pk: z.key for z in zone_rows}
    for a, b in SeaZone.adjacent.through.objects.filter(from_seazone__campaign=campaign).values_list(
        "from_seazone_id", "to_seazone_id"
    ):
        graph[a].append(keys[b])
    zones = [MapZone(z.key, z.name, z.type, z.x, z.y, tuple(sorted(set(graph[z.pk])))) for z in zone_rows]
    port_rows, blockades = _ports_with_status(viewer, turn_number - 1)
    besiegers = _besiegers(viewer)
    by_id = viewer.nations_by_id
    ports = []
    for p in port_rows:
        row = _port_row(
            viewer, p, blockades=blockades.get(p.pk, []), besiegers=besiegers.get(p.pk, set()), turn_number=turn_number
        )
        ports.append(
            MapPort(
                p.key,
                p.name,
                p.sea_zone.key,
                p.x,
                p.y,
                row.owner_code,
                row.owner_name,
                row.color,
                p.fortification,
                p.dockyard,
                p.siege_turns,
                row.besiegers,
                row.blockaders,
            )
        )
    friendly_ids = [n.pk for n in viewer.nations if viewer.friendly(n.pk)]
    counts: dict[int, tuple[int, int]] = {}
    for fleet_id, ships, sol in (
        Ship.objects.filter(fleet__nation_id__in=friendly_ids, condition__in=AFLOAT)
        .values("fleet_id")
        .annotate(ships=Count("id"), sol=Count("id", filter=Q(ship_class__in=SOL_CLASSES)))
        .values_list("fleet_id", "ships", "sol")
    ):
        counts[fleet_id] = (ships, sol)
    fleets = []
    for f in (
        Fleet.objects.filter(campaign=campaign, nation_id__in=friendly_ids)
        .select_related("sea_zone", "port", "admiral")
        .order_by("nation__code", "name")
    ):
        nation = by_id[f.nation_id]
        ships, sol = counts.get(f.pk, (0, 0))
        if ships == 0:
            continue  # an empty fleet is nothing to see on a map
        fleets.append(
            MapFleet(
                f.pk,
                f.name,
                nation.code,
                nation.name,
                nation.color,
                f.nation_id == viewer.nation.pk,
                f.sea_zone.key,
                f.port.key if f.port else "",
                f.port.name if f.port else "",
                f"{f.admiral.name} ({f.admiral.grade})" if f.admiral else "",
                ships,
                sol,
            )
        )
    report = _report(viewer.nation)
    contacts = _contacts(viewer, report, port_rows)
    return MapView(
        viewer=viewer,
        zones=zones,
        edges=_edges(zones),
        ports=ports,
        fleets=fleets,
        contacts=contacts,
        markers=_markers(zones, ports, fleets, contacts),
        report_turn=report.turn_number if report else None,
        selected=_panel(zone_key, zones, ports, fleets, contacts),
    )


# --- turn history ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRow:
    id: int
    kind: str
    place: str
    sides: str
    winner: str
    fought: bool


@dataclass
class TurnHistory:
    viewer: Viewer
    number: int
    season: str
    year: int
    report: ReportView | None
    battles: list[BattleRow]
    map: MapView | None
    previous: int | None
    next: int | None


def _snapshot_map(
    viewer: Viewer, snapshot: Mapping[str, Any], contacts: list[Contact], blockade_rows: list[tuple[str, str, bool]]
) -> MapView:
    """The map drawn from a stored export (CONTRACT.md keys) with the fog of war of that moment:
    own and allied fleets by the relations then, enemies only as ``contacts``."""
    zones = [
        MapZone(
            z["key"], z["name"], z.get("type", ""), int(z.get("x", 0)), int(z.get("y", 0)), tuple(z.get("adjacent", []))
        )
        for z in snapshot.get("sea_zones") or []
    ]
    nations = {n.code: n for n in viewer.nations}
    states = {frozenset((r["a"], r["b"])): r["state"] for r in snapshot.get("relations") or []}
    me = viewer.nation.code

    def friendly(code: str) -> bool:
        return code == me or states.get(frozenset((me, code))) == Relation.State.ALLIANCE

    def at_war(a: str, b: str) -> bool:
        return states.get(frozenset((a, b))) == Relation.State.WAR

    besiegers: dict[str, set[str]] = defaultdict(set)
    owner_of = {p["key"]: p.get("owner") for p in snapshot.get("ports") or []}
    for unit in snapshot.get("land_units") or []:
        port = unit.get("port")
        if (
            unit.get("state") == LandUnit.State.ASHORE
            and port in owner_of
            and at_war(unit["nation"], owner_of[port] or "")
        ):
            besiegers[port].add(unit["nation"])
    blockaders: dict[str, set[str]] = defaultdict(set)
    for port_key, code, lifted in blockade_rows:
        if not lifted and at_war(code, owner_of.get(port_key) or ""):
            blockaders[port_key].add(code)
    ports = []
    for p in snapshot.get("ports") or []:
        owner = nations.get(p.get("owner") or "")
        ports.append(
            MapPort(
                p["key"],
                p["name"],
                p["sea_zone"],
                int(p.get("x", 0)),
                int(p.get("y", 0)),
                owner.code if owner else "?",
                owner.name if owner else "?",
                owner.color if owner else "#777777",
                int(p.get("fortification", 0)),
                bool(p.get("dockyard")),
                int(p.get("siege_turns") or 0),
                tuple(sorted(besiegers[p["key"]])),
                tuple(sorted(blockaders[p["key"]])),
            )
        )
    port_names = {p.key: p.name for p in ports}
    ship_counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for s in snapshot.get("ships") or []:
        if s.get("condition") in AFLOAT and s.get("fleet") is not None:
            ship_counts[s["fleet"]][0] += 1
            ship_counts[s["fleet"]][1] += s.get("class") in SOL_CLASSES
    fleets = []
    for f in snapshot.get("fleets") or []:
        code = f.get("nation", "")
        nation = nations.get(code)
        ships, sol = ship_counts.get(f["id"], [0, 0])
        if nation is None or not friendly(code) or ships == 0:
            continue
        admiral = f.get("admiral")
        fleets.append(
            MapFleet(
                f["id"],
                f["name"],
                code,
                nation.name,
                nation.color,
                code == me,
                f["sea_zone"],
                f.get("port") or "",
                port_names.get(f.get("port") or "", ""),
                f"{admiral['name']} ({admiral['grade']})" if isinstance(admiral, Mapping) else "",
                ships,
                sol,
            )
        )
    return MapView(
        viewer=viewer,
        zones=zones,
        edges=_edges(zones),
        ports=ports,
        fleets=fleets,
        contacts=contacts,
        markers=_markers(zones, ports, fleets, contacts),
        report_turn=None,
        selected=None,
    )


SNAPSHOT_KEYS = ("sea_zones", "ports", "fleets", "ships", "relations", "land_units")


def turn_history_for_player(*, user: User, slug: str, number: int, nation_code: str | None = None) -> TurnHistory:
    """A past turn as the nation saw it: its report, the battles it fought or saw, and the map as the
    turn left it (the next turn's opening snapshot) with that turn's fog of war.

    Http404 for a turn that does not exist or is not resolved yet. Only the parts of the snapshot
    the map needs are read (a snapshot holds the whole export).
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    campaign = viewer.campaign
    turn = Turn.objects.filter(campaign=campaign, number=number, status=Turn.Status.RESOLVED).first()
    if turn is None:
        raise Http404("That turn has not been resolved.")
    report = _report(viewer.nation, number=number)
    code = viewer.nation.code
    battle_rows = list(
        Battle.objects.filter(turn=turn)
        .order_by("id")
        .values_list("pk", "kind", "place", "sides", "winner", "sea_zone__name", "port__name")
    )
    seen = set(report.battle_ids if report else [])
    friendly = viewer.friendly_codes
    battles = []
    kinds = dict(Battle.Kind.choices)
    sides_by_id: dict[int, list[Any]] = {}
    for pk, kind, _place, sides, winner, zone_name, port_name in battle_rows:
        sides = sides if isinstance(sides, list) else []
        in_it = {c for s in sides if isinstance(s, Mapping) for c in s.get("nations") or [] if isinstance(c, str)}
        fought = code in in_it
        if not fought and not (in_it & friendly) and pk not in seen:
            continue
        sides_by_id[pk] = sides
        names = [str(s.get("name") or "/".join(s.get("nations") or [])) for s in sides if isinstance(s, Mapping)]
        won = names[winner] if winner is not None and 0 <= winner < len(names) else "no winner"
        battles.append(
            BattleRow(pk, kinds.get(kind, kind), port_name or zone_name, " against ".join(names), won, fought)
        )
    contacts: list[Contact] = []
    history_map = None
    parts = (
        Turn.objects.filter(campaign=campaign, number=number + 1)
        .values_list(*(f"snapshot__{k}" for k in SNAPSHOT_KEYS))
        .first()
    )
    if parts is not None and parts[0]:
        snapshot = dict(zip(SNAPSHOT_KEYS, parts, strict=True))
        zones = {z["key"]: z["name"] for z in snapshot["sea_zones"] or []}
        port_zones = {p["key"]: p["sea_zone"] for p in snapshot["ports"] or []}
        if report is not None:
            contacts = contacts_from_events(
                report.events,
                viewer_code=code,
                friendly_codes=viewer.friendly_codes,
                nations=_nation_labels(viewer),
                zones=zones,
                port_zones=port_zones,
                port_names={p["key"]: p["name"] for p in snapshot["ports"] or []},
                battle_sides={
                    **_battle_sides([b for b in report.battle_ids if b not in sides_by_id], campaign),
                    **sides_by_id,
                },
            )
        blockade_rows = list(
            Blockade.objects.filter(campaign=campaign, turn=number).values_list(
                "port__key", "fleet__nation__code", "lifted"
            )
        )
        history_map = _snapshot_map(viewer, snapshot, contacts, blockade_rows)
    numbers = list(
        Turn.objects.filter(
            campaign=campaign, status=Turn.Status.RESOLVED, number__in=[number - 1, number + 1]
        ).values_list("number", flat=True)
    )
    return TurnHistory(
        viewer=viewer,
        number=number,
        season=turn.get_season_display(),
        year=turn.year,
        report=report,
        battles=battles,
        map=history_map,
        previous=number - 1 if number - 1 in numbers else None,
        next=number + 1 if number + 1 in numbers else None,
    )


@dataclass(frozen=True)
class TurnRow:
    number: int
    season: str
    year: int
    resolved_at: datetime | None
    events: int


@dataclass
class TurnList:
    viewer: Viewer
    turns: list[TurnRow]
    page: int
    has_next: bool


def turns_for_player(*, user: User, slug: str, nation_code: str | None = None, page: int = 1) -> TurnList:
    """The resolved turns, newest first, paginated (two queries after the viewer's three)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    page = max(1, page)
    rows = list(
        Turn.objects.filter(campaign=viewer.campaign, status=Turn.Status.RESOLVED)
        .order_by("-number")
        .values_list("number", "season", "year", "resolved_at")[
            (page - 1) * TURNS_PAGE_SIZE : page * TURNS_PAGE_SIZE + 1
        ]
    )
    has_next = len(rows) > TURNS_PAGE_SIZE
    rows = rows[:TURNS_PAGE_SIZE]
    seasons = dict(Turn._meta.get_field("season").choices or [])
    event_counts: dict[int, int] = {}
    for number, body in TurnReport.objects.filter(
        nation=viewer.nation, turn__number__in=[r[0] for r in rows]
    ).values_list("turn__number", "body"):
        events = body.get("events") if isinstance(body, Mapping) else None
        event_counts[number] = len(events) if isinstance(events, list) else 0
    turns = [TurnRow(n, str(seasons.get(s, s)), y, at, event_counts.get(n, 0)) for n, s, y, at in rows]
    return TurnList(viewer, turns, page, has_next)


# --- the home page --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CampaignRow:
    campaign: Campaign
    nation: Nation | None
    is_gm: bool
    turn_number: int
    deadline: datetime | None
    turn_status: str
    ready: bool


def home_for_player(*, user: User) -> list[CampaignRow]:
    """The campaigns the user plays or runs, with their nation, turn and deadline (three queries)."""
    campaigns = list(campaigns_for_user(user=user))
    if not campaigns:
        return []
    ids = [c.pk for c in campaigns]
    mine = {n.campaign_id: n for n in Nation.objects.filter(campaign_id__in=ids, player_id=user.pk)}
    ready = NationTurn.objects.filter(turn=OuterRef("pk"), nation__player_id=user.pk, ready=True)
    turns = {
        t.campaign_id: t
        for t in Turn.objects.filter(
            campaign_id__in=ids, status__in=[Turn.Status.OPEN, Turn.Status.RESOLVING]
        ).annotate(me_ready=Exists(ready))
    }
    rows = []
    for c in campaigns:
        turn = turns.get(c.pk)
        rows.append(
            CampaignRow(
                campaign=c,
                nation=mine.get(c.pk),
                is_gm=_is_staff(user) or c.gm_id == user.pk,
                turn_number=turn.number if turn else c.turn_number,
                deadline=turn.deadline if turn else None,
                turn_status=turn.get_status_display() if turn else "",
                ready=bool(getattr(turn, "me_ready", False)),
            )
        )
    return rows


__all__ = [
    "Contact",
    "Dashboard",
    "MapView",
    "TurnHistory",
    "contacts_from_events",
    "dashboard_for_player",
    "home_for_player",
    "map_for_player",
    "turn_history_for_player",
    "turns_for_player",
    "viewer_for_player",
]
