"""``manage.py audit_log SLUG [--json]``: a campaign's audit log, oldest first (the GM's actions)."""

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.audit import audit_entries_for_campaign, audit_entry_as_json
from campaign.management.refusals import Refused, storable_text
from campaign.models import Campaign


class Command(BaseCommand):
    help = (
        "Print a campaign's audit log, oldest first: who did what, when, before → after and the reason. "
        "--json prints a JSON list of entries instead."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("--json", action="store_true", help="Print the entries as a JSON list.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        entries = list(audit_entries_for_campaign(campaign_id=campaign.pk).reverse())
        if options["json"]:
            self.stdout.write(json.dumps([audit_entry_as_json(e) for e in entries], ensure_ascii=False, indent=1))
            return
        if not entries:
            self.stdout.write(f"The audit log of {campaign.name} is empty: no GM action has been recorded yet.")
            return
        for e in entries:
            turn = f"turn {e.turn}" if e.turn is not None else "no turn"
            self.stdout.write(f"{e.created_at:%Y-%m-%d %H:%M:%S} UTC  {turn}  {e.actor_name}: {e.summary}")
            if e.before is not None or e.after is not None:
                self.stdout.write(f"    before {json.dumps(e.before)} → after {json.dumps(e.after)}")
            if e.reason:
                self.stdout.write(f"    reason: {e.reason}")
        self.stdout.write(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}.")
