"""Drawing the campaign map as SVG: zone labels that keep clear of each other and of what is drawn, the
lines between adjacent zones, and the drawn area (the viewBox).

Pure geometry over anything with coordinates; what the map shows (and fog of war) is
:mod:`campaign.pages.map.page`'s business.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

LABEL_FONT = 8.5
#: Where a zone's label may go, relative to the zone's centre: (dx, gap, anchor, vertical), tried in
#: this order of preference; a label takes the place where it overlaps least with what is drawn.
LABEL_PLACES = (
    (0, 11, "middle", "below"),
    (0, 11, "middle", "above"),
    (12, 0, "start", "beside"),
    (-12, 0, "end", "beside"),
    (7, 8, "start", "below"),
    (-7, 8, "end", "below"),
    (7, 8, "start", "above"),
    (-7, 8, "end", "above"),
)
#: The whole map's area (the scenarios' coordinates lie in it).
FULL_VIEWBOX = "0 0 1000 700"

#: (left, top, right, bottom)
Box = tuple[float, float, float, float]


class Spot(Protocol):
    """Something drawn at a point (a port)."""

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...


class ZoneSpot(Spot, Protocol):
    """A sea zone's circle, with the name its label shows."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def adjacent(self) -> tuple[str, ...]: ...


class MarkerSpot(Spot, Protocol):
    """A force's marker: its top-left corner, small beside a port."""

    @property
    def small(self) -> bool: ...

    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...


@dataclass(frozen=True)
class ZoneLabel:
    key: str
    x: float
    y: float
    anchor: str
    lines: tuple[str, ...]


def label_lines(name: str) -> tuple[str, ...]:
    """The zone's name without its parenthesis, on two lines when long."""
    short = re.sub(r"\s*\(.*?\)", "", name).strip() or name
    words = short.split()
    if len(short) <= 16 or len(words) < 2:
        return (short,)
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda pair: max(len(pair[0]), len(pair[1])))


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def label_box(x: float, y: float, anchor: str, lines: tuple[str, ...]) -> Box:
    """The box a label's text covers, written at (x, y) with SVG ``text-anchor`` ``anchor``."""
    width = max(len(line) for line in lines) * LABEL_FONT * 0.5
    left = x - width / 2 if anchor == "middle" else (x if anchor == "start" else x - width)
    top = y - LABEL_FONT * 0.8
    return (left, top, left + width, top + LABEL_FONT * 1.1 * len(lines))


