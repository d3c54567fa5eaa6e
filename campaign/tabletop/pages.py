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
from battles.models import TablePost, TabletopBattle
from battles.tabletop.history import history_lines, table_decision
from battles.tabletop.pack import BattlePack, battle_pack
from battles.tabletop.storming import StormingPack, storming_pack
from campaign.models import Turn
from campaign.tabletop.record import gm_entered, side_labels
from campaign.tabletop.thread import table_posts
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
    return any(code in side for side in table.side_nations())


#: A request's own states, before the turn found (or did not find) a battle there: all its asker may see
#: of a table it takes no part in, so that its status never tells what happened where it had no forces.
_ASKED = (TabletopBattle.Status.REQUESTED, TabletopBattle.Status.DECLINED, TabletopBattle.Status.MARKED)


def _visible(viewer: Viewer, table: TabletopBattle) -> bool:
    """The GM sees every table; a nation those it fights in (and so witnessed), and its own request
    only until the turn resolves it."""
    if viewer.is_gm or _involves(table, viewer.nation.code):
        return True
    return table.requested_by_id == viewer.nation.pk and table.status in _ASKED


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
    #: Ports whose siege can be stormed on the table (key, name).
    ports: list[tuple[str, str]] = field(default_factory=list)


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
    named = list(Port.objects.filter(campaign=viewer.campaign).order_by("name").values_list("key", "name"))
    ports = [(key, f"{name} (port)") for key, name in named]
    return TablesPage(viewer, visible, zones + ports, turn is not None, turn, named)


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
class StormingBesiegers:
    """One besieging nation's line of a storming's result form."""

    code: str
    name: str
    units: int
    lost: int = 0


@dataclass
class StormingForm:
    """A storming's result form: the garrison's and each besieging nation's units, what was entered."""

    garrison: int
    besiegers: list[StormingBesiegers]
    garrison_lost: int = 0
    port_taken: str = ""


@dataclass
class TableDetail:
    viewer: Viewer
    table: TabletopBattle
    place: str
    pack: BattlePack | StormingPack | None
    my_side: int | None
    ships: list[FormShip]
    admirals: list[tuple[int, str, bool]]
    side_labels: list[str]
    held_field: str
    deadline: Any
    storming: StormingForm | None = None
    posts: list[TablePost] = field(default_factory=list)

    @property
    def outstanding(self) -> bool:
        return self.table.status in TabletopBattle.OUTSTANDING

    @property
    def can_enter(self) -> bool:
        """The GM while the battle waits; a side's player only while no result stands (a dispute, a
        result both sides confirmed and the GM's own entry stand until the GM acts)."""
        if self.viewer.is_gm:
            return self.outstanding
        open_to_sides = (TabletopBattle.Status.WAITING, TabletopBattle.Status.ENTERED)
        return self.my_side is not None and self.table.status in open_to_sides

    @property
    def can_post(self) -> bool:
        """The thread is the sides' and the GM's, once the turn found who fights."""
        return self.viewer.is_gm or self.my_side is not None

    @property
    def history(self) -> list[str]:
        return history_lines(self.table.history or [])

    @property
    def decision(self) -> str:
        return table_decision(self.table.history or [])

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
            and not gm_entered(self.table)
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
    for k, codes in enumerate(table.side_nations()):
        if viewer.nation.code in codes and viewer.nation.player_id == user.pk:
            my_side = k
    if table.is_storming:
        detail = _storming_detail(viewer, table, my_side)
        detail.posts = list(table_posts(table=table))
        return detail
    pack = battle_pack(table) if table.status in TabletopBattle.OUTSTANDING else None
    ships, admirals, labels = _battle_form(viewer, table) if pack is not None else ([], [], side_labels(table))
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
        posts=list(table_posts(table=table)),
    )


def _battle_form(
    viewer: Viewer, table: TabletopBattle
) -> tuple[list[FormShip], list[tuple[int, str, bool]], list[str]]:
    """A held battle's result form: each ship with what was entered, the admirals, the sides' labels."""
    assert table.engagement is not None
    entered = {row.get("ship"): row for row in (table.result or {}).get("ships", []) if isinstance(row, dict)}
    loaded = table_sides(table.engagement)
    names = {n.code: n.name for n in viewer.nations}
    labels = [" and ".join(names.get(c, c) for c in s.nations) for s in loaded.sides]
    lost = set((table.result or {}).get("admirals_lost", []))
    ships: list[FormShip] = []
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
    return ships, admirals, labels


def _storming_detail(viewer: Viewer, table: TabletopBattle, my_side: int | None) -> TableDetail:
    """A storming: its pack and result form once phase 6 held its siege."""
    held = table.status in TabletopBattle.OUTSTANDING and bool((table.pack or {}).get("siege"))
    names = {n.code: n.name for n in viewer.nations}
    labels = [" and ".join(names.get(c, c) for c in side) for side in table.side_nations()]
    form = None
    if held:
        siege = table.pack["siege"]
        counts: dict[str, int] = {}
        for _, code, _train in siege["besiegers"]:
            counts[code] = counts.get(code, 0) + 1
        entered = table.result or {}
        lost = entered.get("besiegers_lost") or {}
        lost = lost if isinstance(lost, dict) else {}
        form = StormingForm(
            garrison=len(siege["garrison"]),
            besiegers=[
                StormingBesiegers(code, names.get(code, code), n, _whole(lost.get(code)))
                for code, n in sorted(counts.items())
            ],
            garrison_lost=_whole(entered.get("garrison_lost")),
            port_taken=_yes_no(entered.get("port_taken")),
        )
    return TableDetail(
        viewer=viewer,
        table=table,
        place=_place_name(table),
        pack=storming_pack(table) if held else None,
        my_side=my_side,
        ships=[],
        admirals=[],
        side_labels=labels,
        held_field="",
        deadline=table.turn.deadline if table.turn.status == Turn.Status.TABLE else None,
        storming=form,
    )


def _yes_no(value: object) -> str:
    return "yes" if value is True else "no" if value is False else ""


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def storming_result_from_form(data: Any) -> dict[str, Any]:
    """A storming's result body (as the API takes it) from the form's fields: ``garrison_lost``,
    ``besiegers_lost-<nation code>`` and ``port_taken`` (yes or no); what is not a whole number is
    passed on as typed, for the service to refuse by name."""

    def number(text: str) -> object:
        text = text.strip()
        return int(text) if text.isascii() and text.isdigit() else text

    lost = {
        key.removeprefix("besiegers_lost-"): number(str(data.get(key, "")))
        for key in data
        if key.startswith("besiegers_lost-")
    }
    taken = data.get("port_taken", "")
    return {
        "garrison_lost": number(str(data.get("garrison_lost", "0") or "0")),
        "besiegers_lost": {code: n for code, n in lost.items() if n not in (0, "")},
        "port_taken": {"yes": True, "no": False}.get(taken, taken or None),
    }


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
