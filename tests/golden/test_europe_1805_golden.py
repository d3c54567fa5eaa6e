"""Golden regression test: the same seed and the same orders must still give the same campaign.

europe-1805 is loaded with a fixed seed; for three turns every nation gives the deterministic
candidate orders of tests/support/random_orders.py through ``order_add`` (refused ones are
dropped, so validation is pinned too) and the turn is resolved inline. The export must equal
``tests/golden/europe-1805-3-turns.json`` — every dice roll, order outcome, ledger line, report
event, blockade and battle round.

Only what must vary between runs is normalised: wall-clock times are masked, and the database
ids are made the same in every run by restarting the game's id sequences at 1 before the
campaign is built (the tables are empty inside the test's transaction), so the ids quoted in
texts and events ("ship 788", "Achille (GB #51)") are compared as they are. A diff that shows
only ids means rows are now created in another order. The stored opening states of the turns
(``snapshots``) are left out: each is the state the previous turn's results left, already in the
document (their presence is checked).

The campaign is played by ``tests.support.played_campaign.play``, which the tests that only read a
played campaign (the words scan) get from its rows kept on disk: this test is the check that playing
gives that export, so it always plays; when no rows are kept yet for the sources as they are, it
writes them as it plays, and the words scan of the same run copies them in.

A mismatch prints a unified diff of the two documents. If a change of behaviour is intended and
reviewed, regenerate the file with ``GOLDEN_UPDATE=1 pytest tests/golden`` and commit it with the
change that explains it.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from campaign.backup.document import campaign_export
from tests.support.played_campaign import TURNS, play, played_for_real

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

GOLDEN = Path(__file__).with_name("europe-1805-3-turns.json")
#: Wall-clock fields: whether they are set is pinned, their value is not.
CLOCK_KEYS = {"deadline", "resolved_at", "paused_at", "submitted_at", "emailed_at"}
#: Diff lines shown in a failure; the rest is counted.
DIFF_LINES = 150


def without_clock_times(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: without_clock_times(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [without_clock_times(v) for v in value]
    if key in CLOCK_KEYS and value is not None:
        return "<time>"
    return value


def golden_text(document: dict[str, Any]) -> str:
    """The export as compared and stored: snapshots out, clock times masked, keys sorted."""
    document = dict(document)
    assert sorted(document.pop("snapshots"), key=int) == [str(n) for n in range(1, TURNS + 2)]
    return json.dumps(without_clock_times(document), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_three_turns_of_europe_1805_export_exactly_as_the_golden_file() -> None:
    campaign = played_for_real(play)
    got = golden_text(campaign_export(campaign=campaign))
    # The orders must reach every part of a turn the reshape moves, or the file pins too little.
    assert '"type": "fleet_action"' in got and '"type": "running_the_guns"' in got
    assert '"kind": "lay_down"' in got and '"kind": "land"' in got and '"posture": "blockade"' in got
    if os.environ.get("GOLDEN_UPDATE"):
        GOLDEN.write_text(got, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if got != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), "golden", "now", n=2, lineterm=""))
        more = f"\n... and {len(diff) - DIFF_LINES} more diff lines" if len(diff) > DIFF_LINES else ""
        pytest.fail(
            f"the campaign no longer resolves as {GOLDEN.name} says:\n" + "\n".join(diff[:DIFF_LINES]) + more,
            pytrace=False,
        )
