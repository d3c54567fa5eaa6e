"""A battle's pack stays readable after the GM approves its result (issue 29): the printable page and
the PDF are the pack as it stood when approved, marked "approved" — not a 403 — and the ships lost at
the table are still in its orders of battle. A storming's alike. The record travels with an export."""

from __future__ import annotations

import pytest

from battles.models import PackPdf, TabletopBattle
from battles.tabletop.pdf import pack_pdf_print
from campaign.backup.document import campaign_export
from campaign.tabletop.services import table_result_enter
from tests.support.tabletop import gibraltar_siege, gibraltar_storming, table_ships

pytestmark = pytest.mark.django_db


def test_a_battles_pack_is_readable_after_approval_and_marked_approved() -> None:
    world, table, client = gibraltar_siege()
    ships = table_ships(table)
    rows = [{"ship": s.pk, "fate": "sunk" if k == 0 else "intact"} for k, s in enumerate(ships)]
    sunk = ships[0].name
    table_result_enter(table=table, body={"ships": rows, "admirals_lost": [], "held_field": 1}, side=None, by="gm")
    page_url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    before = client.get(f"{page_url}pack/").content.decode()
    assert client.post(page_url, {"action": "approve"}).status_code == 302
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.APPLIED and table.approved_at is not None

    response = client.get(f"{page_url}pack/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<strong>Approved</strong> by the game master on" in html
    assert "Battle pack: the battle at Gibraltar" in html and sunk in html  # as it stood: the lost ship listed
    assert "Forts of Gibraltar: 6 coastal forts" in html
    assert "<style>" not in html and 'rel="stylesheet"' in html  # the site's stylesheet, as the CSP wants
    # The same orders of battle as the pack showed while the battle waited.
    section = "<h2>Orders of battle</h2>"
    assert html.split(section)[1].split("<h2>")[0] == before.split(section)[1].split("<h2>")[0]
    detail = client.get(page_url).content.decode()
    assert "Battle pack (printable page, approved)" in detail and "Battle pack (PDF, approved)" in detail
    preparing = client.get(f"{page_url}pack.pdf")  # printed by a queued task, never in the request
    assert preparing.status_code == 202 and "Preparing the PDF" in preparing.content.decode()
    assert pack_pdf_print(PackPdf.objects.get(table=table).pk) == "printed"
    pdf = client.get(f"{page_url}pack.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    # The record is part of the campaign's export, so a backup or copy keeps it.
    exported = campaign_export(campaign=world.campaign)["table_battles"]
    assert [t["record"].count("<strong>Approved</strong>") for t in exported] == [1]


def test_a_stormings_pack_is_readable_after_approval() -> None:
    world, table, client = gibraltar_storming()
    page_url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    body = {"besiegers_lost": {"FR": 1}, "garrison_lost": 0, "port_taken": False}
    table_result_enter(table=table, body=body, side=None, by="gm")
    assert client.post(page_url, {"action": "approve"}).status_code == 302
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.APPLIED
    html = client.get(f"{page_url}pack/").content.decode()
    assert "Battle pack: the storming of Gibraltar" in html and "<strong>Approved</strong>" in html
    assert "France: 3 land units, 1 of them siege train" in html  # the siege as it stood, before the loss


def test_a_battle_never_approved_still_has_no_pack_once_fought_by_the_dice() -> None:
    world, table, client = gibraltar_siege()
    page_url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert client.post(page_url, {"action": "automatic"}).status_code == 302
    assert client.get(f"{page_url}pack/").status_code == 403
