"""The GM's admin: the §1 limits and the ruleset hold when tried through it."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, LedgerEntry, Turn
from campaign.services import ledger_post
from fleets.models import Ship
from tests.factories import FleetFactory, NationFactory, PortFactory, ShipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm_client() -> Client:
    user = get_user_model().objects.create_superuser("gm", "gm@example.org", "correct-horse-battery")
    client = Client()
    client.force_login(user)
    return client


def test_the_quota_example_holds_through_the_admin_lay_down_page(gm_client: Client) -> None:
    """§1: GB 1805 with 10 SOL of which 1 first rate lays down a second first rate; a third is refused
    with the rule's message shown on the page, and nothing is paid."""
    nation = NationFactory.create()
    ledger_post(nation=nation, turn=1, amount=100, kind=LedgerEntry.Kind.OPENING, reason="Opening balance")
    port = PortFactory.create(owner=nation)
    fleet = FleetFactory.create(nation=nation)
    ShipFactory.create(nation=nation, fleet=fleet, ship_class="1st", name="Victory")
    for i in range(9):
        ShipFactory.create(nation=nation, fleet=fleet, ship_class="3rd-74", name=f"Seventy-four {i}")
    url = reverse("admin:campaign_nation_lay_down", args=[nation.pk])
    assert gm_client.get(url).status_code == 200

    ok = gm_client.post(url, {"ship_class": "1st", "name": "Hibernia", "port": port.pk})
    assert ok.status_code == 302
    refused = gm_client.post(url, {"ship_class": "1st", "name": "Ocean", "port": port.pk})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "1st/2nd-rate quota (rules §1)" in page and "100×3=300 &gt; 20×12=240" in page
    nation.refresh_from_db()
    assert nation.treasury == 80
    assert not Ship.objects.filter(name="Ocean").exists()


def test_the_ship_add_form_refuses_a_second_four_decker(gm_client: Client) -> None:
    """§1 "Four-deckers [S]: at most one per nation at any time", also for ships a GM adds by hand."""
    spain = NationFactory.create(code="ES", name="Spain", crew="E")
    fleet = FleetFactory.create(nation=spain)
    for i in range(30):
        ShipFactory.create(nation=spain, fleet=fleet, ship_class="3rd-74", name=f"Navio {i}")
    ShipFactory.create(nation=spain, fleet=fleet, ship_class="four-decker", name="Santisima Trinidad")
    response = gm_client.post(
        reverse("admin:fleets_ship_add"),
        {
            "campaign": spain.campaign.pk,
            "name": "Otra Trinidad",
            "ship_class": "four-decker",
            "nation": spain.pk,
            "original_nation": spain.pk,
            "condition": "ready",
            "crew": "E",
            "fleet": fleet.pk,
            "building_turns_left": 0,
            "line_position": 0,
        },
    )
    assert response.status_code == 200
    assert "Four-decker limit (rules §1)" in response.content.decode()
    assert Ship.objects.filter(ship_class="four-decker").count() == 1


