"""A battle pack's PDF asked for from a page (issue 27): never printed inside the request. The page to
print is recorded (one :class:`~battles.models.PackPdf` row per pack as it reads) and the
``battles.pack_pdf_print`` task queued after commit; the page says "preparing" until the stored PDF is
ready. Each user may start ``PACK_PDF_PER_USER`` prints in ``PACK_PDF_WINDOW_SECONDS``; asking again for
a pack already being printed starts nothing. With the task queue down the print is marked failed with
the reason (no sweep knows of it); the page's "Try again" queues it again.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from battles.models import PackPdf, TabletopBattle
from battles.tabletop.pdf import PRINT_LEASE
from campaign.plumbing.queueing import QUEUE_DOWN_MESSAGE, send_or_leave_to_sweep

#: The printing task's Celery name (campaign does not import the battles app's tasks).
PRINT_TASK = "battles.pack_pdf_print"


class PdfThrottled(Exception):
    """The user started as many prints as the window allows: ``retry_after`` seconds to wait."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"You asked for {settings.PACK_PDF_PER_USER} PDFs in the last "
            f"{settings.PACK_PDF_WINDOW_SECONDS // 60} minutes; ask again in {retry_after} seconds, "
            "or use the printable page."
        )
        self.retry_after = retry_after


def _throttle_check(user: Any, now: datetime) -> None:
    window = timedelta(seconds=settings.PACK_PDF_WINDOW_SECONDS)
    recent = list(
        PackPdf.objects.filter(requested_by=user, created_at__gte=now - window)
        .order_by("created_at")
        .values_list("created_at", flat=True)[: settings.PACK_PDF_PER_USER]
    )
    if len(recent) >= settings.PACK_PDF_PER_USER:
        raise PdfThrottled(max(1, int((recent[0] + window - now).total_seconds()) + 1))


@transaction.atomic
def pack_pdf_request(*, table: TabletopBattle, html: str, user: Any, retry: bool = False) -> PackPdf:
    """The PDF of ``html`` (the pack's self-contained page) for ``table``: the stored one if this very
    page was printed, is being printed or failed, else a new print queued after commit; a failed print
    is queued again only when asked to (``retry``: the page's "Try again"), never by the preparing
    page's own refresh. Raises :class:`PdfThrottled` (nothing queued) past the user's allowance."""
    digest = hashlib.sha256(html.encode("utf-8")).hexdigest()
    now = timezone.now()
    row = PackPdf.objects.select_for_update().filter(table=table, html_sha256=digest).first()
    if row is not None and row.state == PackPdf.State.QUEUED and row.created_at < now - PRINT_LEASE:
        _print_after_commit(row.pk)  # its message was lost: the task's claim makes a resend harmless
        return row
    if row is not None and (row.state != PackPdf.State.FAILED or not retry):
        return row
    _throttle_check(user, now)
    if row is None:
        row, created = PackPdf.objects.get_or_create(
            table=table, html_sha256=digest, defaults={"html": html, "requested_by": user}
        )
        if not created:  # another request made it a moment ago: that one queued its print
            return row
    else:
        PackPdf.objects.filter(pk=row.pk).update(
            state=PackPdf.State.QUEUED, error="", created_at=now, requested_by=user, claimed_at=None
        )
        row.refresh_from_db()
    _print_after_commit(row.pk)
    return row


def _print_after_commit(pdf_id: int) -> None:
    def send() -> None:
        if not send_or_leave_to_sweep(signature(PRINT_TASK, args=(pdf_id,))):
            PackPdf.objects.filter(pk=pdf_id, state=PackPdf.State.QUEUED).update(
                state=PackPdf.State.FAILED, error=QUEUE_DOWN_MESSAGE[:300]
            )

    transaction.on_commit(send)
