"""Log in, log out, password reset by email, and the viewer's time zone setting."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.signing import Signer
from django.test import Client
from django.urls import reverse

from campaign.accounts.time_zone import TZ_COOKIE
from tests.security.conftest import send_password_reset_mail_at_once  # noqa: F401 (an autouse fixture)
from tests.web.fog_worlds import PASSWORD, user

pytestmark = pytest.mark.django_db


def test_a_player_logs_in_and_lands_on_their_campaigns() -> None:
    user("nelson")
    client = Client()
    page = client.get(reverse("login")).content.decode()
    assert 'name="username"' in page and "Forgotten your password?" in page
    response = client.post(reverse("login"), {"username": "nelson", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "nelson" in client.get("/").content.decode()


def test_a_wrong_password_is_refused_with_a_message_and_no_session() -> None:
    user("nelson")
    client = Client()
    response = client.post(reverse("login"), {"username": "nelson", "password": "not-the-password"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logging_in_returns_to_the_page_asked_for() -> None:
    user("nelson")
    client = Client()
    response = client.post(reverse("login"), {"username": "nelson", "password": PASSWORD, "next": "/settings/"})
    assert response["Location"] == "/settings/"


def test_log_out_is_a_post_with_csrf() -> None:
    nelson = user("nelson")
    client = Client(enforce_csrf_checks=True)
    client.force_login(nelson)
    page = client.get("/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    assert client.post(reverse("logout")).status_code == 403  # no token: refused
    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token[1]})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def _reset_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", body)
    assert match is not None, body
    return match[1]


def test_a_forgotten_password_is_reset_through_an_emailed_link() -> None:
    user("nelson")
    client = Client()
    page = client.get(reverse("password_reset")).content.decode()
    assert "Reset your password" in page
    response = client.post(reverse("password_reset"), {"email": "nelson@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["nelson@example.org"]
    assert message.subject == "Admiralty: choose a new password"
    link = _reset_link(str(message.body))
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    new = "a-new-and-long-password"
    done = client.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done["Location"] == reverse("password_reset_complete")
    assert Client().login(username="nelson", password=new)
    assert not Client().login(username="nelson", password=PASSWORD)
    # The link works once.
    assert "That link has expired" in client.get(link, follow=True).content.decode()


def test_a_weak_new_password_is_refused_next_to_the_field() -> None:
    user("nelson")
    client = Client()
    client.post(reverse("password_reset"), {"email": "nelson@example.org"})
    form = client.get(_reset_link(str(mail.outbox[0].body)), follow=True)
    response = client.post(form.redirect_chain[-1][0], {"new_password1": "12345678", "new_password2": "12345678"})
    assert response.status_code == 200
    assert "This password is too common" in response.content.decode()
    assert Client().login(username="nelson", password=PASSWORD)


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same() -> None:
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert "Check your email" in response.content.decode()
    assert mail.outbox == []


def test_the_reset_email_goes_out_over_smtp(smtp_inbox: object) -> None:
    """The real email backend (SMTP to a local server), as production sends it."""
    user("nelson")
    Client().post(reverse("password_reset"), {"email": "nelson@example.org"})
    messages = smtp_inbox.messages  # type: ignore[attr-defined]
    assert len(messages) == 1
    assert messages[0]["To"] == "nelson@example.org"
    assert "/accounts/reset/" in messages[0].get_payload()


def test_the_time_zone_setting_is_kept_in_a_signed_cookie() -> None:
    client = Client()
    client.force_login(user("nelson"))
    page = client.get(reverse("campaign:settings")).content.decode()
    assert "Times are now shown in <strong>UTC</strong>" in page
    assert '<option value="Europe/Lisbon">Europe/Lisbon</option>' in page
    response = client.post(reverse("campaign:settings"), {"time_zone": "Europe/Lisbon"}, follow=True)
    assert "Times are now shown in Europe/Lisbon" in response.content.decode()
    assert "Times are now shown in <strong>Europe/Lisbon</strong>" in response.content.decode()
    assert client.cookies[TZ_COOKIE]["httponly"]
    assert get_user_model().objects.get(username="nelson")  # no model needed: nothing else changed


def test_an_unknown_time_zone_is_refused_next_to_the_field() -> None:
    client = Client()
    client.post(reverse("campaign:settings"), {"time_zone": "Europe/Lisbon"})
    response = client.post(reverse("campaign:settings"), {"time_zone": "../../etc/passwd"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert "Times are now shown in <strong>Europe/Lisbon</strong>" in client.get("/settings/").content.decode()


def test_a_tampered_time_zone_cookie_is_ignored() -> None:
    client = Client()
    client.cookies[TZ_COOKIE] = Signer(salt="someone-else").sign("Asia/Tokyo")
    assert "Times are now shown in <strong>UTC</strong>" in client.get("/settings/").content.decode()
    client.cookies[TZ_COOKIE] = "Asia/Tokyo"
    assert "Times are now shown in <strong>UTC</strong>" in client.get("/settings/").content.decode()
