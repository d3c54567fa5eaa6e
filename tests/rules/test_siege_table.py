"""A storming fought on the table instead of the siege roll (rules §7 "Siege"): the entered result
checked against the siege and turned into the same result the d10 gives."""

from __future__ import annotations

import pytest

from rules.ruleset import DEFAULT_RULESET as R
from rules.siege import (
    SiegeOutcome,
    SiegeResultRefused,
    SiegeState,
    SiegeUnit,
    siege_state_from_json,
    siege_state_json,
    siege_table_result,
)

STATE = SiegeState(
    port="cadiz",
    besiegers=(SiegeUnit(1, "GB", True), SiegeUnit(2, "GB"), SiegeUnit(3, "PT")),
    garrison=(SiegeUnit(10, "ES"), SiegeUnit(11, "FR")),
    fortification=2,
    earlier_turns=2,
)


def test_the_siege_train_is_lost_last_and_the_siege_goes_on_counted() -> None:
    """§7: "≤3 one besieging unit lost (the siege train last)"; "+1 per earlier consecutive turn this
    port ended phase 6 besieged"."""
    result = siege_table_result(STATE, {"garrison_lost": 1, "besiegers_lost": {"GB": 1}, "port_taken": False}, R)
    assert result.outcome is SiegeOutcome.AT_TABLE and result.die is None
    assert result.besiegers_lost == (2,) and result.garrison_lost == (10,)
    assert (result.taken, result.still_besieged, result.next_earlier_turns) == (False, True, 3)


def test_a_port_taken_goes_to_the_nation_with_most_besiegers() -> None:
    """§7: "9 the garrison removed and the port taken" — the captor as the siege roll picks it."""
    result = siege_table_result(STATE, {"garrison_lost": 2, "besiegers_lost": {"PT": 1}, "port_taken": True}, R)
    assert (result.taken, result.captor, result.next_earlier_turns) == (True, "GB", 0)
    assert result.garrison_lost == (10, 11) and result.besiegers_lost == (3,)


def test_every_besieger_lost_ends_the_siege() -> None:
    """§7: "A siege with no besiegers left ends, and its count resets"."""
    body = {"garrison_lost": 0, "besiegers_lost": {"GB": 2, "PT": 1}, "port_taken": False}
    result = siege_table_result(STATE, body, R)
    assert result.besiegers_lost == (2, 1, 3) and (result.still_besieged, result.next_earlier_turns) == (False, 0)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"garrison_lost": 3, "port_taken": True}, "garrison_lost"),
        ({"garrison_lost": -1, "port_taken": False}, "garrison_lost"),
        ({"garrison_lost": True, "port_taken": False}, "garrison_lost"),
        ({"garrison_lost": 0, "besiegers_lost": {"ES": 1}, "port_taken": False}, "besiegers_lost.ES"),
        ({"garrison_lost": 0, "besiegers_lost": {"PT": 2}, "port_taken": False}, "besiegers_lost.PT"),
        ({"garrison_lost": 0, "besiegers_lost": [1], "port_taken": False}, "besiegers_lost"),
        ({"garrison_lost": 1, "port_taken": True}, "port_taken"),
        ({"garrison_lost": 2, "port_taken": False}, "port_taken"),
        ({"garrison_lost": 0, "port_taken": "yes"}, "port_taken"),
        ([], "result"),
    ],
)
def test_a_result_that_cannot_be_is_refused_naming_the_part(body: object, field: str) -> None:
    with pytest.raises(SiegeResultRefused) as refused:
        siege_table_result(STATE, body, R, {"PT": "Portugal", "ES": "Spain"})  # type: ignore[arg-type]
    assert refused.value.field == field


def test_a_held_siege_is_kept_as_json_and_read_back() -> None:
    assert siege_state_from_json(siege_state_json(STATE)) == STATE
