"""Readable names of the models' choices, as the players' pages print ship classes, conditions and zones."""

from __future__ import annotations

from fleets.models import Ship, ShipClass
from ports.models import ZoneType

CLASS_LABELS: dict[str, str] = dict(ShipClass.choices)
CONDITION_LABELS: dict[str, str] = dict(Ship.Condition.choices)
ZONE_TYPE_LABELS: dict[str, str] = dict(ZoneType.choices)

__all__ = ["CLASS_LABELS", "CONDITION_LABELS", "ZONE_TYPE_LABELS"]
