"""``manage.py import_campaign FILE``: restore a campaign document, checked in full first.

Exit status 2 with every problem listed by its path (and nothing written) for any file that is
not a campaign document this version can restore: too large, too deeply nested, not JSON, or
failing the published schema (``/schemas/campaign-document.json``) or the checks between records.
The same service as the admin's import: the restored campaign's audit log ends with its "imported" entry.
"""

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from campaign.backup.document import MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH, BackupError
from campaign.gm.backup import gm_campaign_import
from campaign.plumbing.json_text import forbidden_string, json_depth

EXIT_REFUSED = 2


def _refuse(message: str) -> CommandError:
    return CommandError(message, returncode=EXIT_REFUSED)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


class Command(BaseCommand):
    help = (
        "Restore a campaign from an export_campaign document (FILE, or - for standard input). Nobody gets a "
        "role from the file: name the GM with --gm and each player with --player NATION=USER."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="Path of the export, or - to read standard input.")
        parser.add_argument("--slug", help="Slug for the restored campaign (default: the export's).")
        parser.add_argument("--replace", action="store_true", help="Replace a campaign with that slug.")
        parser.add_argument("--gm", metavar="USER", help="Username of the campaign's GM (default: none).")
        parser.add_argument(
            "--player",
            action="append",
            default=[],
            metavar="NATION=USER",
            help="A nation's player, e.g. --player GB=nelson; repeat for each nation (default: none).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        document = self._read(options["file"])
        gm = self._user(options["gm"], "--gm") if options["gm"] else None
        players = {}
        for mapping in options["player"]:
            code, sep, username = mapping.partition("=")
            if not sep or not code or not username:
                raise _refuse(f"--player {mapping!r}: write it as NATION=USER, e.g. --player GB=nelson.")
            players[code.strip().upper()] = self._user(username.strip(), f"--player {mapping}")
        try:
            campaign = gm_campaign_import(
                document=document, slug=options["slug"], replace=options["replace"], gm=gm, players=players, actor=None
            )
        except BackupError as exc:
            raise _refuse(str(exc)) from exc
        self.stdout.write(campaign.slug)

    @staticmethod
    def _user(username: str, option: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise _refuse(f"{option}: no user named {username!r}.")
        return user

    @staticmethod
    def _read(name: str) -> Any:
        """The file's JSON, refused before decoding if too large or too deep to handle safely."""
        try:
            if name == "-":
                raw = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
            else:
                with open(name, "rb") as handle:
                    raw = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError as exc:
            raise _refuse(f"Cannot read {name}: {exc.strerror}.") from exc
        if len(raw) > MAX_DOCUMENT_BYTES:
            raise _refuse(f"{name} is larger than {MAX_DOCUMENT_BYTES} bytes; no campaign document is that large.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _refuse(f"{name} is not UTF-8 text (byte {exc.start}).") from exc
        if json_depth(text) > MAX_DOCUMENT_DEPTH:
            raise _refuse(f"{name} is nested deeper than {MAX_DOCUMENT_DEPTH} levels; no campaign document is.")
        try:
            document = json.loads(text, parse_constant=_refuse_constant)
        except ValueError as exc:  # JSONDecodeError, and integers too long to convert
            raise _refuse(f"{name} is not JSON: {exc}.") from exc
        problem = forbidden_string(document)
        if problem:
            raise _refuse(f"The export is incomplete or malformed:\n  {problem}.")
        return document
