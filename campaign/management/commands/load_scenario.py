from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.scenario import ScenarioError, available_scenarios, scenario_load


class Command(BaseCommand):
    help = "Create a campaign from a scenario data file (campaign/scenarios/NAME.json); prints its slug."

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

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = scenario_load(
                name=options["name"],
                slug=options["slug"],
                display_name=options["display_name"],
                seed=options["seed"],
                replace=options["replace"],
            )
        except ScenarioError as exc:
            raise Refused(str(exc)) from exc
        self.stdout.write(campaign.slug)
