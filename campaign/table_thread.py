"""A battle on the table's thread (issue 29): both sides' players and the game master talk about its
result on the battle itself — a dispute's reason is its first post — instead of one free-text line
settled outside the product. Every post is audited and mailed to the battle's other people."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet

from battles.engagements.table import TableResultRefused
from battles.models import TablePost, TabletopBattle
from campaign.audit_models import AuditAction
from campaign.table_record import Actor, table_audit, table_place

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
    post = TablePost.objects.create(table=table, author=user, author_name=name[:150], side=side, body=text)
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_POSTED,
        summary=f"Posted on the thread of {table_place(table)}",
        after={"post": post.pk},
        reason=text,
    )
    return post


def table_posts(*, table: TabletopBattle) -> QuerySet[TablePost]:
    """The thread's posts, oldest first."""
    return TablePost.objects.filter(table=table).order_by("created_at", "pk")
