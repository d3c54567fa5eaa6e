"""The rules page: the game's rules told to players, with every number this campaign's own.

The text is ours, written for players; each number in it is a placeholder (``{battle.max_rounds}``)
filled from the campaign's ruleset (:mod:`rules.ruleset`), so a GM's house change shows wherever the
number is used, marked against the rulebook's default. Every setting of the ruleset also appears once
in its section's table (grades, nationalities, ship classes, quotas, then the rest by the section its
help names), so nothing a GM can change is left out.

The players' text itself, with the sections' titles and stable anchors (:data:`ANCHORS`), is
:mod:`campaign.pages.rulebook.text`; this module fills it in and builds the tables. The texts that
cite a rule ("rules §4") link to ``/campaigns/<slug>/rules/#at-sea`` through :func:`rules_section_url`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from campaign.pages.labels import CLASS_LABELS
from campaign.pages.rulebook.text import ANCHORS, CHANGES, SECTION_TEXT, TITLES
from campaign.viewer import Viewer, viewer_for_player
from rules.ruleset import (
    DEFAULTS,
    GRADES,
    NAVIES,
    NAVY_LIST_ALIASES,
    NAVY_NAMES,
    QUOTA_PERIODS,
    SETTINGS,
    SHIP_CLASSES,
    SOL_CLASSES,
    Ruleset,
    Setting,
)

_PLACEHOLDER = re.compile(r"\{([a-z_.0-9]+)(?::(signed))?\}")
_SECTION_OF_HELP = re.compile(r"^§(\d+)")
_HELP_PREFIX = re.compile(r"^§\d+(?:/§\d+)?\s*(?:\[S\]\s*)?")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


@dataclass(frozen=True)
class Value:
    """One number as this campaign has it, and the rulebook's when a house rule changed it."""

    value: int
    default: int
    signed: bool = False

    @property
    def changed(self) -> bool:
        return self.value != self.default

    def html(self) -> SafeString:
        text = _signed(self.value) if self.signed else str(self.value)
        if not self.changed:
            return format_html('<span class="rule-value">{}</span>', text)
        default = _signed(self.default) if self.signed else str(self.default)
        return format_html(
            '<mark class="house-rule" title="House rule; the rulebook says {}">{}</mark>'
            ' <small class="rulebook-value">(rulebook: {})</small>',
            default,
            text,
            default,
        )


def _fill(text: str, ruleset: Ruleset) -> SafeString:
    """The paragraph, escaped, with each placeholder replaced by the campaign's value."""
    out: list[str] = []
    last = 0
    for match in _PLACEHOLDER.finditer(text):
        out.append(escape(text[last : match.start()]))
        key = match.group(1)
        out.append(Value(ruleset[key], DEFAULTS[key], signed=bool(match.group(2))).html())
        last = match.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(out))


@dataclass(frozen=True)
class Row:
    label: str
    values: list[Value]


@dataclass(frozen=True)
class Table:
    caption: str
    headings: list[str]
    rows: list[Row]


@dataclass(frozen=True)
class Section:
    number: int
    anchor: str
    title: str
    paragraphs: list[SafeString]
    tables: list[Table]
    house_rules: int


@dataclass(frozen=True)
class HouseRule:
    section: int
    anchor: str
    label: str
    value: Value


@dataclass(frozen=True)
class RulesPage:
    viewer: Viewer
    sections: list[Section]
    house_rules: list[HouseRule]
    #: The rule changes that play differently from before: (topic, what changed), newest first.
    changes: list[tuple[str, str]]


def _v(ruleset: Ruleset, key: str, *, signed: bool = False) -> Value:
    return Value(ruleset[key], DEFAULTS[key], signed=signed)


def _navies() -> list[str]:
    return [n for n in NAVIES if n not in NAVY_LIST_ALIASES]


def _navy_label(navy: str) -> str:
    aliases = [NAVY_NAMES[a] for a, target in NAVY_LIST_ALIASES.items() if target == navy]
    return NAVY_NAMES[navy] + (f" (and {', '.join(aliases)})" if aliases else "")


