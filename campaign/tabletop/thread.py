"""A battle on the table's thread (issue 29): both sides' players and the game master talk about its
result on the battle itself — a dispute's reason is its first post — instead of one free-text line
settled outside the product. Every post is audited and mailed to the battle's other people."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from battles.engagements.table import TableResultRefused
from battles.models import TablePost, TabletopBattle
from campaign.models import MailEvent, Nation
from campaign.models.audit import AuditAction
from campaign.outbox.mail import deliveries_record, mail_send_after_commit
from campaign.tabletop.record import Actor, side_labels, table_audit, table_place

#: The longest post kept (a post is a message, not a report).
POST_MAX = 2000


@transaction.atomic
def table_post_add(*, table: TabletopBattle, actor: Actor, side: int | None, body: str) -> TablePost:
    """Add ``actor``'s post to ``table``'s thread: ``side`` the poster's side (0, 1) or None for the
    game master (the caller has checked who may post). Refused, adding nothing, if it is empty or
    longer than :data:`POST_MAX` characters."""
    text = body.strip()
    if not text:
        raise TableResultRefused("Write something to post: the post is empty.", field="body", code="empty")
    if len(text) > POST_MAX:
        raise TableResultRefused(
            f"The post is {len(text)} characters long; at most {POST_MAX} are kept. Shorten it.",
            field="body",
            code="too_long",
        )
    user = actor if actor is not None and actor.is_authenticated else None
    name = user.get_username() if user is not None else "the game master"
    post = TablePost.objects.create(
        table=table, author_id=user.pk if user is not None else None, author_name=name[:150], side=side, body=text
    )
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_POSTED,
        summary=f"Posted on the thread of {table_place(table)}",
        after={"post": post.pk},
        reason=text,
    )
    _post_mail(table, post, side)
    return post


def _post_mail(table: TabletopBattle, post: TablePost, side: int | None) -> None:
    """Mail the post to the battle's other people: the players of both sides' nations and the GM,
    never its author; sent once the post is committed."""
    codes = sorted({c for nations in table.side_nations() for c in nations})
    nations = Nation.objects.filter(campaign_id=table.campaign_id, code__in=codes, player__isnull=False)
    recipients: dict[int, Nation | None] = {n.player_id: n for n in nations if n.player_id is not None}
    if table.campaign.gm_id is not None:
        recipients.setdefault(table.campaign.gm_id, None)
    recipients.pop(post.author_id or 0, None)
    labels = side_labels(table)
    poster = "The game master" if side is None else (labels[side] if side < len(labels) else f"Side {side + 1}")
    place = table.port.name if table.port is not None else table.sea_zone.name
    deliveries_record(
        campaign_id=table.campaign_id,
        event=MailEvent.TABLE_POST,
        recipients=list(recipients.items()),
        turn_id=table.turn_id,
        now=timezone.now(),
        key=f"post-{post.pk}",
        data={"table": table.pk, "post": post.pk, "place": place, "poster": poster},
    )
    mail_send_after_commit()


def table_posts(*, table: TabletopBattle) -> QuerySet[TablePost]:
    """The thread's posts, oldest first."""
    return TablePost.objects.filter(table=table).order_by("created_at", "pk")
