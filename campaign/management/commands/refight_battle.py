"""``refight_battle SLUG BATTLE_ID --reason R [--seed K]``: fight one battle again (issue 11).

The same service as the admin's "Re-fight a battle" page (campaign.gm.repair.refight.battle_refight),
audited: the campaign goes back to the start of the battle's turn, which the workers resolve again
with only that battle's dice re-seeded. The command waits for them and prints the new result.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from campaign.gm.repair.refight import battle_label, battle_refight, battle_refought
from campaign.gm.repair.services import MAX_SEED, RepairError
from campaign.management.refusals import Refused, storable_text, whole_number
from campaign.management.waiting import wait_resolved, worker_listening
from campaign.models import Campaign, Nation


class Command(BaseCommand):
    help = (
        "Re-fight one battle of the latest resolved turn with a new seed (random if not given): its turn is "
        "reverted and resolved again with that battle's dice re-seeded; the players are told."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", type=storable_text)
        parser.add_argument("battle_id", type=whole_number(1, MAX_SEED), help="The battle's id (its page's URL).")
        parser.add_argument("--reason", type=storable_text, required=True, help="Why (told to the players).")
        parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=None, help="The new seed.")
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
            result = battle_refight(
                campaign=campaign,
                battle_id=options["battle_id"],
                reason=options["reason"],
                seed=options["seed"],
                actor=None,
            )
        except RepairError as exc:
            raise Refused(str(exc)) from exc
        self.stdout.write(
            f"Re-fighting the {result.battle_label} with seed {result.seed} (was {result.seed_before}); "
            f"turn {result.turn.number} is resolving again."
        )
        problem = wait_resolved(result.turn, timeout)
        if problem is not None:
            raise CommandError(problem)
        battle = battle_refought(turn=result.turn, result=result)
        if battle is None:
            self.stdout.write("Resolved again: this time the fleets did not come to battle there.")
            return
        self.stdout.write(f"Resolved again: {battle_label(battle)}, won by {_winner(battle)}.")


def _winner(battle: Battle) -> str:
    """The winning side in words: its nations' names ("France and Spain"), or "neither side"."""
    if battle.winner is None:
        return "neither side"
    codes = battle.sides[battle.winner].get("nations") or []
    names = dict(Nation.objects.filter(campaign_id=battle.campaign_id, code__in=codes).values_list("code", "name"))
    words = [names.get(code, code) for code in codes]
    return " and ".join(words) if words else f"side {battle.winner + 1}"
