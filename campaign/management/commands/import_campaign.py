import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.backup import BackupError, campaign_import


class Command(BaseCommand):
    help = "Restore a campaign from an export_campaign document (FILE, or - for standard input)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="Path of the export, or - to read standard input.")
        parser.add_argument("--slug", help="Slug for the restored campaign (default: the export's).")
        parser.add_argument("--replace", action="store_true", help="Replace a campaign with that slug.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                document = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    document = json.load(handle)
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from exc
        except json.JSONDecodeError as exc:
            raise CommandError(f"{options['file']} is not JSON: {exc}.") from exc
        if not isinstance(document, dict):
            raise CommandError("The export must be a JSON object as export_campaign prints it.")
        try:
            campaign = campaign_import(document=document, slug=options["slug"], replace=options["replace"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(campaign.slug)
