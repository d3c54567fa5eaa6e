"""What the players' pages show of battles on the table (issue 15): the turn's markings and the
battles waiting at the table, one battle with its pack and its result form.

A GM sees every one; a player sees those their nation asked for or fights in (fog of war: a marking
made by the GM for a place the player is not part of tells them nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import Http404

from battles.engagements.table import table_sides
from battles.models import TabletopBattle
from battles.tabletop_pack import BattlePack, battle_pack
from campaign.models import Turn
from campaign.viewer import User, Viewer, viewer_for_player
from ports.models import Port, SeaZone

FATE_CHOICES = (
    ("intact", "Intact"),
    ("damaged", "Damaged"),
    ("disabled", "Disabled"),
    ("sunk", "Sunk"),
    ("captured", "Captured"),
)
TAKEN_IN_CHOICES = (("", "as it was"), ("ready", "ready"), ("damaged", "damaged"), ("disabled", "disabled"))


def _involves(table: TabletopBattle, code: str) -> bool:
    if table.engagement is not None:
        return any(code in side.get("nations", []) for side in table.engagement.sides)
    return False


def _visible(viewer: Viewer, table: TabletopBattle) -> bool:
    return viewer.is_gm or table.requested_by_id == viewer.nation.pk or _involves(table, viewer.nation.code)


def _place_name(table: TabletopBattle) -> str:
    return table.port.name if table.port is not None else table.sea_zone.name


@dataclass
class TableRow:
    table: TabletopBattle
    place: str
    turn: int

    @property
    def status(self) -> str:
        return self.table.get_status_display()


@dataclass
class TablesPage:
    viewer: Viewer
    rows: list[TableRow]
    places: list[tuple[str, str]]
    can_mark: bool
    turn: Turn | None


def tables_for_player(*, user: User, slug: str, nation_code: str | None = None) -> TablesPage:
    """The campaign's battles on the table the viewer may see (newest turn first), and the places a
    battle can be sent from while a turn is open."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    rows = (
        TabletopBattle.objects.filter(campaign=viewer.campaign)
        .select_related("turn", "sea_zone", "port", "engagement", "requested_by")
        .order_by("-turn__number", "place")
    )
    visible = [TableRow(t, _place_name(t), t.turn.number) for t in rows if _visible(viewer, t)]
    turn = Turn.objects.filter(campaign=viewer.campaign, status=Turn.Status.OPEN).defer("snapshot", "dice_log").first()
    zones = [(z.key, f"{z.name} (sea zone)") for z in SeaZone.objects.filter(campaign=viewer.campaign).order_by("name")]
    ports = [(p.key, f"{p.name} (port)") for p in Port.objects.filter(campaign=viewer.campaign).order_by("name")]
    return TablesPage(viewer, visible, zones + ports, turn is not None, turn)


@dataclass
class FormShip:
    """One ship's line of the result form, with what was entered for it."""

    id: int
    name: str
    side: int
    detail: str
    fate: str = "intact"
    captured_by: str = ""
    taken_in: str = ""
    captors: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class TableDetail:
    viewer: Viewer
    table: TabletopBattle
    place: str
    pack: BattlePack | None
    my_side: int | None
    ships: list[FormShip]
    admirals: list[tuple[int, str, bool]]
    side_labels: list[str]
    held_field: str
    deadline: Any

    @property
    def outstanding(self) -> bool:
        return self.table.status in TabletopBattle.OUTSTANDING

    @property
    def can_enter(self) -> bool:
        return self.outstanding and (self.viewer.is_gm or self.my_side is not None)

    @property
    def can_confirm(self) -> bool:
        return (
            self.table.status == TabletopBattle.Status.ENTERED
            and self.my_side is not None
            and self.my_side not in self.table.confirmed
        )

    @property
    def can_dispute(self) -> bool:
        return (
            self.table.status in (TabletopBattle.Status.ENTERED, TabletopBattle.Status.CONFIRMED)
            and self.my_side is not None
        )


def table_for_player(*, user: User, slug: str, table_id: int, nation_code: str | None = None) -> TableDetail:
    """One battle on the table with its pack (once the turn found it) and its result form's rows."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    table = (
        TabletopBattle.objects.select_related("turn", "campaign", "sea_zone", "port", "engagement", "requested_by")
        .filter(campaign=viewer.campaign, pk=table_id)
        .first()
    )
    if table is None or not _visible(viewer, table):
        raise Http404("No such battle on the table.")
    my_side = None
    if table.engagement is not None:
        for k, side in enumerate(table.engagement.sides):
            if viewer.nation.code in side.get("nations", []) and (viewer.nation.player_id == user.pk):
                my_side = k
    pack = battle_pack(table) if table.status in TabletopBattle.OUTSTANDING else None
    entered = {row.get("ship"): row for row in (table.result or {}).get("ships", []) if isinstance(row, dict)}
    ships: list[FormShip] = []
    admirals: list[tuple[int, str, bool]] = []
    labels: list[str] = []
    if pack is not None:
        assert table.engagement is not None
        loaded = table_sides(table.engagement)
        names = {n.code: n.name for n in viewer.nations}
        labels = [" and ".join(names.get(c, c) for c in s.nations) for s in loaded.sides]
        lost = set((table.result or {}).get("admirals_lost", []))
        for side, ship in loaded.ships():
            row = entered.get(ship.pk, {})
            enemy = loaded.sides[1 - side.index]
            ships.append(
                FormShip(
                    id=ship.pk,
                    name=ship.name,
                    side=side.index,
                    detail=", ".join(
                        (ship.get_ship_class_display(), ship.nation.name, ship.get_condition_display().lower())
                    ),
                    fate=str(row.get("fate") or "intact"),
                    captured_by=str(row.get("captured_by") or ""),
                    taken_in=str(row.get("taken_in") or ""),
                    captors=sorted({(f.nation.code, f.nation.name) for f in enemy.fleets}),
                )
            )
        admirals = [
            (a.pk, f"{a.name} (grade {a.grade}), {labels[side.index]}", a.pk in lost) for side, a in loaded.admirals()
        ]
    held = (table.result or {}).get("held_field")
    return TableDetail(
        viewer=viewer,
        table=table,
        place=_place_name(table),
        pack=pack,
        my_side=my_side,
        ships=ships,
        admirals=admirals,
        side_labels=labels,
        held_field="" if held is None else str(held),
        deadline=table.turn.deadline if table.turn.status == Turn.Status.TABLE else None,
    )


def result_from_form(data: Any) -> dict[str, Any]:
    """The result body (as the API takes it) from the form's fields: ``fate-<id>``,
    ``captured_by-<id>``, ``taken_in-<id>``, ``admiral-<id>`` and ``held_field``."""
    ships = []
    for key in data:
        if not key.startswith("fate-"):
            continue
        ref = key.removeprefix("fate-")
        if not ref.isascii() or not ref.isdigit():
            continue
        ships.append(
            {
                "ship": int(ref),
                "fate": data.get(key),
                "captured_by": data.get(f"captured_by-{ref}") or None,
                "taken_in": data.get(f"taken_in-{ref}") or None,
            }
        )
    admirals = [
        int(k.removeprefix("admiral-"))
        for k in data
        if k.startswith("admiral-") and k.removeprefix("admiral-").isascii() and k.removeprefix("admiral-").isdigit()
    ]
    held = data.get("held_field", "")
    return {
        "ships": ships,
        "admirals_lost": admirals,
        "held_field": int(held) if held in ("0", "1") else None,
    }
