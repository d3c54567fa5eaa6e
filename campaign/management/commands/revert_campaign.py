"""``revert_campaign SLUG --turn N --reason R``: the campaign back to the start of turn N (issue 11).

The same service as the admin's "Revert" page (campaign.gm.repair.services.campaign_revert), audited.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.gm.repair.services import RepairError, archived_words, campaign_revert
from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.models import Campaign


class Command(BaseCommand):
    help = (
        "Turn a campaign back to the start of turn N from its snapshot: later turns, battles, reports and "
        "ledger lines are archived (the GM reads them in the admin), turn N's orders come back as they were "
        "at its deadline, and the players are told."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("--turn", type=whole_number(1, 1_000_000), required=True, help="The turn to go back to.")
        parser.add_argument("--reason", type=storable_text, required=True, help="Why (told to the players).")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        try:
            result = campaign_revert(
                campaign=campaign, turn_number=options["turn"], reason=options["reason"], actor=None
            )
        except RepairError as exc:
            raise Refused(str(exc)) from exc
        archived = ", ".join(archived_words(result.archived)) or "nothing"
        turn = result.turn
        self.stdout.write(
            f"{campaign.name} is back at the start of turn {turn.number} ({turn.get_season_display()} {turn.year}); "
            f"archived: {archived} (revert {result.revert.pk}). New deadline: {turn.deadline:%Y-%m-%d %H:%M} UTC."
        )
