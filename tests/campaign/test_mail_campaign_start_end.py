"""The campaign's first and last mails: each player told of their nation when an import maps them
(import_campaign --player, setup_demo), and everyone told of the end with the final standings
(real SMTP server; the send task in-process)."""

from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.accounts.preferences import profile_time_zone_set
from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.mail.content import local
from campaign.models import Campaign, Delivery, MailEvent, Nation, Turn
from campaign.outbox.mail import campaign_ended_record
from campaign.scenarios import demo
from campaign.standings import NationHoldings, campaign_standings, standings_rank
from campaign.tasks import mail_deliveries_send, turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Ship
from tests.factories import PortFactory
from tests.support.mail import html_links, inbox_of, parts, players_with_mail
from tests.worlds import two_power_world

ENDED = "[Channel 1805] Turn 1: the campaign has ended, final standings"


def test_standings_rank_ports_then_ships_of_the_line_then_treasury_and_ties_share_a_place() -> None:
    ranked = standings_rank(
        [
            NationHoldings("Spain", ports=2, ships_of_the_line=9, treasury=10),
            NationHoldings("France", ports=3, ships_of_the_line=1, treasury=0),
            NationHoldings("Great Britain", ports=2, ships_of_the_line=9, treasury=40),
            NationHoldings("Denmark", ports=2, ships_of_the_line=12, treasury=0),
            NationHoldings("Batavia", ports=2, ships_of_the_line=9, treasury=10),
        ]
    )
    assert [(s.place, s.name) for s in ranked] == [
        (1, "France"),
        (2, "Denmark"),
        (3, "Great Britain"),
        (4, "Batavia"),  # equal in all three: one place, listed by name
        (4, "Spain"),
    ]
    assert standings_rank([]) == []


@pytest.mark.django_db
def test_campaign_standings_count_ports_held_and_ships_of_the_line_afloat() -> None:
    world = two_power_world(treasury=50)
    PortFactory.create(owner=world.fr, sea_zone=world.biscay, key="rochefort", name="Rochefort")
    Ship.objects.filter(nation=world.gb, name__in=["HMS 0", "HMS 1"]).update(condition="sunk", fleet=None)
    Ship.objects.filter(nation=world.gb, name="HMS 2").update(ship_class="frigate")  # not of the line
    by_name = {s.name: s for s in campaign_standings(world.campaign.pk)}
    assert (by_name["France"].place, by_name["France"].ports, by_name["France"].ships_of_the_line) == (1, 2, 10)
    assert (by_name["Great Britain"].place, by_name["Great Britain"].ships_of_the_line) == (2, 7)
    assert by_name["Great Britain"].treasury == 50


