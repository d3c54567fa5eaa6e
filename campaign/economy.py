"""The inputs of RULES.md §2 "Economy" for one nation: what phase 9 books and the dashboard projects.

§2 phase 9: "first income = base income + the EP value of each own port not besieged, not
blockaded against it and not taken this turn or last turn; then upkeep = ceil(Σ class EP of its
commissioned ships — afloat, not building, not in ordinary; damaged, disabled, captured and
transports included — / 20)."

:func:`economy_inputs` is the one place that turns ports, ships and blockades into
:mod:`rules.economy`'s inputs. Phase 9 (``campaign.turn.phase_09_economy``) calls it with this
turn's blockades and books the result; the dashboard (``campaign.pages.dashboard``) calls it with
the blockades standing from the last resolved turn and shows what phase 9 would book. It reads
nothing itself: the callers pass the rows they have read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from campaign.models import Nation
from fleets.models import Ship
from fleets.selectors import Blockades
from ports.models import Port
from ports.selectors import port_recently_taken
from rules.economy import EconomyShip, Income, IncomePort, ShipCondition, income, upkeep
from rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class EconomyInputs:
    """One nation's base income, own ports and ships as :mod:`rules.economy` reads them."""

    base_income: int
    ports: tuple[IncomePort, ...]
    ships: tuple[EconomyShip, ...]

    def income(self) -> Income:
        return income(self.base_income, self.ports)

    def upkeep(self, ruleset: Ruleset) -> int:
        return upkeep(self.ships, ruleset)


def economy_inputs(
    *, nation: Nation, turn: int, ports: Iterable[Port], ships: Iterable[Ship], blockades: Blockades
) -> EconomyInputs:
    """The nation's economy inputs for phase 9 of ``turn``. ``ports``: any ports (the nation's own
    are picked); ``ships``: any ships (the nation's are picked, in any condition: the rules decide
    which pay upkeep); ``blockades``: the blockades that count (§4: not lifted by a storm)."""
    own = [p for p in ports if p.owner_id == nation.pk]
    return EconomyInputs(
        base_income=nation.base_income,
        ports=tuple(
            IncomePort(
                key=p.key,
                ep_value=p.ep_value,
                besieged=p.siege_turns > 0,
                blockaded=blockades.against(p.pk, nation.pk),
                taken_recently=port_recently_taken(p, turn),
            )
            for p in sorted(own, key=lambda p: p.key)
        ),
        ships=tuple(
            EconomyShip(s.ship_class, cast(ShipCondition, s.condition), s.in_ordinary)
            for s in ships
            if s.nation_id == nation.pk
        ),
    )
