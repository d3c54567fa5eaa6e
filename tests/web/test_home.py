import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import NationFactory

pytestmark = pytest.mark.django_db


def test_the_home_page_and_admin_login_answer() -> None:
    client = Client()
    assert client.get("/").status_code == 200
    assert client.get("/admin/login/").status_code == 200
    assert client.get("/accounts/login/").status_code == 200


def test_a_player_sees_only_their_own_campaigns() -> None:
    player = get_user_model().objects.create_user("nelson", password="x-very-long-pass")
    mine = NationFactory.create(player=player)
    NationFactory.create(code="FR", name="France")  # another campaign
    client = Client()
    client.force_login(player)
    page = client.get("/").content.decode()
    assert mine.campaign.name in page
    assert page.count("<tr>") == 2  # header + one campaign
