"""The 1805 scenario data file, checked as data (no database): campaign/scenarios/europe-1805.json.

Each test names the rule it holds the file to: the issue's acceptance list, RULES.md §0 (default
crews, admirals), §1 (classes, quota, four-deckers, build turns), §4 (zone types, port capacity,
blockades, own or allied ports), §7 (ports) and §10 (the 1805 relations).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any

import pytest

from campaign.scenarios import build_europe_1805
from rules.ruleset import BIG_CLASSES, DEFAULT_RULESET, GRADES, SHIP_CLASSES, SOL_CLASSES, ZONE_TYPES

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "campaign" / "scenarios"
DATA: dict[str, Any] = json.loads((SCENARIO_DIR / "europe-1805.json").read_text(encoding="utf-8"))

NATIONS = {n["code"]: n for n in DATA["nations"]}
ZONES = {z["key"]: z for z in DATA["sea_zones"]}
PORTS = {p["key"]: p for p in DATA["ports"]}
FLEETS = DATA["fleets"]
BUILDING = DATA["building"]
ADMIRALS = DATA["admirals"]

#: The issue: "GB about 136, FR 41, ES 40, RU 47, NL 15, DK 20", checked within ±3.
SOL_TARGETS = {"GB": 136, "FR": 41, "ES": 40, "RU": 47, "NL": 15, "DK": 20}
SOL_TOLERANCE = 3
#: RULES.md §0: "1805: GB B; US, DK C; FR, RU, NL, SE D; ES, PT, NA E; OT, EG F".
DEFAULT_CREWS = {
    "GB": "B",
    "US": "C",
    "DK": "C",
    "FR": "D",
    "RU": "D",
    "NL": "D",
    "SE": "D",
    "ES": "E",
    "PT": "E",
    "NA": "E",
    "OT": "F",
}
KEY_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,48}$")  # ports.models.key_validator


def relation(a: str, b: str) -> str:
    """RULES.md §10: every pair not listed is at peace."""
    for r in DATA["relations"]:
        if {r["a"], r["b"]} == {a, b}:
            return str(r["state"])
    return "peace"


def friendly(a: str, b: str) -> bool:
    return a == b or relation(a, b) == "alliance"


def all_ships() -> list[tuple[str, dict[str, Any]]]:
    """(nation, ship) for every ship afloat in a fleet and every keel on the stocks."""
    out = [(f["nation"], s) for f in FLEETS for s in f["ships"]]
    out += [(b["nation"], b) for b in BUILDING]
    return out


def count_by_nation(classes: frozenset[str] | set[str]) -> Counter[str]:
    return Counter(nation for nation, s in all_ships() if s["class"] in classes)


def fleet(nation: str, name: str) -> dict[str, Any]:
    (found,) = [f for f in FLEETS if f["nation"] == nation and f["name"] == name]
    return found


# --- The file and its generator -----------------------------------------------------------------


def test_the_generator_reproduces_the_committed_file_exactly() -> None:
    """The JSON is the product; build_europe_1805.py must rebuild it byte for byte."""
    built = build_europe_1805.render(build_europe_1805.build())
    assert built == (SCENARIO_DIR / "europe-1805.json").read_text(encoding="utf-8")


def test_it_names_only_ships_of_the_source_list_and_marks_every_other_as_unnamed() -> None:
    """data/README.md: complete a short navy "with clearly marked unnamed ships ... never invented names"."""
    with (SCENARIO_DIR / "sources" / "ships-1805.csv").open(encoding="utf-8", newline="") as fh:
        source = {(r["navy"], r["name"]): r for r in csv.DictReader(fh)}
    unnamed = re.compile(r"^(British|Spanish|Russian|Dutch|Ottoman|Danish) [\w]+ \(unnamed\) \d+$")
    for nation, ship in all_ships():
        if "(unnamed)" in ship["name"]:
            assert unnamed.match(ship["name"]), ship["name"]
            assert ship["source"].startswith("unnamed:"), ship["name"]
        else:
            row = source.get((nation, ship["name"]))
            assert row is not None, f"{nation} {ship['name']!r} is not in the source list"
            assert ship["class"] == row["class"], ship["name"]
            assert ship["source"] == row["source"], ship["name"]


def test_ships_keep_the_source_status_in_ordinary_afloat_or_building() -> None:
    with (SCENARIO_DIR / "sources" / "ships-1805.csv").open(encoding="utf-8", newline="") as fh:
        status = {(r["navy"], r["name"]): r["status_1805"] for r in csv.DictReader(fh)}
    for f in FLEETS:
        for s in f["ships"]:
            expected = status.get((f["nation"], s["name"]))
            if expected is not None:
                assert expected != "building", s["name"]
                assert s["in_ordinary"] == (expected == "in_ordinary"), s["name"]
    for b in BUILDING:
        assert status[(b["nation"], b["name"])] == "building", b["name"]


def test_names_fit_the_database_columns() -> None:
    """Ship and fleet names are CharField(80), sources CharField(200), keys key_validator."""
    for _, s in all_ships():
        assert len(s["name"]) <= 80
        assert len(s["source"]) <= 200, s["name"]
    for f in FLEETS:
        assert len(f["name"]) <= 80
    for key in [*ZONES, *PORTS]:
        assert KEY_RE.match(key), key


def test_the_loader_accepts_the_file() -> None:
    """The loader's own validation (campaign.scenarios.loading.scenario_validate) passes; it needs no database."""
    from campaign.scenarios.loading import scenario_validate

    scenario_validate(DATA)


