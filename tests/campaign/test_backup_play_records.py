"""A backup round-trips what issues 11, 15 and 16 added: a re-fought battle's seed, a battle fought on
the table with its entered and approved result, and dispatches sent and released (CONTRACT: "a backup
round-trips exactly"); a document with a bad dispatch or table battle is refused by path, nothing written.

The world is tests.repair.worlds.sallies_with_snapshot (Brest's sally in Biscay, Calais's in the
Channel). France writes to Britain in turn 1 with dispatches delayed beyond 0 sea zones, so the
dispatch is released as turn 2 opens. Brest's battle goes to the table and the GM enters and approves
the result; then the Channel's battle is re-fought, which sends turn 1 round again (Brest back to the
table, its result entered and approved again).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from battles.models import Battle, TabletopBattle
from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.backup.schemas.checks import _accepted, _validator
from campaign.dispatches.moderation import nation_mute, nation_unmute
from campaign.dispatches.services import conversation_start, dispatches_mark_read
from campaign.gm.repair.refight import battle_refight
from campaign.models import Campaign, Dispatch, DispatchCopy, DispatchMute, Nation, Turn
from campaign.tabletop.services import table_mark, table_result_approve, table_result_enter
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Ship
from ports.models import LandUnit, Port
from tests.repair.worlds import Players, sallies_with_snapshot, with_players
from tests.support.exports import as_restored, differences, strip_ids
from tests.support.played_campaign import kept
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db


def _table_fought(turn: Turn, table: TabletopBattle) -> None:
    """Resolve ``turn`` up to the table, enter Brest's result as the GM (every ship as it came), approve
    it, and resolve the rest of the turn."""
    if turn.status == Turn.Status.OPEN:
        assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "table"
    table.refresh_from_db()
    assert table.engagement is not None
    ships = [
        {"ship": ship_id, "fate": "damaged" if k == 0 else "intact"}
        for side in table.engagement.sides
        for k, ship_id in enumerate(_ships_of(side["fleets"]))
    ]
    table = table_result_enter(
        table=table, body={"ships": ships, "admirals_lost": [], "held_field": 1}, side=None, by="gm-ruth"
    )
    with transaction.atomic():
        table_result_approve(table=table)
    assert turn_resolve(turn.pk) == "done"


def _ships_of(fleet_ids: list[int]) -> list[int]:
    return list(Ship.objects.filter(fleet_id__in=fleet_ids).order_by("pk").values_list("pk", flat=True))


def _played(world: World, people: Players) -> Campaign:
    Campaign.objects.filter(pk=world.campaign.pk).update(dispatch_delay_zones=0)
    Nation.objects.filter(pk=world.gb.pk).update(capital=world.portsmouth)
    Nation.objects.filter(pk=world.fr.pk).update(capital=world.brest)
    sent = conversation_start(
        campaign=world.campaign,
        sender=Nation.objects.get(pk=world.fr.pk),
        author_id=people.fr.pk,
        to=["GB"],
        subject="Terms",
        body="Shall we talk before the guns do?",
        now=timezone.now(),
    )
    table = table_mark(campaign=world.campaign, place="brest")
    _table_fought(world.turn, table)
    copy_ = DispatchCopy.objects.get(dispatch=sent.dispatch)
    assert copy_.arrives_turn == 2 and copy_.arrived_at is not None  # released as turn 2 opened
    dispatches_mark_read(nation=Nation.objects.get(pk=world.gb.pk), now=timezone.now())
    channel = Battle.objects.get(turn=world.turn, place="channel")
    refight = battle_refight(
        campaign=world.campaign, battle_id=channel.pk, reason="a disputed gauge", seed=7, actor=None
    )
    assert refight.turn.reseeds  # the re-fight's seed, by its battle's key
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.MARKED and table.engagement is None  # the revert reopened it
    _table_fought(refight.turn, table)
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    # The GM's mutes: one standing, one lifted early (kept with who lifted it and when).
    for nation in (world.fr, world.gb):
        nation_mute(campaign=campaign, nation=nation, turns=3, reason="Spam", actor=people.gm, now=timezone.now())
    lifted = DispatchMute.objects.get(nation=world.gb)
    nation_unmute(campaign=campaign, mute_id=lifted.pk, reason="Apologised", actor=people.gm, now=timezone.now())
    return campaign


def _played_world() -> tuple[Campaign, Players]:
    world = sallies_with_snapshot()
    people = with_players(world)
    return _played(world, people), people


@pytest.fixture
def played() -> tuple[Campaign, Players, dict[str, Any]]:
    """The played campaign's rows copied in (played once, kept in the played-rows cache; ``played_document``
    below plays it for real, with the checks ``_played`` makes on the way, in every run)."""
    campaign, people = kept(_played_world)
    return campaign, people, json.loads(json.dumps(campaign_export(campaign=campaign)))


@pytest.fixture(scope="module")
def played_document(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    """The played campaign's export alone, made once for the module in a transaction rolled back at
    once: the refusal cases read only the document (each spoils its own deep copy) and need none of
    its rows, and playing it costs over a second a case."""
    with django_db_blocker.unblock(), transaction.atomic():
        world = sallies_with_snapshot()
        campaign = _played(world, with_players(world))
        document = json.loads(json.dumps(campaign_export(campaign=campaign)))
        transaction.set_rollback(True)
    return document


def test_reseeds_table_battles_and_dispatches_round_trip_exactly(played: Any, tmp_path: Path) -> None:
    _, people, before = played
    turn1 = next(t for t in before["turns"] if t["number"] == 1)
    assert list(turn1["reseeds"].values()) == [7]
    [table] = before["table_battles"]
    assert table["status"] == "applied" and table["confirmed"] == [0, 1] and table["engagement"]["battle"]
    [conversation] = before["conversations"]
    [dispatch] = conversation["dispatches"]
    assert dispatch["author"] == "villeneuve" and dispatch["copies"][0]["read_at"] is not None
    standing, lifted = before["dispatch_mutes"]
    assert "lifted_at" not in standing and (lifted["lifted_by"], bool(lifted["lifted_at"])) == ("gm-ruth", True)
    path = tmp_path / "played.json"
    path.write_text(json.dumps(before))
    call_command(
        "import_campaign", str(path), "--slug", "played-copy",
        "--gm", "gm-ruth", "--player", "GB=nelson", "--player", "FR=villeneuve", stdout=None,
    )  # fmt: skip
    copy_ = Campaign.objects.get(slug="played-copy")
    after = campaign_export(campaign=copy_)
    assert differences(strip_ids(as_restored(after)), strip_ids(before)) == ""
    restored = TabletopBattle.objects.get(campaign=copy_)
    assert restored.engagement is not None and restored.engagement.battle is not None
    assert restored.engagement.battle.campaign_id == copy_.pk  # the copy's own battle, not the original's
    ships = {row["ship"] for row in restored.result["ships"]}
    assert set(Ship.objects.filter(pk__in=ships).values_list("campaign_id", flat=True)) == {copy_.pk}
    assert Dispatch.objects.get(campaign=copy_).author == people.fr


def test_people_not_mapped_are_nobody_and_an_older_file_without_the_new_sections_imports(played: Any) -> None:
    _, _, before = played
    copy_ = campaign_import(document=copy.deepcopy(before), slug="unmapped")
    dispatch = Dispatch.objects.get(campaign=copy_)
    assert dispatch.author is None and dispatch.body == "Shall we talk before the guns do?"
    older = copy.deepcopy(before)
    for key in ("conversations", "dispatch_mutes", "table_battles"):
        del older[key]
    for document in (older, *older["snapshots"].values()):
        for turn in document["turns"]:
            turn.pop("reseeds", None)
    old_copy = campaign_import(document=older, slug="older")
    assert not Dispatch.objects.filter(campaign=old_copy).exists()
    assert not TabletopBattle.objects.filter(campaign=old_copy).exists()
    assert all(t.reseeds == {} for t in Turn.objects.filter(campaign=old_copy))


@pytest.mark.parametrize(
    ("spoil", "path"),
    [
        (lambda d: d["conversations"][0]["dispatches"][0].update(sender="XX"),
         "conversations[0].dispatches[0].sender: 'XX' is not a nation of this document"),
        (lambda d: d["conversations"][0]["dispatches"][0]["copies"][0].update(arrived_at=None),
         "conversations[0].dispatches[0].copies[0].read_at: a dispatch is read only once it has arrived"),
        (lambda d: d["conversations"][0]["dispatches"][0].update(body=17),
         "conversations[0].dispatches[0].body: 17 is not of type string"),
        (lambda d: d["table_battles"][0].update(engagement=None),
         "table_battles[0].engagement: a battle applied at the table holds its engagement; none is given"),
        (lambda d: d["table_battles"][0]["engagement"].update(battle=999999),
         "table_battles[0].engagement.battle: 999999 is not a battle of this document"),
        (lambda d: d["table_battles"][0]["result"]["ships"][0].update(fate="scuttled"),
         "table_battles[0].result.ships[0].fate: 'scuttled' is not a fate; allowed: intact, damaged"),
        (lambda d: d["table_battles"][0].update(kind="storming", result={}),
         "table_battles[0].engagement: a storming holds no engagement"),
        (lambda d: d["table_battles"][0].update(kind="storming"),
         "table_battles[0].result: Additional properties are not allowed ('admirals_lost', 'held_field', 'ships'"),
        (lambda d: d["table_battles"][0].update(kind="storming", engagement=None, result={"port_taken": "yes"}),
         "table_battles[0].result.port_taken: 'yes' is not of type boolean"),
        (lambda d: d["turns"][0].update(reseeds={"4:channel:1": -3}),
         "turns[0].reseeds.4:channel:1: -3 is less than the minimum of 0"),
    ],
)  # fmt: skip
def test_a_bad_dispatch_or_table_battle_is_refused_by_path_with_nothing_written(
    played_document: dict[str, Any], tmp_path: Path, spoil: Any, path: str
) -> None:
    bad = copy.deepcopy(played_document)
    spoil(bad)
    with pytest.raises(BackupError) as refused:
        campaign_import(document=copy.deepcopy(bad), slug="spoiled")
    assert any(problem.startswith(path) for problem in refused.value.problems), refused.value.problems
    assert not Campaign.objects.filter(slug="spoiled").exists()
    file = tmp_path / "spoiled.json"
    file.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as command:
        call_command("import_campaign", str(file), "--slug", "spoiled")
    assert command.value.returncode == 2 and path in str(command.value)
    assert not Campaign.objects.filter(slug="spoiled").exists()


def test_a_storming_waiting_at_the_table_round_trips_and_is_applied_in_the_copy(tmp_path: Path) -> None:
    """Portsmouth's storming waits at the table (France's 2 units ashore against Britain's 1): the
    copy's storming names the copy's own land units, and its approved result takes the copy's port."""
    world = two_power_world()
    LandUnit.objects.create(
        campaign=world.campaign, nation=world.gb, port=world.portsmouth, state=LandUnit.State.GARRISON
    )
    for _ in range(2):
        LandUnit.objects.create(
            campaign=world.campaign, nation=world.fr, port=world.portsmouth, state=LandUnit.State.ASHORE
        )
    table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    before = json.loads(json.dumps(campaign_export(campaign=world.campaign)))
    [table] = before["table_battles"]
    assert (table["kind"], table["status"]) == ("storming", "waiting")
    path = tmp_path / "storming.json"
    path.write_text(json.dumps(before))
    call_command("import_campaign", str(path), "--slug", "storming-copy", stdout=None)
    copy_ = Campaign.objects.get(slug="storming-copy")
    assert differences(strip_ids(as_restored(campaign_export(campaign=copy_))), strip_ids(before)) == ""
    restored = TabletopBattle.objects.get(campaign=copy_)
    siege = restored.pack["siege"]
    units = [u[0] for u in siege["besiegers"] + siege["garrison"]]
    assert set(LandUnit.objects.filter(pk__in=units).values_list("campaign_id", flat=True)) == {copy_.pk}
    assert len(units) == 3
    body = {"garrison_lost": 1, "besiegers_lost": {}, "port_taken": True}
    restored = table_result_enter(table=restored, body=body, side=None, by="gm")
    with transaction.atomic():
        table_result_approve(table=restored)
    turn = Turn.objects.get(campaign=copy_, number=1)
    assert turn_resolve(turn.pk) == "done"
    port = Port.objects.get(campaign=copy_, key="portsmouth")
    assert port.owner.code == "FR"
    original = Port.objects.get(campaign=world.campaign, key="portsmouth")
    assert original.owner.code == "GB"  # the original's storming still waits, untouched


