import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.backup import BackupError, campaign_export
from campaign.models import Campaign


class Command(BaseCommand):
    help = "Print a campaign's full state as JSON (a backup import_campaign restores exactly)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--turn", type=int, help="The state as turn N opened.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"No campaign with slug {options['slug']!r}.")
        try:
            document = campaign_export(campaign=campaign, turn=options["turn"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
