"""Issue 13, "Words, not keys": a campaign played for three turns (europe-1805 with the golden test's
orders: battles, running the guns, landings, lay-downs), then every page its players use is read as
text and searched for keys and codes a person should never see — zone and port keys, nation codes
alone, ship class codes, snake_case values, "RULES.md" — and for wrong plurals ("1 ships").

The campaign is the golden test's, row for row, copied in from the rows of its first play kept under
the played-rows cache (tests.support.played_campaign): tests/golden checks that playing still gives it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, Nation, Turn
from campaign.orders.forms import ORDER_FORMS
from ports.models import SeaZone
from tests.support.played_campaign import play, played
from tests.support.words import forbidden_words, visible_text
from tests.web.fog_worlds import client_for, user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

#: The nations whose players read every page (the ones at war in 1805, and one at peace).
PLAYERS = ("GB", "FR", "ES", "RU")


def _pages(campaign: Campaign) -> list[str]:
    slug = campaign.slug
    pages = [
        reverse("campaign:dashboard", args=[slug]),
        reverse("campaign:map", args=[slug]),
        reverse("campaign:orders", args=[slug]),
        reverse("campaign:turns", args=[slug]),
        reverse("campaign:rules", args=[slug]),
        reverse("campaign:simulator", args=[slug]),
        reverse("campaign:mail_preferences", args=[slug]),
        reverse("battles:list", args=[slug]),
        reverse("campaign:settings"),
        reverse("campaign:home"),
    ]
    pages += [reverse("campaign:orders", args=[slug]) + f"?kind={kind}" for kind in ORDER_FORMS]
    pages += [
        reverse("campaign:map", args=[slug]) + f"?zone={z}"
        for z in SeaZone.objects.filter(campaign=campaign).values_list("key", flat=True)[:6]
    ]
    for number in Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED).values_list("number", flat=True):
        pages.append(reverse("campaign:turn", args=[slug, number]))
    return pages


def scan(campaign: Campaign) -> str:
    """Every page of every player in ``PLAYERS`` (who must have one) read as text; the leaks found,
    three examples of each, or "" when none."""
    battles = list(Battle.objects.filter(campaign=campaign).values_list("pk", flat=True))
    patterns = forbidden_words(campaign)
    found: dict[str, set[str]] = {}
    for code in PLAYERS:
        nation = Nation.objects.get(campaign=campaign, code=code)
        client = client_for(nation.player)
        pages = _pages(campaign) + [reverse("battles:detail", args=[campaign.slug, pk]) for pk in battles]
        for path in pages:
            response = client.get(path)
            if response.status_code == 404 and "/battles/" in path:
                continue  # a battle this nation did not see
            assert response.status_code == 200, (code, path, response.status_code)
            text = visible_text(response.content.decode())
            for what, pattern in patterns:
                for match in pattern.finditer(text):
                    line = text[max(0, match.start() - 50) : match.end() + 30].replace("\n", " ")
                    found.setdefault(f"{what}: {match.group(0)}", set()).add(f"{code} {path}: …{line}…")
    return "\n".join(f"{k}\n    " + "\n    ".join(sorted(v)[:3]) for k, v in sorted(found.items()))


def test_no_page_of_a_played_campaign_shows_a_key_or_a_code() -> None:
    campaign = played(play)
    assert Battle.objects.filter(campaign=campaign).exists(), "the played campaign must have fought"
    for code in PLAYERS:
        nation = Nation.objects.get(campaign=campaign, code=code)
        nation.player = user(f"player-{code.lower()}")
        nation.save(update_fields=["player"])
    leaks = scan(campaign)
    assert not leaks, f"keys or codes a player reads:\n{leaks}"