@pytest.mark.django_db
def test_the_last_turn_mails_every_player_and_gm_the_final_standings_once(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    deputy = get_user_model().objects.create_user("cornwallis", "cornwallis@example.org", "pw-0123456789")
    world.campaign.co_gms.add(deputy)
    Campaign.objects.filter(pk=world.campaign.pk).update(status=Campaign.Status.ACTIVE, last_turn=1)
    PortFactory.create(owner=world.fr, sea_zone=world.biscay, key="rochefort", name="Rochefort")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert campaign.status == Campaign.Status.ENDED
    assert not Turn.objects.filter(campaign=campaign, number=2).exists()
    # Recording the end again (a resumed phase 10) records nothing new.
    assert campaign_ended_record(campaign=campaign, turn=world.turn, now=timezone.now()) == 0
    mail_deliveries_send()
    mail_deliveries_send()  # a second run sends nothing twice
    for who in ("GB", "FR", "GM"):
        assert inbox_of(smtp_inbox.messages, people[who].email).count(ENDED) == 1
    assert inbox_of(smtp_inbox.messages, deputy.email).count(ENDED) == 1
    [to_britain] = [
        m for m in smtp_inbox.messages if m["Subject"] == ENDED and m["X-Envelope-To"] == people["GB"].email
    ]
    text, html = parts(to_britain)["text/plain"], parts(to_britain)["text/html"]
    assert "Great Britain finished in place 2 of 2." in text
    treasury = {n.code: n.treasury for n in Nation.objects.filter(campaign=campaign)}  # after the economy phase
    assert f"1. France: 2 ports, 10 ships of the line, {treasury['FR']} EP" in text
    assert f"2. Great Britain: 1 port, 10 ships of the line, {treasury['GB']} EP" in text
    assert '<td style="padding:4px 6px;">France</td>' in html and '<th scope="col"' in html
    assert "channel-1805" not in text.replace("/channel-1805/", "")  # names, not keys
    assert all(link.startswith("http") for link in html_links(html))
    assert "<script" not in html and "<img" not in html
    [to_gm] = [m for m in smtp_inbox.messages if m["Subject"] == ENDED and m["X-Envelope-To"] == people["GM"].email]
    assert "finished" not in parts(to_gm)["text/plain"]  # the GM has no nation of their own
    assert "1. France" in parts(to_gm)["text/plain"]
    ended = Delivery.objects.filter(event=MailEvent.CAMPAIGN_ENDED)
    assert ended.count() == 4 and all(d.state == Delivery.State.SENT for d in ended)


@pytest.mark.django_db
def test_an_import_with_players_mails_each_their_nation_and_first_deadline_in_their_zone(smtp_inbox) -> None:
    world = two_power_world()
    document = campaign_export(campaign=world.campaign)
    users = get_user_model()
    collingwood = users.objects.create_user("collingwood", "collingwood@example.org")  # no password yet
    decres = users.objects.create_user("decres", "decres@example.org", "pw-0123456789")
    profile_time_zone_set(user_id=decres.pk, name="Europe/Paris")
    copy = campaign_import(document=document, slug="copy", players={"GB": collingwood, "FR": decres})
    # The same import refused (the slug is taken) records nothing more.
    with pytest.raises(BackupError):
        campaign_import(document=document, slug="copy", players={"GB": collingwood, "FR": decres})
    assert Delivery.objects.filter(event=MailEvent.NATION_GIVEN, campaign=copy).count() == 2
    mail_deliveries_send()
    assert inbox_of(smtp_inbox.messages, "collingwood@example.org") == [
        "[Channel 1805] Turn 1: you command Great Britain"
    ]
    assert inbox_of(smtp_inbox.messages, "decres@example.org") == ["[Channel 1805] Turn 1: you command France"]
    deadline = Turn.objects.get(campaign=copy, number=1).deadline
    by_address = {m["X-Envelope-To"]: parts(m)["text/plain"] for m in smtp_inbox.messages}
    assert "You have no password yet" in by_address["collingwood@example.org"]
    assert "/accounts/password_reset/" in by_address["collingwood@example.org"]
    assert f"Next deadline: turn 1, {local(deadline, ZoneInfo('Europe/Paris'))}." in by_address["decres@example.org"]
    assert "You have no password yet" not in by_address["decres@example.org"]
    assert "/copy/" in by_address["decres@example.org"]


@pytest.mark.django_db
def test_an_import_without_players_mails_nobody() -> None:
    world = two_power_world()
    campaign_import(document=campaign_export(campaign=world.campaign), slug="copy")
    assert not Delivery.objects.exists()


@pytest.mark.django_db
def test_setup_demo_tells_every_demo_player_of_their_nation(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(demo, "logins_file", lambda: tmp_path / "demo-logins.txt")
    campaign, _, _ = demo.demo_setup()
    players = set(Nation.objects.filter(campaign=campaign).values_list("player_id", flat=True))
    given = Delivery.objects.filter(event=MailEvent.NATION_GIVEN, campaign=campaign)
    assert set(given.values_list("recipient_id", flat=True)) == players and given.count() == len(players)
    demo.demo_setup()  # already loaded: nothing new
    assert given.count() == len(players)
