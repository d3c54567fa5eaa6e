"""Campaigns for the GM's repair tests: two sallies that always come to battle (tests.worlds), with
turn 1's opening state stored as a scenario load stores it, and a player for each nation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection

from campaign.backup.document import campaign_export
from campaign.models import Nation, Turn
from tests.worlds import World, two_sallies

#: Tables whose ids a campaign export quotes and which a revert never writes a row into (it only
#: updates and deletes them), so the test may wind their id sequences back to replay a turn.
EXPORTED_ID_TABLES = (
    "battles_battle",
    "battles_engagement",
    "fleets_fleet",
    "fleets_ship",
    "fleets_admiral",
    "ports_landunit",
)
#: Wall-clock fields of an export: whether they are set is compared, their value is not.
CLOCK_KEYS = {"deadline", "resolved_at", "paused_at", "submitted_at", "emailed_at"}


@dataclass
class Players:
    gm: User
    gb: User
    fr: User


def sallies_with_snapshot() -> World:
    """tests.worlds.two_sallies with turn 1's opening state stored."""
    world = two_sallies()
    Turn.objects.filter(pk=world.turn.pk).update(
        snapshot=campaign_export(campaign=world.campaign, with_snapshots=False)
    )
    world.turn.refresh_from_db()
    return world


def with_players(world: World) -> Players:
    """An owner GM and a player with an address for each nation."""
    users = get_user_model().objects
    gm = users.create_user("gm-ruth", "ruth@example.org", "gm-password-123", is_staff=True)
    gb = users.create_user("nelson", "nelson@example.org", "player-password-1")
    fr = users.create_user("villeneuve", "villeneuve@example.org", "player-password-2")
    world.campaign.gm = gm
    world.campaign.save(update_fields=["gm"])
    Nation.objects.filter(pk=world.gb.pk).update(player=gb)
    Nation.objects.filter(pk=world.fr.pk).update(player=fr)
    return Players(gm, gb, fr)


def id_sequences(tables: tuple[str, ...] = EXPORTED_ID_TABLES) -> dict[str, tuple[int, bool]]:
    """Where the id sequences of ``tables`` stand now."""
    out = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"SELECT last_value, is_called FROM {_sequence(cursor, table)}")
            last, called = cursor.fetchone()
            out[table] = (last, called)
    return out


def id_sequences_restore(where: dict[str, tuple[int, bool]]) -> None:
    """Wind the sequences back to ``where`` (the rows made after it must be gone)."""
    with connection.cursor() as cursor:
        for table, (last, called) in where.items():
            cursor.execute("SELECT setval(%s, %s, %s)", [_sequence(cursor, table), last, called])


def _sequence(cursor: Any, table: str) -> str:
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
    return str(cursor.fetchone()[0])


def without_clock_times(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: without_clock_times(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [without_clock_times(v) for v in value]
    if key in CLOCK_KEYS and value is not None:
        return "<set>"
    return value


def state_of(document: dict[str, Any]) -> dict[str, Any]:
    """The sections of an export that are the campaign's state (not its history); who plays a nation is
    not the game's state (a revert keeps today's players)."""
    keys = ("relations", "ports", "land_units", "admirals", "fleets", "ships", "ledger", "offers", "blockades")
    nations = [{k: v for k, v in n.items() if k != "player"} for n in document["nations"]]
    return {"nations": nations, **{key: document[key] for key in keys}}