class _Bands:
    """The obstacles in horizontal bands of their top edge, so that a label looks only at those near
    its zone: a spatial grid instead of every label against everything drawn. Candidates come back
    in the order they were added, so a label's score sums the same areas in the same order."""

    HEIGHT = 60.0

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.bands: dict[int, list[int]] = defaultdict(list)

    def add(self, box: Box) -> None:
        self.bands[int(box[1] // self.HEIGHT)].append(len(self.boxes))
        self.boxes.append(box)

    def near(self, y: float) -> list[Box]:
        """Every box whose top may lie within HEIGHT of ``y`` (a superset: callers test exactly)."""
        band = int(y // self.HEIGHT)
        found = [i for k in (band - 1, band, band + 1) for i in self.bands.get(k, ())]
        found.sort()
        return [self.boxes[i] for i in found]


def _best_label(zone: ZoneSpot, obstacles: _Bands) -> tuple[ZoneLabel, Box]:
    """The place around the zone where its label overlaps least with ``obstacles`` (earlier places win ties)."""
    lines = label_lines(zone.name)
    height = LABEL_FONT * 1.1 * len(lines)
    zx, zy = zone.x, zone.y
    # Only what lies near the zone can overlap a label placed around it: scoring against every
    # obstacle of the map gave the same answer a hundred times slower. The zone's own circle is
    # left out once here rather than compared for each place.
    reach = LABEL_FONT * 0.5 * max(len(line) for line in lines) + 40
    own = (zx - 10, zy - 10, zx + 10, zy + 10)
    low, high = zx - reach, zx + reach
    nearby = [b for b in obstacles.near(zy) if b[2] > low and b[0] < high and abs(b[1] - zy) < 60 and b != own]
    best_score = 0.0
    best: tuple[float, float, str, Box] | None = None
    for rank, (dx, gap, anchor, vertical) in enumerate(LABEL_PLACES):
        if vertical == "below":
            y = zy + gap + LABEL_FONT * 0.8
        elif vertical == "above":
            y = zy - gap - height + LABEL_FONT * 0.8
        else:
            y = zy - height / 2 + LABEL_FONT * 0.8
        x = zx + dx
        box = label_box(x, y, anchor, lines)
        # overlap() inlined, adding only the areas that are not zero: the same sum in the same order
        # (a zero changes no float), ~9k calls a map saved.
        left, top, right, bottom = box
        score = 0.0
        for b in nearby:
            width = (right if right < b[2] else b[2]) - (left if left > b[0] else b[0])
            if width > 0.0:
                tall = (bottom if bottom < b[3] else b[3]) - (top if top > b[1] else b[1])
                if tall > 0.0:
                    score += width * tall
        score += rank * 2.0
        if best is None or score < best_score:
            best_score, best = score, (x, y, anchor, box)
    assert best is not None  # LABEL_PLACES is not empty
    x, y, anchor, box = best
    return ZoneLabel(zone.key, round(x, 1), round(y, 1), anchor, lines), box


def layout(
    zones: Sequence[ZoneSpot], ports: Sequence[Spot], markers: Sequence[MarkerSpot]
) -> tuple[list[ZoneLabel], str]:
    """Greedy label placement (most crowded zones first) and the viewBox around everything drawn;
    the labels come back in the order of ``zones``."""
    obstacles: list[Box] = [(z.x - 10, z.y - 10, z.x + 10, z.y + 10) for z in zones]
    obstacles += [(p.x - 4, p.y - 4, p.x + 4, p.y + 4) for p in ports]
    obstacles += [(m.x, m.y, m.x + m.width, m.y + m.height) for m in markers]
    # The centres sorted by x: a zone's crowd is counted over those within reach (bisect, with a
    # margin; the exact test is the one below).
    centres = sorted(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in obstacles)
    xs = [c[0] for c in centres]

    def crowd(z: ZoneSpot) -> int:
        zx, zy = z.x, z.y
        near = centres[bisect_left(xs, zx - 46) : bisect_right(xs, zx + 46)]
        return sum(1 for cx, cy in near if abs(cx - zx) < 45 and abs(cy - zy) < 30)

    placed = _Bands()
    for b in obstacles:
        placed.add(b)
    labels: dict[str, ZoneLabel] = {}
    for zone in sorted(zones, key=lambda z: (-crowd(z), z.key)):
        labels[zone.key], box = _best_label(zone, placed)
        placed.add(box)
        obstacles.append(box)
    if not obstacles:
        return [], FULL_VIEWBOX
    box = (
        min(b[0] for b in obstacles) - 10,
        min(b[1] for b in obstacles) - 10,
        max(b[2] for b in obstacles) + 10,
        max(b[3] for b in obstacles) + 10,
    )
    return [labels[z.key] for z in zones], viewbox(box)


def viewbox(box: Box) -> str:
    """The drawn area as a viewBox, widened to a landscape shape near the map's own (10:7) and to at
    least a third of the map, so a campaign of three zones is not drawn in giant letters."""
    left, top, right, bottom = box
    width, height = max(right - left, 400.0), max(bottom - top, 280.0)
    width = max(width, height * 1.25)
    height = max(height, width / 1.8)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    width, height = min(width, 1000.0), min(height, 700.0)
    left = min(max(cx - width / 2, 0.0), 1000.0 - width)
    top = min(max(cy - height / 2, 0.0), 700.0 - height)
    return f"{left:.0f} {top:.0f} {width:.0f} {height:.0f}"


def edges(zones: Sequence[ZoneSpot]) -> list[tuple[float, float, float, float]]:
    """The lines between adjacent zones, each once: (x1, y1, x2, y2)."""
    at = {z.key: z for z in zones}
    lines = []
    for z in zones:
        for other in z.adjacent:
            if other in at and z.key < other:
                o = at[other]
                lines.append((z.x, z.y, o.x, o.y))
    return lines


__all__ = [
    "FULL_VIEWBOX",
    "LABEL_FONT",
    "LABEL_PLACES",
    "ZOOMS",
    "Box",
    "MarkerSpot",
    "Spot",
    "View",
    "ZoneLabel",
    "ZoneSpot",
    "edges",
    "label_box",
    "label_lines",
    "layout",
    "overlap",
    "parse_view",
    "viewbox",
]


# --- Zoom and pan (the same with or without JavaScript: the links set ?zoom=&cx=&cy=) ------------

#: The zoom levels the links step through; the script zooms smoothly between 1 and the last.
ZOOMS = (1, 2, 4, 8)


@dataclass(frozen=True)
class View:
    """The part of the drawing shown: ``zoom`` times magnified around (cx, cy), kept on the map."""

    width: float
    height: float
    zoom: float
    cx: float
    cy: float

    @property
    def box(self) -> Box:
        w, h = self.width / self.zoom, self.height / self.zoom
        left = min(max(self.cx - w / 2, 0.0), self.width - w)
        top = min(max(self.cy - h / 2, 0.0), self.height - h)
        return (left, top, left + w, top + h)

    @property
    def viewbox(self) -> str:
        left, top, right, bottom = self.box
        return f"{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}"

    @property
    def full_viewbox(self) -> str:
        return f"0 0 {self.width:.1f} {self.height:.1f}"

    def _query(self, zoom: float, cx: float, cy: float) -> str:
        return f"zoom={zoom:g}&cx={cx:.0f}&cy={cy:.0f}"

    @property
    def centre(self) -> tuple[float, float]:
        left, top, right, bottom = self.box
        return (left + right) / 2, (top + bottom) / 2

    @property
    def zoom_in(self) -> str | None:
        """The query of the next zoom level in, or None at the last."""
        bigger = [z for z in ZOOMS if z > self.zoom]
        return self._query(bigger[0], *self.centre) if bigger else None

    @property
    def zoom_out(self) -> str | None:
        smaller = [z for z in ZOOMS if z < self.zoom]
        return self._query(smaller[-1], *self.centre) if smaller else None

    def pan(self, dx: int, dy: int) -> str | None:
        """The query of the view moved by half its width/height in direction (dx, dy), or None if it
        is already at that edge."""
        if self.zoom == 1:
            return None
        left, top, right, bottom = self.box
        cx, cy = self.centre
        moved = View(self.width, self.height, self.zoom, cx + dx * (right - left) / 2, cy + dy * (bottom - top) / 2)
        return None if moved.box == self.box else self._query(self.zoom, *moved.centre)

    @property
    def pans(self) -> list[tuple[str, str, str]]:
        """(label, arrow, query) for each direction the view can still move."""
        out = []
        directions = (("north", "↑", 0, -1), ("west", "←", -1, 0), ("east", "→", 1, 0), ("south", "↓", 0, 1))
        for label, arrow, dx, dy in directions:
            query = self.pan(dx, dy)
            if query:
                out.append((label, arrow, query))
        return out


def parse_view(width: float, height: float, zoom: str | None, cx: str | None, cy: str | None) -> View:
    """The view the query asks for; anything unreadable or out of range falls back to the whole map
    (a stale or hand-edited link should still show a map, not an error)."""

    def number(raw: str | None, default: float, high: float) -> float:
        try:
            value = float(raw) if raw is not None and raw.isascii() else default
        except ValueError:
            return default
        return min(max(value, 0.0), high) if value == value else default  # NaN is not a place

    return View(width, height, _level(zoom), number(cx, width / 2, width), number(cy, height / 2, height))


def _level(raw: str | None) -> float:
    """The zoom asked for: one of ZOOMS from the links, or any level between the first and the last
    that the script zoomed to (kept to a hundredth), so an action on the map keeps the view shown."""
    try:
        value = float(raw) if raw is not None and raw.isascii() and len(raw) < 12 else 1.0
    except ValueError:
        return 1
    if not ZOOMS[0] <= value <= ZOOMS[-1]:  # NaN fails too
        return 1
    value = round(value, 2)
    return int(value) if value.is_integer() else value
