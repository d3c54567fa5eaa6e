"""Issue 9's permission matrix: everybody who might ask × every player page, every /api/v1/ endpoint and
the GM's admin pages, with the status each must get. Being staff grants nothing; another campaign's
GM or player sees nothing of this one (404, as if it did not exist); France's player may not look
through Britain's eyes (403); Britain's player, the owner GM, a co-GM and a superuser may.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Order
from tests.security.people import ROLES, Cast, cast, fingerprint

pytestmark = pytest.mark.django_db

OUTSIDERS = {"staff", "other_gm", "other_player"}
RUNS = {"co_gm", "owner", "superuser"}
SEES_BRITAIN = RUNS | {"own_player"}


def _client(c: Cast, role: str) -> Client:
    client = Client()
    if c.people[role] is not None:
        client.force_login(c.people[role])
    return client


def _web_pages(c: Cast) -> dict[str, str]:
    slug = c.campaign.slug
    return {
        "dashboard": f"/campaigns/{slug}/?nation=GB",
        "map": f"/campaigns/{slug}/map/?nation=GB",
        "orders": f"/campaigns/{slug}/orders/?nation=GB",
        "order edit": f"/campaigns/{slug}/orders/{c.order.pk}/?nation=GB",
        "turns": f"/campaigns/{slug}/turns/?nation=GB",
        "turn": f"/campaigns/{slug}/turns/1/?nation=GB",
        "simulator": f"/campaigns/{slug}/simulator/",
        "battles": f"/campaigns/{slug}/battles/",
        "battle": f"/campaigns/{slug}/battles/{c.battle.pk}/",
    }


def _web_expected(role: str, page: str) -> int:
    if role == "anonymous":
        return 302  # to the login page
    if role in OUTSIDERS:
        return 404
    if role == "other_nation":
        # The campaign is France's too: its simulator and its own battle list open; Britain's pages
        # are refused by name, and a battle France neither fought nor saw does not exist.
        return {"simulator": 200, "battles": 200, "battle": 404}.get(page, 403)
    return 200


@pytest.mark.parametrize("role", ROLES)
def test_every_player_page_answers_each_person_as_the_matrix_says(role: str) -> None:
    c = cast()
    client = _client(c, role)
    before = fingerprint()
    got = {page: client.get(url).status_code for page, url in _web_pages(c).items()}
    expected = {page: _web_expected(role, page) for page in got}
    assert got == expected
    assert fingerprint() == before


def _api_reads(c: Cast) -> dict[str, str]:
    base = f"/api/v1/campaigns/{c.campaign.slug}"
    return {
        "campaign": f"{base}/?nation=GB",
        "fleets": f"{base}/fleets/?nation=GB",
        "ledger": f"{base}/ledger/?nation=GB",
        "orders": f"{base}/orders/?nation=GB",
        "order": f"{base}/orders/{c.order.pk}/?nation=GB",
        "turn": f"{base}/turns/1/?nation=GB",
        "battles": f"{base}/battles/",
        "battle": f"{base}/battles/{c.battle.pk}/",
    }


def _api_expected(role: str, endpoint: str) -> int:
    if role == "anonymous":
        return 401  # no credentials: "log in" (with WWW-Authenticate), not "forbidden"
    if role in OUTSIDERS:
        return 404
    if role == "other_nation":
        return {"battles": 200, "battle": 404}.get(endpoint, 403)
    return 200


@pytest.mark.parametrize("role", ROLES)
def test_every_api_read_answers_each_person_as_the_matrix_says(role: str) -> None:
    c = cast()
    client = _client(c, role)
    before = fingerprint()
    got = {name: client.get(url).status_code for name, url in _api_reads(c).items()}
    assert got == {name: _api_expected(role, name) for name in got}
    listing = client.get("/api/v1/campaigns/")
    assert listing.status_code == (401 if role == "anonymous" else 200)
    if role != "anonymous":
        slugs = {row["slug"] for row in listing.json()["results"]}
        assert (c.campaign.slug in slugs) == (role not in OUTSIDERS)
        runs = {row["slug"]: row["gm"] for row in listing.json()["results"]}
        assert runs.get(c.campaign.slug, False) == (role in RUNS)
    simulator = client.post(
        "/api/v1/simulator/",
        {"type": "fleet_action", "sides": []},
        content_type="application/json",
    )
    assert simulator.status_code == (401 if role == "anonymous" else 400)
    assert fingerprint() == before


def _posture(c: Cast, posture: str) -> dict[str, Any]:
    return {"kind": "posture", "fleet": c.fog.w.channel_fleet.pk, "posture": posture}


@pytest.mark.parametrize("role", ROLES)
def test_only_britains_player_and_gms_add_edit_withdraw_or_ready_britains_orders(role: str) -> None:
    """Every write in Britain's name, by web and by API; whoever may not gets 302 (login), 403 or 404
    and the database is exactly as before."""
    c = cast()
    client = _client(c, role)
    slug, pk = c.campaign.slug, c.order.pk
    web, api = f"/campaigns/{slug}", f"/api/v1/campaigns/{slug}"
    before = fingerprint()
    keel = {"kind": "lay_down", "class": "3rd-74", "port": "portsmouth"}
    got = {
        "web add": client.post(f"{web}/orders/?nation=GB", {**keel, "name": "Ajax"}).status_code,
        "web edit": client.post(f"{web}/orders/{pk}/?nation=GB", {**_posture(c, "seek"), "port": ""}).status_code,
        "web ready": client.post(f"{web}/ready/", {"ready": "1", "nation": "GB"}).status_code,
        "api add": client.post(
            f"{api}/orders/?nation=GB", {**keel, "name": "Achilles"}, "application/json"
        ).status_code,
        "api edit": client.put(f"{api}/orders/{pk}/?nation=GB", _posture(c, "avoid"), "application/json").status_code,
        "api ready": client.post(f"{api}/ready/?nation=GB", {"ready": False}, "application/json").status_code,
        "web withdraw": client.post(f"{web}/orders/{pk}/withdraw/?nation=GB").status_code,
    }
    mine = Order.objects.filter(nation=c.gb).values_list("pk", flat=True)
    wipe = client.put(f"{api}/orders/?nation=GB", [], "application/json").status_code
    if role in SEES_BRITAIN:
        assert got == {
            "web add": 302,
            "web edit": 302,
            "web ready": 302,
            "api add": 201,
            "api edit": 200,
            "api ready": 200,
            "web withdraw": 302,
        }
        assert wipe == 200 and not mine.exists()
        return
    refused = 302 if role == "anonymous" else 404 if role in OUTSIDERS else 403
    api_refused = 401 if role == "anonymous" else refused
    assert got == {
        "web add": refused,
        "web edit": refused,
        "web ready": refused,
        "api add": api_refused,
        "api edit": api_refused,
        "api ready": api_refused,
        "web withdraw": refused,
    }
    assert wipe == api_refused
    assert fingerprint() == before


ADMIN_MODELS = ("campaign", "nation", "turn", "order", "ledgerentry")


def _admin_objects(c: Cast) -> dict[str, int]:
    return {
        "campaign": c.campaign.pk,
        "nation": c.gb.pk,
        "turn": c.campaign.turns.order_by("number").first().pk,  # type: ignore[union-attr]
        "order": c.order.pk,
        "ledgerentry": c.gb.ledger.first().pk,  # type: ignore[union-attr]
    }


def _admin_expected(role: str) -> tuple[int, int]:
    """(change list, change page) of this campaign's rows."""
    if role in ("anonymous", "other_player", "other_nation", "own_player"):
        return 302, 302  # not staff: the admin's login page
    if role == "staff":
        return 403, 403  # runs no campaign: no admin page of a campaign's rows at all
    if role == "other_gm":
        return 200, 302  # their own campaign's list; this campaign's row "does not exist"
    return 200, 200


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_shows_a_campaigns_rows_only_to_its_gms(role: str) -> None:
    c = cast()
    client = _client(c, role)
    objects = _admin_objects(c)
    before = fingerprint()
    for model in ADMIN_MODELS:
        listing = client.get(f"/admin/campaign/{model}/")
        change = client.get(f"/admin/campaign/{model}/{objects[model]}/change/")
        assert (listing.status_code, change.status_code) == _admin_expected(role), model
        if role == "other_gm":
            assert "Channel 1805" not in listing.content.decode() and "Great Britain" not in listing.content.decode()
        if role == "other_gm" and model == "campaign":
            assert "Baltic 1807" in listing.content.decode()
        if role in RUNS and model in ("campaign", "nation"):
            assert "Channel 1805" in listing.content.decode() or "Great Britain" in listing.content.decode()
    assert fingerprint() == before


