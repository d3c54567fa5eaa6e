"""``manage.py invite_player SLUG --nation CODE --email ADDRESS``: mail a signed invitation to play a nation."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.mail.content import absolute
from campaign.management.refusals import Refused, storable_text
from campaign.models import Campaign, Nation
from campaign.players.services import PlayerError, invitation_url, player_invite


class Command(BaseCommand):
    help = (
        "Invite an email address to play a nation: the address's account (an existing one, or a new one without "
        "a password) is mailed a signed link that gives it the nation. Audited as the command line."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("--nation", required=True, type=storable_text, help="The nation's code, e.g. GB.")
        parser.add_argument("--email", required=True, type=storable_text, help="The address to invite.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        code = options["nation"].strip().upper()
        nation = Nation.objects.filter(campaign=campaign, code=code).first()
        if nation is None:
            codes = ", ".join(Nation.objects.filter(campaign=campaign).values_list("code", flat=True))
            raise Refused(f"{campaign.name} has no nation {code!r}; its nations are {codes}.")
        try:
            invitation = player_invite(nation=nation, email=options["email"], actor=None)
        except PlayerError as exc:
            raise Refused(str(exc)) from exc
        self.stdout.write(
            f"Invited {invitation.email} (account {invitation.user.get_username()}) to command {nation.name}; "
            f"the mail is on its way. The link: {absolute(invitation_url(invitation))}"
        )