# --- Header, nations, relations -----------------------------------------------------------------


def test_it_opens_in_spring_1805() -> None:
    assert (DATA["slug"], DATA["name"], DATA["year"], DATA["season"]) == ("europe-1805", "Europe 1805", 1805, "spring")


def test_it_has_the_naval_powers_of_1805_with_their_default_crews() -> None:
    """RULES.md §0 default crew grades; the issue's eleven nations at least."""
    assert set(DEFAULT_CREWS) <= set(NATIONS)
    assert len(NATIONS) == len(DATA["nations"])
    for code, crew in DEFAULT_CREWS.items():
        assert NATIONS[code]["crew"] == crew, code
        assert NATIONS[code]["navy"] == code


def test_france_spain_and_the_netherlands_are_allied_and_at_war_with_britain_and_the_rest_at_peace() -> None:
    """RULES.md §10: "Scenario 1805: FR, ES and NL allied and at war with GB; the rest at peace"."""
    pairs = [frozenset((r["a"], r["b"])) for r in DATA["relations"]]
    assert len(pairs) == len(set(pairs)), "a pair is listed twice"
    for r in DATA["relations"]:
        assert r["a"] in NATIONS and r["b"] in NATIONS and r["a"] != r["b"]
        assert r["state"] in ("war", "peace", "alliance")
    codes = sorted(NATIONS)
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            pair = {a, b}
            if "GB" in pair and pair & {"FR", "ES", "NL"}:
                expected = "war"
            elif pair <= {"FR", "ES", "NL"}:
                expected = "alliance"
            else:
                expected = "peace"
            assert relation(a, b) == expected, (a, b)


# --- Sea zones ----------------------------------------------------------------------------------


def test_it_has_35_to_45_sea_zones_with_unique_keys_and_names_and_known_types() -> None:
    assert 35 <= len(ZONES) <= 45
    assert len(ZONES) == len(DATA["sea_zones"])
    assert len({z["name"] for z in DATA["sea_zones"]}) == len(ZONES)
    for z in DATA["sea_zones"]:
        assert z["type"] in ZONE_TYPES, z["key"]


def test_zone_points_lie_in_the_1000_by_700_map() -> None:
    for item in [*DATA["sea_zones"], *DATA["ports"]]:
        assert isinstance(item["x"], int) and isinstance(item["y"], int)
        assert 0 <= item["x"] <= 1000 and 0 <= item["y"] <= 700, item["key"]


def test_the_map_keeps_europe_the_right_way_round() -> None:
    """North up, west left: a few checks that the coordinates were not mirrored."""
    z = ZONES
    assert z["western-approaches"]["x"] < z["southern-north-sea"]["x"] < z["gulf-of-finland"]["x"]
    assert z["gulf-of-finland"]["y"] < z["southern-baltic"]["y"] < z["gulf-of-lion"]["y"] < z["levant"]["y"]
    assert z["strait-of-gibraltar"]["x"] < z["tyrrhenian-sea"]["x"] < z["aegean-sea"]["x"] < z["black-sea-east"]["x"]


