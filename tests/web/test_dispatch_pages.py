"""Issue 16: the dispatches pages as plain forms (no JavaScript): sending, reading, the unread count in
the header, escaping, permissions, the report-abuse link and the GM's desk."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import (
    AuditAction,
    AuditEntry,
    Campaign,
    Conversation,
    Dispatch,
    DispatchMute,
    DispatchReport,
    DispatchRevision,
)
from tests.support.dispatches import Powers, three_powers

pytestmark = pytest.mark.django_db


@pytest.fixture
def p() -> Powers:
    return three_powers()


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def page(p: Powers, user: Any, name: str = "campaign:dispatches", *args: Any, query: str = "") -> str:
    response = client_for(user).get(reverse(name, args=[p.campaign.slug, *args]) + query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def post_new(p: Powers, user: Any, to: list[str], body: str, subject: str = "Terms", query: str = "") -> Any:
    return client_for(user).post(
        reverse("campaign:dispatches", args=[p.campaign.slug]) + query,
        {"to": to, "subject": subject, "body": body},
    )


def test_two_players_exchange_dispatches_and_a_third_cannot_read_them(p: Powers) -> None:
    response = post_new(p, p.nelson, ["FR"], "Shall we divide the Mediterranean?")
    conversation = Conversation.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:conversation", args=[p.campaign.slug, conversation.pk])
    # The header of every campaign page shows France's unread count.
    tabs = ("dashboard", "map", "orders", "turns", "dispatches", "rules", "tables")
    for tab in tabs:
        assert "Dispatches 1" in text(page(p, p.villeneuve, f"campaign:{tab}")), tab
    thread = text(page(p, p.villeneuve, "campaign:conversation", conversation.pk))
    assert "Great Britain · Turn 1, Spring 1805" in thread and "Shall we divide the Mediterranean?" in thread
    assert "Dispatches 1" not in text(page(p, p.villeneuve, "campaign:dashboard"))  # read by reading it
    client_for(p.villeneuve).post(
        reverse("campaign:conversation", args=[p.campaign.slug, conversation.pk]), {"body": "Only if Malta is ours."}
    )
    assert "Only if Malta is ours." in text(page(p, p.nelson, "campaign:conversation", conversation.pk))
    # Spain: not in the list, and the conversation does not exist for it.
    assert "Terms" not in text(page(p, p.gravina))
    url = reverse("campaign:conversation", args=[p.campaign.slug, conversation.pk])
    assert client_for(p.gravina).get(url).status_code == 404
    assert client_for(p.gravina).post(url, {"body": "Let me in"}).status_code == 404
    # Nor may Spain's player look through France's eyes.
    assert client_for(p.gravina).get(url + "?nation=FR").status_code == 403
    assert Dispatch.objects.count() == 2


def test_the_sender_corrects_a_dispatch_on_its_page_and_readers_see_the_earlier_text(p: Powers) -> None:
    post_new(p, p.nelson, ["FR"], "We sail on Monday.")
    dispatch = Dispatch.objects.get()
    thread_url = reverse("campaign:conversation", args=[p.campaign.slug, dispatch.conversation_id])
    edit_url = reverse("campaign:dispatch_edit", args=[p.campaign.slug, dispatch.pk])
    assert edit_url in page(p, p.nelson, "campaign:conversation", dispatch.conversation_id)
    assert edit_url not in page(p, p.villeneuve, "campaign:conversation", dispatch.conversation_id)
    # France cannot change Britain's words, whatever it posts.
    refused = client_for(p.villeneuve).post(edit_url, {"body": "We surrender."})
    assert "Only the nation that sent a dispatch may change it." in text(refused.content.decode())
    assert client_for(p.nelson).post(edit_url, {"body": "We sail on Tuesday."})["Location"] == (
        thread_url + f"#d{dispatch.pk}"
    )
    shown = text(page(p, p.villeneuve, "campaign:conversation", dispatch.conversation_id))
    assert "We sail on Tuesday." in shown and "edited" in shown
    assert "Earlier text (1)" in shown and "We sail on Monday." in shown
    assert list(DispatchRevision.objects.values_list("body", flat=True)) == ["We sail on Monday."]
    # Past the two minutes the page refuses; nothing a player sent can be deleted (no such request).
    Dispatch.objects.filter(pk=dispatch.pk).update(sent_at=dispatch.sent_at - timedelta(minutes=3))
    late = client_for(p.nelson).post(edit_url, {"body": "We sail on Wednesday."})
    assert "can be changed for 2 minutes after sending" in text(late.content.decode())
    assert client_for(p.nelson).delete(edit_url).status_code == 405
    assert client_for(p.nelson).delete(thread_url).status_code == 405
    assert Dispatch.objects.get().body == "We sail on Tuesday."


def test_a_reader_who_did_not_send_a_dispatch_is_refused_the_correction_page_as_a_save_would_be(p: Powers) -> None:
    """Opening the correction page of another nation's dispatch answers as saving it does (same status,
    same message), without a form holding its text, and changes nothing."""
    post_new(p, p.nelson, ["FR"], "We sail on Monday.")
    dispatch = Dispatch.objects.get()
    edit_url = reverse("campaign:dispatch_edit", args=[p.campaign.slug, dispatch.pk])
    opened = client_for(p.villeneuve).get(edit_url)
    saved = client_for(p.villeneuve).post(edit_url, {"body": "We surrender."})
    refusal = "Only the nation that sent a dispatch may change it."
    for response in (opened, saved):
        html = response.content.decode()
        assert response.status_code == 200 and refusal in text(html)
        assert "<textarea" not in html and "Save the correction" not in html
    assert "We sail on Monday." not in text(opened.content.decode())
    # The sender's own page is the form, prefilled; past the two minutes it is refused the same way.
    own = client_for(p.nelson).get(edit_url).content.decode()
    assert "<textarea" in own and "We sail on Monday." in own
    Dispatch.objects.filter(pk=dispatch.pk).update(sent_at=dispatch.sent_at - timedelta(minutes=3))
    late = client_for(p.nelson).get(edit_url).content.decode()
    assert "can be changed for 2 minutes after sending" in text(late) and "<textarea" not in late
    assert Dispatch.objects.get().body == "We sail on Monday." and not DispatchRevision.objects.exists()


def test_player_text_is_escaped_and_its_line_breaks_kept(p: Powers) -> None:
    post_new(p, p.nelson, ["FR"], '<script>alert("x")</script>\n<b>bold</b>', subject="<i>Hi</i>")
    conversation = Conversation.objects.get()
    html = page(p, p.villeneuve, "campaign:conversation", conversation.pk)
    assert "<script>alert" not in html and "<b>bold</b>" not in html and "<i>Hi</i>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>&lt;b&gt;bold&lt;/b&gt;" in html


def test_a_refused_dispatch_is_shown_on_the_form_and_nothing_is_sent(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_max_length=10)
    response = post_new(p, p.nelson, ["FR"], "Far too long a dispatch")
    assert response.status_code == 200
    page_text = text(response.content.decode())
    assert (
        "The dispatch is 23 characters long; this campaign allows at most 10: shorten it by 13 and send it again"
        " (nothing was sent)." in page_text
    )
    # The whole text comes back in the box, and the box carries no maxlength that would cut a paste.
    assert ">\nFar too long a dispatch</textarea>" in response.content.decode()
    assert "maxlength" not in response.content.decode().split('name="body"')[0].rsplit("<textarea", 1)[-1]
    response = post_new(p, p.nelson, ["ALL", "FR"], "Both")
    assert "Choose either all nations (a public proclamation) or named nations, not both." in text(
        response.content.decode()
    )
    assert not Dispatch.objects.exists()


def test_the_page_states_the_house_options(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(
        anonymous_press=True, gm_reads_dispatches=False, dispatch_delay_zones=2
    )
    shown = text(page(p, p.nelson))
    assert "Anonymous press: other nations see your dispatches as sent by “a foreign power”." in shown
    assert "The game master reads only public proclamations" in shown
    assert "Dispatches between capitals more than 2 sea zones apart arrive at the start of the next turn." in shown
    assert "At most 2000 characters a dispatch and 10 dispatches an hour per nation" in shown
    Campaign.objects.filter(pk=p.campaign.pk).update(press="off")
    assert "This campaign has no press: players cannot send dispatches." in text(page(p, p.nelson))


def test_a_delayed_dispatch_shows_in_transit_to_its_sender(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_delay_zones=2)
    response = post_new(p, p.nelson, ["ES"], "Across the sea")
    follow = client_for(p.nelson).get(response["Location"])
    assert "in transit to Spain" in text(follow.content.decode())
    assert "Across the sea" not in text(page(p, p.gravina))


def test_report_abuse_reaches_the_gm_who_hides_and_mutes(p: Powers) -> None:
    post_new(p, p.nelson, ["FR"], "Vile words")
    dispatch = Dispatch.objects.get()
    thread = page(p, p.villeneuve, "campaign:conversation", dispatch.conversation_id)
    report_url = reverse("campaign:dispatch_report", args=[p.campaign.slug, dispatch.pk])
    assert report_url in thread
    assert client_for(p.villeneuve).post(report_url, {"reason": "Insults"}).status_code == 302
    assert DispatchReport.objects.get().reason == "Insults"
    # The GM's desk lists it; the GM hides it (a reason is required) and mutes Britain.
    desk = text(page(p, p.gm, query="?nation=GB"))
    assert "Reported dispatches From Great Britain, Turn 1, Spring 1805" in desk
    hide_url = reverse("campaign:dispatch_hide", args=[p.campaign.slug, dispatch.pk]) + "?nation=GB"
    client_for(p.gm).post(hide_url, {"reason": ""})
    assert Dispatch.objects.get().hidden_at is None
    client_for(p.gm).post(hide_url, {"reason": "Insults"})
    assert Dispatch.objects.get().hidden_reason == "Insults"
    shown = text(page(p, p.villeneuve, "campaign:conversation", dispatch.conversation_id))
    assert "Hidden by the game master." in shown and "Vile words" not in shown
    # Players cannot hide or mute.
    assert client_for(p.villeneuve).post(hide_url, {"reason": "x"}).status_code == 403
    mute_url = reverse("campaign:dispatch_mute", args=[p.campaign.slug]) + "?nation=GB"
    assert client_for(p.nelson).post(mute_url, {"nation": "FR", "turns": 2, "reason": "x"}).status_code == 403
    client_for(p.gm).post(mute_url, {"nation": "GB", "turns": 2, "reason": "Insults"})
    assert DispatchMute.objects.get().until_turn == 2
    assert "The game master has silenced your nation until the end of turn 2: Insults" in text(page(p, p.nelson))


def test_the_gm_lifts_a_mute_before_it_runs_out_from_the_mute_card_and_it_is_audited(p: Powers) -> None:
    mute_url = reverse("campaign:dispatch_mute", args=[p.campaign.slug]) + "?nation=GB"
    client_for(p.gm).post(mute_url, {"nation": "GB", "turns": 3, "reason": "Insults"})
    mute = DispatchMute.objects.get()
    assert "silenced your nation until the end of turn 3" in text(
        post_new(p, p.nelson, ["FR"], "Hear me").content.decode()
    )
    lift_url = reverse("campaign:dispatch_unmute", args=[p.campaign.slug, mute.pk]) + "?nation=GB"
    desk = page(p, p.gm, query="?nation=GB")
    assert lift_url in desk and "Lift the mute now" in desk
    # A player cannot lift it; the GM must give a reason.
    assert client_for(p.nelson).post(lift_url, {"reason": "Sorry"}).status_code == 403
    client_for(p.gm).post(lift_url, {"reason": " "})
    assert DispatchMute.objects.get().lifted_at is None
    response = client_for(p.gm).post(lift_url, {"reason": "Apologised to France"}, follow=True)
    assert "Great Britain may send dispatches again." in text(response.content.decode())
    kept = DispatchMute.objects.get()  # kept, marked lifted
    assert (kept.until_turn, kept.lifted_by, kept.lifted_at is not None) == (3, p.gm, True)
    entry = AuditEntry.objects.get(action=AuditAction.NATION_UNMUTED)
    assert (entry.actor_name, entry.reason, entry.campaign_id) == ("barham", "Apologised to France", p.campaign.pk)
    assert entry.summary == (
        "Great Britain's mute lifted in turn 1: it may send dispatches again (it was silenced until the end of turn 3)"
    )
    assert "Lift the mute now" not in page(p, p.gm, query="?nation=GB")
    assert "silenced" not in text(page(p, p.nelson))
    assert post_new(p, p.nelson, ["FR"], "Hear me").status_code == 302
    again = client_for(p.gm).post(lift_url, {"reason": "Twice"}, follow=True)
    assert "The mute of Great Britain has already been lifted." in text(again.content.decode())
    assert AuditEntry.objects.filter(action=AuditAction.NATION_UNMUTED).count() == 1


def test_the_gm_posts_as_the_admiralty(p: Powers) -> None:
    response = post_new(p, p.gm, ["ALL"], "Winter comes early this year.", subject="Weather", query="?nation=GB")
    assert response.status_code == 302
    dispatch = Dispatch.objects.get()
    assert dispatch.sender is None and dispatch.author == p.gm
    for user in (p.nelson, p.villeneuve, p.gravina):
        assert "The Admiralty" in text(page(p, user, "campaign:conversation", dispatch.conversation_id))
    assert "Weather Public proclamation · with all nations · last" in text(page(p, p.villeneuve))


def test_outsiders_and_huge_ids_get_404(p: Powers) -> None:
    from django.contrib.auth import get_user_model

    outsider = get_user_model().objects.create_user("outsider", "o@example.org", "pw-0123456789")
    assert client_for(outsider).get(reverse("campaign:dispatches", args=[p.campaign.slug])).status_code == 404
    assert client_for(p.nelson).get(reverse("campaign:conversation", args=[p.campaign.slug, 2**40])).status_code == 404
    assert Client().get(reverse("campaign:dispatches", args=[p.campaign.slug])).status_code == 302  # to log in


def test_the_dispatch_pages_cost_the_same_queries_with_three_or_thirty_conversations(p: Powers) -> None:
    """A campaign's press grows every turn: the list and a thread read it in a fixed number of queries."""

    def queries(user: Any, name: str, *args: Any) -> int:
        client = client_for(user)
        url = reverse(name, args=[p.campaign.slug, *args])
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def grow(conversations: int, replies: int) -> None:
        for n in range(conversations):
            post_new(p, p.nelson, ["FR", "ES"] if n % 2 else ["FR"], f"Dispatch {n}", subject=f"Subject {n}")
        conversation = Conversation.objects.order_by("pk").first()
        assert conversation is not None
        for n in range(replies):
            client_for(p.villeneuve).post(
                reverse("campaign:conversation", args=[p.campaign.slug, conversation.pk]), {"body": f"Reply {n}"}
            )

    Campaign.objects.filter(pk=p.campaign.pk).update(dispatches_per_hour=1000)
    grow(3, 2)
    first = Conversation.objects.order_by("pk").first()
    assert first is not None
    small = (queries(p.villeneuve, "campaign:dispatches"), queries(p.nelson, "campaign:conversation", first.pk))
    grow(27, 20)
    large = (queries(p.villeneuve, "campaign:dispatches"), queries(p.nelson, "campaign:conversation", first.pk))
    assert small == large, (small, large)
    assert max(large) <= 20, large
