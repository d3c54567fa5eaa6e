"""``manage.py api_token USERNAME --name NAME``: make a personal API token and print it (shown only once)."""

from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign.accounts.api_tokens import api_token_for_username


class Command(BaseCommand):
    help = (
        "Make a personal API token for a user and print it, for scripts (Authorization: Bearer <token>). "
        "It is shown only now; the user can revoke it on the Settings page."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", required=True, help="What the token is for, e.g. 'my bot'.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            new = api_token_for_username(username=options["username"], name=options["name"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(new.secret)
