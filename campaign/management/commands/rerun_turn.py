"""``rerun_turn SLUG [--seed K --reason R]``: resolve the open turn again now, e.g. after a revert (issue 11).

The same service as the admin's "Re-run the open turn" page (campaign.gm.repair.rerun.turn_rerun),
audited. The campaign's seed gives the same result for the same orders; a new seed needs a reason.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.gm.repair.rerun import turn_rerun
from campaign.gm.repair.services import MAX_SEED, RepairError
from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.management.waiting import wait_resolved, worker_listening
from campaign.models import Campaign


class Command(BaseCommand):
    help = (
        "Resolve a campaign's open turn now through the workers and wait for it; --seed with --reason "
        "gives the campaign a new seed first (every die from this turn on changes)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=None, help="A new campaign seed.")
        parser.add_argument("--reason", type=storable_text, default="", help="Why (required with --seed).")
        parser.add_argument("--timeout", type=float, default=120.0, help="Seconds to wait (default 120).")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        timeout = options["timeout"]
        if not 0 < timeout <= 86_400:
            raise Refused(f"--timeout {timeout:g}: give more than 0 and at most 86400 seconds.")
        if not worker_listening(min(5.0, timeout)):
            raise CommandError(
                "No Celery worker answered: start one (celery -A config worker) and try again; nothing was changed."
            )
        try:
            result = turn_rerun(campaign=campaign, reason=options["reason"], seed=options["seed"], actor=None)
        except RepairError as exc:
            raise Refused(str(exc)) from exc
        problem = wait_resolved(result.turn, timeout)
        if problem is not None:
            raise CommandError(problem)
        seed = "the campaign's seed" if result.seed == result.seed_before else f"the new seed {result.seed}"
        self.stdout.write(f"Turn {result.turn.number} of {campaign.name} resolved again with {seed}.")
