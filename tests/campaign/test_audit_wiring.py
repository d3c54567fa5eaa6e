"""Every GM action lands in the audit log (issue 11): the admin's actions and pages, the commands, and
orders or readiness a GM enters in a nation's name (web, API, submit_orders) — attributed; a player's
own orders are not audited, and a refused action leaves no entry."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from campaign.models import Campaign
from campaign.models.audit import AuditEntry
from campaign.orders.services import order_add
from tests.web.fog_worlds import FogWorld
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def _log(campaign: Campaign) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(campaign_id=campaign.pk).order_by("pk"))


@pytest.fixture
def gm() -> Any:
    return get_user_model().objects.create_user("ada", "ada@example.org", "pw", is_staff=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_admin_clock_actions_rules_treasury_and_lay_down_are_audited(gm: Any) -> None:
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = _client(gm)
    pk = world.campaign.pk
    changelist = reverse("admin:campaign_campaign_changelist")
    client.get(reverse("admin:campaign_campaign_dry_run", args=[pk]))
    client.post(changelist, {"action": "pause_campaigns", "_selected_action": [pk], "confirmed": "yes"})
    client.post(
        changelist, {"action": "pause_campaigns", "_selected_action": [pk], "confirmed": "yes"}
    )  # refused: no entry
    client.post(changelist, {"action": "resume_campaigns", "_selected_action": [pk], "confirmed": "yes"})
    client.post(reverse("admin:campaign_campaign_extend", args=[pk]), {"days": 1, "hours": 6})
    client.post(reverse("admin:campaign_nation_adjust", args=[world.fr.pk]), {"amount": -5, "reason": "Typo"})
    client.post(reverse("admin:campaign_nation_adjust", args=[world.fr.pk]), {"amount": -500, "reason": "Too much"})
    client.post(
        reverse("admin:campaign_nation_lay_down", args=[world.gb.pk]),
        {"ship_class": "frigate", "name": "Amethyst", "port": world.portsmouth.pk},
    )
    rules = reverse("admin:campaign_campaign_rules", args=[pk])
    form = dict(world.campaign.ruleset.flat)
    client.post(rules, {**form, "battle.max_rounds": 8})

    log = _log(world.campaign)
    assert [e.action for e in log] == [
        "turn_dry_run",
        "campaign_paused",
        "campaign_resumed",
        "turn_extended",
        "treasury_adjusted",
        "ship_laid_down",
        "rules_changed",
    ]
    assert {e.actor_id for e in log} == {gm.pk} and {e.actor_name for e in log} == {"ada"}
    extend, adjust, lay_down, rules_entry = log[3], log[4], log[5], log[6]
    assert extend.summary == "Deadline of turn 1 extended by 1 day 6 hours."
    assert extend.before is not None and extend.after is not None and extend.before != extend.after
    assert (adjust.before, adjust.after, adjust.reason) == ({"treasury": 50}, {"treasury": 45}, "Typo")
    assert adjust.summary == "Treasury of France adjusted by -5 EP."
    assert lay_down.after is not None and lay_down.after["ship"] == "Amethyst"
    assert rules_entry.after == {"battle.max_rounds": 8}
    assert rules_entry.before == {"battle.max_rounds": world.campaign.ruleset["battle.max_rounds"]}


def test_resolve_now_from_the_admin_is_audited(gm: Any) -> None:
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    changelist = reverse("admin:campaign_campaign_changelist")
    _client(gm).post(changelist, {"action": "resolve_now", "_selected_action": [world.campaign.pk], "confirmed": "yes"})
    [entry] = _log(world.campaign)
    assert entry.action == "turn_resolve_now" and entry.after == {"turn": 1, "status": "resolving"}
    world.turn.refresh_from_db()
    assert world.turn.status == "resolving"


def test_commands_are_audited_as_the_command_line() -> None:
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active")
    call_command("campaign_control", world.campaign.slug, "pause", stdout=io.StringIO())
    call_command("campaign_control", world.campaign.slug, "resume", stdout=io.StringIO())
    call_command("campaign_control", world.campaign.slug, "extend", "--by", "12h", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("campaign_control", world.campaign.slug, "resume", stdout=io.StringIO())
    call_command("resolve_turn", world.campaign.slug, "--dry-run", stdout=io.StringIO())
    log = _log(world.campaign)
    assert [e.action for e in log] == ["campaign_paused", "campaign_resumed", "turn_extended", "turn_dry_run"]
    assert all(e.actor_id is None and e.actor_name.startswith("command line (") for e in log)
    assert log[2].summary == "Deadline of turn 1 extended by 12 hours."


def test_orders_a_gm_enters_for_a_nation_are_attributed_and_the_players_own_are_not(fw: FogWorld) -> None:
    base = f"/api/v1/campaigns/{fw.w.campaign.slug}"
    lay_down = {"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}
    player = APIClient()
    player.force_authenticate(fw.nelson)
    assert player.post(f"{base}/orders/", lay_down, format="json").status_code == 201
    assert _log(fw.w.campaign) == []

    gm = APIClient()
    gm.force_authenticate(fw.gm)
    created = gm.post(f"{base}/orders/?nation=GB", {**lay_down, "name": "Hero"}, format="json")
    assert created.status_code == 201, created.content
    order_id = created.json()["id"]
    assert (
        gm.put(f"{base}/orders/{order_id}/?nation=GB", {**lay_down, "name": "Mars"}, format="json").status_code == 200
    )
    assert gm.delete(f"{base}/orders/{order_id}/?nation=GB").status_code == 204
    assert gm.put(f"{base}/orders/?nation=GB", [lay_down | {"name": "Ajax"}], format="json").status_code == 200
    assert gm.post(f"{base}/ready/?nation=GB", {"ready": True}, format="json").status_code == 200

    log = _log(fw.w.campaign)
    assert [e.action for e in log] == [
        "order_entered",
        "order_changed",
        "order_removed",
        "orders_replaced",
        "ready_set",
    ]
    assert {e.actor_id for e in log} == {fw.gm.pk}
    # In words, as the player's order page writes them: names, never keys (issue 13).
    said = [e.summary for e in log[:3]]
    assert said[0].startswith("For Great Britain: entered order 2 — Frigate Hero at Portsmouth ("), said
    assert said[1].startswith("For Great Britain: changed order 2 — Frigate Mars at Portsmouth ("), said
    assert said[2].startswith("For Great Britain: withdrew order 2 — Frigate Mars at Portsmouth ("), said
    assert log[1].before is not None and log[1].before["body"]["name"] == "Hero"
    assert log[1].after is not None and log[1].after["body"]["name"] == "Mars"
    assert log[3].before is not None and [o["body"]["name"] for o in log[3].before["orders"]] == ["Amethyst"]
    assert log[4].after == {"ready": True}


def test_a_gm_order_through_the_web_page_is_attributed(fw: FogWorld) -> None:
    client = _client(fw.gm)
    url = f"/campaigns/{fw.w.campaign.slug}/orders/?nation=GB"
    response = client.post(
        url, {"kind": "lay_down", "as_nation": "GB", "class": "frigate", "name": "Hero", "port": "portsmouth"}
    )
    assert response.status_code in (200, 302)
    [entry] = _log(fw.w.campaign)
    assert entry.action == "order_entered" and entry.actor_id == fw.gm.pk


def test_submit_orders_is_audited_as_the_command_line(fw: FogWorld, tmp_path: Path) -> None:
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"})
    path = tmp_path / "orders.json"
    path.write_text(json.dumps([{"kind": "lay_down", "class": "brig", "name": "Pickle", "port": "portsmouth"}]))
    call_command("submit_orders", fw.w.campaign.slug, "--nation", "GB", str(path), stdout=io.StringIO())
    [entry] = _log(fw.w.campaign)
    assert entry.action == "orders_replaced" and entry.actor_id is None
    assert entry.summary == "For Great Britain: replaced 1 order with 1"
