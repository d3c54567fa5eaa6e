"""Server-error mail to the site's admins (``ADMINS``), sent by a Celery task, limited, and only for
real errors (issue 27).

Django's own ``AdminEmailHandler`` sends inside the request that failed: with a slow SMTP server, three
requests (a bad Host, a NUL in a path) held every gunicorn worker for 30 s, and anonymous noise mailed
the admins. Here the request only queues the mail (one message to the broker, never a retry loop), and
nothing is mailed for:

* ``django.security.*`` records — a disallowed Host, an oversize body, a suspicious operation: what a
  stranger sends, answered 400;
* 4xx responses, and 503s — answers the site gives on purpose (``/healthz`` naming a failing part,
  Redis down); monitoring watches those, a mail per probe helps nobody;

and at most ``ERROR_MAIL_RATES["kind"]`` mails per kind of error (logger, exception type, path) and
``ERROR_MAIL_RATES["all"]`` in all are sent per window: a crash on a busy page mails once, not per hit.
A mail that cannot be queued (the broker is down) is dropped with a warning on the console log.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.utils.log import AdminEmailHandler
from django_stubs_ext import StrOrPromise

from campaign.plumbing.queueing import BROKER_ERRORS
from config.rate_limits import rate_limit_hit

logger = logging.getLogger(__name__)

#: Statuses answered on purpose, never worth a mail: "unavailable" names its cause in the answer.
_DELIBERATE_SERVER_STATUSES = frozenset({503})


def error_worth_mailing(record: logging.LogRecord) -> bool:
    """Whether ``record`` is a server error an admin should hear of (the module's docstring says which
    are not)."""
    if record.name.startswith("django.security"):
        return False
    status = getattr(record, "status_code", None)
    if isinstance(status, int) and (status < 500 or status in _DELIBERATE_SERVER_STATUSES):
        return False
    return record.levelno >= logging.ERROR


def error_kind(record: logging.LogRecord) -> str:
    """What makes two records the same error for the limit: the logger, the exception's type and the
    request's path (a crash on one page repeated by every visitor is one kind)."""
    exception = record.exc_info[1] if record.exc_info else None
    request = getattr(record, "request", None)
    path = getattr(request, "path", "") if request is not None else ""
    return f"{record.name}|{type(exception).__name__ if exception else '-'}|{path}"


class QueuedAdminEmailHandler(AdminEmailHandler):
    """Django's admin error mail, formatted as Django formats it, sent by ``config.tasks.admin_error_mail``."""

    def emit(self, record: logging.LogRecord) -> None:
        if not settings.ADMINS or not error_worth_mailing(record):
            return
        rates = settings.ERROR_MAIL_RATES
        if not rate_limit_hit("error-mail:kind", error_kind(record), rates["kind"]).allowed:
            return
        if not rate_limit_hit("error-mail:all", "site", rates["all"]).allowed:
            return
        super().emit(record)  # builds the subject and the report, then calls send_mail below

    def send_mail(self, subject: StrOrPromise, message: StrOrPromise, *args: Any, **kwargs: Any) -> None:
        from config.tasks import admin_error_mail  # the tasks import Django's mail; loaded at first use

        try:
            admin_error_mail.apply_async(
                kwargs={"subject": str(subject), "message": str(message)}, ignore_result=True, retry=False
            )
        except BROKER_ERRORS as exc:
            # Not logged at ERROR: that would come back here. The console log keeps the original record.
            logger.warning("admin error mail not queued (%s: the broker is unreachable)", type(exc).__name__)
