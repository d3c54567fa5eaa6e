from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.scenarios.loading import ScenarioError, available_scenarios, scenario_load


class Command(BaseCommand):
    help = (
        "Create a campaign from a scenario data file (campaign/scenarios/NAME.json); prints its slug. The "
        "campaign is being set up (its clock does not run) until its GM presses Start in the admin, or at "
        "once with --start."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("name", type=storable_text, help=f"Scenario: {', '.join(available_scenarios())}")
        parser.add_argument("--slug", type=storable_text, help="Campaign slug (default: the scenario's).")
        parser.add_argument(
            "--name", dest="display_name", type=storable_text, help="Campaign name (default: the scenario's)."
        )
        parser.add_argument(
            "--seed", type=whole_number(0, 2**63 - 1), help="Master seed for every die (default: random)."
        )
        parser.add_argument("--replace", action="store_true", help="Replace a campaign with the same slug.")
        parser.add_argument(
            "--gm", type=storable_text, help="Username of the campaign's game master (it shows in their admin)."
        )
        parser.add_argument(
            "--start", action="store_true", help="Start its clock now (default: set up, started by the GM later)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        gm = None
        if options["gm"] is not None:
            users = get_user_model()
            gm = users.objects.filter(**{users.USERNAME_FIELD: options["gm"]}).first()
            if gm is None:
                raise Refused(f"No account with the username {options['gm']!r}: create it first, or leave out --gm.")
            if not (gm.is_staff or gm.is_superuser):
                raise Refused(
                    f"{options['gm']!r} is not staff, so could not run the campaign in the admin: "
                    "give the account staff status first."
                )
        try:
            campaign = scenario_load(
                name=options["name"],
                slug=options["slug"],
                display_name=options["display_name"],
                seed=options["seed"],
                replace=options["replace"],
                gm=gm,
                start=options["start"],
            )
        except ScenarioError as exc:
            raise Refused(str(exc)) from exc
        self.stdout.write(campaign.slug)
