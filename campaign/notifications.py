"""Mail to the players, and its delivery records: each player's turn report, emailed once.

The Celery task ``campaign.turn_reports_email`` (``campaign.tasks``) calls :func:`turn_reports_email_send`;
phase 10 asks for it with :func:`turn_reports_email_enqueue`. The enqueue names the task by its
registered Celery name rather than importing ``campaign.tasks``: the tasks run the turn, so the turn
must not import them back.
"""

from __future__ import annotations

from celery import signature
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from campaign.models import TurnReport
from rules.turn_events import report_events

#: The Celery name of the task that mails a turn's reports (a stable name: queued messages carry it).
TURN_REPORTS_EMAIL_TASK = "campaign.turn_reports_email"


def turn_reports_email_enqueue(turn_id: int) -> None:
    """Queue the mailing of the turn's reports once the current transaction commits (none if it rolls
    back, as a dry run does)."""
    transaction.on_commit(lambda: signature(TURN_REPORTS_EMAIL_TASK, args=(turn_id,)).delay())


def turn_reports_email_send(turn_id: int) -> int:
    """Email every player of the turn their own report, once; returns how many were sent now.

    Idempotent: each report is claimed (``emailed_at`` set by a conditional update) before it is sent,
    so a duplicate run cannot send it twice; a failed send releases the claim for the next run.
    """
    sent = 0
    reports = TurnReport.objects.filter(turn_id=turn_id, emailed_at__isnull=True).select_related(
        "nation__player", "turn__campaign"
    )
    for report in reports:
        player = report.nation.player
        if player is None or not player.email:
            continue
        # Claim the report first: a duplicate task cannot send it twice.
        if TurnReport.objects.filter(pk=report.pk, emailed_at__isnull=True).update(emailed_at=timezone.now()) != 1:
            continue
        context = {
            "report": report,
            "events": report_events(report.body),
            "campaign": report.turn.campaign,
            "nation": report.nation,
            "player": player,
        }
        try:
            send_mail(
                subject=f"[{report.turn.campaign.name}] Turn {report.turn.number} report for {report.nation.name}",
                message=render_to_string("emails/turn_report.txt", context),
                from_email=settings.DEFAULT_FROM_EMAIL,
                recipient_list=[player.email],
            )
        except Exception:
            TurnReport.objects.filter(pk=report.pk).update(emailed_at=None)  # retried by the next run
            raise
        sent += 1
    return sent
