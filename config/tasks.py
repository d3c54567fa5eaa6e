"""Celery tasks of the site's accounts: the password-reset mail (registered by config/celery.py)."""

from celery import shared_task
from django.contrib.auth.forms import PasswordResetForm


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
