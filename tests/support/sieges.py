"""Sieges built for tests (rules §7): garrisons and besiegers put ashore, the campaign seed chosen
for a wanted siege die, and the turn's siege dice read back. Used by the siege tests and by the
stormings fought on the table."""

from __future__ import annotations

from collections.abc import Callable

from campaign.models import Nation, Turn
from ports.models import LandUnit, Port
from rules.dice import SeededDice, derive_seed
from tests.worlds import World


def garrison(port: Port, nation: Nation, n: int) -> list[LandUnit]:
    """``n`` of ``nation``'s land units in garrison at ``port``."""
    return [
        LandUnit.objects.create(campaign=port.campaign, nation=nation, port=port, state=LandUnit.State.GARRISON)
        for _ in range(n)
    ]


def ashore(port: Port, nation: Nation, n: int, *, trains: int = 0) -> list[LandUnit]:
    """``n`` of ``nation``'s land units ashore before ``port`` (besieging it), the last ``trains`` of
    them siege trains."""
    return [
        LandUnit.objects.create(
            campaign=port.campaign, nation=nation, port=port, state=LandUnit.State.ASHORE, siege_train=i >= n - trains
        )
        for i in range(n)
    ]


def siege_dice(turn: Turn, port: str) -> list[dict[str, object]]:
    """The siege dice of ``port`` in the turn's dice log, as stored."""
    turn.refresh_from_db()
    return [d for d in turn.dice_log if d["purpose"] == "siege" and d["place"] == port]


def seed_where(world: World, turn: int, phase: int, place: str, wanted: Callable[[list[int]], bool], sides: list[int]):
    """Give the campaign the first seed whose dice at (turn, phase, place) satisfy ``wanted``."""
    for seed in range(200_000):
        dice = SeededDice(derive_seed(seed, turn, phase, place))
        if wanted([dice.roll(s) for s in sides]):
            world.campaign.seed = seed
            world.campaign.save(update_fields=["seed"])
            return seed
    raise AssertionError("no seed found")
