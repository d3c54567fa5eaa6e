"""Decoding TopoJSON (https://github.com/topojson/topojson-specification) into rings of (lon, lat).

Only what the vendored Natural Earth land file needs: a quantized topology (``transform``) whose
objects are Polygons and MultiPolygons. About forty lines rather than a dependency: the format's
arcs are delta-encoded integer points, and a ring is the concatenation of arcs (``~i`` meaning arc
``i`` reversed), each arc's first point being the previous arc's last.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

Ring = list[tuple[float, float]]


def decode_arcs(topology: dict[str, Any]) -> list[Ring]:
    """Every arc of the topology as absolute (lon, lat) points."""
    transform = topology.get("transform")
    (sx, sy), (tx, ty) = (transform["scale"], transform["translate"]) if transform else ((1, 1), (0, 0))
    arcs: list[Ring] = []
    for arc in topology["arcs"]:
        x = y = 0
        points: Ring = []
        for dx, dy, *_ in arc:
            # Quantized arcs store each point as the difference from the one before.
            if transform:
                x, y = x + dx, y + dy
            else:
                x, y = dx, dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def _ring(indexes: Sequence[int], arcs: Sequence[Ring]) -> Ring:
    ring: Ring = []
    for i in indexes:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        ring.extend(arc[1:] if ring else arc)
    return ring


def polygons(topology: dict[str, Any], name: str) -> Iterator[list[Ring]]:
    """The polygons of object ``name``, each as its rings (the outer ring first, then its holes)."""
    arcs = decode_arcs(topology)
    obj = topology["objects"][name]
    geometries = obj["geometries"] if obj["type"] == "GeometryCollection" else [obj]
    for geometry in geometries:
        if geometry["type"] == "Polygon":
            yield [_ring(r, arcs) for r in geometry["arcs"]]
        elif geometry["type"] == "MultiPolygon":
            for polygon in geometry["arcs"]:
                yield [_ring(r, arcs) for r in polygon]
