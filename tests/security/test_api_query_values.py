"""Issue 9: no query value makes an API read answer 5xx — huge and negative numbers, NaN, NUL, lone
surrogates, and digits that are not ASCII ("²".isdigit() is true, but int("²") raises)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.security.people import cast

pytestmark = pytest.mark.django_db

QUERIES = [
    *(f"page={value}" for value in ("9" * 30, "-" + "9" * 30, "1e309", "nan", "-1", "0", "2147483648")),
    *(f"page={value}" for value in ("%00", "%ED%A0%80", "%C2%B2", "%D9%A1", "")),
    *(f"{name}=%00" for name in ("nation", "kind", "zone")),
    "nation=" + "9" * 30,
    "turn=" + "9" * 30,
    "nation=%ED%A0%80",
]


@pytest.mark.parametrize("path", ["", "fleets/", "ledger/", "orders/", "turns/1/", "battles/", "zones/", "ports/"])
def test_no_query_value_breaks_an_api_read(path: str) -> None:
    c = cast()
    client = Client(raise_request_exception=False)
    client.force_login(c.people["owner"])
    answers = {q: client.get(f"/api/v1/campaigns/{c.campaign.slug}/{path}?{q}").status_code for q in QUERIES}
    assert not {q: status for q, status in answers.items() if status >= 500}