def test_adjacency_is_symmetric_without_self_loops_or_repeats() -> None:
    for key, z in ZONES.items():
        assert key not in z["adjacent"]
        assert len(z["adjacent"]) == len(set(z["adjacent"])), key
        for other in z["adjacent"]:
            assert other in ZONES, (key, other)
            assert key in ZONES[other]["adjacent"], f"{key} -> {other} is one-way"


def test_the_sea_zone_graph_is_connected() -> None:
    start = next(iter(ZONES))
    seen, queue = {start}, deque([start])
    while queue:
        for other in ZONES[queue.popleft()]["adjacent"]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    assert seen == set(ZONES)


@pytest.mark.parametrize(
    "key",
    [
        "western-approaches",
        "channel-west",
        "channel-east",
        "southern-north-sea",
        "northern-north-sea",
        "southern-baltic",
        "gulf-of-finland",
        "bay-of-biscay",
        "galicia",
        "coast-of-portugal",
        "gulf-of-cadiz",
        "balearic-sea",
        "gulf-of-lion",
        "tyrrhenian-sea",
        "adriatic",
        "ionian-sea",
        "aegean-sea",
        "levant",
        "black-sea-west",
        "black-sea-north",
    ],
)
def test_it_covers_the_waters_the_issue_names(key: str) -> None:
    assert key in ZONES


@pytest.mark.parametrize("key", ["strait-of-gibraltar", "oresund", "great-belt", "dardanelles", "bosporus"])
def test_the_straits_are_narrows(key: str) -> None:
    """The issue: "Straits of Gibraltar, Øresund/Belts, Dardanelles/Bosporus as narrows"."""
    assert ZONES[key]["type"] == "narrows"


def test_the_black_sea_is_reached_only_through_the_dardanelles_and_the_bosporus() -> None:
    assert ZONES["bosporus"]["adjacent"] == ["sea-of-marmara", "black-sea-west"]
    assert sorted(ZONES["sea-of-marmara"]["adjacent"]) == ["bosporus", "dardanelles"]


def test_the_baltic_is_reached_only_through_the_sound_and_the_belts() -> None:
    baltic = {"western-baltic", "southern-baltic", "central-baltic", "gulf-of-finland", "oresund", "great-belt"}
    for key in baltic - {"oresund", "great-belt"}:
        assert set(ZONES[key]["adjacent"]) <= baltic, key


# --- Ports --------------------------------------------------------------------------------------


def test_it_has_35_or_more_ports_each_on_an_existing_zone_with_an_owner() -> None:
    assert len(PORTS) >= 35
    assert len(PORTS) == len(DATA["ports"])
    assert len({p["name"] for p in DATA["ports"]}) == len(PORTS)
    for p in DATA["ports"]:
        assert p["sea_zone"] in ZONES, p["key"]
        assert p["owner"] in NATIONS, p["key"]
        assert p["fortification"] >= 1 and p["capacity"] >= 1, p["key"]
        assert p["commander"] is None or p["commander"] in GRADES, p["key"]
        assert 0 <= p["siege_trains"] <= p["garrison"], p["key"]


def test_gibraltar_is_the_rock_with_ff_3_and_alexandria_is_ottoman_with_ff_3() -> None:
    """The issue: "Gibraltar 3, Alexandria 3"; seed 000: Alexandria "a 3/3"; only the Rock is flagged."""
    gib, alex = PORTS["gibraltar"], PORTS["alexandria"]
    assert (gib["owner"], gib["fortification"], gib["gibraltar"]) == ("GB", 3, True)
    assert (alex["owner"], alex["fortification"], alex["capacity"]) == ("OT", 3, 3)
    assert [p["key"] for p in DATA["ports"] if p["gibraltar"]] == ["gibraltar"]