def test_a_gm_of_another_campaign_can_neither_act_on_nor_adjust_this_one_in_the_admin() -> None:
    c = cast()
    client = _client(c, "other_gm")
    before = fingerprint()
    pause = client.post(
        "/admin/campaign/campaign/",
        {"action": "pause_campaigns", "_selected_action": [str(c.campaign.pk)]},
    )
    assert pause.status_code == 302  # "no items selected": the row is not in this GM's list
    adjust = client.post(f"/admin/campaign/nation/{c.gb.pk}/adjust/", {"amount": "5", "reason": "bribe"})
    assert adjust.status_code == 404  # not a campaign this GM runs: as if it did not exist
    rules = client.get(reverse("admin:campaign_campaign_rules", args=[c.campaign.pk]))
    assert rules.status_code == 404
    assert fingerprint() == before


def test_a_co_gm_adjusts_a_treasury_of_their_campaign_in_the_admin() -> None:
    c = cast()
    client = _client(c, "co_gm")
    treasury = c.gb.treasury
    response = client.post(f"/admin/campaign/nation/{c.gb.pk}/adjust/", {"amount": "5", "reason": "prize money"})
    assert response.status_code == 302
    c.gb.refresh_from_db()
    assert c.gb.treasury == treasury + 5


@pytest.mark.parametrize("role", ["staff", "other_gm", "owner", "co_gm"])
def test_celery_beats_schedules_are_for_superusers_only(role: str) -> None:
    c = cast()
    assert _client(c, role).get("/admin/django_celery_beat/periodictask/").status_code == 403
    assert _client(c, "superuser").get("/admin/django_celery_beat/periodictask/").status_code == 200
    index = _client(c, role).get("/admin/").content.decode()
    assert "Periodic tasks" not in index