def test_the_ship_add_form_lets_a_captured_four_decker_through(gm_client: Client) -> None:
    """§1: "Captured ships may always be used, whatever the limits"."""
    spain = NationFactory.create(code="ES", name="Spain", crew="E")
    britain = NationFactory.create(campaign=spain.campaign, code="GB")
    fleet = FleetFactory.create(nation=britain)
    ShipFactory.create(nation=britain, fleet=fleet, ship_class="3rd-74", name="Bellerophon")
    response = gm_client.post(
        reverse("admin:fleets_ship_add"),
        {
            "campaign": spain.campaign.pk,
            "name": "Santisima Trinidad",
            "ship_class": "four-decker",
            "nation": britain.pk,
            "original_nation": spain.pk,
            "condition": "ready",
            "crew": "B",
            "fleet": fleet.pk,
            "building_turns_left": 0,
            "line_position": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Ship.objects.get(name="Santisima Trinidad").captured


def test_the_gm_edits_a_rule_and_a_bad_value_is_refused_with_its_range(gm_client: Client) -> None:
    nation = NationFactory.create()
    campaign = nation.campaign
    url = reverse("admin:campaign_campaign_rules", args=[campaign.pk])
    form = dict(campaign.ruleset.flat)
    form["battle.max_rounds"] = 8
    assert gm_client.post(url, form).status_code == 302
    campaign.refresh_from_db()
    assert campaign.ruleset["battle.max_rounds"] == 8

    form["battle.max_rounds"] = 0
    response = gm_client.post(url, form)
    assert response.status_code == 200
    assert "greater than or equal to 1" in response.content.decode()
    form["battle.max_rounds"] = 6
    form["battle.chart_boarding"] = 3  # boarding below damaged: the chart would not make sense
    response = gm_client.post(url, form)
    assert "damaged ≤ boarding ≤ disabled ≤ sunk" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).ruleset["battle.chart_boarding"] == 8


def test_the_gm_adjusts_a_treasury_through_the_ledger(gm_client: Client) -> None:
    nation = NationFactory.create()
    url = reverse("admin:campaign_nation_adjust", args=[nation.pk])
    assert gm_client.post(url, {"amount": 7, "reason": "Prize money"}).status_code == 302
    response = gm_client.post(url, {"amount": -8, "reason": "Fine"})
    assert "1 EP short" in response.content.decode()
    nation.refresh_from_db()
    assert nation.treasury == 7
    assert list(LedgerEntry.objects.filter(nation=nation).values_list("amount", "balance")) == [(7, 7)]


def test_every_admin_changelist_answers(gm_client: Client) -> None:
    ShipFactory.create()
    for name in (
        "campaign_campaign",
        "campaign_nation",
        "campaign_ledgerentry",
        "campaign_relation",
        "campaign_turn",
        "fleets_ship",
        "fleets_fleet",
        "fleets_admiral",
        "ports_port",
        "ports_seazone",
        "ports_landunit",
        "battles_battle",
        "battles_engagement",
    ):
        assert gm_client.get(reverse(f"admin:{name}_changelist")).status_code == 200, name


def test_the_gm_dry_runs_pauses_resumes_and_extends_from_the_admin(gm_client: Client) -> None:
    from tests.worlds import two_power_world

    world = two_power_world()
    page = gm_client.get(reverse("admin:campaign_campaign_dry_run", args=[world.campaign.pk])).content.decode()
    assert "Nothing was written" in page and "Income 5 EP" in page
    world.turn.refresh_from_db()
    assert world.turn.status == "open"
    changelist = reverse("admin:campaign_campaign_changelist")
    for action in ("pause_campaigns", "resolve_now"):  # each asks first, with the current deadline
        asked = gm_client.post(changelist, {"action": action, "_selected_action": [world.campaign.pk]})
        assert asked.status_code == 200 and "current deadline" in asked.content.decode()
        assert 'name="confirmed" value="yes"' in asked.content.decode()
    assert Campaign.objects.get(pk=world.campaign.pk).status == "active"
    assert Turn.objects.get(pk=world.turn.pk).status == "open"
    gm_client.post(
        changelist, {"action": "pause_campaigns", "_selected_action": [world.campaign.pk], "confirmed": "yes"}
    )
    assert Campaign.objects.get(pk=world.campaign.pk).status == "paused"
    gm_client.post(
        changelist, {"action": "resume_campaigns", "_selected_action": [world.campaign.pk], "confirmed": "yes"}
    )
    assert Campaign.objects.get(pk=world.campaign.pk).status == "active"
    world.turn.refresh_from_db()  # resuming moved the deadline by the (short) pause
    deadline = world.turn.deadline
    assert deadline is not None
    extend = reverse("admin:campaign_campaign_extend", args=[world.campaign.pk])
    assert "at least one hour" in gm_client.post(extend, {"days": 0, "hours": 0}).content.decode()
    assert gm_client.post(extend, {"days": 1, "hours": 6}).status_code == 302
    world.turn.refresh_from_db()
    assert world.turn.deadline is not None and world.turn.deadline - deadline == timedelta(days=1, hours=6)
