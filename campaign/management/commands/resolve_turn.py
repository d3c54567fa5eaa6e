import time
from argparse import ArgumentParser, ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.gm.actions import gm_turn_dry_run, gm_turn_resolve_now
from campaign.management.refusals import Refused, storable_text
from campaign.management.waiting import worker_listening
from campaign.models import Campaign, Turn, TurnPhase
from campaign.turn.lifecycle import TurnControlError, open_turn
from rules.turn_events import event_from_json

#: A day: the longest a command line sensibly waits for one turn.
MAX_TIMEOUT = 86_400.0


def _seconds(text: str) -> float:
    """``--timeout``: seconds, more than 0 and at most a day (no nan, no inf)."""
    try:
        seconds = float(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!a} is not a number of seconds") from None
    if not 0 < seconds <= MAX_TIMEOUT:  # also false for nan
        raise ArgumentTypeError(f"{text!a}: give more than 0 and at most {MAX_TIMEOUT:g} seconds")
    return seconds


class Command(BaseCommand):
    help = (
        "Resolve a campaign's open turn now, through the same Celery path as a deadline, and wait for it. "
        "--dry-run computes the turn and shows what would change without writing anything."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("--dry-run", action="store_true", help="Compute the turn, write nothing.")
        parser.add_argument("--timeout", type=_seconds, default=120.0, help="Seconds to wait (default 120).")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise Refused(f"No campaign with slug {options['slug']!r}.")
        turn = open_turn(campaign)
        if turn is None:
            raise Refused(f"{campaign.name} has no open turn (a resolution may be under way).")
        if options["dry_run"]:
            self._print_summary(turn, gm_turn_dry_run(campaign=campaign, actor=None), dry_run=True)
            return
        timeout = options["timeout"]
        if not worker_listening(min(5.0, timeout)):
            raise CommandError(
                "No Celery worker answered: start one (celery -A config worker) and try again; nothing was changed."
            )
        try:
            turn = gm_turn_resolve_now(campaign=campaign, actor=None)  # sent to the workers as it commits
        except TurnControlError:
            raise Refused(f"Turn {turn.number} was claimed by someone else a moment ago; it is resolving.") from None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            turn.refresh_from_db()
            if turn.status == Turn.Status.RESOLVED:
                phases = [{"phase": p.phase, **p.summary} for p in TurnPhase.objects.filter(turn=turn)]
                self._print_summary(turn, {"phases": phases}, dry_run=False)
                return
            if turn.status == Turn.Status.TABLE:
                phases = [{"phase": p.phase, **p.summary} for p in TurnPhase.objects.filter(turn=turn)]
                self._print_summary(turn, {"phases": phases}, dry_run=False, table=True)
                return
            time.sleep(0.25)
        done = sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
        raise CommandError(
            f"Turn {turn.number} is still resolving after {timeout:g} s (phases done: {done or 'none'}"
            f"{'; last error: ' + turn.error if turn.error else ''}). It will finish when a worker picks it up."
        )

    def _print_summary(self, turn: Turn, result: dict[str, Any], *, dry_run: bool, table: bool = False) -> None:
        verb = "would resolve" if dry_run else "resolved"
        if table:
            verb = "waits for a battle on the table after"
        self.stdout.write(f"Turn {turn.number} ({turn.get_season_display()} {turn.year}) {verb}:")
        for phase in result.get("phases", []):
            events = phase.get("events", [])
            self.stdout.write(f"  phase {phase['phase']} {phase.get('name', '')}: {len(events)} event(s)")
            for event in events:
                seen_by = ", ".join(event.get("nations") or []) or "all"
                self.stdout.write(f"    - [{seen_by}] {event_from_json(event).text}")
        for code, (before, after) in result.get("treasuries", {}).items():
            if before != after:
                self.stdout.write(f"  {code}: treasury {before} → {after} EP")
        if result.get("waits_for_table") or table:
            when = f" (deadline {turn.deadline:%Y-%m-%d %H:%M} UTC)" if table and turn.deadline else ""
            self.stdout.write(
                "  A battle (or a storming) goes to the table: the remaining phases run once its result is approved"
                + when
                + "."
            )
        if dry_run:
            self.stdout.write("Dry run: nothing was written.")
