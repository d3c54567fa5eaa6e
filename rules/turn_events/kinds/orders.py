"""Turn-report events of the nation's orders (every phase): carried out or skipped, and why.

See :mod:`rules.turn_events` for how events are stored and read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.turn_events.kinds.base import TurnEvent

# --- orders (every phase) ------------------------------------------------------------------------------


#: Why an order was skipped at resolution, beyond the order check's own refusal codes (the API's
#: ``RefusalCode``, which a skip reuses when the same check refuses it then): the order's fleet left the
#: battle or was beaten, another order overruled it, there was nothing to act on, or it cannot be read.
SKIP_CODES_AT_RESOLUTION = (
    "fleet_left_battle",
    "overruled",
    "no_target",
    "move_blocked",
    "unreadable",
    "not_possible",
)
#: How an order was carried out: as ordered, or with nothing left to do (already so, or cancelled).
CARRIED_OUT_CODES = ("carried_out", "offer_made", "offer_accepted", "agreed", "already_so", "cancelled")


@dataclass(frozen=True, kw_only=True)
class OrderCarriedOut(TurnEvent):
    """An order of the nation carried out (one event per order; ``text`` says what it did)."""

    kind: ClassVar[str] = "order_carried_out"
    CODES: ClassVar[tuple[str, ...]] = CARRIED_OUT_CODES
    order_id: int
    order_position: int = 0
    order_kind: str = ""
    code: str


@dataclass(frozen=True, kw_only=True)
class OrderSkipped(TurnEvent):
    """An order that could not be carried out when its phase came; ``code`` says why, ``text`` in words.
    ``"not_possible"`` when read from a report stored before the codes were."""

    kind: ClassVar[str] = "order_skipped"
    order_id: int
    order_position: int = 0
    order_kind: str = ""
    code: str
