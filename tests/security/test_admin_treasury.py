"""The admin's "Adjust treasury" refuses amounts the database cannot hold with a form error (issue 9).

Before: an amount beyond 32 bits reached PostgreSQL's integer column and answered 500.
"""

import pytest
from django.test import Client
from django.urls import reverse

from campaign.gm.admin.forms import TREASURY_MAX
from campaign.models import LedgerEntry, Nation
from tests.factories import NationFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        ("99999999999999999999", "less than or equal to 2147483647"),
        ("-99999999999999999999", "greater than or equal to -2147483647"),
        (str(2**31), "less than or equal to 2147483647"),
        (str(TREASURY_MAX), "it holds at most 2147483647 EP"),
        ("-11", "1 EP short"),
        ("1e400", "Enter a whole number"),
    ],
)
def test_an_amount_the_treasury_cannot_take_is_a_form_error(gm_client: Client, amount: str, words: str) -> None:
    nation = NationFactory.create(treasury=0)
    url = reverse("admin:campaign_nation_adjust", args=[nation.pk])
    assert gm_client.post(url, {"amount": 10, "reason": "Prize money"}).status_code == 302
    response = gm_client.post(url, {"amount": amount, "reason": "Typo"})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Nation.objects.get(pk=nation.pk).treasury == 10
    assert LedgerEntry.objects.filter(nation=nation).count() == 1


def test_the_largest_treasury_is_reachable(gm_client: Client) -> None:
    nation = NationFactory.create(treasury=0)
    url = reverse("admin:campaign_nation_adjust", args=[nation.pk])
    assert gm_client.post(url, {"amount": TREASURY_MAX, "reason": "Prize money"}).status_code == 302
    assert Nation.objects.get(pk=nation.pk).treasury == TREASURY_MAX
