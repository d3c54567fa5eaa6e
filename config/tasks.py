"""Celery tasks of the site's accounts and admins: the password-reset mail, the server-error mail
(registered by config/celery.py)."""

from celery import shared_task
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import mail_admins


@shared_task(name="accounts.password_reset_send")
def password_reset_send(*, email: str, domain: str, use_https: bool) -> None:
    """Send the reset link to every active account with ``email`` — or to nobody, if there is none.

    The request that asked for it only queued this task, so it answers alike, in the same time,
    whether the address is known or not. Idempotent enough to run twice: a second mail holds a
    second valid link, and every link dies with the first password change.
    """
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name="registration/password_reset_subject.txt",
            email_template_name="registration/password_reset_email.html",
        )


@shared_task(name="accounts.admin_error_mail")
def admin_error_mail(*, subject: str, message: str) -> None:
    """Send one server-error report to ``ADMINS`` (queued by config.error_mail, already limited there).
    A failed send is not retried: the next error of the kind mails again, and the logs keep them all."""
    mail_admins(subject, message, fail_silently=True)
