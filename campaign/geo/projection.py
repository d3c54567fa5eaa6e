"""Map projections: the sphere's (lon, lat) in degrees to a plane, before fitting to the drawing.

Lambert conformal conic for the mid-latitude main map (Europe, the Mediterranean and the eastern
Atlantic: shapes stay true and the north is not swollen as on Mercator), Mercator for the insets
that straddle the tropics or the equator, where a conic has no sensible standard parallels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class LambertConic:
    """Lambert conformal conic with two standard parallels (Snyder, Map Projections, p. 104-107)."""

    lon0: float
    lat0: float
    lat1: float
    lat2: float

    def _n_f(self) -> tuple[float, float]:
        p1, p2 = math.radians(self.lat1), math.radians(self.lat2)
        n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
        )
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        return n, f

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        n, f = self._n_f()
        # Keep off the pole opposite the cone's apex, where rho would be infinite.
        lat = max(min(lat, 89.5), -89.5)
        rho = f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        rho0 = f / math.tan(math.pi / 4 + math.radians(self.lat0) / 2) ** n
        theta = n * math.radians(lon - self.lon0)
        # y grows southwards, as in SVG.
        return rho * math.sin(theta), -(rho0 - rho * math.cos(theta))


@dataclass(frozen=True)
class Mercator:
    lon0: float

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        lat = max(min(lat, 85.0), -85.0)
        return math.radians(lon - self.lon0), -math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


Projection = LambertConic | Mercator
