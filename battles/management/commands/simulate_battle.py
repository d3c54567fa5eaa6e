"""``simulate_battle SPEC.json [--seed K | --dice 3,5,10,...] [--runs N] [--json]`` (CONTRACT.md).

Thin: parse the arguments, read the spec, call :mod:`battles.engine`, print. Bad input exits 2 with
one line on stderr naming the field (``error: sides[1].ships[0].class: unknown class 'galleon'; …``).
Needs no database.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from battles.engine import (
    DiceError,
    ScriptedDice,
    SeededDice,
    SpecError,
    fight,
    parse_spec,
    render_odds,
    render_report,
    simulate_odds,
)

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """One line for stderr, already naming the field."""


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(EXIT_BAD_INPUT)


def _whole(option: str, text: str, minimum: int | None = None) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise BadInput(f"{option}: must be a whole number, got {text!r}") from None
    if minimum is not None and value < minimum:
        raise BadInput(f"{option}: must be at least {minimum}, got {value}")
    return value


def _faces(text: str) -> list[int]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise BadInput("--dice: give the faces as a comma-separated list, e.g. 3,5,10")
    faces = []
    for k, part in enumerate(parts, start=1):
        try:
            faces.append(int(part))
        except ValueError:
            raise BadInput(f"--dice: die {k} is {part!r}, not a whole number") from None
    return faces


class Command(BaseCommand):
    help = "Fight a battle spec (CONTRACT.md) and print the report, or Monte-Carlo odds with --runs."
    requires_system_checks: list[str] = []  # pure engine: no models, no database

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def one_line_error(message: str) -> NoReturn:
            _fail(message)

        parser.error = one_line_error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("spec", metavar="SPEC.json", help="the battle spec (a JSON file; see the README)")
        source = parser.add_mutually_exclusive_group()
        source.add_argument("--seed", help="seed for the dice (default: a random seed, printed)")
        source.add_argument("--dice", help="hand-rolled dice to replay, e.g. 3,5,10,...")
        parser.add_argument("--runs", help="fight N times and print the odds")
        parser.add_argument("--json", action="store_true", help="print JSON instead of text")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._run(options)
        except BadInput as err:
            _fail(str(err))

    def _run(self, options: dict[str, Any]) -> None:
        path = options["spec"]
        seed = None if options["seed"] is None else _whole("--seed", options["seed"])
        faces = None if options["dice"] is None else _faces(options["dice"])
        runs = None if options["runs"] is None else _whole("--runs", options["runs"], minimum=1)
        if runs is not None and faces is not None:
            raise BadInput("--runs: cannot be combined with --dice (odds need seeded dice)")
        try:
            with open(path, encoding="utf-8") as handle:
                body = json.load(handle)
        except OSError as err:
            raise BadInput(f"{path}: cannot read the spec: {err.strerror or err}") from None
        except json.JSONDecodeError as err:
            raise BadInput(f"{path}: invalid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
        except UnicodeDecodeError:
            raise BadInput(f"{path}: the spec is not UTF-8 text") from None
        except RecursionError:
            raise BadInput(f"{path}: the spec is nested too deeply to be a battle spec") from None
        except ValueError as err:  # e.g. an integer of more digits than Python converts
            raise BadInput(f"{path}: invalid JSON: {err}") from None
        warnings: list[str] = []
        try:
            spec = parse_spec(body, warnings=warnings)
        except SpecError as err:
            raise BadInput(str(err)) from None
        for warning in warnings:
            self.stderr.write(f"warning: {warning}")
        if seed is None and faces is None:
            seed = secrets.randbelow(2**31)

        if runs is not None:
            assert seed is not None
            progress = self._progress_bar() if self.stderr.isatty() else None
            odds = simulate_odds(spec, runs, seed, progress=progress)
            if progress is not None:
                self.stderr.write("")
            if options["json"]:
                self.stdout.write(json.dumps(odds.to_json(), indent=2))
            else:
                self.stdout.write(render_odds(odds, spec), ending="")
            return

        dice: SeededDice | ScriptedDice
        if faces is None:
            assert seed is not None
            dice = SeededDice(seed)
        else:
            dice = ScriptedDice(faces)
        try:
            report = fight(spec, dice)
        except DiceError as err:
            raise BadInput(f"--dice: {err}") from None
        if isinstance(dice, ScriptedDice) and dice.unused:
            left = dice.unused
            self.stderr.write(f"warning: {len(left)} unused dice: {', '.join(str(f) for f in left)}")
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), indent=2))
        else:
            self.stdout.write(render_report(report), ending="")

    def _progress_bar(self) -> Any:
        width = 40

        def show(done: int, total: int) -> None:
            filled = width * done // total
            self.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", ending="")
            self.stderr.flush()

        return show
