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

from campaign.demo import demo_setup

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
    ports = {p["key"]: p for p in client.get("/api/v1/campaigns/demo/ports/").json()}
    assert ports["plymouth"]["owner"] == "GB" and ports["plymouth"]["dockyard"] is True

    [body] = re.findall(r"-d '(\{\"kind\": \"lay_down\".*?\})'", section)
    response = client.post("/api/v1/campaigns/demo/orders/", json.loads(body), format="json")
    assert response.status_code == 201, response.content
