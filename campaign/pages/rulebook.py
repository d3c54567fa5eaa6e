"""The rules page: the game's rules told to players, with every number this campaign's own.

The text is ours, written for players; each number in it is a placeholder (``{battle.max_rounds}``)
filled from the campaign's ruleset (:mod:`rules.ruleset`), so a GM's house change shows wherever the
number is used, marked against the rulebook's default. Every setting of the ruleset also appears once
in its section's table (grades, nationalities, ship classes, quotas, then the rest by the section its
help names), so nothing a GM can change is left out.

Sections have stable anchors (:data:`ANCHORS`): the texts that cite a rule ("rules §4") link to
``/campaigns/<slug>/rules/#at-sea`` through :func:`rules_section_url`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from campaign.pages.labels import CLASS_LABELS
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

#: Section number → its anchor on the rules page. Anchors are part of links in stored reports and
#: mail: never rename one.
ANCHORS: dict[int, str] = {
    0: "dice-grades-nations",
    1: "ships",
    2: "economy",
    3: "turns-and-orders",
    4: "at-sea",
    5: "battle",
    6: "running-the-guns",
    7: "ports-and-sieges",
    8: "supply-and-storms",
    9: "fireships",
    10: "diplomacy",
}

TITLES: dict[int, str] = {
    0: "Dice, grades and nations",
    1: "Ships, costs and quotas",
    2: "Money: income, upkeep, repairs",
    3: "Turns and orders",
    4: "At sea: movement, sighting, blockades",
    5: "Battle at sea",
    6: "Running the guns and coastal forts",
    7: "Ports, land units and sieges",
    8: "Supply, storms and attrition",
    9: "Fireships",
    10: "Diplomacy",
}

# The players' text, one list of paragraphs per section. ``{key}`` is the campaign's value of that
# setting; ``{key:signed}`` prints it with its sign (+1, −1, 0).
_TEXT: dict[int, list[str]] = {
    0: [
        "Combat uses ten-sided dice (d10). A d10 with modifiers never goes below 1 or above 10, and a "
        "natural 1 always misses while a natural 10 always sinks. Only the firing side's modifiers count. "
        "Six-sided dice (d6) are added up as they fall, with no limit.",
        "Admirals and crews are graded from A (best) to H (worst). The grade is a modifier to initiative, "
        "morale, boarding, holding together and the weather gauge, and an admiral fires extra d10s each "
        "round from his flagship. Each nation's navy also has its own modifiers for initiative, gunnery "
        "and boarding; a navy not listed has none.",
        "A fleet has at most one admiral. An appointment takes effect at the start of movement when the "
        "admiral and the fleet are in the same place. An admiral whose flagship is sunk or taken in battle "
        "is lost; if the flagship is lost any other way he moves to the next ship. New ships get their "
        "nation's crew grade, prizes their captor's.",
    ],
    1: [
        "Each class has a cost in EP and a number of turns on the stocks. Ships of the line are the "
        "first, second and third rates and four-deckers. A ship taken from another nation counts as "
        "captured until its own nation takes it back.",
        "Quota: of the ships of the line a nation owns (building, laid up and captured ones included, "
        "sunk ones not), only a share may be first rates, second rates or four-deckers. The check is made "
        "when such a ship is laid down, counting the new one; the year of the turn picks the column. A "
        "nation may own no more four-deckers than {quota.four_decker_limit}, afloat or building, captured "
        "ones not counted. Captured ships can always be used, whatever the limits.",
        "Laying down is an order, paid in phase 2, in an own port with a dockyard that is not besieged and "
        "was not taken this turn or last. Work goes on under blockade. There is no cancelling and no "
        "refund. When its turns run out the ship is launched into a fleet of its nation in that port, "
        "free to sail that turn.",
    ],
    2: [
        "Your treasury is in whole EP and never goes below zero; every change is a line in your ledger. "
        "In phase 9 you first receive income: your base income plus the value of each of your ports that "
        "is not besieged, not blockaded against you and not taken this turn or last. Then you pay upkeep: "
        "the EP cost of all your commissioned ships added up, divided by {economy.upkeep_divisor} and "
        "rounded up. If you cannot pay it all, every ship of yours is out of supply until the end of the "
        "next turn.",
        "A ship laid up (in ordinary) pays no upkeep but cannot leave port. Laying up and recommissioning "
        "take effect in phase 8 for a ship in an own port.",
        "Repair is a standing order for a damaged or disabled ship in an own port with a dockyard that is "
        "not blockaded and was not taken this turn or last. It costs {economy.repair_damaged_pct}% of the "
        "class's EP for a damaged ship and {economy.repair_disabled_pct}% for a disabled one, rounded up. "
        "A damaged ship is ready at once; a disabled ship becomes damaged, and ready a turn later if it "
        "stays and the port is not blockaded.",
        "Land units cost {economy.raise_land_unit_cost} EP, a siege train "
        "{economy.raise_siege_train_cost} EP. When the campaign was set up, each port was worth "
        "{economy.port_ep_value} EP ({economy.port_ep_value_dockyard} EP with a dockyard).",
    ],
    3: [
        "A turn is a season: Winter (December–February, which opens the year), Spring, Summer, High "
        "Summer and Autumn. In a gale season sighting is harder and storms more frequent.",
        "A new turn's deadline is {calendar.turn_length_days} days after the last turn was resolved, "
        "rounded up to {calendar.deadline_hour_utc}:00 UTC. A turn is resolved at its deadline, or "
        "earlier as soon as every nation with a player is ready.",
        "Orders are drafts until the deadline. Posture, line order, battle orders, repairs and laying up "
        "stand until you change them; every other order is for one turn. Orders are carried out phase by "
        "phase; within a phase, nations in turn and each nation's orders in the order you list them — so "
        "the order of your list matters when two orders compete (for money, or for room in a port).",
        "The phases: 1 diplomacy; 2 building and raising troops; 3 fleets formed and admirals appointed, "
        "troops embarked, then movement with sighting; 4 battles, sallies and blockades; 5 garrison guns, "
        "fireships, running the guns; 6 landings and sieges; 7 storms, supply and attrition; 8 repairs and "
        "laying up; 9 income and upkeep, ports taken change hands; 10 the next turn opens.",
        "You see your own and your allies' forces, enemies you sighted or fought this turn, the ships in "
        "a port you blockade, every port's owner, sieges and blockades, and all relations between nations.",
    ],
    4: [
        "Every port lies in one sea zone. Ships inside a port are not at sea: they are not sighted or "
        "fought at sea and storms do not touch them. A port holds at most "
        "{movement.port_ships_per_capacity} ships per point of its capacity.",
        "A move is a path of up to {movement.max_steps} steps ({movement.max_steps_with_disabled} if the "
        "fleet has a disabled ship). A step goes to a neighbouring zone, out of a port into its zone, or "
        "into an own or allied port of the zone you are in. All fleets move at once, step by step; after "
        "each step, fleets of nations at war in the same zone may meet.",
        "Posture: seek battle (the default), avoid battle, or blockade a port (which seeks too). Each "
        "seeking side rolls a d6 to sight the enemy: {sighting.narrows}+ in narrows, {sighting.coastal}+ "
        "on a coast, {sighting.open}+ on the open sea, {sighting.ocean}+ on the ocean, and "
        "{sighting.port_move}+ against a fleet entering or leaving a port. Modifiers: "
        "{sighting.light_ships_bonus:signed} with at least {sighting.light_ships_needed} frigates, sloops "
        "or brigs at sea there, {sighting.no_light_ships:signed} with none; "
        "{sighting.large_target_bonus:signed} against more than {sighting.large_target_ships} ships or a "
        "convoy; {sighting.admiral_a_bonus:signed} for a grade A admiral, {sighting.admiral_gh_penalty:signed} "
        "for G or H; {sighting.gale_penalty:signed} in a gale season. A 6 always sights, a 1 never does.",
        "If both sides seek and either sights, they fight. If only one seeks and sights, it tries to "
        "intercept: both roll a d6 plus admiral grade and initiative modifier "
        "({intercept.out_of_supply:signed} out of supply); the interceptor wins ties. Each battle day "
        "starts with the weather gauge: a d6 each, {gauge.british_bonus:signed} for the British, "
        "{gauge.interceptor_bonus:signed} for the side that intercepted; the winner gets "
        "{gauge.initiative_bonus:signed} initiative all day.",
        "Ships of the line and fourth rates form the line of battle; frigates and smaller ships only when "
        "a side has nothing bigger, transports never. Ships outside the line share their side's fate. A "
        "side that retires, breaks or evades goes into the port or zone its battle orders name (by "
        "default towards its nearest own port); the winner stays.",
        "A fleet ordered to blockade a port blockades it if, at the end of phase 4, it is at sea in the "
        "port's zone with at least one ship of the line and was not driven off. A blockade cuts the port's "
        "income, supply and repairs for the nations it is against. A storm that hits at least "
        "{storm.blockade_lift_pct}% of the blockading fleet lifts it. A fleet blockaded in port may sally "
        "to fight the blockaders without a sighting roll.",
        "Next to a besieged port, a fleet at sea may attack enemy besiegers' ships inside: sighting at "
        "{besieged_port.sighting_bonus:signed}, catching them at anchor on {besieged_port.at_anchor_on}+, "
        "intercept {besieged_port.intercept_bonus:signed} unless they sally, weather gauge "
        "{besieged_port.gauge_bonus:signed} for the fleet at sea.",
    ],
    5: [
        "A battle is fought by days of up to {battle.max_rounds} rounds, at most {battle.max_days} days in "
        "one zone in a turn. Each round the ships in line face the enemy ship in the same place of the "
        "enemy line; a longer line puts its extra ships on the enemy's leading ships, at most "
        "{battle.max_attackers_per_ship} on one, and keeps the rest in reserve.",
        "Initiative: a d6 each plus admiral grade, nationality, {battle.out_of_supply_initiative:signed} out "
        "of supply and the weather gauge. The winner fires first, ship by ship, then its admiral's extra "
        "dice; then the other side fires back with what is left. A side at anchor loses round 1's "
        "initiative and fires at {battle.at_anchor_penalty:signed}.",
        "Each d10 (plus crew grade and gunnery modifier): below {battle.chart_damaged} nothing; from "
        "{battle.chart_damaged} the target is damaged (a damaged ship is disabled); {battle.chart_boarding} "
        "boards — both roll a d6 plus crew grade and boarding modifier, the higher takes the other ship; "
        "from {battle.chart_disabled} disabled; from {battle.chart_sunk} sunk, and a d6 of "
        "{battle.explosion_on}+ makes it explode, giving the firer {battle.explosion_dice} more dice.",
        "Holding together: once a side has lost (sunk, taken or disabled) at least "
        "{battle.integrity_threshold_num}/{battle.integrity_threshold_den} of its ships of the day, it rolls "
        "a d6 after each round in which its losses grew, plus admiral grade and gunnery modifier, minus 1 "
        "per {battle.integrity_step_pct}% of losses above that, {battle.integrity_flagship_lost:signed} if "
        "its flagship is out, {battle.integrity_out_of_supply:signed} out of supply. {battle.integrity_hold}+ "
        "holds; {battle.integrity_retire} or more retires (each damaged ship leaving sinks on a d10 of "
        "{battle.towing_sunk_on}); less breaks, and its damaged ships are taken.",
        "At the end of the day the winner takes the loser's disabled ships. If both held, each side fights "
        "on or evades by its battle orders; a pursuer sights again at {sighting.pursuit_bonus:signed}.",
    ],
    6: [
        "A fleet that blockades a port, or won a battle in its zone this turn, may be ordered to run its "
        "guns and attack the enemy ships inside. The defender fires first: "
        "{guns.barrage_per_ff} dice per point of fortification (Gibraltar {guns.barrage_per_ff_gibraltar}), "
        "one per battery, and one per {guns.ships_per_barrage_die} of its ships in port. Fort dice fire at "
        "{guns.fort_modifier:signed}, and a hit that damages is followed by a d6: on "
        "{guns.hot_shot_on}+ hot shot disables the ship instead. Ships that run aground are taken by the port.",
        "Then the attackers fire at the ships in port as in a battle. The attacker stays another round "
        "while it has lost less than {guns.stay_loss_num}/{guns.stay_loss_den} of its ships, enemy ships "
        "are still fighting and rounds remain; then it withdraws to the next zone. Running the guns never "
        "takes the port. Coastal forts are the port's fortification (at Gibraltar "
        "×{guns.coastal_forts_gibraltar_multiplier}).",
    ],
    7: [
        "Land units are all alike. They sit in a port's garrison, ashore at a port (besieging it, or guests "
        "in an allied port) or aboard a transport, one each; they never march overland and cost no upkeep. "
        "They are raised in phase 2 in an own port that is not besieged, embarked at the start of phase 3 "
        "and landed in phase 6 at a port in the fleet's zone: own port into the garrison, allied as guests, "
        "enemy as besiegers, never at a neutral's port.",
        "A port with enemy units ashore is besieged. If the garrison is gone the port falls at once. "
        "Otherwise, when the besiegers are at least half the garrison ({siege.roll_ratio} × besiegers ≥ "
        "garrison; Gibraltar's garrison counts ×{siege.gibraltar_garrison_multiplier}), they roll a d10 "
        "minus the port's forts: {siege.superiority_2:signed} at two to one, {siege.superiority_3:signed} at "
        "three to one, {siege.superiority_4:signed} at four to one; {siege.per_turn_bonus:signed} per earlier "
        "turn of the siege (at most {siege.per_turn_max:signed}); {siege.blockaded_bonus:signed} if the port "
        "is blockaded, otherwise {siege.not_blockaded_penalty:signed}; {siege.siege_train_bonus:signed} with a "
        "siege train; {siege.commander_penalty:signed} against a garrison commander graded A to C.",
        "The result: {siege.besieger_lost_max} or less, a besieging unit is lost; up to {siege.nothing_max} "
        "nothing; up to {siege.garrison_lost_max} a garrison unit is lost; {siege.taken_exact} the port is "
        "taken; more, the port is taken and a besieging unit lost.",
        "A port taken changes hands after income at the end of the turn; the next turn it is settling (no "
        "guns, income, supply, repairs or building), and it works for its new owner the turn after. Every "
        "ship in it of a nation at war with the captor is taken.",
    ],
    8: [
        "Storms: in phase 7 each zone with ships at sea rolls a d6, and {storm.on}+ ({storm.on_gale}+ in a "
        "gale season) is a storm. Each ship at sea there rolls a d10: {storm.ship_damaged_or_lost} or less "
        "damages it (sinks it if it was already hit), up to {storm.ship_damaged} damages it.",
        "A fleet is in supply in an own or allied port (unless that port is both besieged and blockaded "
        "against it), within {supply.range_steps} zones of an own or allied port open to it, or if it left "
        "such a port this turn or in the {supply.left_port_turns} turns before. Out of supply a side fights "
        "worse and cannot repair.",
        "Attrition: each ship out of supply rolls a d10 and is damaged (or lost if already hit) on "
        "{attrition.ship_on} or less, or {attrition.ship_on_prolonged} or less once it has been out of supply "
        "for {attrition.prolonged_from_turn} turns in a row; a land unit out of supply is lost on "
        "{attrition.unit_on} or less ({attrition.unit_on_prolonged} later).",
    ],
    9: [
        "A fleet that may run the guns at a port may first send in its fireships; each is used up. If the "
        "port's guns are against it, a fort die ({fireship.fort_modifier:signed}) stops it on "
        "{fireship.fort_stops_on}+. A fireship that gets through rolls a d10 "
        "({fireship.big_fort_penalty:signed} against a fortification of {fireship.big_fort_ff} or more): "
        "from {fireship.damaged_min} its target is damaged, from {fireship.disabled_min} disabled, from "
        "{fireship.sunk_min} sunk.",
    ],
    10: [
        "Every pair of nations is at peace, at war or allied; changes take effect in phase 1 for the whole "
        "turn. Declaring war needs no answer and overrides any other order between the two that turn. "
        "Peace (from war) and alliance (from peace) take effect when the other nation makes the same "
        "offer, in the same turn or the next. Leaving an alliance gives peace.",
        "Allies may use each other's ports, count them for supply, land troops there as guests and fight "
        "on one side, but are never dragged into each other's wars.",
    ],
}

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
                paragraphs=[_fill(p, ruleset) for p in _TEXT[number]],
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
    return RulesPage(viewer=viewer, sections=rulebook_sections(ruleset), house_rules=_house_rules(ruleset))


def rules_section_url(slug: str, number: int) -> str:
    """Where rule section ``number`` of campaign ``slug`` is told (the page itself for an unknown one)."""
    url = reverse("campaign:rules", args=[slug])
    anchor = ANCHORS.get(number)
    return f"{url}#{anchor}" if anchor else url
