"""Issue 16, dispatches: who reads what and when, the house options, the limits, the GM's moderation,
the delay by distance released by phase 10, and the mail recorded once per dispatch and reader."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.backup.document import campaign_export, campaign_import
from campaign.dispatches.moderation import dispatch_hide, nation_mute
from campaign.dispatches.selectors import (
    dispatch_board_for_viewer,
    thread_for_viewer,
    unread_dispatches_of,
    visible_dispatches,
)
from campaign.dispatches.services import (
    DispatchRefused,
    capital_distance,
    conversation_start,
    dispatch_edit,
    dispatch_reply,
    dispatch_report,
    dispatches_mark_read,
)
from campaign.mail.sending import digests_send
from campaign.models import (
    AuditAction,
    AuditEntry,
    Campaign,
    Conversation,
    Delivery,
    Dispatch,
    DispatchCopy,
    DispatchRevision,
    MailEvent,
    MailPreference,
    Nation,
    Press,
    Turn,
)
from campaign.scenarios.loading import ScenarioError, scenario_read, scenario_validate
from campaign.tasks import mail_deliveries_send
from campaign.viewer import Viewer, viewer_for_player
from ports.models import Port
from tests.support.dispatches import Powers, three_powers
from tests.support.mail import inbox_of, parts
from tests.support.turns import turn_resolve_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def p() -> Powers:
    return three_powers()


def look(user: Any, p: Powers, nation: str | None = None) -> Viewer:
    return viewer_for_player(user=user, slug=p.campaign.slug, nation_code=nation)


def send(p: Powers, sender: Any, to: list[str] | None, body: str = "Shall we talk?", subject: str = "Terms", **kw: Any):
    return conversation_start(
        campaign=p.fresh(),
        sender=sender,
        author_id=sender.player_id if sender is not None else p.gm.pk,
        to=to,
        subject=subject,
        body=body,
        now=kw.get("now") or timezone.now(),
    )


def bodies(viewer: Viewer) -> list[str]:
    return sorted(visible_dispatches(viewer).values_list("body", flat=True))


def test_a_private_dispatch_is_read_by_the_two_nations_and_not_by_a_third(p: Powers) -> None:
    sent = send(p, p.gb, ["FR"], "An alliance against Spain?")
    assert sent.in_transit_to == []
    assert bodies(look(p.nelson, p)) == ["An alliance against Spain?"]
    assert bodies(look(p.villeneuve, p)) == ["An alliance against Spain?"]
    assert bodies(look(p.gravina, p)) == []
    assert dispatch_board_for_viewer(look(p.gravina, p), page=1, now=timezone.now()).conversations == []
    conversation = sent.dispatch.conversation
    assert conversation.kind == Conversation.Kind.PRIVATE
    # Stamped with the turn and season it was sent in.
    thread = thread_for_viewer(look(p.villeneuve, p), conversation, now=timezone.now())
    assert [(d.sender, d.stamp) for d in thread.dispatches] == [("Great Britain", "Turn 1, Spring 1805")]


def test_a_reply_goes_to_everyone_in_the_conversation_and_only_to_them(p: Powers) -> None:
    sent = send(p, p.gb, ["FR", "ES"], "A congress at Lisbon.")
    assert sent.dispatch.conversation.kind == Conversation.Kind.GROUP
    reply = dispatch_reply(
        conversation=sent.dispatch.conversation, sender=p.es, author_id=p.gravina.pk, body="Agreed.", now=timezone.now()
    )
    assert sorted(c.nation.code for c in reply.dispatch.copies.all()) == ["FR", "GB"]
    for user in (p.nelson, p.villeneuve, p.gravina):
        assert bodies(look(user, p)) == ["A congress at Lisbon.", "Agreed."]


def test_a_public_proclamation_reaches_every_nation(p: Powers) -> None:
    sent = send(p, p.fr, None, "France seeks peace with all.")
    assert sent.dispatch.conversation.kind == Conversation.Kind.PUBLIC
    assert sorted(c.nation.code for c in sent.dispatch.copies.all()) == ["ES", "GB"]
    for user in (p.nelson, p.villeneuve, p.gravina):
        assert bodies(look(user, p)) == ["France seeks peace with all."]


def test_a_nation_outside_a_conversation_cannot_reply_to_it(p: Powers) -> None:
    sent = send(p, p.gb, ["FR"])
    with pytest.raises(DispatchRefused, match="Spain is not in this conversation"):
        dispatch_reply(
            conversation=sent.dispatch.conversation, sender=p.es, author_id=1, body="Hello", now=timezone.now()
        )
    assert Dispatch.objects.count() == 1


def test_unread_counts_in_the_header_cost_no_query_of_their_own(p: Powers, django_assert_num_queries: Any) -> None:
    send(p, p.gb, ["FR"], "One")
    send(p, p.es, None, "Two")
    with django_assert_num_queries(2):  # the viewer's two queries (turn with the relations, nations with the count)
        viewer = look(p.villeneuve, p)
        assert viewer.unread_dispatches == 2
    assert unread_dispatches_of(p.gb) == 1
    dispatches_mark_read(nation=p.fr, now=timezone.now())
    assert look(p.villeneuve, p).unread_dispatches == 0
    # The sender's own dispatch is not unread for it.
    assert look(p.gravina, p).unread_dispatches == 0


def test_refusals_name_the_problem_and_change_nothing(p: Powers) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"to": ["FR"], "body": "   "}, "empty"),
        (
            {"to": ["FR"], "body": "x" * 2001},
            "2,001 characters long; this campaign allows at most 2,000: shorten it by 1 ",
        ),
        ({"to": ["XX"]}, "No nation XX in this campaign; its nations are France, Great Britain, Spain"),
        ({"to": ["GB"]}, "cannot write to itself"),
        ({"to": []}, "Choose at least one nation"),
        ({"to": ["FR"], "subject": " "}, "subject"),
        ({"to": ["FR"], "body": "a\x00b"}, "contains a NUL character"),
        ({"to": ["FR"], "body": "a\ud800b"}, "not valid text"),
    ]
    for kwargs, message in cases:
        with pytest.raises(DispatchRefused, match=message):
            send(p, p.gb, **{"body": "Hello", **kwargs})
    assert not Dispatch.objects.exists() and not Conversation.objects.exists()


def test_the_rate_limit_counts_a_nations_dispatches_in_the_last_hour(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatches_per_hour=2)
    start = timezone.now()
    send(p, p.gb, ["FR"], now=start - timedelta(minutes=130))
    send(p, p.gb, ["FR"], now=start - timedelta(minutes=50))
    send(p, p.gb, ["FR"], now=start - timedelta(minutes=20))
    with pytest.raises(
        DispatchRefused, match=r"sent 2 dispatches in the last hour; .* allows 2 an hour. The next can go in 10 minutes"
    ):
        send(p, p.gb, ["FR"], now=start)
    send(p, p.fr, ["GB"], now=start)  # the limit is per nation
    assert Dispatch.objects.filter(sender=p.gb).count() == 3


def test_no_press_and_public_press_only(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(press=Press.OFF)
    with pytest.raises(DispatchRefused, match="no press"):
        send(p, p.gb, None)
    send(p, None, None, "The Admiralty still speaks.")  # the GM is not silenced by the option
    Campaign.objects.filter(pk=p.campaign.pk).update(press=Press.PUBLIC)
    with pytest.raises(DispatchRefused, match="public proclamations only"):
        send(p, p.gb, ["FR"])
    send(p, p.gb, None, "To all.")
    assert sorted(Dispatch.objects.values_list("body", flat=True)) == ["The Admiralty still speaks.", "To all."]


def test_anonymous_press_hides_the_sender_from_players_and_from_a_blind_gm(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(anonymous_press=True)
    sent = send(p, p.gb, ["FR", "ES"], "Beware the French.")
    conversation = sent.dispatch.conversation
    senders = lambda v: [d.sender for d in thread_for_viewer(v, conversation, now=timezone.now()).dispatches]  # noqa: E731
    assert senders(look(p.villeneuve, p)) == ["a foreign power"]
    assert senders(look(p.nelson, p)) == ["Great Britain (you)"]
    assert senders(look(p.gm, p)) == ["Great Britain (anonymous to players)"]
    assert (
        "Great Britain"
        not in thread_for_viewer(look(p.gravina, p), conversation, now=timezone.now()).conversation.with_label
    )
    Campaign.objects.filter(pk=p.campaign.pk).update(gm_reads_dispatches=False)
    assert bodies(look(p.gm, p)) == []  # a blind GM reads no private or group dispatch
    public = send(p, p.gb, None, "Proclaimed.")
    gm_thread = thread_for_viewer(look(p.gm, p), public.dispatch.conversation, now=timezone.now())
    assert [d.sender for d in gm_thread.dispatches] == ["a foreign power"]


def test_edits_within_two_minutes_keep_the_history_and_later_ones_are_refused(p: Powers) -> None:
    start = timezone.now()
    sent = send(p, p.gb, ["FR"], "We sail on Monday.", now=start)
    dispatch_edit(dispatch=sent.dispatch, sender=p.gb, body="We sail on Tuesday.", now=start + timedelta(seconds=90))
    assert list(DispatchRevision.objects.values_list("body", flat=True)) == ["We sail on Monday."]
    with pytest.raises(DispatchRefused, match="2 minutes after sending"):
        dispatch_edit(dispatch=sent.dispatch, sender=p.gb, body="Wednesday.", now=start + timedelta(seconds=121))
    with pytest.raises(DispatchRefused, match="Only the nation that sent"):
        dispatch_edit(dispatch=sent.dispatch, sender=p.fr, body="Forged.", now=start + timedelta(seconds=30))
    thread = thread_for_viewer(look(p.villeneuve, p), sent.dispatch.conversation, now=start)
    assert thread.dispatches[0].body == "We sail on Tuesday."
    assert [r.body for r in thread.dispatches[0].revisions] == ["We sail on Monday."]


def test_the_gm_hides_a_reported_dispatch_which_is_kept(p: Powers) -> None:
    sent = send(p, p.gb, ["FR"], "Something vile.")
    with pytest.raises(DispatchRefused, match="cannot report your own"):
        dispatch_report(dispatch=sent.dispatch, nation=p.gb, reporter_id=p.nelson.pk, reason="x", now=timezone.now())
    with pytest.raises(DispatchRefused, match="Only a nation that received"):
        dispatch_report(dispatch=sent.dispatch, nation=p.es, reporter_id=p.gravina.pk, reason="x", now=timezone.now())
    assert dispatch_report(
        dispatch=sent.dispatch, nation=p.fr, reporter_id=p.villeneuve.pk, reason="Abuse", now=timezone.now()
    )
    Campaign.objects.filter(pk=p.campaign.pk).update(gm_reads_dispatches=False)
    gm = look(p.gm, p)
    board = dispatch_board_for_viewer(gm, page=1, now=timezone.now())
    assert [d.body for d in board.reported] == ["Something vile."]  # a blind GM reads what was reported
    with pytest.raises(DispatchRefused, match="Give a reason"):
        dispatch_hide(dispatch=sent.dispatch, actor=p.gm, reason=" ", now=timezone.now())
    dispatch_hide(dispatch=sent.dispatch, actor=p.gm, reason="Insults", now=timezone.now())
    kept = Dispatch.objects.get(pk=sent.dispatch.pk)
    assert (kept.body, kept.hidden_reason, kept.hidden_by_id) == ("Something vile.", "Insults", p.gm.pk)
    entry = AuditEntry.objects.get(action=AuditAction.DISPATCH_HIDDEN)  # logged in the GM desk's audit
    assert (entry.actor_name, entry.reason, entry.campaign_id) == ("barham", "Insults", p.campaign.pk)
    assert entry.summary == "Dispatch from Great Britain in “Terms” (turn 1) hidden from players"
    shown = thread_for_viewer(look(p.villeneuve, p), sent.dispatch.conversation, now=timezone.now()).dispatches
    assert (shown[0].hidden, shown[0].body) == (True, None)
    assert look(p.villeneuve, p).unread_dispatches == 0
    with transaction.atomic(), pytest.raises(IntegrityError):
        Dispatch.objects.filter(pk=kept.pk).update(hidden_reason="")


def test_a_muted_nation_cannot_write_until_its_turns_are_over(p: Powers) -> None:
    with pytest.raises(DispatchRefused, match="1 to 99 turns"):
        nation_mute(campaign=p.fresh(), nation=p.gb, turns=0, reason="Spam", actor=p.gm, now=timezone.now())
    nation_mute(campaign=p.fresh(), nation=p.gb, turns=2, reason="Spam", actor=p.gm, now=timezone.now())
    with pytest.raises(DispatchRefused, match="silenced Great Britain until the end of turn 2: Spam"):
        send(p, p.gb, ["FR"])
    entry = AuditEntry.objects.get(action=AuditAction.NATION_MUTED)
    assert (entry.summary, entry.reason) == (
        "Great Britain muted for 2 turns: no dispatches until the end of turn 2",
        "Spam",
    )
    send(p, None, ["GB", "FR"], "The Admiralty reminds all captains of their manners.")
    assert AuditEntry.objects.get(action=AuditAction.ADMIRALTY_POSTED).summary == (
        "The Admiralty wrote to France and Great Britain: “Terms”"
    )
    Campaign.objects.filter(pk=p.campaign.pk).update(turn_number=3)
    send(p, p.gb, ["FR"])


def test_capital_distance_is_the_shortest_path_in_sea_zones(p: Powers) -> None:
    campaign = p.fresh()
    gb, fr, es = (type(p.gb).objects.select_related("capital__sea_zone").get(pk=n.pk) for n in (p.gb, p.fr, p.es))
    assert capital_distance(campaign, gb, fr) == 1
    assert capital_distance(campaign, fr, es) == 2
    assert capital_distance(campaign, gb, es) == 3
    gb.capital = None
    assert capital_distance(campaign, gb, es) is None


def test_the_delay_holds_a_distant_dispatch_until_the_next_turn_opens_and_mails_it_then(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_delay_zones=2)
    sent = send(p, p.gb, ["FR", "ES"], "Meet at Lisbon.")
    assert sent.in_transit_to == ["Spain"]  # 3 zones: more than 2; France is 1 zone away
    assert bodies(look(p.villeneuve, p)) == ["Meet at Lisbon."]
    assert bodies(look(p.gravina, p)) == []
    assert look(p.gravina, p).unread_dispatches == 0
    thread = thread_for_viewer(look(p.nelson, p), sent.dispatch.conversation, now=timezone.now())
    assert thread.dispatches[0].in_transit_to == ["Spain"]  # the sender sees "in transit"
    # Spain's player is not mailed while the dispatch travels.
    assert list(Delivery.objects.filter(event=MailEvent.DISPATCH).values_list("recipient__username", flat=True)) == [
        "villeneuve"
    ]
    turn_resolve_inline(Turn.objects.get(pk=p.w.turn.pk))
    assert bodies(look(p.gravina, p)) == ["Meet at Lisbon."]
    assert look(p.gravina, p).unread_dispatches == 1
    copy = DispatchCopy.objects.get(nation=p.es)
    assert copy.arrives_turn == 2 and copy.arrived_at is not None
    assert sorted(Delivery.objects.filter(event=MailEvent.DISPATCH).values_list("recipient__username", flat=True)) == [
        "gravina",
        "villeneuve",
    ]
    # The delay is measured per recipient: France is near Spain (2 zones: not more than 2).
    assert send(p, p.fr, ["ES"]).in_transit_to == []


def test_the_mail_of_a_dispatch_is_recorded_once_per_reader_as_each_chose(p: Powers) -> None:
    MailPreference.objects.create(user=p.gravina, campaign=p.campaign, event=MailEvent.DISPATCH, digest=True)
    MailPreference.objects.create(user=p.villeneuve, campaign=p.campaign, event=MailEvent.DISPATCH, enabled=False)
    send(p, p.gb, None, "To all.")
    rows = {d.recipient.username: (d.state, d.digest) for d in Delivery.objects.filter(event=MailEvent.DISPATCH)}
    assert rows == {"gravina": ("pending", True), "villeneuve": ("skipped", False)}


def test_a_dispatch_is_mailed_once_at_once_or_once_in_the_digest_and_anonymous_press_holds_in_the_mail(
    p: Powers, smtp_inbox: Any
) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(anonymous_press=True)
    MailPreference.objects.create(user=p.gravina, campaign=p.campaign, event=MailEvent.DISPATCH, digest=True)
    send(p, p.gb, None, "Britain rules the waves.", subject="Peace")
    for _ in range(3):  # the mail task run again sends nothing twice
        mail_deliveries_send()
    subject = "[Channel 1805] Turn 1: a dispatch from a foreign power: Peace"
    assert inbox_of(smtp_inbox.messages, "villeneuve@example.org") == [subject]
    assert inbox_of(smtp_inbox.messages, "gravina@example.org") == []  # waiting for the digest
    assert inbox_of(smtp_inbox.messages, "nelson@example.org") == []  # the sender is not told of its own
    assert digests_send(now=timezone.now() + timedelta(days=1)).sent != []
    assert digests_send(now=timezone.now() + timedelta(days=2)).sent == []  # once
    assert inbox_of(smtp_inbox.messages, "gravina@example.org") == ["Your Admiralty digest: 1 mail"]
    mails = {m["X-Envelope-To"]: parts(m) for m in smtp_inbox.messages}
    for address in ("villeneuve@example.org", "gravina@example.org"):
        text = mails[address]["text/plain"] + mails[address]["text/html"]
        assert "Britain rules the waves." in text and "a foreign power" in text
        # Anonymous press: the sender's name is nowhere in the mail; nor are its forces (fog of war).
        assert "Great Britain" not in text and "Channel Fleet" not in text and "Portsmouth" not in text, address
    assert set(Delivery.objects.filter(event=MailEvent.DISPATCH).values_list("state", flat=True)) == {"sent"}


def test_capitals_and_the_house_options_round_trip_through_a_backup(p: Powers) -> None:
    plain = campaign_export(campaign=p.fresh())
    assert not {"press", "anonymous_press", "dispatch_delay_zones"} & set(plain["campaign"])  # defaults unwritten
    options = {
        "press": Press.PUBLIC,
        "anonymous_press": True,
        "gm_reads_dispatches": False,
        "dispatch_delay_zones": 4,
        "dispatch_max_length": 500,
        "dispatches_per_hour": 3,
    }
    Campaign.objects.filter(pk=p.campaign.pk).update(**options)
    document = campaign_export(campaign=p.fresh())
    assert {n["code"]: n["capital"] for n in document["nations"]} == {
        "ES": "cartagena",
        "FR": "brest",
        "GB": "portsmouth",
    }
    restored = campaign_import(document=document, slug="restored")
    assert {name: getattr(restored, name) for name in options} == options
    capitals = dict(Nation.objects.filter(campaign=restored).values_list("code", "capital__key"))
    assert capitals == {"ES": "cartagena", "FR": "brest", "GB": "portsmouth"}
    assert Port.objects.get(campaign=restored, key="brest").pk == restored.nations.get(code="FR").capital_id
    unplayed = [{**n, "player": None} for n in document["nations"]]  # an import gives nobody a role
    assert campaign_export(campaign=restored)["nations"] == unplayed


def test_the_gm_sets_the_house_options_on_the_campaigns_admin_page_and_the_change_is_audited(p: Powers) -> None:
    type(p.gm).objects.filter(pk=p.gm.pk).update(is_staff=True)
    client = Client()
    client.force_login(p.gm)
    url = reverse("admin:campaign_campaign_change", args=[p.campaign.pk])
    page = client.get(url)
    assert "Dispatches (house options of the players&#x27; diplomacy)" in page.content.decode()
    assert "The GM reads every dispatch" in page.content.decode()
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update({"nations-TOTAL_FORMS": 0, "nations-INITIAL_FORMS": 0, "nations-MAX_NUM_FORMS": 1000})
    data.update({"press": Press.PUBLIC, "anonymous_press": "on", "dispatch_delay_zones": 2})
    data.update({"dispatch_max_length": 500, "dispatches_per_hour": 3})
    data.pop("gm_reads_dispatches")  # an unticked box: the GM goes blind
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign = p.fresh()
    assert (campaign.press, campaign.anonymous_press, campaign.gm_reads_dispatches) == (Press.PUBLIC, True, False)
    assert (campaign.dispatch_delay_zones, campaign.dispatch_max_length, campaign.dispatches_per_hour) == (2, 500, 3)
    entry = AuditEntry.objects.get(campaign=campaign, action=AuditAction.RECORD_CHANGED)
    assert entry.after == {
        "press": "public",
        "anonymous_press": True,
        "gm_reads_dispatches": False,
        "dispatch_delay_zones": 2,
        "dispatch_max_length": 500,
        "dispatches_per_hour": 3,
    }
    # What the GM set is what the players meet.
    with pytest.raises(DispatchRefused, match="public proclamations only"):
        send(p, p.gb, ["FR"])
    with pytest.raises(DispatchRefused, match="allows at most 500"):
        send(p, p.gb, None, "x" * 501)
    data["dispatch_max_length"] = 0
    assert "Ensure this value is greater than or equal to 1." in client.post(url, data).content.decode()


def test_a_capital_that_is_not_the_nations_port_is_refused_by_the_scenario_check() -> None:
    data = scenario_read("europe-1805")
    data["nations"][0]["capital"] = "brest"  # France's port given to Britain
    with pytest.raises(ScenarioError, match="nation GB: capital 'brest' is not one of its ports"):
        scenario_validate(data)
