"""Property tests: every form, every /api/v1/ endpoint and the pages' query parameters fed arbitrary text
(NUL, lone surrogates and undecodable bytes, huge numbers, deep JSON) answer 2xx/3xx or a clear 4xx —
never a 5xx — and a refused request leaves the database exactly as it was (issue 9).

The requests are made as a player and as the campaign's owner GM (who may name any nation, so every
nation-taking branch is reached). The test client re-raises a server error, so a crash fails loudly.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote_plus

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.simulator import SimulatorForm
from campaign.orders.forms import ORDER_FORMS
from tests.security.people import Cast, cast, fingerprint
from tests.security.test_hostile_properties import JSON_VALUES, NASTY_TEXT

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BOUNDED = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
HUGE = st.sampled_from(["9" * 30, "-" + "9" * 30, "99999999999999999999", "1e309", "nan", "-1", "0", "2147483648"])
VALUE = NASTY_TEXT | HUGE | st.sampled_from(["GB", "FR", "1", "portsmouth", "channel", "avoid", "3rd-74"])
JSON_BODY = st.one_of(
    NASTY_TEXT,
    JSON_VALUES.map(lambda v: json.dumps(v, ensure_ascii=True)),
    st.sampled_from(["[" * 2000, '{"kind": "posture", "fleet": 99999999999999999999999, "posture": "avoid"}']),
)
WHO = st.sampled_from(["own_player", "owner"])


@pytest.fixture
def people() -> Cast:
    return cast()


def _form(fields: dict[str, str]) -> bytes:
    """A form body as a browser would send it, with undecodable bytes where the text held surrogates."""
    return "&".join(
        f"{quote_plus(k.encode('utf-8', 'surrogatepass'))}={quote_plus(v.encode('utf-8', 'surrogatepass'))}"
        for k, v in fields.items()
    ).encode("ascii")


def _query(fields: dict[str, str]) -> str:
    return _form(fields).decode("ascii")


def _client(c: Cast, who: str) -> Client:
    client = Client()
    client.force_login(c.people[who])
    return client


def _no_crash_and_refusals_change_nothing(send: Any, *, done: tuple[int, ...] = (302,)) -> None:
    """``send()`` answers below 500; unless it answered one of ``done`` (a form's redirect after
    success, an API's 2xx), nothing changed: a re-rendered form or a 4xx wrote nothing."""
    before = fingerprint()
    response = send()
    assert response.status_code < 500
    if response.status_code not in done:
        assert fingerprint() == before, response.status_code


def _fields(names: list[str]) -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries({}, optional=dict.fromkeys(names, VALUE))


ORDER_FIELDS = sorted({name for form in ORDER_FORMS.values() for name in form.base_fields} | {"kind"})
PAGES = ["", "map/", "orders/", "turns/", "turns/1/", "simulator/", "battles/"]
QUERY = _fields(["nation", "ledger", "page", "zone", "kind", "turn"])


@BOUNDED
@given(who=WHO, page=st.sampled_from(PAGES), query=QUERY)
def test_every_page_takes_any_query(people: Cast, who: str, page: str, query: dict[str, str]) -> None:
    url = f"/campaigns/{people.campaign.slug}/{page}?{_query(query)}"
    _no_crash_and_refusals_change_nothing(lambda: _client(people, who).get(url), done=())


@BOUNDED
@given(who=WHO, kind=st.sampled_from(sorted(ORDER_FORMS)) | VALUE, fields=_fields(ORDER_FIELDS), edit=st.booleans())
def test_the_order_forms_take_any_input(people: Cast, who: str, kind: str, fields: dict[str, str], edit: bool) -> None:
    slug = people.campaign.slug
    url = f"/campaigns/{slug}/orders/{people.order.pk}/?nation=GB" if edit else f"/campaigns/{slug}/orders/?nation=GB"
    body = _form({**fields, "kind": kind})
    client = _client(people, who)
    _no_crash_and_refusals_change_nothing(
        lambda: client.post(url, body, content_type="application/x-www-form-urlencoded")
    )


@BOUNDED
@given(who=WHO, fields=_fields(["ready", "nation"]), order=VALUE)
def test_ready_and_withdraw_take_any_input(people: Cast, who: str, fields: dict[str, str], order: str) -> None:
    slug = people.campaign.slug
    client = _client(people, who)
    body = _form(fields)
    _no_crash_and_refusals_change_nothing(
        lambda: client.post(f"/campaigns/{slug}/ready/", body, content_type="application/x-www-form-urlencoded")
    )
    _no_crash_and_refusals_change_nothing(
        lambda: client.post(f"/campaigns/{slug}/orders/{quote_plus(order.encode('utf-8', 'surrogatepass'))}/withdraw/")
    )


SIMULATOR_FIELDS = [*sorted(SimulatorForm().fields), "state"]


@BOUNDED
@given(fields=_fields(SIMULATOR_FIELDS), where=st.sampled_from(["/simulator/", "/campaigns/channel-1805/simulator/"]))
def test_the_simulator_forms_take_any_input(people: Cast, fields: dict[str, str], where: str) -> None:
    client = _client(people, "own_player")
    body = _form(fields)
    _no_crash_and_refusals_change_nothing(
        lambda: client.post(where, body, content_type="application/x-www-form-urlencoded")
    )


@BOUNDED
@given(fields=_fields(["time_zone"]))
def test_the_settings_form_takes_any_input(people: Cast, fields: dict[str, str]) -> None:
    client = _client(people, "own_player")
    body = _form(fields)
    _no_crash_and_refusals_change_nothing(
        lambda: client.post("/settings/", body, content_type="application/x-www-form-urlencoded")
    )


API_WRITES = [
    ("post", "orders/"),
    ("put", "orders/"),
    ("put", "orders/{order}/"),
    ("delete", "orders/{order}/"),
    ("post", "ready/"),
    ("post", "/api/v1/simulator/"),
]


@BOUNDED
@given(who=WHO, target=st.sampled_from(API_WRITES), body=JSON_BODY, nation=st.none() | VALUE)
def test_every_api_write_takes_any_body(
    people: Cast, who: str, target: tuple[str, str], body: str, nation: str | None
) -> None:
    method, path = target
    base = f"/api/v1/campaigns/{people.campaign.slug}/"
    url = path if path.startswith("/") else base + path.format(order=people.order.pk)
    if nation is not None:
        url += "?" + _query({"nation": nation})
    client = _client(people, who)
    raw = body.encode("utf-8", "surrogatepass")
    _no_crash_and_refusals_change_nothing(
        lambda: getattr(client, method)(url, raw, content_type="application/json"), done=(200, 201, 204)
    )


API_READS = ["", "fleets/", "ledger/", "orders/", "orders/{order}/", "turns/1/", "battles/", "battles/{battle}/"]


@BOUNDED
@given(who=WHO, path=st.sampled_from(API_READS), query=QUERY, item=st.none() | HUGE)
def test_every_api_read_takes_any_query(
    people: Cast, who: str, path: str, query: dict[str, str], item: str | None
) -> None:
    order, battle = (item, item) if item is not None and item.isdigit() else (people.order.pk, people.battle.pk)
    url = f"/api/v1/campaigns/{people.campaign.slug}/{path.format(order=order, battle=battle)}?{_query(query)}"
    _no_crash_and_refusals_change_nothing(lambda: _client(people, who).get(url), done=())


ADMIN_FORMS = {
    "nation/{gb}/adjust/": ["amount", "reason"],
    "nation/{gb}/lay-down/": ["ship_class", "name", "port"],
    "campaign/{campaign}/extend/": ["days", "hours"],
    "campaign/{campaign}/rules/": ["grade.modifier.A", "grade.modifier.B", "grade.modifier.E"],
}


@BOUNDED
@given(form=st.sampled_from(sorted(ADMIN_FORMS)), data=st.data())
def test_the_gms_admin_forms_take_any_input(people: Cast, form: str, data: Any) -> None:
    fields = data.draw(_fields(ADMIN_FORMS[form]))
    url = "/admin/campaign/" + form.format(gb=people.gb.pk, campaign=people.campaign.pk)
    client = _client(people, "owner")
    body = _form(fields)
    _no_crash_and_refusals_change_nothing(
        lambda: client.post(url, body, content_type="application/x-www-form-urlencoded")
    )
