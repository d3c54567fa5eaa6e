"""Import × revert (issue 25 #3): a campaign restored from an export — by ``import_campaign`` or by the
admin's "import as a copy" — can be turned back to one of its turns like the original, and comes back
to the original's state at that turn. The copy's turn snapshots name the copy's own rows, not the rows
of the campaign the export came from."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from campaign.backup.document import campaign_export
from campaign.gm.backup import gm_campaign_import
from campaign.gm.repair.services import campaign_revert
from campaign.models import Campaign, Turn
from campaign.models.audit import AuditAction, AuditEntry
from campaign.scenarios.loading import scenario_load
from fleets.models import Fleet, Ship
from tests.repair.worlds import state_of
from tests.support.exports import differences, strip_ids
from tests.support.random_orders import resolve_open_turn, submit_random_orders

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _play_turn(campaign: Campaign) -> None:
    submit_random_orders(campaign)
    resolve_open_turn(campaign)


def _copy(path: str, original: Campaign, file: Path) -> Campaign:
    file.write_text(json.dumps(campaign_export(campaign=original)))
    if path == "command":
        call_command("import_campaign", str(file), "--slug", "the-copy", stdout=StringIO())
    else:  # the admin's "import as a copy" runs this service
        gm_campaign_import(document=json.loads(file.read_text()), slug="the-copy", gm=None, actor=None, name="The copy")
    return Campaign.objects.get(slug="the-copy")


@pytest.mark.parametrize("path", ["command", "admin"])
def test_a_copy_imported_from_an_export_reverts_to_the_originals_state_at_that_turn(path: str, tmp_path: Path) -> None:
    original = scenario_load(name="europe-1805", slug="the-original", seed=1805)
    _play_turn(original)
    _play_turn(original)  # turn 3 open; turns 1–3 have snapshots
    copy = _copy(path, original, tmp_path / "export.json")

    imported = AuditEntry.objects.filter(campaign=copy, action=AuditAction.CAMPAIGN_IMPORTED)
    assert imported.count() == 1, "the import is in the copy's audit log"
    assert "the-original" in imported.get().summary

    # Every id a snapshot of the copy quotes is one of the copy's rows (or a row gone since).
    fleets = set(Fleet.objects.filter(campaign=copy).values_list("pk", flat=True))
    ships = set(Ship.objects.filter(campaign=copy).values_list("pk", flat=True))
    for turn in Turn.objects.filter(campaign=copy):
        assert turn.snapshot is not None
        assert {f["id"] for f in turn.snapshot["fleets"]} <= fleets
        assert {s["id"] for s in turn.snapshot["ships"]} <= ships
        assert {s["fleet"] for s in turn.snapshot["ships"]} - {None} <= fleets

    _play_turn(copy)  # play on in the copy: turn 4 open
    fleets_before = set(Fleet.objects.filter(campaign=copy).values_list("pk", flat=True))
    out = StringIO()
    call_command("revert_campaign", "the-copy", "--turn", "2", "--reason", "Replay turn 2", stdout=out)
    assert "back at the start of turn 2" in out.getvalue()
    campaign_revert(campaign=original, turn_number=2, reason="Replay turn 2", actor=None)

    reverted_copy = state_of(strip_ids(campaign_export(campaign=copy, with_snapshots=False)))
    reverted_original = state_of(strip_ids(campaign_export(campaign=original, with_snapshots=False)))
    assert reverted_copy == reverted_original, differences(reverted_copy, reverted_original)
    # The copy's fleets kept their rows (nothing deleted and made again under a new id).
    assert set(Fleet.objects.filter(campaign=copy).values_list("pk", flat=True)) <= fleets_before
    copy.refresh_from_db()
    assert copy.turn_number == 2