@pytest.mark.parametrize(
    ("key", "owner"),
    [
        ("portsmouth", "GB"),
        ("plymouth", "GB"),
        ("chatham", "GB"),
        ("brest", "FR"),
        ("toulon", "FR"),
        ("rochefort", "FR"),
        ("ferrol", "ES"),
        ("cadiz", "ES"),
        ("cartagena", "ES"),
        ("kronstadt", "RU"),
        ("karlskrona", "SE"),
        ("copenhagen", "DK"),
        ("constantinople", "OT"),
        ("sevastopol", "RU"),
        ("nikolaev", "RU"),
        ("lisbon", "PT"),
        ("texel", "NL"),
    ],
)
def test_the_naval_arsenals_have_dockyards(key: str, owner: str) -> None:
    assert PORTS[key]["owner"] == owner
    assert PORTS[key]["dockyard"] is True


def test_garrisons_are_one_to_five_units_with_five_on_the_rock() -> None:
    for p in DATA["ports"]:
        assert 1 <= p["garrison"] <= 5, p["key"]
    assert PORTS["gibraltar"]["garrison"] == 5


def test_the_major_naval_bases_have_batteries() -> None:
    for key in ("portsmouth", "plymouth", "brest", "toulon", "cadiz", "ferrol", "kronstadt", "copenhagen"):
        assert PORTS[key]["batteries"] >= 1, key


def test_ports_hold_at_most_capacity_times_ten_ships() -> None:
    """RULES.md §4: "At most capacity × 10 ships (afloat, all nations, building excluded)"."""
    afloat: Counter[str] = Counter()
    for f in FLEETS:
        if f["port"] is not None:
            afloat[f["port"]] += len(f["ships"])
    for key, n in afloat.items():
        assert n <= PORTS[key]["capacity"] * 10, f"{key}: {n} ships"


# --- Fleets -------------------------------------------------------------------------------------


def test_fleet_names_are_unique_per_nation_and_fleets_are_not_empty() -> None:
    keys = [(f["nation"], f["name"]) for f in FLEETS]
    assert len(keys) == len(set(keys))
    for f in FLEETS:
        assert f["nation"] in NATIONS
        assert f["ships"], f["name"]


def test_a_fleet_in_port_lies_in_that_ports_zone_and_the_port_is_own_or_allied() -> None:
    """RULES.md §4: "Fleets never enter the port of a nation that is neither own nor allied"."""
    for f in FLEETS:
        assert f["sea_zone"] in ZONES, f["name"]
        if f["port"] is not None:
            port = PORTS[f["port"]]
            assert port["sea_zone"] == f["sea_zone"], f["name"]
            assert friendly(f["nation"], port["owner"]), f["name"]


def test_a_blockade_names_an_enemy_port_in_the_zone_of_a_fleet_at_sea() -> None:
    for f in FLEETS:
        assert f["posture"] in ("seek", "avoid", "blockade"), f["name"]
        if f["posture"] == "blockade":
            port = PORTS[f["blockade_port"]]
            assert f["port"] is None, f["name"]
            assert port["sea_zone"] == f["sea_zone"], f["name"]
            assert relation(f["nation"], port["owner"]) == "war", f["name"]
        else:
            assert f["blockade_port"] is None, f["name"]


def test_ships_in_ordinary_are_in_fleets_in_port() -> None:
    """RULES.md §2: "A ship in ordinary cannot leave port"."""
    for f in FLEETS:
        if any(s["in_ordinary"] for s in f["ships"]):
            assert f["port"] is not None, f["name"]


def test_every_ship_has_a_known_class_and_crew() -> None:
    for _, s in all_ships():
        assert s["class"] in SHIP_CLASSES, s["name"]
    for f in FLEETS:
        for s in f["ships"]:
            assert s["crew"] is None or s["crew"] in GRADES, s["name"]
            assert isinstance(s["in_ordinary"], bool)


def test_ship_names_are_unique_within_a_nation() -> None:
    names = Counter((nation, s["name"]) for nation, s in all_ships())
    assert [k for k, n in names.items() if n > 1] == []


@pytest.mark.parametrize(("navy", "target"), sorted(SOL_TARGETS.items()))
def test_ships_of_the_line_match_the_1805_total(navy: str, target: int) -> None:
    """SOL = ships of the line in fleets (in ordinary included) plus keels building."""
    sol = count_by_nation(SOL_CLASSES)[navy]
    assert abs(sol - target) <= SOL_TOLERANCE, f"{navy}: {sol} SOL against {target}"


