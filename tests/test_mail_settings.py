"""Mail's settings from the environment: EMAIL_URL for any SMTP provider, DJANGO_ADMINS for server
errors, SITE_URL (in production the site's own host by default)."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from django.utils.log import AdminEmailHandler

ROOT = Path(__file__).resolve().parent.parent
PRINT = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS, "
    "[list(a) for a in s.ADMINS], s.SITE_URL]))"
)


def settings_under(module: str, **env: str) -> list:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "SITE_URL", "DJANGO_ADMINS"))}
    full |= {"DJANGO_SETTINGS_MODULE": module, **env}
    out = subprocess.run([sys.executable, "-c", PRINT], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_email_url_configures_smtp_and_admins_are_parsed() -> None:
    backend, host, port, user, tls, admins, _ = settings_under(
        "config.settings.test",
        EMAIL_URL="smtp+tls://mailer:s3cret@smtp.example.org:587",
        DJANGO_ADMINS="Ops Desk <ops@example.org>, dev@example.org",
    )
    assert (backend, host, port, user, tls) == (
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        587,
        "mailer",
        True,
    )
    assert admins == [["Ops Desk", "ops@example.org"], ["", "dev@example.org"]]


def test_make_run_prints_mail_in_the_console_and_production_links_to_its_own_host() -> None:
    assert settings_under("config.settings.dev")[0] == "django.core.mail.backends.console.EmailBackend"
    prod = settings_under(
        "config.settings.prod",
        DJANGO_SECRET_KEY="x" * 50,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        DJANGO_ALLOWED_HOSTS="admiralty.example.org",
    )
    assert prod[6] == "https://admiralty.example.org"


def test_links_follow_the_port_make_run_serves_on() -> None:
    """SITE_URL defaults to http://127.0.0.1:$PORT (issue 24: under PORT=8101 links said 8000)."""
    assert settings_under("config.settings.dev", PORT="8101")[6] == "http://127.0.0.1:8101"
    assert settings_under("config.settings.test", PORT="8101")[6] == "http://127.0.0.1:8101"
    assert settings_under("config.settings.dev", PORT="8101", SITE_URL="https://sea.example.org")[6] == (
        "https://sea.example.org"
    )
    assert settings_under("config.settings.dev", PORT="8000")[6] == "http://127.0.0.1:8000"


def test_server_errors_are_mailed_to_the_admins() -> None:
    assert any(isinstance(h, AdminEmailHandler) for h in logging.getLogger("django").handlers)
