"""Issue 13, "the rules at hand": a rules page per campaign, written for players, every number the
campaign's own (house changes marked against the rulebook), with stable section anchors; the texts
that cite a rule link to its section."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.pages.rulebook.page import ANCHORS, rulebook_sections
from rules.ruleset import DEFAULTS, SETTINGS, Ruleset
from tests.web.fog_worlds import FogWorld, client_for, turn_close, user

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _rules(fw: FogWorld, who: object | None = None) -> str:
    response = client_for(who or fw.nelson).get(reverse("campaign:rules", args=[fw.campaign.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_page_has_every_section_under_its_stable_anchor_and_is_linked_from_the_header(fw: FogWorld) -> None:
    html = _rules(fw)
    for number, anchor in ANCHORS.items():
        assert f'id="{anchor}"' in html, anchor
        assert f"§{number}" in html
    assert ANCHORS[4] == "at-sea" and ANCHORS[10] == "diplomacy"  # cited by stored reports: never renamed
    dashboard = client_for(fw.nelson).get(reverse("campaign:dashboard", args=[fw.campaign.slug])).content.decode()
    assert f'href="{reverse("campaign:rules", args=[fw.campaign.slug])}"' in dashboard
    assert "RULES.md" not in html
    assert "The game master has changed none of the rulebook's numbers." in _text(html)


def test_a_house_rule_shows_the_campaigns_number_marked_against_the_rulebook(fw: FogWorld) -> None:
    Campaign.objects.filter(pk=fw.campaign.pk).update(
        settings={"battle.max_rounds": 8, "movement.max_steps": 3, "ship.cost.3rd-74": 12}
    )
    text = _text(_rules(fw))
    assert "changed 3 numbers from the rulebook" in text
    assert "A battle is fought by days of up to 8 (rulebook: 6) rounds" in text
    assert "A move is a path of up to 3 (rulebook: 2) steps" in text
    assert "3rd rate (74/80) (ship of the line) 12 (rulebook: 10)" in text
    assert "House rules" in text and "3rd rate (74/80): cost" in text


def test_every_setting_of_the_ruleset_appears_on_the_page() -> None:
    """Each setting changed alone shows up as exactly one house rule in its section's tables."""
    for setting in SETTINGS:
        changed = setting.default + 1 if setting.default < setting.maximum else setting.default - 1
        try:
            ruleset = Ruleset.from_flat({setting.key: changed})
        except ValueError:
            continue  # a change the cross-checks forbid alone (e.g. the hit chart's order)
        marks = sum(s.house_rules for s in rulebook_sections(ruleset))
        assert marks == 1, setting.key
    assert sum(s.house_rules for s in rulebook_sections(Ruleset.from_flat())) == 0
    assert len(DEFAULTS) == len(SETTINGS)


def test_the_rules_page_is_only_for_those_who_take_part(fw: FogWorld) -> None:
    response = client_for(user("stranger")).get(reverse("campaign:rules", args=[fw.campaign.slug]))
    assert response.status_code == 404
    assert client_for(fw.gm).get(reverse("campaign:rules", args=[fw.campaign.slug]) + "?nation=FR").status_code == 200


def test_a_cited_rule_in_a_report_links_to_its_section_and_the_file_name_is_gone(fw: FogWorld) -> None:
    # An older stored report still names the file; newer texts say "rules §n".
    note = {"phase": 3, "text": "Order 2 skipped: cannot enter a neutral port (RULES.md §4, §7)"}
    turn = turn_close(fw.campaign, {fw.w.gb: [note]})
    response = client_for(fw.nelson).get(reverse("campaign:turn", args=[fw.campaign.slug, turn.number]))
    html = response.content.decode()
    rules = reverse("campaign:rules", args=[fw.campaign.slug])
    assert f'<a class="rule-link" href="{rules}#at-sea">§4</a>' in html
    assert f'<a class="rule-link" href="{rules}#ports-and-sieges">§7</a>' in html
    assert "RULES.md" not in html


def test_the_settled_readings_and_the_changes_are_told_in_players_words(fw: FogWorld) -> None:
    """Issue 31: the rules page carries the umpire's settled readings (RULES.md §12) in players' words,
    with no reference to the rules file, and a "changes" list naming the two readings that play
    differently from before: a blockade of a neutral port (§12.9) and whose flag a prize takes (§12.12)."""
    html = _rules(fw)
    text = _text(html)
    assert 'id="settled-readings"' in html and "§11 Settled readings" in text
    assert "only the highest that applies counts" in text
    assert "+1 at two to one, or +2 at three to one, or +3 at four to one" in text
    assert "no blockade" in text and "flies the flag of the nation whose ship boarded it" in text
    assert 'id="rules-changes"' in html
    changes = text[text.index("Changes to the rules") : text.index("Dice, grades and nations")]
    assert "Blockades:" in changes and "Prizes:" in changes and "at peace with" in changes
    assert "RULES.md" not in html and "shared" not in html and "CONTRACT" not in html


def test_the_rules_page_tells_how_the_sides_are_built_and_that_it_changed(fw: FogWorld) -> None:
    """Issue 31, §12.6/§12.7 in players' words, and the change of how side 2 is built in the changes list."""
    text = _text(_rules(fw))
    assert "An ally at war with nobody present stays out of the battle" in text
    assert "from the nations at war with any nation of the first side, the strongest first" in text
    changes = text[text.index("Changes to the rules") : text.index("Dice, grades and nations")]
    assert "Sides at sea:" in changes and "an ally of the strongest nation" in changes
    # §12.7's second half and §12.8 now play as the page says (issue 31).
    assert "Several battles in one zone:" in changes and "may fight their own battle" in changes
    assert "Default retreat:" in changes and "nearest port outside the zone" in changes
