"""``manage.py end_campaign SLUG [--reason R]``: end a campaign now; everyone is mailed the final standings."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.gm.actions import campaign_end
from campaign.management.refusals import Refused, storable_text
from campaign.models import Campaign
from campaign.standings import campaign_standings, victory_description
from campaign.turn.lifecycle import TurnControlError


class Command(BaseCommand):
    help = (
        "End a campaign now (the same service as the admin's End the campaign): no more turns, orders close, "
        "players and GMs are mailed the final standings by the campaign's victory condition. Audited."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument(
            "--reason", type=storable_text, default="", help="Why: told in the final mail and kept in the audit log."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        try:
            campaign_end(campaign=campaign, actor=None, reason=options["reason"])
        except TurnControlError as exc:
            raise Refused(str(exc)) from exc
        condition = victory_description(campaign)
        self.stdout.write(f"{campaign.name} has ended. Final standings (victory condition: {condition}):")
        for s in campaign_standings(campaign.pk):
            self.stdout.write(
                f"  {s.place}. {s.name}: {s.ports} port{'s' if s.ports != 1 else ''}, "
                f"{s.ships_of_the_line} ship{'s' if s.ships_of_the_line != 1 else ''} of the line, "
                f"{s.treasury} EP, {s.points} victory point{'s' if s.points != 1 else ''}"
            )
