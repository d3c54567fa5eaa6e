"""The demo campaign of ``make run``: europe-1805 as slug ``demo`` with a GM and one player per nation.

Passwords are generated on first set-up, never committed, and kept in ``var/demo-logins.txt``
(readable only by the owner) so that later runs can print them again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, Nation
from campaign.outbox.mail import players_given_record
from campaign.scenarios.loading import scenario_load

DEMO_SLUG = "demo"
DEMO_SCENARIO = "europe-1805"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


def logins_file() -> Path:
    return Path(settings.VAR_DIR) / "demo-logins.txt"


@transaction.atomic
def demo_setup() -> tuple[Campaign, list[DemoLogin], bool]:
    """Create the demo campaign and accounts once; returns (campaign, new logins, created?).

    Idempotent: a second call changes nothing and returns no new logins.
    """
    existing = Campaign.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing, [], False
    users: Any = get_user_model()
    created: list[DemoLogin] = []

    def account(username: str, role: str, *, staff: bool) -> Any:
        password = secrets.token_urlsafe(12)
        user = users.objects.filter(username=username).first()
        if user is None:
            if staff:
                user = users.objects.create_superuser(username, f"{username}@example.org", password)
            else:
                user = users.objects.create_user(username, f"{username}@example.org", password)
        else:
            user.set_password(password)
            user.save(update_fields=["password"])
        created.append(DemoLogin(username, password, role))
        return user

    gm = account("gm", "game master (admin site)", staff=True)
    campaign = scenario_load(name=DEMO_SCENARIO, slug=DEMO_SLUG, display_name="Demo: Europe 1805", gm=gm)
    for nation in Nation.objects.filter(campaign=campaign).order_by("code"):
        nation.player = account(f"player-{nation.code.lower()}", f"player, {nation.name}", staff=False)
        nation.save(update_fields=["player"])
    # The demo's players are mapped after the import, so they are told here (sent after commit).
    players_given_record(campaign_id=campaign.pk, now=timezone.now())
    path = logins_file()
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(f"{d.username}\t{d.password}\t{d.role}\n" for d in created), encoding="utf-8")
    path.chmod(0o600)
    return campaign, created, True
