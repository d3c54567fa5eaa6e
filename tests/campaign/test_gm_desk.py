"""The GM's desk and the GM's campaign actions (issue 11): the desk page and its flat query count, the
admin lists' flat query counts, guard rails, start / invite / replace / end, victory conditions, NMR."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.audit import COMMAND_LINE
from campaign.gm.actions import campaign_end, gm_turn_resolve_now
from campaign.gm.desk import desk_for_gm
from campaign.models import (
    Campaign,
    Delivery,
    Invitation,
    MailEvent,
    Nation,
    NationTurn,
    Order,
    Turn,
    TurnReport,
    Webhook,
)
from campaign.models.audit import AuditEntry
from campaign.orders.deadline import DeadlinePassed
from campaign.orders.services import order_add
from campaign.players.services import (
    PlayerError,
    invitation_accept,
    invitation_from_token,
    invitation_url,
    player_invite,
)
from campaign.standings import NationHoldings, campaign_standings, standings_rank
from campaign.turn.lifecycle import turns_due
from campaign.turn.runner import phase_run
from fleets.models import Fleet
from rules.ruleset import NAVIES, NAVY_NAMES
from tests.factories import CampaignFactory, FleetFactory, NationFactory, PortFactory, ShipFactory
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm_client(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = Client()
    client.force_login(gm)
    return gm, client


def _grow(world: World, extra: int) -> None:
    """``extra`` more nations, each with a player, a fleet of ships, two orders and a report."""
    for code in [c for c in NAVIES if c not in ("GB", "FR")][:extra]:
        player = User.objects.create_user(f"player-{code.lower()}", f"{code.lower()}@example.org")
        nation = NationFactory.create(campaign=world.campaign, code=code, name=NAVY_NAMES[code], player=player)
        fleet = FleetFactory.create(nation=nation, name=f"{code} squadron", sea_zone=world.biscay)
        for i in range(3):
            ShipFactory.create(fleet=fleet, nation=nation, name=f"{code} ship {i}")
        for i in range(2):
            Order.objects.create(
                campaign=world.campaign,
                turn=world.turn,
                nation=nation,
                position=i + 1,
                kind="posture",
                body={"kind": "posture", "fleet": fleet.pk, "posture": "avoid"},
                fleet=fleet if i == 0 else None,
            )
        NationTurn.objects.create(turn=world.turn, nation=nation, submitted_at=timezone.now())


def _desk_queries(client: Client, world: World) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk]))
    assert response.status_code == 200
    return len(queries)


def test_the_desk_shows_every_nation_orders_reports_failed_mail_and_the_missing() -> None:
    world = two_power_world()
    _, client = _gm_client(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    world.gb.refresh_from_db()
    order_add(nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"})
    resolved = Turn.objects.create(campaign=world.campaign, number=0, year=1804, season="winter", status="resolved")
    TurnReport.objects.create(
        turn=resolved, nation=world.fr, body={"events": [{"kind": "note", "text": "A quiet winter in Brest."}]}
    )
    Delivery.objects.create(
        recipient=nelson,
        event=MailEvent.TURN_OPENED,
        campaign=world.campaign,
        nation=world.gb,
        state=Delivery.State.FAILED,
        attempts=6,
        error="550 mailbox unavailable",
        due_at=timezone.now(),
    )
    villeneuve = User.objects.create_user("villeneuve", "v@example.org")
    Nation.objects.filter(pk=world.fr.pk).update(player=villeneuve)
    page = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert "Turn 1 (Spring 1805)" in page and "deadline" in page
    assert "nelson" in page and "villeneuve" in page
    assert "<li>Frigate Hero at Portsmouth (" in page  # in words, as the player's order page writes it
    assert "lay_down" not in page and "at portsmouth" not in page
    assert "A quiet winter in Brest." in page
    assert "550 mailbox unavailable" in page
    assert "<strong>No orders yet</strong> from France." in page  # GB entered one; FR none
    assert 'class="seamap"' in page and "Channel Fleet" in page  # every nation's fleets on the map
    assert "?nation=FR" in page  # look through any nation

    desk = desk_for_gm(campaign=world.campaign)
    by_code = {n.code: n for n in desk.nations}
    assert (by_code["GB"].orders, by_code["GB"].ships, by_code["GB"].treasury) == (1, 10, 50)
    assert [n.code for n in desk.missing] == ["FR"]


def test_the_desk_keeps_a_flat_query_count_as_nations_grow() -> None:
    world = two_power_world()
    _, client = _gm_client(world)
    # An order on the desk before and after: their words are named from the campaign's names, read once.
    order_add(nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"})
    _desk_queries(client, world)  # warm caches (content types, sessions)
    small = _desk_queries(client, world)
    _grow(world, 6)
    large = _desk_queries(client, world)
    assert Nation.objects.filter(campaign=world.campaign).count() == 8
    assert large == small, f"{small} queries for 2 nations, {large} for 8"


def test_a_gm_of_another_campaign_cannot_reach_the_desk() -> None:
    world = two_power_world()
    _gm_client(world)
    other = User.objects.create_user("rival", password="pw", is_staff=True)
    client = Client()
    client.force_login(other)
    for name in ("desk", "end", "rules", "dry_run", "extend"):
        assert client.get(reverse(f"admin:campaign_campaign_{name}", args=[world.campaign.pk])).status_code in (
            403,
            404,
        ), name
    for name in ("invite", "replace", "adjust", "lay_down"):
        assert client.get(reverse(f"admin:campaign_nation_{name}", args=[world.gb.pk])).status_code in (403, 404)


@pytest.mark.parametrize(
    "changelist",
    [
        "campaign_campaign",
        "campaign_nation",
        "campaign_turn",
        "campaign_order",
        "campaign_ledgerentry",
        "campaign_auditentry",
        "fleets_ship",
        "fleets_fleet",
        "ports_port",
        "battles_battle",
    ],
)
def test_admin_lists_keep_a_flat_query_count_as_rows_grow(changelist: str) -> None:
    world = two_power_world()
    gm, client = _gm_client(world)
    url = reverse(f"admin:{changelist}_changelist")
    client.get(url)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small = count()
    _grow(world, 5)
    for i in range(4):  # more campaigns, with their open turns and audit entries
        more = CampaignFactory.create(gm=gm, slug=f"more-{i}", name=f"More {i}", status="active")
        Turn.objects.create(campaign=more, number=1, year=1805, season="spring", deadline=timezone.now())
        call_command("campaign_control", more.slug, "extend", "--by", "1h", stdout=io.StringIO())
    assert count() == small


def test_guard_rails_lifecycle_read_only_and_history_not_deletable() -> None:
    world = two_power_world()
    _, client = _gm_client(world)
    change = client.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk]))
    form = change.context["adminform"].form
    for field in ("status", "turn_number", "season", "year", "seed", "start_year", "slug"):
        assert field not in form.fields, field
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update({"status": "resolved", "turn_number": 9, "seed": 1, "nations-TOTAL_FORMS": 0})
    data.update({"nations-INITIAL_FORMS": 0, "nations-MIN_NUM_FORMS": 0, "nations-MAX_NUM_FORMS": 1000})
    client.post(reverse("admin:campaign_campaign_change", args=[world.campaign.pk]), data)
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.status, campaign.turn_number, campaign.seed) == ("active", 1, 42)
    turn = client.get(reverse("admin:campaign_turn_change", args=[world.turn.pk]))
    assert "status" not in turn.context["adminform"].form.fields
    assert client.post(reverse("admin:campaign_turn_delete", args=[world.turn.pk]), {"post": "yes"}).status_code == 403
    assert client.post(reverse("admin:campaign_nation_delete", args=[world.gb.pk]), {"post": "yes"}).status_code == 403
    assert (
        client.post(reverse("admin:campaign_campaign_delete", args=[world.campaign.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert Turn.objects.filter(pk=world.turn.pk).exists() and Campaign.objects.filter(pk=campaign.pk).exists()
    # The admin's add page leads to "start from a scenario".
    assert client.get(reverse("admin:campaign_campaign_add"))["Location"] == reverse("admin:campaign_campaign_start")


def test_an_admin_edit_of_a_row_is_audited_with_before_and_after() -> None:
    world = two_power_world()
    gm, client = _gm_client(world)
    change = client.get(reverse("admin:fleets_fleet_change", args=[world.channel_fleet.pk]))
    form = change.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data["name"] = "Western Squadron"
    for prefix in ("ships",):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    response = client.post(reverse("admin:fleets_fleet_change", args=[world.channel_fleet.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="record_changed")
    assert (entry.before, entry.after, entry.actor_id) == (
        {"name": "Channel Fleet"},
        {"name": "Western Squadron"},
        gm.pk,
    )


# --- start, invite, replace, end ----------------------------------------------------------------------


def test_start_a_campaign_from_a_scenario_in_the_admin() -> None:
    gm = User.objects.create_user("ada", password="pw", is_staff=True)
    client = Client()
    client.force_login(gm)
    url = reverse("admin:campaign_campaign_start")
    when = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    past = client.post(url, {"scenario": "europe-1805", "name": "N", "slug": "n", "first_deadline": "2001-01-01T10:00"})
    assert "must be in the future" in past.content.decode()
    response = client.post(
        url,
        {
            "scenario": "europe-1805",
            "name": "Trafalgar Year",
            "slug": "trafalgar",
            "seed": 1805,
            "first_deadline": timezone.localtime(when).strftime("%Y-%m-%dT%H:%M"),
            "turn_length_days": 5,
        },
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(slug="trafalgar")
    # Set up, not running: the GM starts its clock later (tests/campaign/test_gm_lifecycle.py).
    assert (campaign.name, campaign.gm, campaign.seed, campaign.status) == ("Trafalgar Year", gm, 1805, "setup")
    assert campaign.ruleset["calendar.turn_length_days"] == 5
    turn = Turn.objects.get(campaign=campaign, number=1)
    assert turn.deadline == when and turn.snapshot is not None
    assert turn.snapshot["turns"][0]["deadline"] == when.isoformat()
    [entry] = AuditEntry.objects.filter(campaign_id=campaign.pk)
    assert entry.action == "campaign_created" and entry.after is not None and entry.after["seed"] == 1805
    taken = client.post(url, {"scenario": "europe-1805", "name": "Again", "slug": "trafalgar"})
    assert "exists already" in taken.content.decode()


def test_invite_creates_an_account_and_the_signed_link_gives_the_nation() -> None:
    world = two_power_world()
    gm, _ = _gm_client(world)
    invitation = player_invite(nation=world.gb, email="Collingwood@Example.org", actor=gm)
    newcomer = invitation.user
    assert newcomer.get_username() == "Collingwood" and not newcomer.has_usable_password()
    # The address is kept, compared and shown in lower case (issue 29: capitalised addresses).
    assert invitation.email == newcomer.email == "collingwood@example.org"
    delivery = Delivery.objects.get(event=MailEvent.INVITATION)
    # The link's signature holds the second it was signed: the mail's link and one signed now may
    # differ by a second (a flaky exact comparison under load), so the mail's link is followed instead.
    mailed = delivery.data["url"]
    assert delivery.recipient == newcomer and mailed.startswith(invitation_url(invitation).split(":", 1)[0])
    assert invitation_from_token(mailed.rstrip("/").rsplit("/", 1)[1]) == invitation
    world.gb.refresh_from_db()
    assert world.gb.player is None  # not before the link is followed
    token = invitation_url(invitation).rstrip("/").rsplit("/", 1)[1]
    assert invitation_from_token(token) == invitation
    with pytest.raises(PlayerError, match="not valid"):
        invitation_from_token(token[:-2] + "xx")
    stranger = User.objects.create_user("stranger")
    with pytest.raises(PlayerError, match=r"This invitation is for collingwood@example\.org"):
        invitation_accept(invitation=invitation, user=stranger)
    with pytest.raises(PlayerError, match=r"too short|too common|password"):
        invitation_accept(invitation=invitation, user=newcomer, password="abc")
    nation = invitation_accept(invitation=invitation, user=newcomer, password="a-long-sea-shanty-1805")
    assert nation.player_id == newcomer.pk
    with pytest.raises(PlayerError, match="accepted already"):
        invitation_from_token(token)
    entries = AuditEntry.objects.filter(campaign_id=world.campaign.pk).order_by("pk")
    actions = list(entries.values_list("action", "actor_name"))
    assert actions == [("player_invited", "barham"), ("player_joined", "Collingwood")]


def test_invite_refusals_change_nothing() -> None:
    world = two_power_world()
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.fr.pk).update(player=nelson)
    with pytest.raises(PlayerError, match="not an email address"):
        player_invite(nation=world.gb, email="nelson at sea", actor=None)
    with pytest.raises(PlayerError, match="already commands France; one nation each"):
        player_invite(nation=world.gb, email="nelson@example.org", actor=None)
    assert not Invitation.objects.exists() and not AuditEntry.objects.exists()


def test_invite_player_command_and_its_refusals() -> None:
    world = two_power_world()
    out = io.StringIO()
    call_command("invite_player", world.campaign.slug, "--nation", "gb", "--email", "c@example.org", stdout=out)
    assert "Invited c@example.org" in out.getvalue() and "/invitations/" in out.getvalue()
    for args, message in (
        (["nowhere", "--nation", "GB", "--email", "c@example.org"], "No campaign with slug 'nowhere'"),
        ([world.campaign.slug, "--nation", "XX", "--email", "c@example.org"], "has no nation 'XX'; its nations"),
        ([world.campaign.slug, "--nation", "GB", "--email", "nope"], "is not an email address"),
    ):
        with pytest.raises(CommandError, match=message) as refused:
            call_command("invite_player", *args)
        assert refused.value.returncode == 2
    [entry] = AuditEntry.objects.filter(campaign_id=world.campaign.pk)
    assert entry.actor_id is None and entry.action == "player_invited"


def test_replace_a_player_in_the_admin_old_out_at_once_both_told() -> None:
    world = two_power_world()
    _, client = _gm_client(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    hardy = User.objects.create_user("hardy", "hardy@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    player = Client()
    player.force_login(nelson)
    assert player.get(f"/campaigns/{world.campaign.slug}/").status_code == 200
    url = reverse("admin:campaign_nation_replace", args=[world.gb.pk])
    refused = client.post(url, {"player": nelson.pk, "reason": "same"})
    assert "already commands Great Britain" in refused.content.decode()
    # Hardy is not one of the campaign's people: not offered, but found by his exact address.
    assert (
        "is not one of the available choices" in client.post(url, {"player": hardy.pk, "reason": "x"}).content.decode()
    )
    assert client.post(url, {"email": hardy.email, "reason": "Nelson is away at sea"}).status_code == 302
    assert player.get(f"/campaigns/{world.campaign.slug}/").status_code == 404  # at once
    told = dict(Delivery.objects.filter(campaign=world.campaign).values_list("recipient__username", "event"))
    assert told == {"nelson": "nation_taken", "hardy": "nation_given"}
    entry = AuditEntry.objects.get(action="player_replaced")
    assert (entry.before, entry.after, entry.reason) == (
        {"player": "nelson"},
        {"player": "hardy"},
        "Nelson is away at sea",
    )


def test_end_campaign_command_ranks_by_the_victory_condition_and_mails_everyone() -> None:
    world = two_power_world()
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    PortFactory.create(owner=world.fr, sea_zone=world.biscay, key="rochefort", name="Rochefort", ep_value=1)
    Campaign.objects.filter(pk=world.campaign.pk).update(victory="points", status="active")
    out = io.StringIO()
    call_command("end_campaign", world.campaign.slug, "--reason", "The group disbands", stdout=out)
    text = out.getvalue()
    assert "Channel 1805 has ended." in text and "Most victory points" in text
    assert "1. France: 2 ports, 10 ships of the line, 50 EP, 13 victory points" in text
    assert "2. Great Britain: 1 port, 10 ships of the line, 50 EP, 12 victory points" in text
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert campaign.status == "ended"
    delivery = Delivery.objects.get(event=MailEvent.CAMPAIGN_ENDED, recipient=nelson)
    assert delivery.data["points"] is True and delivery.data["standings"][0]["name"] == "France"
    entry = AuditEntry.objects.get(action="campaign_ended")
    assert entry.reason == "The group disbands" and entry.after is not None and entry.after["status"] == "ended"
    with pytest.raises(CommandError, match="has ended already") as refused:
        call_command("end_campaign", world.campaign.slug)
    assert refused.value.returncode == 2
    order = {"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"}
    with pytest.raises(Exception, match="has ended; orders are closed"):
        order_add(nation=world.gb, body=order)


def test_victory_by_points_and_by_ports() -> None:
    holdings = [
        NationHoldings("Spain", ports=5, ships_of_the_line=2, treasury=0, port_value=5),
        NationHoldings("France", ports=2, ships_of_the_line=9, treasury=0, port_value=6),
    ]
    assert [s.name for s in standings_rank(holdings)] == ["Spain", "France"]
    by_points = standings_rank(holdings, "points")
    assert [(s.name, s.points) for s in by_points] == [("France", 15), ("Spain", 7)]


def test_phase_10_ends_a_hold_n_ports_campaign_when_a_nation_holds_them() -> None:
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(victory="ports", victory_ports=2, status="active")
    PortFactory.create(owner=world.fr, sea_zone=world.biscay, key="rochefort", name="Rochefort")
    world.campaign.refresh_from_db()
    for number in range(1, 11):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert campaign.status == "ended" and not Turn.objects.filter(campaign=campaign, number=2).exists()
    assert campaign_standings(campaign.pk)[0].name == "France"
    assert Delivery.objects.filter(event=MailEvent.CAMPAIGN_ENDED).count() == 0  # no players, no GM here


# --- NMR policy -------------------------------------------------------------------------------------------


def test_nmr_gm_asked_the_turn_waits_until_the_gm_decides() -> None:
    world = two_power_world(deadline=timezone.now() - timedelta(minutes=1))
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active")
    assert world.turn.pk in turns_due(now=timezone.now())  # standing orders hold: due
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy="ask_gm")
    assert world.turn.pk not in turns_due(now=timezone.now())  # waits for the GM
    world.gb.refresh_from_db()
    hero = {"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"}
    with pytest.raises(DeadlinePassed, match="waits for the GM to decide on Great Britain's missing orders"):
        order_add(nation=world.gb, body=dict(hero))  # the player, after the deadline (issue 26)
    assert world.turn.pk not in turns_due(now=timezone.now())
    order_add(nation=world.gb, body=hero, actor=COMMAND_LINE, late_reason="Orders came by post")  # the GM
    # The GM may enter more, one by one: late orders do not end the wait; the desk says what is next.
    assert world.turn.pk not in turns_due(now=timezone.now())
    order_add(nation=world.gb, body={**hero, "name": "Pomone"}, actor=COMMAND_LINE, late_reason="Orders came by post")
    assert world.turn.pk not in turns_due(now=timezone.now())
    world.campaign.refresh_from_db()
    desk = desk_for_gm(campaign=world.campaign)
    assert [n.text for n in desk.needs_you if n.kind == "nmr"] == [
        "Turn 1 waits for you: you entered late orders for Great Britain; resolve it now once they are "
        "complete, or set a later deadline."
    ]
    gm_turn_resolve_now(campaign=world.campaign, actor=None)
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING


def test_nmr_fleets_return_to_port() -> None:
    world = two_power_world()
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    villeneuve = User.objects.create_user("villeneuve", "v@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    Nation.objects.filter(pk=world.fr.pk).update(player=villeneuve)
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy="return_to_port")
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)  # at sea in the Channel
    Fleet.objects.filter(pk=world.brest_fleet.pk).update(port=None, sea_zone=world.channel)  # no French port there
    world.campaign.refresh_from_db()
    for number in (1, 2, 3):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    assert Fleet.objects.get(pk=world.channel_fleet.pk).port_id == world.portsmouth.pk
    assert Fleet.objects.get(pk=world.brest_fleet.pk).port_id is None
    events = json.dumps(world.turn.phases.get(phase=3).summary)
    assert "No orders were received: Channel Fleet returned to Portsmouth" in events
    assert "Brest Fleet had no own port in The Channel to return to and held its position" in events


def test_nmr_standing_orders_hold_by_default() -> None:
    world = two_power_world()
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)
    world.campaign.refresh_from_db()
    for number in (1, 2, 3):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    assert Fleet.objects.get(pk=world.channel_fleet.pk).port_id is None


def test_campaign_end_refuses_while_a_turn_resolves() -> None:
    world = two_power_world()
    Turn.objects.filter(pk=world.turn.pk).update(status="resolving")
    with pytest.raises(ValueError, match="is resolving"):
        campaign_end(campaign=world.campaign, actor=None)
    assert Campaign.objects.get(pk=world.campaign.pk).status != "ended"


def test_a_switched_off_webhook_is_a_line_of_needs_you_naming_its_owner_nation_and_host() -> None:
    world = two_power_world()
    _, client = _gm_client(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    common = {"campaign": world.campaign, "owner": nelson, "events": ["turn.resolved"], "secret": "s" * 64}
    Webhook.objects.create(nation=world.gb, url="https://hooks.example.org/gb", **common)  # still posting
    Webhook.objects.create(
        nation=world.gb,
        url="https://bot.example.net:8443/admiralty?x=1",
        active=False,
        disabled_at=timezone.now(),
        disabled_reason="The receiver answered 500 Internal Server Error.",
        **common,
    )
    lines = [n.text for n in desk_for_gm(campaign=world.campaign).needs_you if n.kind == "webhook"]
    assert lines == [
        "The webhook of nelson (Great Britain) to bot.example.net was switched off after failing 15 times in a "
        "row (The receiver answered 500 Internal Server Error); it posts nothing until its owner registers it again."
    ]
    page = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert "to bot.example.net was switched off" in page
    assert 'href="mailto:nelson@example.org">Write to its owner' in page
    assert "hooks.example.org" not in page
