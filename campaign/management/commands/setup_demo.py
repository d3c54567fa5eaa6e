from argparse import ArgumentParser
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand

from campaign.scenarios.demo import demo_setup, logins_file


class Command(BaseCommand):
    help = "Load the demo campaign (europe-1805, slug demo) and its accounts once; print the logins."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="Migrate the database first, in the same process (make run: one start of Django, not two).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["migrate"]:
            call_command("migrate", interactive=False, verbosity=1, stdout=self.stdout, stderr=self.stderr)
        campaign, _, created = demo_setup()
        self.stdout.write(
            f"Demo campaign {'created' if created else 'already loaded'}: {campaign.name} ({campaign.slug})"
        )
        path = logins_file()
        if path.exists():
            self.stdout.write(f"Demo logins (also in {path}):")
            for line in path.read_text(encoding="utf-8").splitlines():
                username, password, role = line.split("\t")
                self.stdout.write(f"  {username:<12} {password:<18} {role}")
        else:
            self.stdout.write("Demo logins were created earlier and their file is gone; reset with changepassword.")
