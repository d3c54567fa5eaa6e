"""RULES.md §1 — laying down ships: cost, build time, the 1st/2nd-rate quota and four-deckers.

Pure rule code: the caller counts the nation's ships (see ``fleets.selectors.navy_counts``) and
this module decides. Every refusal is a :class:`ConstructionRefused` whose message names the rule,
the period and the numbers, and says what is allowed instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ruleset import BIG_CLASSES, SHIP_CLASS_NAMES, SHIP_CLASSES, SOL_CLASSES, Ruleset


class ConstructionRefused(ValueError):
    """A lay-down that the rules do not allow; ``rule`` is a short code for the rule broken."""

    def __init__(self, rule: str, message: str, *, numbers: dict[str, int] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        #: The refusal's numbers by name (limit, have, percent…): programs read them, not the message.
        self.numbers = dict(numbers or {})


@dataclass(frozen=True, slots=True)
class NavyCounts:
    """What §1 counts for one nation, before the new keel.

    sol: ships of the line it owns in any condition but sunk (building, in ordinary, captured ones
    included). big: its 1st/2nd rates and four-deckers that are not captured. four_deckers: its
    four-deckers afloat or building, not captured.
    """

    sol: int
    big: int
    four_deckers: int

    def plus(self, ship_class: str) -> NavyCounts:
        """The counts with one more keel of ``ship_class`` (a new keel counts at once)."""
        return NavyCounts(
            sol=self.sol + (ship_class in SOL_CLASSES),
            big=self.big + (ship_class in BIG_CLASSES),
            four_deckers=self.four_deckers + (ship_class == "four-decker"),
        )


def period_label(ruleset: Ruleset, year: int) -> str:
    """Human name of the quota column the year falls in, e.g. "1800–1808"."""
    s1792, s1800, s1809 = (ruleset[f"quota.period_start.{p}"] for p in ("1792", "1800", "1809"))
    return {
        "pre1792": f"before {s1792}",
        "1792": f"{s1792}–{s1800 - 1}",
        "1800": f"{s1800}–{s1809 - 1}",
        "1809": f"{s1809} on",
    }[ruleset.quota_period(year)]


def within_quota(ruleset: Ruleset, *, navy: str, year: int, counts: NavyCounts) -> bool:
    """§1 "in whole numbers": ``100 × big ≤ pct × sol``."""
    return 100 * counts.big <= ruleset.quota_percent(navy, year) * counts.sol


def big_ships_allowed_now(ruleset: Ruleset, *, navy: str, year: int, counts: NavyCounts) -> int:
    """How many more 1st/2nd rates could be laid down one after another from ``counts``."""
    pct = ruleset.quota_percent(navy, year)
    allowed = 0
    current = counts
    # Each big keel raises both sol and big by one; the bound is small (≤ sol), so counting is exact.
    while True:
        nxt = current.plus("1st")
        if 100 * nxt.big > pct * nxt.sol:
            return allowed
        allowed += 1
        current = nxt
        if pct >= 100:
            return allowed  # unlimited in practice; one answer is enough for a message


def check_limits(
    ruleset: Ruleset, *, navy: str, nation_name: str, year: int, ship_class: str, counts: NavyCounts
) -> None:
    """§1 quota and four-decker limit for one more ship of ``ship_class`` on top of ``counts``.

    Raises :class:`ConstructionRefused`; returns quietly when the new ship is allowed. Captured
    ships are never checked ("Captured ships may always be used, whatever the limits").
    """
    if ship_class not in SHIP_CLASSES:
        raise ConstructionRefused("class", f"Unknown ship class {ship_class!r}; allowed: {', '.join(SHIP_CLASSES)}.")
    after = counts.plus(ship_class)
    limit = ruleset["quota.four_decker_limit"]
    if ship_class == "four-decker" and after.four_deckers > limit:
        raise ConstructionRefused(
            "four_decker_limit",
            f"Four-decker limit (rules §1): {nation_name} may have at most {limit} four-decker"
            f"{'s' if limit != 1 else ''} afloat or building, not counting captured ones; it already has "
            f"{counts.four_deckers}. Captured four-deckers may always be used; lay down a 1st or 2nd rate "
            "instead, within quota.",
            numbers={"limit": limit, "have": counts.four_deckers},
        )
    if ship_class in BIG_CLASSES and not within_quota(ruleset, navy=navy, year=year, counts=after):
        pct = ruleset.quota_percent(navy, year)
        period = period_label(ruleset, year)
        what = SHIP_CLASS_NAMES.get(ship_class, ship_class).lower()
        raise ConstructionRefused(
            "quota",
            f"1st/2nd-rate quota (rules §1): in {period} at most {pct}% of {nation_name}'s ships of the "
            f"line may be 1st rates, 2nd rates or four-deckers. With this {what} it would have "
            f"{after.big} of {after.sol}: 100×{after.big}={100 * after.big} > {pct}×{after.sol}="
            f"{pct * after.sol}. No 1st, 2nd rate or four-decker may be laid down until the navy is back "
            "within quota; 3rd rates and smaller ships may be laid down (each new ship of the line "
            "raises the quota).",
            numbers={"limit": pct, "big": after.big, "sol": after.sol},
        )


def check_lay_down(
    ruleset: Ruleset,
    *,
    navy: str,
    nation_name: str,
    year: int,
    ship_class: str,
    counts: NavyCounts,
    available_ep: int,
) -> int:
    """Check one lay-down against §1; return its cost in EP or raise :class:`ConstructionRefused`.

    ``counts`` already include the nation's other lay-downs being committed with this one;
    ``available_ep`` is the treasury less their cost. Limits are checked before money so that the
    error names the rule a player cannot fix by waiting for income.
    """
    check_limits(ruleset, navy=navy, nation_name=nation_name, year=year, ship_class=ship_class, counts=counts)
    cost = ruleset.ship_cost[ship_class]
    if cost > available_ep:
        raise ConstructionRefused(
            "treasury",
            f"Not enough EP (rules §1–§2): a {SHIP_CLASS_NAMES.get(ship_class, ship_class).lower()} costs {cost} EP "
            f"and {nation_name} has "
            f"{available_ep} EP available (treasury less this turn's other lay-downs).",
            numbers={"cost": cost, "available": available_ep},
        )
    return cost


def build_turns(ruleset: Ruleset, ship_class: str) -> int:
    return ruleset.ship_build_turns[ship_class]
