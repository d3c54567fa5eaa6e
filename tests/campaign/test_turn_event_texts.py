"""Typed turn events in use (issue 8): an old stored report still renders on the turn page and in the
API, and the reports of a played campaign name places and ships, never their keys or ids."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from campaign.models import Campaign, Turn, TurnPhase
from campaign.scenarios.loading import scenario_load
from campaign.templatetags.rule_links import rule_citations_in_words
from fleets.models import Fleet, Ship
from ports.models import Port, SeaZone
from rules.turn_events import event_from_json
from tests.support.played_campaign import played
from tests.support.random_orders import resolve_open_turn, submit_random_orders
from tests.web.fog_worlds import fog_world, turn_close

pytestmark = pytest.mark.django_db

OLD_EVENTS = Path(__file__).parent.parent / "fixtures" / "old_turn_events.json"


def _old_report() -> list[dict[str, object]]:
    """The fixture's events as a nation's report stored them (without ``nations``)."""
    stored = json.loads(OLD_EVENTS.read_text())["events"]
    return [{k: v for k, v in e.items() if k != "nations"} for e in stored]


def test_an_old_stored_report_still_renders_on_the_turn_page_and_in_the_api() -> None:
    fw = fog_world()
    events = _old_report()
    turn_close(fw.campaign, {fw.w.gb: events})
    client = Client()
    client.force_login(fw.nelson)
    page = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1]))
    assert page.status_code == 200
    # Each old text, as players now read it: "RULES.md" said as "rules", each "§n" a link to its section.
    body = html.unescape(page.content.decode())
    words = html.unescape(re.sub(r"<[^>]+>", "", page.content.decode()))
    # Where each fleet ended its moves (before the battles) gives way to the positions after the turn;
    # a skipped order's line names the order itself and quotes only why it was skipped.
    told = [event_from_json(e) for e in events]
    shown = [t.text.split(" skipped: ", 1)[-1] if t.kind == "order_skipped" else t.text for t in told]
    assert all(
        rule_citations_in_words(text) in words for t, text in zip(told, shown, strict=True) if t.kind != "fleet_moved"
    )
    battles = {e["battle"] for e in events if isinstance(e.get("battle"), int)}
    assert battles and all(reverse("battles:detail", args=[fw.campaign.slug, b]) in body for b in battles)
    api = APIClient()
    api.force_authenticate(fw.nelson)
    data = api.get(f"/api/v1/campaigns/{fw.campaign.slug}/turns/1/").json()
    assert [e["text"] for e in data["events"]] == [e["text"] for e in events]
    assert [e["kind"] for e in data["events"]] == [event_from_json(e).kind for e in events]
    fought = [e for e in data["events"] if e["kind"] == "battle_fought"]
    assert fought and all(isinstance(e["battle_id"], int) and e["ships"] for e in fought)


#: What a report text must never show: a ship or land unit by its id, a count with "(s)", "1 ships".
LEAKS = re.compile(r"\bship \d+|#\d+|\w\(s\)|\b1 (ships|land units|turns|days|steps)\b")


def _all_at_sea_for_two_turns() -> Campaign:
    """europe-1805 with every fleet at sea and seeking battle (sightings, meetings, battles, storms and
    attrition galore), played for two turns with every nation's candidate orders."""
    campaign = scenario_load(name="europe-1805", slug="texts", seed=11)
    Ship.objects.filter(campaign=campaign).update(in_ordinary=False)
    Fleet.objects.filter(campaign=campaign).update(port=None, posture="seek", blockade_port=None)
    for _ in range(2):
        submit_random_orders(campaign)
        resolve_open_turn(campaign)
    return campaign


def test_a_played_campaign_reports_names_never_keys_ids_or_wrong_plurals() -> None:
    # Played once and kept on disk for every process and run until a source changes (the test reads it).
    campaign = played(_all_at_sea_for_two_turns)
    keys = set(SeaZone.objects.filter(campaign=campaign).values_list("key", flat=True))
    keys |= set(Port.objects.filter(campaign=campaign).values_list("key", flat=True))
    key_pattern = re.compile(
        r"(?<![\w-])(" + "|".join(sorted(map(re.escape, keys), key=len, reverse=True)) + r")(?![\w-])"
    )
    texts = [
        str(e["text"])
        for summary in TurnPhase.objects.filter(turn__campaign=campaign).values_list("summary", flat=True)
        for e in summary["events"]
    ]
    assert len(texts) > 200 and Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED).count() == 2
    assert sorted({LEAKS.sub("<>", t) for t in texts if LEAKS.search(t)}) == []
    assert sorted({t for t in texts if key_pattern.search(t)}) == []