def test_the_minor_navies_have_their_few_ships_of_the_line() -> None:
    """The brief: "OT ~15, SE ~12, PT ~12, NA 2, US 0"."""
    sol = count_by_nation(SOL_CLASSES)
    assert 12 <= sol["OT"] <= 18
    assert 10 <= sol["SE"] <= 14
    assert 12 <= sol["PT"] <= 16
    assert sol["NA"] == 2
    assert sol["US"] == 0


def test_the_big_navies_have_frigates_and_smaller_ships_too() -> None:
    light = count_by_nation({"heavy-frigate", "frigate", "sloop", "brig"})
    for navy in ("GB", "FR", "ES", "NL", "SE", "PT", "US"):
        assert light[navy] >= 3, navy
    assert light["GB"] > 50


def test_spain_has_the_only_four_decker_the_santisima_trinidad() -> None:
    """The issue: "one Spanish four-decker (Santísima Trinidad)"; RULES.md §1: at most one per nation."""
    four = [(nation, s["name"]) for nation, s in all_ships() if s["class"] == "four-decker"]
    assert four == [("ES", "Santisima Trinidad")]
    assert "Santisima Trinidad" in [s["name"] for s in fleet("ES", "Cadiz Squadron")["ships"]]


@pytest.mark.parametrize("navy", sorted(DEFAULT_CREWS))
def test_every_nation_is_within_its_first_and_second_rate_quota(navy: str) -> None:
    """RULES.md §1: "100 × big ≤ pct × sol", building and in-ordinary ships counted, 1800–1808 column."""
    big = count_by_nation(BIG_CLASSES)[navy]
    sol = count_by_nation(SOL_CLASSES)[navy]
    pct = DEFAULT_RULESET.quota_percent(navy, DATA["year"])
    assert 100 * big <= pct * sol, f"{navy}: 100×{big} > {pct}×{sol}"


def test_the_ottomans_keep_one_three_decker_to_stay_within_ten_percent() -> None:
    """Two Ottoman three-deckers would need 20 SOL at 10%; the scenario keeps Mesudiye only."""
    big = [s["name"] for nation, s in all_ships() if nation == "OT" and s["class"] in BIG_CLASSES]
    assert big == ["Mesudiye"]


# --- Keels on the stocks ------------------------------------------------------------------------


def test_keels_lie_in_an_own_port_with_a_dockyard_within_the_build_time() -> None:
    """RULES.md §1: lay down only "in an own port with a dockyard"; turns left 1..the class's build turns."""
    for b in BUILDING:
        port = PORTS[b["port"]]
        assert port["owner"] == b["nation"] and port["dockyard"], b["name"]
        assert 1 <= b["turns_left"] <= DEFAULT_RULESET.ship_build_turns[b["class"]], b["name"]


# --- Admirals -----------------------------------------------------------------------------------


def test_each_admiral_commands_one_own_fleet_or_waits_in_an_own_port() -> None:
    """RULES.md §0: "a fleet has at most one"; "unassigned admirals wait in a port"."""
    commanded: Counter[tuple[str, str]] = Counter()
    assert len({a["name"] for a in ADMIRALS}) == len(ADMIRALS)
    for a in ADMIRALS:
        assert a["grade"] in GRADES, a["name"]
        assert a["nation"] in NATIONS, a["name"]
        if a.get("fleet") is not None:
            assert a.get("port") is None, a["name"]
            fleet(a["nation"], a["fleet"])  # exists, of his own nation
            commanded[(a["nation"], a["fleet"])] += 1
        else:
            assert PORTS[a["port"]]["owner"] == a["nation"], a["name"]
    assert [k for k, n in commanded.items() if n > 1] == []


def test_nelson_is_graded_a_and_villeneuve_f() -> None:
    grades = {a["name"]: a["grade"] for a in ADMIRALS}
    assert grades["Horatio Nelson"] == "A"
    assert grades["Pierre-Charles Villeneuve"] == "F"
    assert [name for name, g in grades.items() if g == "A"] == ["Horatio Nelson"]


def test_every_navy_with_five_or_more_ships_of_the_line_has_an_admiral() -> None:
    """Naples (two 74s) has none in the sources; every larger navy has at least one."""
    navies = {a["nation"] for a in ADMIRALS}
    for code, n in count_by_nation(SOL_CLASSES).items():
        if n >= 5:
            assert code in navies, code


