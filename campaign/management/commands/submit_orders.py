"""``submit_orders SLUG --nation CODE FILE.json``: enter a nation's orders for the open turn (README "Orders JSON")."""

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.audit import COMMAND_LINE
from campaign.models import Campaign, Nation
from campaign.orders.describe import order_in_words
from campaign.orders.errors import OrderRefused, OrdersRefused
from campaign.orders.names import campaign_order_names
from campaign.orders.services import orders_replace
from campaign.plumbing.json_text import text_fault

#: CONTRACT.md: a refused submission exits 2.
REFUSED = 2


class Command(BaseCommand):
    help = (
        "Replace a nation's orders for the open turn with a JSON list of orders (FILE, or - for standard "
        "input). All or nothing: if any order is refused, every refusal is printed "
        "with its code in brackets, nothing is stored, exit 2."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", help="The campaign's slug.")
        parser.add_argument("--nation", required=True, help="The nation's code, e.g. GB.")
        parser.add_argument("file", help="Path of the JSON list of orders, or - to read standard input.")
        parser.add_argument(
            "--late-reason",
            default="",
            help="After the deadline (the 'GM is asked' policy): why a missing nation's orders are entered late.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for name in ("slug", "nation"):
            # Bytes that are not UTF-8 reach argv as lone surrogates, which no query can carry.
            fault = text_fault(options[name])
            if fault:
                raise CommandError(f"The {name} {options[name]!a} holds {fault}.", returncode=REFUSED)
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"No campaign with slug {options['slug']!r}.", returncode=REFUSED)
        code = options["nation"].strip().upper()
        nation = Nation.objects.filter(campaign=campaign, code=code).first()
        if nation is None:
            codes = ", ".join(Nation.objects.filter(campaign=campaign).values_list("code", flat=True))
            raise CommandError(f"{campaign.name} has no nation {code!r}; its nations are {codes}.", returncode=REFUSED)
        bodies = self._read(options["file"])
        if not isinstance(bodies, list):
            raise CommandError(
                f'{options["file"]} must hold a JSON list of orders, e.g. [{{"kind": "sally", "fleet": 12}}].',
                returncode=REFUSED,
            )
        try:
            orders = orders_replace(
                nation=nation, bodies=bodies, actor=COMMAND_LINE, late_reason=options["late_reason"]
            )
        except OrdersRefused as refused:
            summary = f"{len(refused.refusals)} of {len(bodies)} orders refused; nothing was stored:"
            lines = [f"{r.message} [{r.code}]" for r in refused.refusals]
            raise CommandError("\n".join([summary, *lines]), returncode=REFUSED) from None
        except OrderRefused as closed:
            raise CommandError(closed.message, returncode=REFUSED) from None
        if not orders:
            self.stdout.write(f"{nation.code} has no orders this turn (every order withdrawn).")
            return
        # In words: the names that the file's ids and keys stand for, so the GM sees what was entered.
        names = campaign_order_names(campaign=campaign)
        for order in orders:
            self.stdout.write(f"Order {order.position} — {order_in_words(order, names)}")

    def _read(self, path: str) -> Any:
        try:
            if path == "-":
                return json.load(sys.stdin)
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.", returncode=REFUSED) from exc
        except UnicodeDecodeError as exc:
            raise CommandError(f"{path} is not UTF-8 text: {exc}.", returncode=REFUSED) from exc
        except ValueError as exc:  # a JSONDecodeError, or an integer longer than Python parses
            raise CommandError(f"{path} is not valid JSON: {exc}.", returncode=REFUSED) from exc
        except RecursionError:
            raise CommandError(f"{path} is nested too deeply to be a list of orders.", returncode=REFUSED) from None
