"""How a battle fought on the table reads (issue 29): its report counts only the ships in the line, as
the server's report does (a frigate beside ships of the line is not in it), and the admin's battle page
names the winner and links the readable report instead of showing the stored JSON."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from campaign.tabletop.services import table_result_approve, table_result_enter
from tests.support.tabletop import gibraltar_siege, table_ships

pytestmark = pytest.mark.django_db


def _approved() -> tuple[Battle, Client]:
    """Gibraltar's battle entered by the GM (Great Britain held the field) and approved."""
    _, table, client = gibraltar_siege()
    rows = [{"ship": s.pk, "fate": "intact"} for s in table_ships(table)]
    table = table_result_enter(table=table, body={"ships": rows, "held_field": 1}, side=None, by="gm")
    battle = table_result_approve(table=table)
    assert battle is not None
    return battle, client


def test_a_table_fought_report_counts_only_the_ships_in_the_line() -> None:
    """The Mediterranean Fleet is a first rate, two 74s and a frigate: three in the line, not four."""
    battle, client = _approved()
    html = client.get(f"/campaigns/{battle.campaign.slug}/battles/{battle.pk}/").content.decode()
    counts = [part.split("</dd>")[0] for part in html.split("<dt>Ships in the line</dt><dd>")[1:]]
    assert counts == ["3", "3"]
    assert "Mediterranean Fleet 4</td>" not in html and "(not in the line)" in html
    # A report stored before the line was kept is counted by the rules' line too.
    report = dict(battle.report)
    report["ships"] = [{k: v for k, v in row.items() if k != "in_line"} for row in report["ships"]]
    Battle.objects.filter(pk=battle.pk).update(report=report)
    html = client.get(f"/campaigns/{battle.campaign.slug}/battles/{battle.pk}/").content.decode()
    assert [part.split("</dd>")[0] for part in html.split("<dt>Ships in the line</dt><dd>")[1:]] == ["3", "3"]


def test_the_admins_battle_page_names_the_winner_and_links_the_report() -> None:
    battle, client = _approved()
    gm = battle.campaign.gm
    assert gm is not None
    gm.is_staff = True
    gm.save()
    html = client.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode()
    report_url = f"/campaigns/{battle.campaign.slug}/battles/{battle.pk}/"
    assert f'<a href="{report_url}">Read the report of the battle at Gibraltar</a>' in html
    assert "France against Great Britain" in html
    winner = html.split("Winner:</label>")[1].split("</div>")[0]
    assert "Great Britain" in winner and ">1<" not in winner
    assert '"type": "tabletop"' not in html and "&quot;type&quot;" not in html  # no stored JSON
    listing = client.get("/admin/battles/battle/").content.decode()
    assert "Great Britain" in listing
