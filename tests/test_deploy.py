"""Production settings pass Django's deployment checks (DESIGN.md: `check --deploy` clean)."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _production_env() -> dict[str, str]:
    """This environment under production settings, with what they require and no default."""
    return {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},  # set by conftest for tests
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "DJANGO_ALLOWED_HOSTS": "admiralty.example.org",
    }


def test_production_settings_pass_check_deploy() -> None:
    env = _production_env()
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings.prod", "DATABASE_URL": "postgres://x@127.0.0.1/x"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_the_health_check_is_not_redirected_to_https_under_production_settings() -> None:
    """Load balancers probe /healthz over plain HTTP: it answers itself (200 or 503), never 301."""
    env = _production_env()
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "c = Client(HTTP_HOST='admiralty.example.org')\n"
        "print(c.get('/healthz').status_code, c.get('/accounts/login/').status_code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    health, login = result.stdout.split()
    assert health in {"200", "503"}
    assert login == "301"  # everything else still goes to https


def test_production_posts_webhooks_only_to_public_addresses_and_development_allows_local_ones() -> None:
    """The SSRF guard (campaign.webhooks.addresses) is on unless a deployment turns it off; `make run`'s
    settings allow a receiver on one's own machine."""
    read = "from django.conf import settings; print(settings.WEBHOOK_PRIVATE_ADDRESSES)"
    allowed = {}
    for module in ("config.settings.prod", "config.settings.dev"):
        env = {**_production_env(), "DJANGO_SETTINGS_MODULE": module}
        env.pop("WEBHOOK_PRIVATE_ADDRESSES", None)
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", read],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        allowed[module] = result.stdout.strip().splitlines()[-1]
    assert allowed == {"config.settings.prod": "False", "config.settings.dev": "True"}
