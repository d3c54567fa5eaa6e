"""RULES.md §1 construction rules, checked without a database (rules.construction)."""

import pytest

from rules.construction import ConstructionRefused, NavyCounts, big_ships_allowed_now, check_lay_down, check_limits
from rules.ruleset import DEFAULT_RULESET, Ruleset


def lay_down(ship_class: str, counts: NavyCounts, *, navy: str = "GB", year: int = 1805, ep: int = 100) -> int:
    return check_lay_down(
        DEFAULT_RULESET, navy=navy, nation_name=navy, year=year, ship_class=ship_class, counts=counts, available_ep=ep
    )


def test_the_rules_example_allows_a_second_first_rate() -> None:
    """§1: "GB 1805, 10 SOL of which 1 first rate; laying down another first rate: 100×2=200 ≤ 20×11=220 →
    allowed."""
    assert lay_down("1st", NavyCounts(sol=10, big=1, four_deckers=0)) == 20


def test_the_rules_example_refuses_a_third_first_rate_naming_rule_period_and_numbers() -> None:
    """§1: "Then a third: 100×3=300 > 20×12=240 → refused, with an error that names the rule, the period, the
    numbers and what is allowed." """
    with pytest.raises(ConstructionRefused) as refused:
        lay_down("1st", NavyCounts(sol=11, big=2, four_deckers=0))
    message = refused.value.message
    assert refused.value.rule == "quota"
    assert "rules §1" in message and "quota" in message
    assert "1800–1808" in message
    assert "100×3=300 > 20×12=240" in message
    assert "3rd rates and smaller ships may be laid down" in message


def test_a_second_rate_counts_against_the_same_quota() -> None:
    """§1: the quota covers "1st rate, 2nd rate or four-decker"."""
    with pytest.raises(ConstructionRefused):
        lay_down("2nd", NavyCounts(sol=11, big=2, four_deckers=0))


def test_a_third_rate_is_never_held_by_the_quota() -> None:
    """§1: only 1st/2nd rates and four-deckers are checked; a 74 even brings the navy back within quota."""
    assert lay_down("3rd-74", NavyCounts(sol=4, big=3, four_deckers=0)) == 10


def test_the_quota_check_is_exact_at_the_boundary() -> None:
    """§1 "in whole numbers": 100 × big ≤ pct × sol. 100×3 = 300 ≤ 20×15 = 300 is allowed."""
    assert lay_down("1st", NavyCounts(sol=14, big=2, four_deckers=0)) == 20
    with pytest.raises(ConstructionRefused):
        lay_down("1st", NavyCounts(sol=13, big=2, four_deckers=0))  # 300 > 20×14 = 280


def test_the_year_picks_the_column() -> None:
    """§1 "The turn's year picks the column": GB 25% from 1809."""
    counts = NavyCounts(sol=11, big=2, four_deckers=0)  # 300 > 240 in 1805, 300 ≤ 25×12=300 in 1809
    with pytest.raises(ConstructionRefused):
        lay_down("1st", counts, year=1808)
    assert lay_down("1st", counts, year=1809) == 20


def test_each_navy_reads_its_own_column() -> None:
    """§1 table, 1800–1808: RU 15%, ES 20%, FR 10%. With 19 SOL of which 2 big, a third big keel gives
    100×3=300 against pct×20: allowed for RU (300) and ES (400), refused for FR (200)."""
    counts = NavyCounts(sol=19, big=2, four_deckers=0)
    assert lay_down("1st", counts, navy="RU") == 20
    assert lay_down("1st", counts, navy="ES") == 20
    with pytest.raises(ConstructionRefused):
        lay_down("1st", counts, navy="FR")


def test_unlisted_navies_use_the_ottoman_column() -> None:
    """§1: "OT (and every unlisted navy) [H]": 10% in 1800–1808."""
    assert DEFAULT_RULESET.quota_percent("NL", 1805) == 10
    assert DEFAULT_RULESET.quota_percent("EG", 1805) == 10
    with pytest.raises(ConstructionRefused):
        lay_down("1st", NavyCounts(sol=9, big=1, four_deckers=0), navy="NL")  # 200 > 10×10 = 100


def test_only_one_four_decker_afloat_or_building() -> None:
    """§1 "Four-deckers [S]: at most one per nation at any time (afloat or building), not counting captured
    ones"."""
    with pytest.raises(ConstructionRefused) as refused:
        lay_down("four-decker", NavyCounts(sol=100, big=1, four_deckers=1), navy="ES")
    assert refused.value.rule == "four_decker_limit"
    assert "at most 1 four-decker" in refused.value.message
    assert lay_down("four-decker", NavyCounts(sol=100, big=1, four_deckers=0), navy="ES") == 30


def test_insufficient_ep_is_refused_with_cost_and_treasury() -> None:
    """§1–§2: a lay-down is paid from the treasury, which never goes below 0."""
    with pytest.raises(ConstructionRefused) as refused:
        lay_down("3rd-74", NavyCounts(sol=10, big=0, four_deckers=0), ep=9)
    assert refused.value.rule == "treasury"
    assert "costs 10 EP" in refused.value.message and "9 EP available" in refused.value.message


def test_a_house_rule_changes_the_quota() -> None:
    """RULES.md: every number is a campaign setting; GB at 25% in 1805 allows the third first rate."""
    house = Ruleset.from_flat({"quota.pct.GB.1800": 25})
    check_limits(house, navy="GB", nation_name="GB", year=1805, ship_class="1st", counts=NavyCounts(11, 2, 0))


def test_big_ships_allowed_now_counts_successive_keels() -> None:
    """GB at 20% with 10 SOL and 1 big: a 2nd keel (200 ≤ 220), not a 3rd (300 > 240)."""
    assert big_ships_allowed_now(DEFAULT_RULESET, navy="GB", year=1805, counts=NavyCounts(10, 1, 0)) == 1
    assert big_ships_allowed_now(DEFAULT_RULESET, navy="GB", year=1805, counts=NavyCounts(11, 2, 0)) == 0


def test_the_rules_words_for_ship_classes_are_the_models_labels() -> None:
    """Messages from the pure rules (no Django) name classes as the pages do: "3rd rate (74/80)"."""
    from fleets.models import ShipClass
    from rules.ruleset import SHIP_CLASS_NAMES

    assert dict(SHIP_CLASS_NAMES) == dict(ShipClass.choices)