def _tables(number: int, ruleset: Ruleset) -> list[Table]:
    """The tables of the settings that are lists (grades, navies, classes, quotas)."""
    if number == 0:
        grades = Table(
            "Grades",
            ["Grade", "Modifier", "Admiral's extra dice"],
            [
                Row(g, [_v(ruleset, f"grade.modifier.{g}", signed=True), _v(ruleset, f"grade.admiral_dice.{g}")])
                for g in GRADES
            ],
        )
        navies = Table(
            "Navies",
            ["Navy", "Initiative", "Gunnery", "Boarding"],
            [
                Row(
                    _navy_label(n),
                    [
                        _v(ruleset, f"nationality.{roll}.{n}", signed=True)
                        for roll in ("initiative", "combat", "boarding")
                    ],
                )
                for n in _navies()
            ],
        )
        return [grades, navies]
    if number == 1:
        ships = Table(
            "Ship classes",
            ["Class", "Cost (EP)", "Turns to build"],
            [
                Row(
                    CLASS_LABELS[c] + (" (ship of the line)" if c in SOL_CLASSES else ""),
                    [_v(ruleset, f"ship.cost.{c}"), _v(ruleset, f"ship.build_turns.{c}")],
                )
                for c in SHIP_CLASSES
            ],
        )
        starts = [ruleset[f"quota.period_start.{p}"] for p in QUOTA_PERIODS if p != "pre1792"]
        headings = ["Navy", f"before {starts[0]}"] + [f"{year} on" for year in starts]
        quota = Table(
            "Largest share of ships of the line that may be first or second rates or four-deckers (%)",
            headings,
            [Row(_navy_label(n), [_v(ruleset, f"quota.pct.{n}.{p}") for p in QUOTA_PERIODS]) for n in _navies()],
        )
        years = Table(
            "Quota periods",
            ["Period", "First year"],
            [
                Row(f"The column of {p} on starts in", [_v(ruleset, f"quota.period_start.{p}")])
                for p in QUOTA_PERIODS
                if p != "pre1792"
            ],
        )
        return [ships, quota, years]
    return []


_ROLLS = ("initiative", "combat", "boarding")

#: Settings shown in the list tables above rather than one per row.
_LISTED = ("grade.", "nationality.", "ship.", "quota.pct.", "quota.period_start.")


def _listed(key: str) -> bool:
    return key.startswith(_LISTED)


def _setting_label(setting: Setting) -> str:
    return _HELP_PREFIX.sub("", setting.help).rstrip(".")


def _scalar_section(setting: Setting) -> int:
    match = _SECTION_OF_HELP.match(setting.help)
    assert match is not None, f"{setting.key}: its help must name its section"
    return int(match.group(1))


def _label_of(key: str) -> str:
    """What a house rule is about, in words, for the page's summary."""
    parts = key.split(".")
    if parts[0] == "grade":
        what = "modifier" if parts[1] == "modifier" else "admiral's extra dice"
        return f"Grade {parts[2]}: {what}"
    if parts[0] == "nationality":
        roll = {"initiative": "initiative", "combat": "gunnery", "boarding": "boarding"}[parts[1]]
        return f"{NAVY_NAMES[parts[2]]}: {roll} modifier"
    if parts[0] == "ship":
        what = "cost" if parts[1] == "cost" else "turns to build"
        return f"{CLASS_LABELS[parts[2]]}: {what}"
    if key.startswith("quota.pct."):
        return f"{NAVY_NAMES[parts[2]]}: quota from {parts[3]}".replace("from pre1792", "before 1792")
    return _setting_label(next(s for s in SETTINGS if s.key == key))


def rulebook_sections(ruleset: Ruleset) -> list[Section]:
    """Every section with its text and tables, every number this ruleset's."""
    scalars: dict[int, list[Row]] = {n: [] for n in ANCHORS}
    for setting in SETTINGS:
        if _listed(setting.key):
            continue
        scalars[_scalar_section(setting)].append(Row(_setting_label(setting), [_v(ruleset, setting.key)]))
    overrides = ruleset.overrides()
    sections = []
    for number, anchor in ANCHORS.items():
        tables = _tables(number, ruleset)
        if scalars[number]:
            tables.append(Table("Every number of this section", ["Rule", "This campaign"], scalars[number]))
        changed = sum(1 for t in tables for r in t.rows for v in r.values if v.changed)
        sections.append(
            Section(
                number=number,
                anchor=anchor,
                title=TITLES[number],
                paragraphs=[_fill(p, ruleset) for p in SECTION_TEXT[number]],
                tables=tables,
                house_rules=changed,
            )
        )
    assert len(overrides) == sum(s.house_rules for s in sections), "a changed setting has no place on the page"
    return sections


def _house_rules(ruleset: Ruleset) -> list[HouseRule]:
    out = []
    for key, value in ruleset.overrides().items():
        setting = next(s for s in SETTINGS if s.key == key)
        number = _scalar_section(setting) if not _listed(key) else (0 if key[0] in "gn" else 1)
        out.append(HouseRule(number, ANCHORS[number], _label_of(key), Value(value, DEFAULTS[key])))
    return sorted(out, key=lambda h: (h.section, h.label))


def rules_for_player(*, user: object, slug: str, nation_code: str | None) -> RulesPage:
    """The rules page of a campaign, for anyone who may see the campaign."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)  # type: ignore[arg-type]
    ruleset = viewer.campaign.ruleset
    return RulesPage(
        viewer=viewer, sections=rulebook_sections(ruleset), house_rules=_house_rules(ruleset), changes=CHANGES
    )


def rules_section_url(slug: str, number: int) -> str:
    """Where rule section ``number`` of campaign ``slug`` is told (the page itself for an unknown one)."""
    url = reverse("campaign:rules", args=[slug])
    anchor = ANCHORS.get(number)
    return f"{url}#{anchor}" if anchor else url