# --- Where they were in spring 1805 -------------------------------------------------------------

ADMIRAL_STATIONS = [
    # admiral, zone, port (None = at sea), blockaded port
    ("Horatio Nelson", "gulf-of-lion", None, "toulon"),
    ("William Cornwallis", "iroise", None, "brest"),
    ("Sir Robert Calder", "galicia", None, "ferrol"),
    ("Sir John Orde", "gulf-of-cadiz", None, "cadiz"),
    ("Charles Stirling", "basque-roads", None, "rochefort"),
    ("Lord Keith (George Elphinstone)", "dover-strait", None, "boulogne"),
    ("Pierre-Charles Villeneuve", "gulf-of-lion", "toulon", None),
    ("Honore Ganteaume", "iroise", "brest", None),
    ("Edouard-Thomas Burgues de Missiessy", "west-indies", "martinique", None),
    ("Antoine-Louis Gourdon", "galicia", "ferrol", None),
    ("Federico Gravina", "gulf-of-cadiz", "cadiz", None),
    ("Domingo Perez de Grandallana", "galicia", "ferrol", None),
    ("Jose Justo Salcedo", "alboran-sea", "cartagena", None),
    ("Pyotr Khanykov", "gulf-of-finland", "kronstadt", None),
    ("Dmitry Senyavin", "gulf-of-finland", "reval", None),
    ("Aleksey Greig", "ionian-sea", "corfu", None),
    ("Jean-Baptiste de Traversay", "black-sea-north", "sevastopol", None),
    ("Seydi Ali Pasha", "sea-of-marmara", "constantinople", None),
    ("Jan Willem de Winter", "southern-north-sea", "texel", None),
    ("Rudolf Cederstrom", "southern-baltic", "karlskrona", None),
    ("Manuel da Cunha Souto Maior", "coast-of-portugal", "lisbon", None),
    ("Samuel Barron", "strait-of-sicily", None, None),
]


@pytest.mark.parametrize(("admiral", "zone", "port", "blockaded"), ADMIRAL_STATIONS)
def test_the_fleets_start_where_they_were_in_spring_1805(
    admiral: str, zone: str, port: str | None, blockaded: str | None
) -> None:
    (a,) = [a for a in ADMIRALS if a["name"] == admiral]
    f = fleet(a["nation"], a["fleet"])
    assert (f["sea_zone"], f["port"], f["blockade_port"]) == (zone, port, blockaded)
    assert f["posture"] == ("blockade" if blockaded else "seek")


def test_the_danes_are_laid_up_at_copenhagen() -> None:
    danish = [f for f in FLEETS if f["nation"] == "DK"]
    assert {f["port"] for f in danish} == {"copenhagen"}
    ships = [s for f in danish for s in f["ships"]]
    assert sum(s["in_ordinary"] for s in ships) >= len(ships) - 1


def test_the_neapolitans_are_at_naples() -> None:
    assert [(f["name"], f["port"]) for f in FLEETS if f["nation"] == "NA"] == [("Neapolitan Squadron", "naples")]


def test_the_american_squadron_is_at_sea_in_the_mediterranean_and_only_laid_up_frigates_at_home() -> None:
    for f in FLEETS:
        if f["nation"] != "US":
            continue
        if f["port"] is None:
            assert f["sea_zone"] == "strait-of-sicily"
        else:
            assert all(s["in_ordinary"] for s in f["ships"]), f["name"]


def test_nelsons_fleet_is_led_by_the_victory() -> None:
    assert fleet("GB", "Mediterranean Fleet")["ships"][0]["name"] == "Victory"


def test_the_blockades_face_the_fleets_they_watch() -> None:
    """Every blockaded port holds an enemy fleet, except Boulogne (the invasion flotilla, not modelled)."""
    in_port: dict[str, set[str]] = defaultdict(set)
    for f in FLEETS:
        if f["port"] is not None:
            in_port[f["port"]].add(f["nation"])
    for f in FLEETS:
        if f["posture"] == "blockade" and f["blockade_port"] != "boulogne":
            assert any(relation(f["nation"], n) == "war" for n in in_port[f["blockade_port"]]), f["name"]
