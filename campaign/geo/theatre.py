"""Where on the drawing a place at (lon, lat) goes: a theatre is a main map and a few insets.

The main map covers the seas most of a campaign is fought in; an inset is a small map set into a
corner of it for a distant station (the West Indies, the Cape and the East Indies) that would
otherwise stretch the main map across half the globe. Each is a *frame*: a lon/lat box, a
projection, and the rectangle of the drawing it is fitted into (the width given, the height from
the box's shape, so nothing is squashed). A place belongs to the first inset whose box holds it,
else to the main map; a place outside every box is drawn at the main map's nearest edge.

Pure: no Django. The coastlines drawn in each frame are :mod:`campaign.geo.coastlines`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from campaign.geo.projection import LambertConic, Mercator, Projection

#: (west, south, east, north) in degrees
LonLatBox = tuple[float, float, float, float]
#: (left, top, right, bottom) in drawing units
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Frame:
    key: str
    title: str
    box: LonLatBox
    projection: Projection
    left: float
    top: float
    width: float

    @cached_property
    def _fit(self) -> tuple[float, float, float, float]:
        """(scale, offset x, offset y, height): the projected box, sampled along its edges, fitted
        to ``width`` from (left, top)."""
        west, south, east, north = self.box
        samples = [self.projection(west + (east - west) * i / 24, lat) for i in range(25) for lat in (south, north)] + [
            self.projection(lon, south + (north - south) * i / 24) for i in range(25) for lon in (west, east)
        ]
        min_x = min(p[0] for p in samples)
        max_x = max(p[0] for p in samples)
        min_y = min(p[1] for p in samples)
        max_y = max(p[1] for p in samples)
        scale = self.width / (max_x - min_x)
        return scale, self.left - min_x * scale, self.top - min_y * scale, (max_y - min_y) * scale

    @property
    def height(self) -> float:
        return self._fit[3]

    @property
    def rect(self) -> Rect:
        return (self.left, self.top, self.left + self.width, self.top + self.height)

    def holds(self, lon: float, lat: float) -> bool:
        west, south, east, north = self.box
        return west <= lon <= east and south <= lat <= north

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        """(lon, lat) to drawing units."""
        scale, ox, oy, _ = self._fit
        x, y = self.projection(lon, lat)
        return x * scale + ox, y * scale + oy


@dataclass(frozen=True)
class Theatre:
    key: str
    main: Frame
    insets: tuple[Frame, ...] = field(default=())

    @property
    def width(self) -> float:
        return self.main.width

    @property
    def height(self) -> float:
        return self.main.height

    def frame_for(self, lon: float, lat: float) -> Frame:
        return next((f for f in self.insets if f.holds(lon, lat)), self.main)

    def place(self, lon: float, lat: float) -> tuple[float, float]:
        """Where (lon, lat) is drawn: in its inset or on the main map, kept inside the drawing."""
        frame = self.frame_for(lon, lat)
        x, y = frame.project(lon, lat)
        left, top, right, bottom = frame.rect
        return min(max(x, left + 2), right - 2), min(max(y, top + 2), bottom - 2)


def _europe() -> Theatre:
    # The main map: Ireland and the Azores to the Crimea and Trebizond, Bergen and Kronstadt to
    # Alexandria; standard parallels a sixth in from each edge (Snyder's rule of thumb). Its empty
    # south-western Atlantic carries the two insets.
    main = Frame("main", "", (-31.0, 27.0, 43.0, 63.5), LambertConic(6.0, 45.0, 33.0, 58.0), 0.0, 0.0, 1000.0)
    inset_width = 200.0
    americas = Frame(
        "americas", "The Americas", (-84.0, 10.0, -56.0, 46.5), Mercator(-70.0), 6.0, 0.0, inset_width * 0.62
    )
    indies = Frame(
        "east-indies", "The Cape and the East Indies", (10.0, -38.0, 110.0, 25.0), Mercator(60.0), 0.0, 0.0, inset_width
    )
    # Stack them in the bottom-left corner: the East Indies along the bottom, the Americas above it.
    bottom = main.height - 6
    indies = Frame(indies.key, indies.title, indies.box, indies.projection, 6.0, bottom - indies.height, indies.width)
    americas = Frame(
        americas.key,
        americas.title,
        americas.box,
        americas.projection,
        6.0,
        indies.top - 8 - americas.height,
        americas.width,
    )
    return Theatre("europe", main, (americas, indies))


#: The theatres the map knows, by key; every campaign so far is drawn in "europe".
THEATRES: dict[str, Theatre] = {"europe": _europe()}


def degrees_per_unit(frame: Frame) -> float:
    """About how many degrees of latitude one drawing unit covers at the frame's centre."""
    west, south, east, north = frame.box
    lat = (south + north) / 2
    lon = (west + east) / 2
    _, y1 = frame.project(lon, lat)
    _, y2 = frame.project(lon, lat + 1)
    return 1 / max(abs(y2 - y1), math.ulp(1.0))
