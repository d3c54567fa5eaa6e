"""The land of a theatre as SVG path data, from Natural Earth's 1:50m land (the vendored
``world-atlas`` TopoJSON in ``world-atlas/``; its licence and version are beside it).

1:50m rather than 1:110m because the straits the game is about (the Sound, the Belts, the Bosporus
and the Dardanelles) are closed or missing at 1:110m. Per frame: the rings near the frame's box
are projected, clipped to the frame's rectangle (Sutherland–Hodgman: land is filled, so the seams
a clip leaves along the edge do not show), simplified (Douglas–Peucker, in drawing units), and
written as one path. The result is cached in-process per (theatre, tolerance), a handful at most.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from campaign.geo.theatre import Frame, Rect, Theatre
from campaign.geo.topojson import Ring, polygons

LAND_FILE = Path(__file__).resolve().parent / "world-atlas" / "land-50m.json"
#: Drawing units a simplified coastline may stray from the true one: half a pixel at 2× zoom on a
#: 1000-unit-wide map shown 1000 px wide.
TOLERANCE = 0.25
#: Rings smaller than this (drawing units², their box) are specks at any zoom the map offers.
MIN_AREA = 0.8

Point = tuple[float, float]


@lru_cache(maxsize=1)
def land_rings() -> tuple[tuple[Ring, tuple[float, float, float, float]], ...]:
    """Every ring of the world's land with its (west, south, east, north) box; read once."""
    with LAND_FILE.open(encoding="utf-8") as f:
        topology = json.load(f)
    rings = []
    for polygon in polygons(topology, "land"):
        for ring in polygon:
            lons = [p[0] for p in ring]
            lats = [p[1] for p in ring]
            rings.append((ring, (min(lons), min(lats), max(lons), max(lats))))
    return tuple(rings)


def _clip(points: Sequence[Point], rect: Rect) -> list[Point]:
    """Sutherland–Hodgman: the part of a closed ring inside an axis-aligned rectangle."""
    left, top, right, bottom = rect

    def cut(pts: list[Point], inside: Callable[[Point], bool], at: Callable[[Point, Point], Point]) -> list[Point]:
        out: list[Point] = []
        for i, cur in enumerate(pts):
            prev = pts[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(at(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(at(prev, cur))
        return out

    def x_at(x: float) -> Callable[[Point, Point], Point]:
        return lambda a, b: (x, a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]))

    def y_at(y: float) -> Callable[[Point, Point], Point]:
        return lambda a, b: (a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]), y)

    pts = list(points)
    for inside, at in (
        (lambda p: p[0] >= left, x_at(left)),
        (lambda p: p[0] <= right, x_at(right)),
        (lambda p: p[1] >= top, y_at(top)),
        (lambda p: p[1] <= bottom, y_at(bottom)),
    ):
        if not pts:
            break
        pts = cut(pts, inside, at)
    return pts


def _simplify(points: Sequence[Point], tolerance: float) -> list[Point]:
    """Douglas–Peucker, iterative (a long coast would overflow Python's recursion)."""
    if len(points) < 4:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        ax, ay = points[first]
        bx, by = points[last]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        worst, index = 0.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            if length:
                d = abs(dy * px - dx * py + bx * ay - by * ax) / length
            else:
                d = ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
            if d > worst:
                worst, index = d, i
        if worst > tolerance and index > 0:
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, k in zip(points, keep, strict=True) if k]


def _near(box: tuple[float, float, float, float], frame: Frame) -> bool:
    """Could the ring show in the frame? Its box meets the frame's box widened by 20°, for a conic
    shows more than its box at the corners; rings reaching a pole are never in any theatre."""
    west, south, east, north = frame.box
    r_west, r_south, r_east, r_north = box
    wide = r_east >= west - 20 and r_west <= east + 20
    return r_south > -85 and wide and r_north >= south - 10 and r_south <= north + 10


def _fmt(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def frame_land(frame: Frame, tolerance: float = TOLERANCE) -> str:
    """The land within one frame as SVG path data (absolute moves, relative lines: shorter)."""
    parts: list[str] = []
    for ring, box in land_rings():
        if not _near(box, frame):
            continue
        projected = _clip([frame.project(lon, lat) for lon, lat in ring], frame.rect)
        if len(projected) < 3:
            continue
        xs = [p[0] for p in projected]
        ys = [p[1] for p in projected]
        if (max(xs) - min(xs)) * (max(ys) - min(ys)) < MIN_AREA:
            continue
        simple = _simplify([*projected, projected[0]], tolerance)[:-1]
        if len(simple) < 3:
            continue
        rounded = [(round(x, 1), round(y, 1)) for x, y in simple]
        x0, y0 = rounded[0]
        steps = []
        for (px, py), (x, y) in itertools.pairwise(rounded):
            steps.append(f"{_fmt(x - px)} {_fmt(y - py)}")
        parts.append(f"M{_fmt(x0)} {_fmt(y0)}l" + " ".join(steps) + "z")
    return "".join(parts)


@lru_cache(maxsize=8)
def theatre_land(theatre: Theatre, tolerance: float = TOLERANCE) -> tuple[tuple[str, str], ...]:
    """(frame key, path data) for the main map and each inset; cached, the theatres being few."""
    return tuple((frame.key, frame_land(frame, tolerance)) for frame in (theatre.main, *theatre.insets))
