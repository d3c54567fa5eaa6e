"""Dice behind one protocol (RULES.md §0, §5 "Dice order is canonical").

Rule code never touches :mod:`random` directly: it receives a :class:`Dice` and asks it for raw
faces. :class:`SeededDice` is production's (a seed reproduces every roll); :class:`ScriptedDice`
replays faces entered by hand or taken from a stored dice log. Logging what a die was *for*
(purpose, modifier, ship, target) is the caller's business: a die here is only a raw face.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable


class DiceError(ValueError):
    """Scripted dice ran out or held a face the die does not have."""


@runtime_checkable
class Dice(Protocol):
    def roll(self, sides: int) -> int:
        """One raw face in ``1..sides``."""
        ...


class SeededDice:
    """Pseudo-random dice from a seed; the same seed gives the same faces in the same order."""

    __slots__ = ("_random", "count", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed).random
        self.count = 0

    def roll(self, sides: int) -> int:
        self.count += 1
        # random() * sides is uniform over the faces and several times faster than randint().
        return int(self._random() * sides) + 1


class ScriptedDice:
    """Faces given in advance, used in order; running out or a bad face is a :class:`DiceError`."""

    __slots__ = ("_faces", "count")

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self.count = 0

    def roll(self, sides: int) -> int:
        if self.count >= len(self._faces):
            raise DiceError(
                f"scripted dice ran out: die {self.count + 1} (a d{sides}) was needed "
                f"but only {len(self._faces)} were given"
            )
        face = self._faces[self.count]
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise DiceError(f"scripted die {self.count + 1} is {face!r}, but a d{sides} shows 1..{sides}")
        self.count += 1
        return face

    @property
    def unused(self) -> list[int]:
        """Faces left over after the rolls so far (reported on stderr by the CLI)."""
        return self._faces[self.count :]


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from (campaign seed, turn, phase, place…): same parts, same seed.

    Built from SHA-256 of the parts' text so it does not depend on Python's hash randomisation.
    """
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def reseed_key(phase: int, place: str, sequence: int | None = None) -> str:
    """The key of a GM's new seed for one fight of a turn (a re-fought battle, issue 11).

    A fleet action is one engagement of phase 4 (``"4:place:sequence"``); the fights at a port in
    phase 5 (garrison guns, fireships, running the guns) share the port's one stream of dice
    (``"5:port"``), so re-seeding one of them re-rolls that port's phase 5.
    """
    return f"{phase}:{place}" if sequence is None else f"{phase}:{place}:{sequence}"
