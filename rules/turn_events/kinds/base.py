"""What every turn-report event is made of: :class:`TurnEvent` (and :class:`Note`, an event of text
only), the ship rows some kinds hold (:class:`SeenShip`, :class:`BattleShip`), and :func:`counted` for texts."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``1 ship``, ``2 ships``, ``0 land units``: a count with its noun in the right number."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


# --- ship rows -----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SeenShip:
    """An enemy (or any) ship as a nation saw it: whose, what class, in what condition; its name only
    where the report gave it; ``in_ordinary`` only for the ships a blockader sees in a port."""

    nation: str | None = None
    ship_class: str
    condition: str
    name: str = ""
    in_ordinary: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "nation": self.nation,
            "ship_class": self.ship_class,
            "condition": self.condition,
            "name": self.name,
            "in_ordinary": self.in_ordinary,
        }


@dataclass(frozen=True, kw_only=True)
class BattleShip:
    """A ship of a battle or of a capture without one: its side (0/1), id, name, class and fate."""

    side: int
    ship_id: int
    ship_name: str
    ship_class: str
    fate: str

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "ship_id": self.ship_id,
            "ship_name": self.ship_name,
            "ship_class": self.ship_class,
            "fate": self.fate,
        }


# --- the base ------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnEvent:
    """What every event has: its ``text`` for players (built from names by whoever writes it) and the
    ``phase`` (RULES.md §3) it happened in, which :meth:`PhaseContext.report` sets. ``kind`` is the
    stored discriminator; ``ROWS`` names the fields that hold ship rows, and their row type."""

    kind: ClassVar[str] = "note"
    #: The allowed values of the kind's ``code`` field, for the kinds that have one (the schema's enum).
    CODES: ClassVar[tuple[str, ...]] = ()
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {}
    text: str
    phase: int = 0

    @property
    def battle(self) -> int | None:
        """The Battle whose report this event links to (None for most kinds)."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The stored shape: ``{"phase", "kind", "text", <fields>}`` (the runner adds ``nations``)."""
        out: dict[str, Any] = {"phase": self.phase, "kind": self.kind, "text": self.text}
        for f in dataclasses.fields(self):
            if f.name in ("phase", "text"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [v.to_json() if isinstance(v, SeenShip | BattleShip) else v for v in value]
            out[f.name] = value
        return out


@dataclass(frozen=True, kw_only=True)
class Note(TurnEvent):
    """An event with nothing but its text (and every old stored event of no known shape)."""

    kind: ClassVar[str] = "note"
