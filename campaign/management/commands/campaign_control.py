import re
from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand

from campaign.gm.actions import gm_campaign_pause, gm_campaign_resume, gm_turn_extend
from campaign.management.refusals import Refused, storable_text
from campaign.models import Campaign
from campaign.turn.lifecycle import TurnControlError

DURATION = re.compile(r"^(?:(?P<days>\d+)d)?(?:(?P<hours>\d+)h)?(?:(?P<minutes>\d+)m)?$")


def parse_duration(text: str) -> timedelta:
    """ "2d", "12h", "1d6h", "90m" → a timedelta; anything else is refused with the accepted forms."""
    match = DURATION.match(text.strip())
    if not text.strip() or match is None:
        raise Refused(f"--by {text!r}: use days, hours and minutes such as 2d, 12h, 1d6h or 90m.")
    return timedelta(**{unit: int(value) for unit, value in match.groupdict().items() if value})


class Command(BaseCommand):
    help = "The GM's clock: pause or resume a campaign (the deadline moves by the pause), or extend the deadline."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("action", choices=["pause", "resume", "extend"])
        parser.add_argument("--by", help="With extend: how much longer, e.g. 2d, 12h, 1d6h.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        try:
            if options["action"] == "pause":
                gm_campaign_pause(campaign=campaign, actor=None)
                self.stdout.write(f"{campaign.name} is paused; no turn resolves until it is resumed.")
            elif options["action"] == "resume":
                turn = gm_campaign_resume(campaign=campaign, actor=None)
                when = turn.deadline.isoformat() if turn and turn.deadline else "none"
                self.stdout.write(f"{campaign.name} is running again; the deadline is now {when}.")
            else:
                if not options["by"]:
                    raise Refused("extend needs --by, e.g. --by 2d or --by 12h.")
                turn = gm_turn_extend(campaign=campaign, actor=None, by=parse_duration(options["by"]))
                self.stdout.write(f"Turn {turn.number} of {campaign.name} now ends at {turn.deadline}.")
        except TurnControlError as exc:
            raise Refused(str(exc)) from exc
