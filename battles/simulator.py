"""The battle simulator page's form and its Monte-Carlo runs (CONTRACT.md battle spec; the engine's
``simulate_odds``).

:class:`SimulatorForm` takes two fleets — for each side a navy, an admiral grade, a crew grade, the
supply / weather-gauge / at-anchor flags and ship lines such as ``3rd-74 × 12`` — and builds the
CONTRACT.md spec, which :func:`~battles.engine.parse_spec` validates; a :class:`SpecError` is shown
next to the field it names.

Long runs show progress: :func:`odds_chunk` fights runs ``start..stop`` exactly as
:func:`~battles.engine.simulate_odds` would (run ``i`` uses ``run_seed(seed, i)``), so a page can fight
a batch in chunks, carrying a :class:`Tally` between requests, and end with the same odds as one call.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from django import forms

from battles.engine import (
    DEFAULT_RULESET,
    FLEET_ACTION,
    RUNNING_THE_GUNS,
    BattleSpec,
    Odds,
    SeededDice,
    SpecError,
    fight,
    parse_spec,
    run_seed,
)
from battles.engine.combat import FATES
from battles.widgets import use_fast_selects
from rules.ruleset import GRADES, NAVIES, NAVY_NAMES, SHIP_CLASSES, Ruleset

MAX_RUNS = 10_000
#: Runs fought in one request without JavaScript (with HTMX the page fights them in chunks).
MAX_RUNS_AT_ONCE = 5_000
CHUNK = 500
MAX_SHIPS_PER_SIDE = 200
#: A count in a ship line has at most this many digits: checked before ``int()`` (whose own limit is a
#: ValueError past 4,300 digits) and long before a ship is built.
MAX_COUNT_DIGITS = len(str(MAX_SHIPS_PER_SIDE))
#: The simulator's port: its fortification and battery dice are fought every run, so they are bounded
#: before anything is fought (Gibraltar, FF 3, throws 30 dice; a campaign's ports have FF 0–3).
MAX_FORTIFICATION = 20
MAX_BATTERIES = 100
#: The ship lines of one side, in characters (a line per ship is a few dozen).
MAX_SHIP_TEXT = 10_000

_CLASS_ALIASES = {c.lower(): c for c in SHIP_CLASSES} | {"74": "3rd-74", "64": "3rd-64", "cutter": "brig"}
_LINE = re.compile(r"^\s*(?:(\d+)\s*[x×*]\s*)?([A-Za-z0-9-]+)\s*(?:[x×*]\s*(\d+))?\s*(.*)$")


def parse_ship_lines(text: str, *, side_name: str) -> list[dict[str, Any]]:
    """Ship lines to CONTRACT.md ships: ``class × count`` (or ``count × class``), optionally followed by
    a crew grade and/or ``damaged``, one per line, e.g. ``3rd-74 × 10``, ``1st``, ``frigate x 2 C damaged``.
    Raises :class:`SpecError` on ``ships`` naming the line."""
    ships: list[dict[str, Any]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise SpecError("ships", f"line {number} ({raw.strip()!r}): write a class and a count, e.g. 3rd-74 × 10")
        before, cls_raw, after, rest = match.groups()
        cls = _CLASS_ALIASES.get(cls_raw.lower())
        if cls is None:
            raise SpecError("ships", f"line {number}: unknown class {cls_raw!r}; allowed: {', '.join(SHIP_CLASSES)}")
        digits = before or after or "1"
        if len(digits) > MAX_COUNT_DIGITS or int(digits) + len(ships) > MAX_SHIPS_PER_SIDE:
            # Bounded before a single ship is built: "1st x 3000000" must not build three million first.
            raise SpecError("ships", f"line {number}: at most {MAX_SHIPS_PER_SIDE} ships a side in the simulator")
        count = int(digits)
        crew: str | None = None
        condition = "ready"
        for word in rest.split():
            if word.upper() in GRADES and len(word) == 1:
                crew = word.upper()
            elif word.lower() in ("damaged", "ready"):
                condition = word.lower()
            else:
                raise SpecError("ships", f"line {number}: {word!r} is neither a crew grade (A–H) nor 'damaged'")
        if count < 1:
            raise SpecError("ships", f"line {number}: the count must be at least 1")
        for _ in range(count):
            ship: dict[str, Any] = {"name": f"{side_name} {cls} {len(ships) + 1}", "class": cls, "condition": condition}
            if crew:
                ship["crew"] = crew
            ships.append(ship)
    return ships


def check_spec_bounds(body: dict[str, Any]) -> None:
    """Refuse a simulator body (CONTRACT.md's spec, as JSON) whose counts are out of the simulator's
    bounds, before the spec is parsed or anything is fought: more than ``MAX_SHIPS_PER_SIDE`` ships a
    side, or a port with more fortification or batteries than ``MAX_FORTIFICATION`` / ``MAX_BATTERIES``
    (every run throws their dice). Malformed parts are left to ``parse_spec``, which names them."""
    sides = body.get("sides")
    if isinstance(sides, list):
        for k, side in enumerate(sides[:2]):
            ships = side.get("ships") if isinstance(side, dict) else None
            if isinstance(ships, list) and len(ships) > MAX_SHIPS_PER_SIDE:
                raise SpecError(f"sides[{k}].ships", f"at most {MAX_SHIPS_PER_SIDE} ships a side, got {len(ships)}")
    port = body.get("port")
    if isinstance(port, dict):
        for key, most in (("fortification", MAX_FORTIFICATION), ("batteries", MAX_BATTERIES)):
            value = port.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > most:
                raise SpecError(f"port.{key}", f"at most {most} in the simulator, got {value}")


NAVY_CHOICES = [(n, NAVY_NAMES[n]) for n in NAVIES]  # names, not codes, in what people read
GRADE_CHOICES = [(g, g) for g in GRADES]


class SimulatorForm(forms.Form):
    """Two fleets and the number of runs; :meth:`spec` builds and validates the battle spec."""

    type = forms.ChoiceField(
        label="Battle", choices=[(FLEET_ACTION, "Fleet action"), (RUNNING_THE_GUNS, "Running the guns")]
    )
    runs = forms.IntegerField(label="Runs", min_value=1, max_value=MAX_RUNS, initial=1000)
    seed = forms.IntegerField(
        label="Seed",
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        help_text="Empty: a new seed; the same seed gives the same odds.",
    )
    port_name = forms.CharField(label="Port", required=False, initial="Toulon", max_length=80)
    port_fortification = forms.IntegerField(
        label="Fortification (FF)", required=False, min_value=0, max_value=MAX_FORTIFICATION, initial=3
    )
    port_batteries = forms.IntegerField(
        label="Batteries", required=False, min_value=0, max_value=MAX_BATTERIES, initial=0
    )
    port_gibraltar = forms.BooleanField(label="Gibraltar", required=False)

    SIDE_FIELDS = ("name", "navy", "admiral", "crew", "in_supply", "weather_gauge", "at_anchor", "ships")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = (("British", "GB", "B", "3rd-74 × 10"), ("French", "FR", "D", "3rd-74 × 10"))
        for k, (name, navy, crew, ships) in enumerate(defaults):
            p = f"s{k}_"
            self.fields[p + "name"] = forms.CharField(label="Name", initial=name, max_length=60)
            self.fields[p + "navy"] = forms.ChoiceField(label="Navy", choices=NAVY_CHOICES, initial=navy)
            self.fields[p + "admiral"] = forms.ChoiceField(
                label="Admiral", choices=[("", "none"), *GRADE_CHOICES], required=False, initial="C"
            )
            self.fields[p + "crew"] = forms.ChoiceField(label="Crew", choices=GRADE_CHOICES, initial=crew)
            self.fields[p + "in_supply"] = forms.BooleanField(label="In supply", required=False, initial=True)
            self.fields[p + "weather_gauge"] = forms.BooleanField(label="Weather gauge", required=False)
            self.fields[p + "at_anchor"] = forms.BooleanField(label="At anchor", required=False)
            self.fields[p + "ships"] = forms.CharField(
                label="Ships",
                widget=forms.Textarea(attrs={"rows": 4}),
                initial=ships,
                max_length=MAX_SHIP_TEXT,
                required=k == 0,
                help_text="One line each: class × count, then optional crew grade and 'damaged', e.g. 1st × 2 B",
            )
        use_fast_selects(self)

    def side(self, k: int) -> list[forms.BoundField]:
        return [self[f"s{k}_{name}"] for name in self.SIDE_FIELDS]

    @property
    def sides(self) -> list[list[forms.BoundField]]:
        return [self.side(0), self.side(1)]

    @property
    def port_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("port_name", "port_fortification", "port_batteries", "port_gibraltar")]

    def spec_json(self) -> dict[str, Any]:
        """The CONTRACT.md spec body (call after ``is_valid()``); ship-line errors raise SpecError."""
        data = self.cleaned_data
        sides = []
        for k in (0, 1):
            p = f"s{k}_"
            try:
                ships = parse_ship_lines(data[p + "ships"] or "", side_name=data[p + "name"])
            except SpecError as err:
                raise err.within(f"sides[{k}]") from None
            admiral = data[p + "admiral"]
            sides.append(
                {
                    "name": data[p + "name"],
                    "navy": data[p + "navy"],
                    "admiral": {"grade": admiral, "name": ""} if admiral else None,
                    "crew": data[p + "crew"],
                    "in_supply": data[p + "in_supply"],
                    "weather_gauge": data[p + "weather_gauge"],
                    "at_anchor": data[p + "at_anchor"],
                    "ships": ships,
                }
            )
        spec: dict[str, Any] = {"type": data["type"], "sides": sides}
        if data["type"] == RUNNING_THE_GUNS:
            spec["port"] = {
                "name": data["port_name"] or "the port",
                "fortification": data["port_fortification"] if data["port_fortification"] is not None else 0,
                "batteries": data["port_batteries"] or 0,
                "gibraltar": data["port_gibraltar"],
            }
        return spec

    def spec(self) -> BattleSpec | None:
        """The validated spec, or None with the engine's error added next to the field it names."""
        try:
            return parse_spec(self.spec_json())
        except SpecError as err:
            self.add_error(self.field_for(err.field), f"{err.field}: {err.message}")
            return None

    def field_for(self, path: str) -> str | None:
        """The form field a SpecError path (``sides[1].ships[3].class``, ``port.fortification``) names."""
        side = re.match(r"^sides\[(\d)\]\.?([a-z_]*)", path)
        if side:
            k, key = side.group(1), side.group(2)
            name = {"ships": "ships", "admiral": "admiral"}.get(key, key)
            candidate = f"s{k}_{name}"
            return candidate if candidate in self.fields else f"s{k}_ships"
        port = re.match(r"^port\.?([a-z_]*)", path)
        if port:
            candidate = f"port_{port.group(1) or 'fortification'}"
            return candidate if candidate in self.fields else "port_fortification"
        return "type" if path == "type" else None

    def chosen_seed(self) -> int:
        seed = self.cleaned_data.get("seed")
        return int(seed) if seed is not None else secrets.randbelow(2**31)


@dataclass
class Tally:
    """Winners and fates counted over the runs fought so far (JSON-ready for the next chunk)."""

    done: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    fates: list[list[int]] = field(default_factory=lambda: [[0] * len(FATES), [0] * len(FATES)])

    def to_json(self) -> dict[str, Any]:
        return {"done": self.done, "wins": self.wins, "draws": self.draws, "fates": self.fates}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        return cls(int(data["done"]), list(data["wins"]), int(data["draws"]), [list(f) for f in data["fates"]])

    def odds(self, seed: int) -> Odds:
        runs = max(self.done, 1)
        mean = tuple({fate: self.fates[s][f] / runs for f, fate in enumerate(FATES)} for s in (0, 1))
        return Odds(
            runs=self.done,
            seed=seed,
            win=(self.wins[0] / runs, self.wins[1] / runs),
            draw=self.draws / runs,
            mean_losses=(mean[0], mean[1]),
        )


def odds_chunk(spec: BattleSpec, *, seed: int, stop: int, tally: Tally, ruleset: Ruleset = DEFAULT_RULESET) -> Tally:
    """Fight runs ``tally.done`` … ``stop - 1`` of the batch seeded ``seed``, as ``simulate_odds`` does."""
    n0 = len(spec.sides[0].ships)
    for i in range(tally.done, stop):
        report = fight(spec, SeededDice(run_seed(seed, i)), ruleset)
        if report.winner is None:
            tally.draws += 1
        else:
            tally.wins[report.winner] += 1
        for k, state in enumerate(report.states):
            tally.fates[0 if k < n0 else 1][state] += 1
    tally.done = max(tally.done, stop)
    return tally


def odds_rows(odds: Odds, spec: BattleSpec) -> list[dict[str, Any]]:
    """Per side: its name, ships, win fraction and mean ships per fate, for the result table."""
    return [
        {
            "name": side.name,
            "ships": len(side.ships),
            "win": f"{odds.win[k]:.1%}",
            "fates": [(fate, f"{odds.mean_losses[k][fate]:.2f}") for fate in FATES],
        }
        for k, side in enumerate(spec.sides)
    ]