# Values a spoiled file may hold where the schema expects another: JSON Schema's own distinctions
# (True is no 1, 1.0 is an integer, "$" before a final newline), bounds and their neighbours.
_NEAR_MISSES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, 1.0, 0.0, 2.5, float("nan")]),
    st.text(max_size=12),
    st.sampled_from(["GB\n", "brest\n", "", "x" * 201, "storming", "#ffffff\n", "4:channel:1"]),
    st.lists(st.sampled_from([1, True, "GB", "GB", None]), max_size=3),
    st.dictionaries(
        st.sampled_from(["kind", "ships", "result", "x"]), st.sampled_from([1, "storming", {}]), max_size=2
    ),
)


def _spoil(data: st.DataObject, document: dict[str, Any]) -> None:
    """Replace, delete or add one value somewhere in ``document``, walking its real structure."""
    target: Any = document
    while True:
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = target[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            target = child
            continue
        action = data.draw(st.sampled_from(["set", "delete", "add"]))
        if action == "set":
            target[key] = data.draw(_NEAR_MISSES)
        elif action == "delete":
            del target[key]
        elif isinstance(target, dict):
            target[data.draw(st.sampled_from(["extra", "kind", "lon", "lat", "4:x:1"]))] = data.draw(_NEAR_MISSES)
        else:
            target.append(data.draw(_NEAR_MISSES))
        return


#: Examples per run; QUICK_CHECK_EXAMPLES=3000 for a long hunt after changing campaign.backup.schemas.fast_check.
QUICK_CHECK_EXAMPLES = int(os.environ.get("QUICK_CHECK_EXAMPLES", "40"))


@settings(max_examples=QUICK_CHECK_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_quick_schema_check_never_accepts_what_jsonschema_refuses(
    played_document: dict[str, Any], data: st.DataObject
) -> None:
    """schemas.fast_check answers yes only where jsonschema finds no problem (it is what lets a valid
    document skip jsonschema); every section of the played document, a snapshot's too, is spoiled."""
    accepted = _accepted()
    assert accepted(played_document)
    document = copy.deepcopy(played_document)
    _spoil(data, document)
    verdict = accepted(document)
    event(f"quick check: {'yes' if verdict else 'no'}")
    if verdict:
        assert list(_validator().iter_errors(document)) == []
