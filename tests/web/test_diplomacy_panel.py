"""Issue 13, "diplomacy in sight": the relations table (war, peace, alliance by nation names) on the
dashboard and the map, the offers waiting for an answer, and the nations panel with each nation's
player and whether it is ready (hidden from players by the house option, never from the GM)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.backup.document import campaign_export, campaign_import
from campaign.models import Campaign, DiplomaticOffer, NationTurn, Relation
from tests.support.turns import order_store, phases_run
from tests.web.fog_worlds import FogWorld, client_for, relate

pytestmark = pytest.mark.django_db


def _panel(fw: FogWorld, page: str = "campaign:dashboard", user: object | None = None, query: str = "") -> str:
    response = client_for(user or fw.nelson).get(reverse(page, args=[fw.campaign.slug]) + query)
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="diplomacy"')
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start : html.index("</section>", start)]))


@pytest.mark.parametrize("page", ["campaign:dashboard", "campaign:map"])
def test_the_relations_table_names_every_nation_its_player_its_wars_and_alliances(fw: FogWorld, page: str) -> None:
    NationTurn.objects.filter(turn=fw.w.turn, nation=fw.w.fr).update(ready=True)
    panel = _panel(fw, page)
    assert "Great Britain nelson France Portugal not ready" in panel
    assert "France villeneuve Great Britain Batavian Republic ✓ ready" in panel
    assert "Portugal no player — Great Britain not ready" in panel
    assert "1 of 4 ready for turn 1" in panel
    assert "Any two nations not at war or allied are at peace." in panel


def test_the_relations_table_lists_nations_and_their_enemies_by_name_not_by_code(fw: FogWorld) -> None:
    """Codes FR, GB, NL, PT would put France first and the Batavian Republic third."""
    relate(fw.w.gb, fw.nl, Relation.State.WAR)
    html = client_for(fw.nelson).get(reverse("campaign:dashboard", args=[fw.campaign.slug])).content.decode()
    rows = re.findall(r'<th scope="row"><span class="swatch"[^>]*></span>([^<]+)<', html)
    assert rows == ["Batavian Republic", "France", "Great Britain", "Portugal"]
    assert "Great Britain nelson Batavian Republic, France Portugal" in _panel(fw)


def test_offers_to_and_from_the_nation_are_listed_and_no_others(fw: FogWorld) -> None:
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.w.fr, to_nation=fw.w.gb, kind="peace", turn=1)
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.pt, to_nation=fw.nl, kind="alliance", turn=1)
    panel = _panel(fw)
    assert "France offers Great Britain peace (turn 1)" in panel
    assert "it takes effect if Great Britain gives the same order towards France this turn" in panel
    assert "Batavian Republic alliance" not in panel  # a letter between two other nations
    assert "France offered Great Britain peace (turn 1)" in _panel(fw, user=fw.villeneuve)
    DiplomaticOffer.objects.all().delete()
    assert "No offers of peace or alliance to or from Great Britain." in _panel(fw)


def test_the_house_option_hides_readiness_from_players_but_not_from_the_gm(fw: FogWorld) -> None:
    NationTurn.objects.filter(turn=fw.w.turn, nation=fw.w.fr).update(ready=True)
    Campaign.objects.filter(pk=fw.campaign.pk).update(show_readiness=False)
    panel = _panel(fw, "campaign:map")
    assert "ready" not in panel.replace("keeps to themselves which nations are ready", "")
    assert "The game master keeps to themselves which nations are ready." in panel
    gm = _panel(fw, user=fw.gm, query="?nation=GB")
    assert "France villeneuve Great Britain Batavian Republic ✓ ready" in gm


def test_a_declaration_of_war_shows_in_the_table_after_the_turn(fw: FogWorld) -> None:
    assert "Great Britain nelson France Portugal" in _panel(fw)
    order_store(fw.w.turn, fw.w.gb, "declare_war", nation="NL")
    phases_run(fw.w.turn, 1)
    panel = _panel(fw)
    assert "Great Britain nelson Batavian Republic, France Portugal" in panel
    assert "Batavian Republic no player Great Britain France" in panel


def test_the_house_option_survives_export_and_import(fw: FogWorld) -> None:
    assert "show_readiness" not in campaign_export(campaign=fw.campaign)["campaign"]  # the default: files unchanged
    Campaign.objects.filter(pk=fw.campaign.pk).update(show_readiness=False)
    document = campaign_export(campaign=Campaign.objects.get(pk=fw.campaign.pk))
    assert document["campaign"]["show_readiness"] is False
    assert campaign_import(document=document, slug="hidden-readiness").show_readiness is False
