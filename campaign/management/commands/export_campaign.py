"""``manage.py export_campaign SLUG``: a campaign's full state as JSON; ``--schema``: that JSON's schema."""

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.backup.document import BackupError, campaign_export
from campaign.backup.schemas.campaign_document import campaign_document_schema_text
from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.models import Campaign


class Command(BaseCommand):
    help = (
        "Print a campaign's full state as JSON (a backup import_campaign restores exactly); with --schema, "
        "print the document's JSON Schema (campaign/backup/schemas/campaign-document.schema.json) instead."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", nargs="?", type=storable_text)
        parser.add_argument("--turn", type=whole_number(1, 2**31 - 1), help="The state as turn N opened.")
        parser.add_argument("--schema", action="store_true", help="Print the document's JSON Schema.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["schema"]:
            self.stdout.write(campaign_document_schema_text(), ending="")
            return
        if not options["slug"]:
            raise Refused("Name the campaign to export (its slug), or pass --schema.")
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        try:
            document = campaign_export(campaign=campaign, turn=options["turn"])
        except BackupError as exc:
            raise Refused(str(exc)) from exc
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
