"""Who may change a table battle's result, and what it records (issues 27 and 29): a dispute, both
sides' confirmation and the GM's entry stand until the GM acts; results refuse unknown keys and an
admiral lost twice; the result says who entered, confirmed, disputed it and what the GM decided; the
dispute is a thread both sides and the GM post on, each post mailed to the others; every table action
is in the audit log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from battles.engagements.table import table_sides
from battles.models import Battle, PackPdf, TablePost, TabletopBattle
from campaign.models.audit import AuditEntry
from campaign.tabletop.services import TableResultRefused, table_result_dispute, table_result_enter
from campaign.tasks import mail_deliveries_send
from fleets.models import Fleet
from tests.factories import AdmiralFactory, NationFactory
from tests.support.tabletop import gibraltar_siege, table_ships
from tests.worlds import World, fleet, sea_world

pytestmark = pytest.mark.django_db


def _players(world: World) -> tuple[Client, Client, Any, Any]:
    users = get_user_model().objects
    fr_player = users.create_user("villeneuve", "v@example.com", "a-long-test-password")
    gb_player = users.create_user("nelson", "n@example.com", "a-long-test-password")
    world.fr.player, world.gb.player = fr_player, gb_player
    world.fr.save()
    world.gb.save()
    fr, gb = Client(), Client()
    fr.force_login(fr_player)
    gb.force_login(gb_player)
    return fr, gb, fr_player, gb_player


def _form(table: TabletopBattle, *, sunk: int = 0, held: int = 1) -> dict[str, str]:
    """The result form: the first ``sunk`` ships sunk, the rest intact, side ``held`` held the field."""
    data = {"action": "enter", "held_field": str(held)}
    for k, ship in enumerate(table_ships(table)):
        data[f"fate-{ship.pk}"] = "sunk" if k < sunk else "intact"
    return data


def test_the_entering_side_cannot_overwrite_a_dispute_nor_the_gms_result() -> None:
    world, table, gm = gibraltar_siege()
    fr, gb, _, _ = _players(world)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert fr.post(url, _form(table, sunk=1)).status_code == 302
    assert (
        gb.post(url, {"action": "dispute", "reason": "The Escadre's flagship struck, it did not sink."}).status_code
        == 302
    )
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.DISPUTED

    # France enters again over the dispute: refused, the dispute and the result stand.
    refused = fr.post(url, _form(table, sunk=0))
    assert refused.status_code == 400 and "stays as it is until the game master decides" in refused.content.decode()
    again = TabletopBattle.objects.get(pk=table.pk)
    assert again.status == TabletopBattle.Status.DISPUTED and again.result == table.result
    assert "struck" in again.dispute
    assert "Enter the result</button>" not in fr.get(url).content.decode()  # no form offered

    # The GM enters the result that stands; France can neither replace nor dispute it.
    assert gm.post(url, {**_form(table, sunk=0), "as_gm": "1"}).status_code == 302
    gm_result = TabletopBattle.objects.get(pk=table.pk).result
    assert fr.post(url, _form(table, sunk=2)).status_code == 400
    assert fr.post(url, {"action": "dispute", "reason": "No!"}).status_code == 400
    after = TabletopBattle.objects.get(pk=table.pk)
    assert after.status == TabletopBattle.Status.CONFIRMED and after.result == gm_result


def test_through_the_api_too_a_side_cannot_replace_the_gms_result() -> None:
    world, table, _ = gibraltar_siege()
    _, _, fr_player, _ = _players(world)
    rows = [{"ship": s.pk, "fate": "intact"} for s in table_ships(table)]
    table_result_enter(table=table, body={"ships": rows, "held_field": None}, side=None, by="gm")
    api = APIClient()
    api.force_authenticate(fr_player)
    base = f"/api/v1/campaigns/{world.campaign.slug}/table/{table.pk}/"
    answer = api.post(base + "result/", {"ships": rows, "admirals_lost": [], "held_field": 0}, format="json")
    assert answer.status_code == 409, answer.content
    assert "game master entered this result" in answer.json()["detail"]
    assert TabletopBattle.objects.get(pk=table.pk).result["held_field"] is None


def test_a_result_with_an_unknown_key_or_an_admiral_twice_is_refused_and_not_stored() -> None:
    world, table, _ = gibraltar_siege()
    cadix = Fleet.objects.get(campaign=world.campaign, name="Escadre de Cadix")
    cadix.admiral = AdmiralFactory.create(nation=world.fr, name="Rosily")
    cadix.save()
    rows = [{"ship": s.pk, "fate": "intact"} for s in table_ships(table)]
    with pytest.raises(TableResultRefused, match="not part of a result") as unknown:
        table_result_enter(table=table, body={"ships": rows, "held_field": None, "bribe": 1}, side=0, by="fr")
    assert unknown.value.field == "bribe" and unknown.value.code == "unknown_key"
    with pytest.raises(TableResultRefused, match="not part of a ship's entry"):
        bad = [{**rows[0], "note": "x"}, *rows[1:]]
        table_result_enter(table=table, body={"ships": bad, "held_field": None}, side=0, by="fr")
    assert table.engagement is not None
    admirals = [a.pk for _, a in table_sides(table.engagement).admirals()]
    with pytest.raises(TableResultRefused, match="listed twice") as twice:
        body = {"ships": rows, "held_field": None, "admirals_lost": [admirals[0], admirals[0]]}
        table_result_enter(table=table, body=body, side=0, by="fr")
    assert twice.value.field == "admirals_lost[1]"
    assert TabletopBattle.objects.get(pk=table.pk).result == {}


def test_the_corrected_result_says_who_entered_disputed_and_what_the_gm_decided(smtp_inbox: Any) -> None:
    world, table, gm = gibraltar_siege()
    fr, gb, _, _ = _players(world)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert fr.post(url, _form(table, sunk=1)).status_code == 302
    assert gb.post(url, {"action": "dispute", "reason": "Nothing sank."}).status_code == 302
    assert fr.post(url, {"action": "post", "body": "Our log says she went down at noon."}).status_code == 302
    assert gm.post(url, {"action": "post", "body": "I have the umpire's notes: she struck."}).status_code == 302
    assert gm.post(url, {**_form(table, sunk=0), "as_gm": "1"}).status_code == 302
    assert gm.post(url, {"action": "approve"}).status_code == 302

    page = gb.get(url).content.decode()
    assert "Confirmed by France and Great Britain" not in page
    assert "France (villeneuve) entered the result." in page
    assert "Great Britain (nelson) disputed it." in page
    assert "The game master entered the result that stands." in page
    assert "After the dispute the game master entered the result that stands." in page
    # The thread: the dispute's reason first, then both posts, each by its side.
    posts = list(TablePost.objects.filter(table=table).values_list("side", "body"))
    assert posts == [
        (1, "Nothing sank."),
        (0, "Our log says she went down at noon."),
        (None, "I have the umpire's notes: she struck."),
    ]
    assert page.index("Nothing sank.") < page.index("went down at noon") < page.index("umpire")
    # Each post mailed to the battle's other people (real SMTP), never to its author.
    mail_deliveries_send()
    mails: dict[str, list[str]] = {}
    for message in smtp_inbox.messages:
        if "table battle" in str(message["Subject"]).replace("\r\n", ""):
            mails.setdefault(str(message["To"]), []).append(str(message["Subject"]).replace("\r\n", ""))
    assert sorted(len(v) for v in mails.values()) == [2, 2, 2]
    assert mails["v@example.com"] == [
        f"[{world.campaign.name}] Turn 1: Great Britain wrote on the Gibraltar table battle",
        f"[{world.campaign.name}] Turn 1: The game master wrote on the Gibraltar table battle",
    ]
    to_gm = next(m for m in smtp_inbox.messages if m["To"] == "gm@example.com" and "wrote on" in str(m["Subject"]))
    text = next(part for part in to_gm.walk() if part.get_content_type() == "text/plain")
    assert "Nothing sank." in text.get_payload(decode=True).decode()
    # The battle's report page says it too.
    battle = Battle.objects.get(turn=world.turn, place="gibraltar")
    report = gb.get(f"/campaigns/{world.campaign.slug}/battles/{battle.pk}/").content.decode()
    assert "After the dispute the game master entered the result that stands." in report


def test_a_post_on_the_thread_is_refused_when_empty_or_from_a_stranger() -> None:
    world, table, _ = gibraltar_siege()
    fr, _, _, _ = _players(world)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    empty = fr.post(url, {"action": "post", "body": "   "})
    assert empty.status_code == 400 and "the post is empty" in empty.content.decode()
    stranger = get_user_model().objects.create_user("gravina", "g@example.com", "a-long-test-password")
    client = Client()
    client.force_login(stranger)
    assert client.post(url, {"action": "post", "body": "hello"}).status_code in (403, 404)
    assert not TablePost.objects.exists()


def test_every_table_action_is_in_the_audit_log() -> None:
    world, table, gm = gibraltar_siege()
    fr, gb, _, _ = _players(world)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert fr.post(url, {"action": "roll"}).status_code == 302
    assert fr.post(url, _form(table, sunk=1)).status_code == 302
    assert gb.post(url, {"action": "confirm"}).status_code == 302
    table.refresh_from_db()
    with pytest.raises(TableResultRefused):
        table_result_dispute(table=table, side=1, reason="")  # refused: no entry
    assert gm.post(url, {"action": "approve"}).status_code == 302
    entries = list(AuditEntry.objects.filter(campaign_id=world.campaign.pk).order_by("pk"))
    # The GM's marking of Gibraltar (made by the world's set-up, before the turn) comes first.
    assert [e.action for e in entries] == [
        "table_sent",
        "table_dice",
        "table_result_entered",
        "table_result_confirmed",
        "table_result_approved",
    ]
    by = [e.actor_name for e in entries[1:]]
    assert by == ["villeneuve", "villeneuve", "nelson", "gm"]
    assert "the battle at Gibraltar" in entries[2].summary


def test_asking_deciding_sending_and_withdrawing_are_in_the_audit_log() -> None:
    world = sea_world()
    fr, _, _, _ = _players(world)
    gm_user = get_user_model().objects.create_user("gm", "gm@example.com", "a-long-test-password")
    world.campaign.gm = gm_user
    world.campaign.save()
    gm = Client()
    gm.force_login(gm_user)
    fleet(world, world.fr, "Escadre du Nord", "north-sea", [("3rd-74", 2)])
    tables = f"/campaigns/{world.campaign.slug}/table/"
    assert fr.post(tables, {"action": "mark", "place": "north-sea"}).status_code == 302
    asked = TabletopBattle.objects.get(campaign=world.campaign, place="north-sea")
    assert gm.post(tables, {"action": "decline", "table": str(asked.pk)}).status_code == 302
    assert gm.post(tables, {"action": "mark", "place": "north-sea"}).status_code == 302  # sent after all
    assert gm.post(tables, {"action": "unmark", "table": str(asked.pk)}).status_code == 302
    entries = AuditEntry.objects.filter(campaign_id=world.campaign.pk).order_by("pk")
    assert [(e.action, e.actor_name) for e in entries] == [
        ("table_asked", "villeneuve"),
        ("table_request_declined", "gm"),
        ("table_sent", "gm"),
        ("table_unmarked", "gm"),
    ]
    assert entries[0].summary == "France asked for the battle at North Sea to go to the table"


def test_a_nation_that_witnessed_nothing_gets_no_pack_nor_pdf_of_it() -> None:
    """Issue 27.3, checked again with the queued PDF: a nation that asked for the battle but fought in
    none of its sides gets 404 for the battle, its pack and its PDF (and no print is queued for it).
    That it cannot ask where it has no ships is tests/security/test_hostile_corpus.py's."""
    world, table, _ = gibraltar_siege()
    spain_player = get_user_model().objects.create_user("gravina", "g@example.com", "a-long-test-password")
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=spain_player)
    TabletopBattle.objects.filter(pk=table.pk).update(requested_by=spain)
    client = Client()
    client.force_login(spain_player)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert [client.get(url + tail).status_code for tail in ("", "pack/", "pack.pdf")] == [404, 404, 404]
    assert not PackPdf.objects.exists()