def test_only_the_owner_or_a_superuser_names_the_gms() -> None:
    c = cast()
    url = f"/admin/campaign/campaign/{c.campaign.pk}/change/"
    for role, may in (("co_gm", False), ("owner", True), ("superuser", True)):
        page = _client(c, role).get(url).content.decode()
        assert ('name="co_gms"' in page) == may, role
        assert ('name="gm"' in page) == may, role


REPAIR_PAGES = ("revert", "rerun", "refight")


def _repair_expected(role: str) -> int:
    """The GM's repair pages (issue 11) of this campaign: only those who run it reach them."""
    if role in ("anonymous", "other_player", "other_nation", "own_player"):
        return 302  # not staff: the admin's login page
    if role in ("staff", "other_gm"):
        return 404  # a campaign they do not run does not exist for them
    return 200


@pytest.mark.parametrize("role", ROLES)
def test_the_repair_pages_open_only_to_the_campaigns_gms_and_a_refused_post_changes_nothing(role: str) -> None:
    c = cast()
    client = _client(c, role)
    before = fingerprint()
    for page in REPAIR_PAGES:
        url = reverse(f"admin:campaign_campaign_{page}", args=[c.campaign.pk])
        assert client.get(url).status_code == _repair_expected(role), page
        if _repair_expected(role) != 200:
            posted = client.post(url, {"turn": "1", "battle": str(c.battle.pk), "reason": "mine", "confirm": "yes"})
            assert posted.status_code == _repair_expected(role), page
    assert fingerprint() == before
