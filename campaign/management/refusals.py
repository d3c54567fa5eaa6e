"""How every management command refuses bad input: exit 2 naming the problem (CONTRACT.md), never a
traceback and never a half-done change.

* :class:`Refused` — a CommandError that exits 2 (``manage.py`` prints "CommandError: …").
* :func:`storable_text` — the argparse ``type`` of every free-text argument (slugs, names, codes):
  text PostgreSQL cannot hold (NUL, or the lone surrogates that undecodable argv bytes become) is a
  usage error, which argparse reports with exit 2 before any query is made.
* :func:`whole_number` — an argparse ``type`` for a bounded integer (seeds, turn numbers).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from django.core.management.base import CommandError

from campaign.plumbing.json_text import find_forbidden_string

#: CONTRACT.md: a refused command exits 2.
EXIT_REFUSED = 2


class Refused(CommandError):
    """A command's refusal: exit 2 with ``message``, which says what was wrong and what is allowed."""

    def __init__(self, message: str) -> None:
        super().__init__(message, returncode=EXIT_REFUSED)


def storable_text(value: str) -> str:
    found = find_forbidden_string(value)
    if found is not None:
        raise argparse.ArgumentTypeError(f"{value!a} holds {found[1]}; use plain text")
    return value


def whole_number(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum`` (no sign tricks, no 1e9)."""

    def parse(text: str) -> int:
        stripped = text.strip()
        digits = stripped.removeprefix("-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(max(abs(minimum), maximum))):
            raise argparse.ArgumentTypeError(f"{text!a} is not a whole number from {minimum} to {maximum}")
        number = int(stripped)
        if not minimum <= number <= maximum:
            raise argparse.ArgumentTypeError(f"{number} is not a whole number from {minimum} to {maximum}")
        return number

    parse.__name__ = "whole number"
    return parse


__all__ = ["EXIT_REFUSED", "Refused", "storable_text", "whole_number"]
