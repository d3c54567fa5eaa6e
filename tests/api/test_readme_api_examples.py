"""The README's API token examples work against the ``make run`` demo as written (issue 12): the
token line's ``api_token`` command for the demo's British player, then each one-line GET ``curl``
with that token, and the lay-down order example."""

from __future__ import annotations

import json
import re
import shlex
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from campaign.scenarios.demo import demo_setup

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parent.parent.parent / "README.md"
SITE = "http://127.0.0.1:8000"


def _api_section() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("\n## API\n") :]


def test_the_readme_token_examples_work_against_the_demo() -> None:
    demo_setup()
    section = _api_section()
    [token_line] = re.findall(r"^TOKEN=\$\(\.venv/bin/python manage\.py (.+)\)$", section, flags=re.M)
    args = shlex.split(token_line)
    out = StringIO()
    call_command(*args, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {out.getvalue().strip()}")

    gets = re.findall(r'^curl -H "Authorization: Bearer \$TOKEN" (http\S+)$', section, flags=re.M)
    assert len(gets) >= 4, gets
    for url in gets:
        response = client.get(url.removeprefix(SITE))
        assert response.status_code == 200, (url, response.content[:300])
        assert response.json(), url
    ports = {p["key"]: p for p in client.get("/api/v1/campaigns/demo/ports/").json()["results"]}
    assert ports["plymouth"]["owner"] == "GB" and ports["plymouth"]["dockyard"] is True

    [body] = re.findall(r"-d '(\{\"kind\": \"lay_down\".*?\})'", section)
    response = client.post("/api/v1/campaigns/demo/orders/", json.loads(body), format="json")
    assert response.status_code == 201, response.content


def _orders_file() -> list[dict[str, object]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### A complete file and the call") :]
    [body] = re.findall(r"^```json\n(.*?)^```$", section, flags=re.M | re.S)[:1]
    orders = json.loads(body)
    assert isinstance(orders, list) and len(orders) == 11
    return orders


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_readme_complete_orders_file_is_accepted_whole_for_britain_in_a_fresh_demo(tmp_path: Path) -> None:
    """The README's "A complete file and the call", as written, against a demo numbered as `make run`
    numbers a fresh one: every order accepted by the API's replace-all, in order, and by submit_orders,
    whose first lines are as the README shows them."""
    demo_setup()
    orders = _orders_file()
    out = StringIO()
    call_command("api_token", "player-gb", "--name", "readme", stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {out.getvalue().strip().splitlines()[-1]}")
    response = client.put("/api/v1/campaigns/demo/orders/", orders, format="json")
    assert response.status_code == 200, response.content
    stored = response.json()["orders"]
    assert [o["kind"] for o in stored] == [o["kind"] for o in orders]
    path = tmp_path / "orders-gb.json"
    path.write_text(json.dumps(orders), encoding="utf-8")
    printed = StringIO()
    call_command("submit_orders", "demo", "--nation", "GB", str(path), stdout=printed)
    lines = printed.getvalue().splitlines()
    assert len(lines) == len(orders)
    text = README.read_text(encoding="utf-8")
    for line in lines[:3]:
        assert f"\n{line}\n" in text, line
