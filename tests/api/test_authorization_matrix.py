"""Issue 12's authorization matrix: every caller a script might be × every operation of the published
schema, with the status each must get. The operations are read from the schema itself, so an endpoint
added without a row here fails the test instead of going unchecked.

Callers: no credentials, a wrong token, a revoked token, another campaign's player and GM (the campaign
does not exist for them: 404), France's player asking for Britain (403; a battle France did not see is
a 404), Britain's player and the campaign's GM (allowed). A refused request changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from campaign.accounts.api_tokens import api_token_create, api_token_revoke
from campaign.dispatches.services import conversation_start
from tests.security.people import Cast, cast, fingerprint

pytestmark = pytest.mark.django_db

CALLERS = (
    "anonymous",
    "wrong_token",
    "revoked_token",
    "other_campaign_player",
    "other_campaign_gm",
    "other_nation",
    "own_player",
    "gm",
)
PEOPLE = {
    "other_campaign_player": "other_player",
    "other_campaign_gm": "other_gm",
    "other_nation": "other_nation",
    "own_player": "own_player",
    "gm": "owner",
    "revoked_token": "own_player",
}
#: Writes last, and the order withdrawn before the whole list is replaced: each allowed call succeeds.
ORDER = [
    "order_update",
    "orders_reorder",
    "order_create",
    "ready_set",
    "simulator_run",
    "order_withdraw",
    "orders_replace",
]
#: What a caller who may act for Britain gets from each operation.
ALLOWED = {
    "campaigns_list": 200,
    "campaign_retrieve": 200,
    "fleets_list": 200,
    "zones_list": 200,
    "ports_list": 200,
    "ledger_list": 200,
    "orders_list": 200,
    "order_retrieve": 200,
    "turn_report_retrieve": 200,
    "battles_list": 200,
    "battle_retrieve": 200,
    "order_update": 200,
    "order_create": 201,
    "ready_set": 200,
    "simulator_run": 200,
    "order_withdraw": 204,
    "orders_replace": 200,
    "orders_reorder": 200,
    "dispatches_list": 200,
    "dispatches_send": 201,
    "dispatches_retrieve": 200,
    "dispatches_mark_read": 200,
    "table_battles_list": 200,
    # A battle on the table: the cast has none waiting, so the id names nothing (404 after the caller's
    # rights to the campaign and nation are checked). The allowed paths are in tests/api/test_tabletop_api.py.
    "table_battle_retrieve": 404,
    "table_result_enter": 404,
    "table_storming_result_enter": 404,
    "table_result_confirm": 404,
    "table_result_approve": 404,
    # What a bot plays from (issue 30).
    "nations_list": 200,
    "rules_retrieve": 200,
    "fleet_moves_list": 200,
    "orders_validate": 200,
    "turns_list": 200,
    "webhooks_list": 200,
    "webhooks_create": 201,
    # No such hook: the id names nothing (404 after the caller's rights are checked). Deleting one's own
    # hook, and not another's, is in tests/api/test_webhook_api.py.
    "webhooks_destroy": 404,
}
#: Operations that are not about one campaign: any known caller may use them.
CAMPAIGN_FREE = {"campaigns_list", "simulator_run"}
SPEC = {
    "type": "fleet_action",
    "sides": [
        {"navy": "GB", "ships": [{"name": "Victory", "class": "1st"}]},
        {"navy": "FR", "ships": [{"name": "Redoutable", "class": "3rd-74"}]},
    ],
    "seed": 1,
}


def _operations() -> list[tuple[str, str, str, bool]]:
    """(operation id, method, path template, takes ?nation=) for every operation of the schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
            found.append((operation["operationId"], method, path, "nation" in names))
    return found


def _body(c: Cast, operation: str) -> Any:
    posture = {"kind": "posture", "fleet": c.fog.w.channel_fleet.pk, "posture": "seek"}
    return {
        "order_update": posture,
        "order_create": {"kind": "lay_down", "class": "frigate", "name": "Matrix", "port": "portsmouth"},
        "ready_set": {"ready": True},
        "simulator_run": SPEC,
        "orders_replace": [],
        "orders_validate": [posture],
        "orders_reorder": {"order": [c.order.pk]},
        "dispatches_send": {"to": ["NL"], "subject": "Matrix", "body": "A word from Britain."},
        "webhooks_create": {"url": "http://127.0.0.1:9/matrix", "events": ["turn.opened"]},
    }.get(operation)


def _expected(caller: str, operation: str) -> int:
    if caller in ("anonymous", "wrong_token", "revoked_token"):
        return 401
    if operation in CAMPAIGN_FREE:
        return ALLOWED[operation]
    if caller in ("other_campaign_player", "other_campaign_gm"):
        return 404
    if caller == "other_nation":
        return {"battles_list": 200, "battle_retrieve": 404}.get(operation, 403)
    if caller == "gm" and operation == "dispatches_mark_read":
        return 403  # only the nation's player marks its dispatches read; the GM reads without
    return ALLOWED[operation]


def _client(c: Cast, caller: str) -> APIClient:
    client = APIClient()
    if caller == "wrong_token":
        client.credentials(HTTP_AUTHORIZATION="Bearer adm_not-a-real-token")
    elif caller in PEOPLE:
        made = api_token_create(user_id=c.people[PEOPLE[caller]].pk, name="matrix")
        if caller == "revoked_token":
            api_token_revoke(user_id=made.token.user_id, token_id=made.token.pk)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.secret}")
    return client


def test_the_matrix_covers_every_operation_of_the_schema() -> None:
    assert {op for op, *_ in _operations()} == set(ALLOWED), "a new endpoint needs its row in ALLOWED"


@pytest.mark.parametrize("caller", CALLERS)
def test_every_operation_answers_each_caller_as_the_matrix_says(caller: str) -> None:
    c = cast()
    client = _client(c, caller)
    proclamation = conversation_start(
        campaign=c.campaign,
        sender=None,
        author_id=c.people["owner"].pk,
        to=None,
        subject="Matrix",
        body="The Admiralty to all nations.",
        now=timezone.now(),
    )
    values = {
        "slug": c.campaign.slug,
        "order_id": c.order.pk,
        "battle_id": c.battle.pk,
        "number": 1,
        "dispatch_id": proclamation.dispatch.pk,
        "table_id": 2**31 - 1,
        "fleet_id": c.fog.w.channel_fleet.pk,
        "hook_id": 2**31 - 1,
    }
    operations = sorted(_operations(), key=lambda op: ORDER.index(op[0]) if op[0] in ORDER else -1)
    before = fingerprint()
    got, expected = {}, {}
    for operation, method, template, takes_nation in operations:
        url = template.format(**values) + ("?nation=GB" if takes_nation else "")
        body = _json(_body(c, operation)) if method != "get" else ""
        response = client.generic(method.upper(), url, body, content_type="application/json")
        got[operation] = response.status_code
        expected[operation] = _expected(caller, operation)
        if response.status_code >= 400:
            assert response["Content-Type"] == "application/problem+json", (operation, response.content)
    assert got == expected
    if caller not in ("own_player", "gm"):
        assert fingerprint() == before, "a refused caller changed nothing"


def _json(body: Any) -> str:
    return json.dumps(body) if body is not None else ""
