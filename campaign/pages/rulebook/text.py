"""The rules page's words: each section's title, stable anchor and text for players (RULES.md, retold).

Only words live here; :mod:`campaign.pages.rulebook.page` fills in the numbers and adds the tables. A
paragraph names a number by its setting, ``{battle.max_rounds}``, so the page shows the campaign's own
value (and the rulebook's beside a house change); ``{key:signed}`` prints it with its sign (+1, −1, 0).
Never write a number of the ruleset as a literal here.
"""

from __future__ import annotations

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
    11: "settled-readings",
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
    11: "Settled readings: where the rulebook was unclear",
}

#: The players' text, one list of paragraphs per section (placeholders as in the module docstring).
SECTION_TEXT: dict[int, list[str]] = {
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
    11: [
        "Where the source rulebooks are silent or can be read two ways, the umpire has settled how the "
        "game reads them. Each reading below is how this campaign plays.",
        "Starting money: a nation starts with twice the income it actually receives each turn — its base "
        "income (never below zero) plus its ports. Where a nation's ports alone are worth more than its "
        "target income, it starts with twice its ports' value. Ships of the line owned means every one not "
        "sunk: building, laid up and captured ones included.",
        "Keels in a port taken last turn: no new keel may be laid down there while the port settles, but "
        "keels already on its slips (taken over with the port) go on losing a build turn each phase 2. "
        "None is launched before the second turn after the capture; a keel finished while the port "
        "settles is launched then.",
        "Siege superiority is not added up: only the highest that applies counts — "
        "{siege.superiority_2:signed} at two to one, or {siege.superiority_3:signed} at three to one, or "
        "{siege.superiority_4:signed} at four to one.",
        "The siege d10's total is not limited to 1–10: the dice log shows it as it falls, below 1 or above 10.",
        "Running the guns at a port that holds no ship of a nation at war with you, and whose guns no such "
        'nation holds, is skipped and reported to you as "nothing to fight": no dice, no battle. An empty '
        "port whose guns are hostile is attacked as usual (its guns fire; there is no winner).",
        "Sides at sea: only the nations in the zone that are at war with another nation there take part. "
        "An ally at war with nobody present stays out of the battle, and its alliances do not count in "
        "forming the sides.",
        "The first side is the nation with the most ships of the line there and its allies that take part. "
        "The second side is built one nation at a time from the nations at war with any nation of the first "
        "side, the strongest first, each bringing its allies that take part; a nation allied to the first side "
        "or at war with one already in the second stays out. "
        "Nations left out who are at war with each other fight their own battle afterwards in the same "
        "zone; no nation fights more than one battle a day.",
        "Default retreat: a side leaving a battle goes by default one step along the shortest path towards "
        "its nearest own port outside the battle zone — never into a port in the battle zone. To withdraw "
        "into such a port, name it as your retreat port.",
        "Blockading the port of a nation you are at peace with: if no nation at war with your fleet owns the "
        "port or has ships or land units in it, there is no blockade — nothing is recorded or announced and "
        "your fleet sees nothing inside. The order stands and counts again at the end of each later phase "
        "4. A blockader sees only the ships of the nations it blockades the port against.",
        "Fireships go at the enemy ships in the port in line order as the attack begins (laid-up ships "
        "included, ships building not). If a fireship's target has already been sunk or taken, it goes at "
        "the next one still afloat in that list; with none left, the remaining fireships are spent for "
        "nothing.",
        "An admiral whose flagship ends the battle sunk or in enemy hands is lost. If the flagship is "
        "retaken, or abandoned by a captor that retired, broke or was beaten, he comes back (his extra "
        "dice still stop for the rest of that day from the moment it was taken).",
        "Prizes on a side of several nations: a ship taken by boarding flies the flag of the nation whose "
        "ship boarded it; ships a side takes as the winner (disabled ships, a breaking side's damaged ships, "
        "ships outside the line of a side that broke or was beaten) go to the side's leading nation. Each "
        "prize joins its nation's fleet in the zone — the side's lead fleet if that is its nation's, else "
        "that nation's fleet with the most ships of the line there (the older fleet on a tie) — in the "
        "condition it was taken in.",
        "Escorting transports (for the sighting bonus) means a side with transports and at least one other "
        "ship; a side of transports only escorts nothing.",
        "Sighting a side again after a sally: a pursuer sights at {sighting.pursuit_bonus:signed} against "
        "the zone's usual number; the easier {sighting.port_move}+ against fleets entering or leaving a "
        "port counts only in the movement step in which they did, not in a pursuit.",
        "Attacking enemy ships in a besieged port: the sighting roll needs {sighting.port_move}+ with every "
        "usual sighting modifier and {besieged_port.sighting_bonus:signed} (a 1 always fails, a 6 always "
        "sights); a total of {besieged_port.at_anchor_on} or more catches them at anchor.",
    ],
}

#: The changes of the rules that play differently from before, newest first: (topic, what changed).
#: Each applies to turns resolved after it; turns already played stand as they were.
CHANGES: list[tuple[str, str]] = [
    (
        "Several battles in one zone",
        "Nations left out of a zone's battle who are at war with each other now meet there afterwards, in "
        "the same step, and may fight their own battle (before, they stayed out of that zone for the rest "
        "of the turn).",
    ),
    (
        "Default retreat",
        "A side that leaves a battle by default no longer heads for one of its ports in the battle zone: it "
        "steps towards its nearest port outside the zone (before, a port in the zone counted as nearest and "
        "the retreat went to the neighbouring zone with the lowest key).",
    ),
    (
        "Keels in a captured port",
        "A keel on the slips of a port taken last turn is no longer launched while the port settles: it "
        "keeps losing build turns and is launched the turn after, when the port works again.",
    ),
    (
        "Sides at sea",
        "A nation at war with an ally of the strongest nation in the zone now fights on the second side, "
        "and that ally on the first (before, only nations at war with the strongest nation itself formed the "
        "second side, and such a fight did not happen).",
    ),
    (
        "Blockades",
        "A fleet on blockade at the port of a nation it is at peace with no longer blockades it, unless a "
        "nation at war with it owns the port or has ships or land units there; nothing is announced and the "
        "fleet sees nothing inside. A blockader sees only the ships of the nations it blockades the port "
        "against.",
    ),
    (
        "Prizes",
        "A ship taken by boarding now flies the flag of the nation whose ship boarded it (before, every "
        "prize took the flag of the side's leading fleet), and joins that nation's fleet in the zone.",
    ),
]
