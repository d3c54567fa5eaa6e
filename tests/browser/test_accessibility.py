"""Issue 28, "axe: 0 serious on every player page": every page a player uses, at 390 px after a
turn with a battle (so every page has its full content), checked by axe-core in Chromium; no
violation of impact "serious" or "critical" is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import Browser

from battles.models import Battle
from campaign.orders.services import order_add
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.browser.test_phone_widths import PHONE, _logged_in, _pages
from tests.browser.test_player_journey import journey_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}


def _blocking_violations(results: dict[str, Any]) -> list[str]:
    """Each serious or critical violation as one line: its rule, impact and the nodes it found."""
    return [
        f"{violation['id']} ({violation['impact']}): " + ", ".join(str(node["target"]) for node in violation["nodes"])
        for violation in results["violations"]
        if violation["impact"] in BLOCKING
    ]


def test_no_player_page_has_a_serious_accessibility_violation(live_server: Any, browser: Browser) -> None:
    world = journey_world()
    turn = world["turn"]
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    battle = Battle.objects.filter(turn=turn, kind=Battle.Kind.FLEET_ACTION).get()
    gb = world["campaign"].nations.get(code="GB")
    order = order_add(nation=gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})

    axe = Axe()
    found: dict[str, list[str]] = {}
    phone = _logged_in(browser, live_server.url, PHONE)
    for name, path in _pages(world["campaign"].slug, battle.pk, order.pk).items():
        response = phone.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        if violations := _blocking_violations(axe.run(phone).response):
            found[name] = violations
    for name, violations in found.items():
        print(name, *violations, sep="\n  ")
    assert found == {}, found
