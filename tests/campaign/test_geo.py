"""The real map's geometry (issue 13 "A real map"): TopoJSON decoding, the projections, the
theatre's frames and insets, clipping and simplifying the Natural Earth land. Pure: no database."""

from __future__ import annotations

import math

import pytest

from campaign.geo.coastlines import LAND_FILE, _clip, _simplify, frame_land, land_rings, theatre_land
from campaign.geo.projection import LambertConic, Mercator
from campaign.geo.theatre import THEATRES, Frame
from campaign.geo.topojson import decode_arcs, polygons

EUROPE = THEATRES["europe"]


def test_topojson_arcs_are_delta_decoded_and_rings_join_reversed_arcs() -> None:
    # Two arcs make a unit square: arc 0 goes (0,0)→(1,0)→(1,1), arc 1 goes (0,0)→(0,1)→(1,1);
    # the ring is arc 0 then arc 1 reversed (~1), the shared end point written once.
    topology = {
        "type": "Topology",
        "transform": {"scale": [0.5, 2.0], "translate": [10.0, -4.0]},
        "arcs": [[[0, 0], [2, 0], [0, 1]], [[0, 0], [0, 1], [2, 0]]],
        "objects": {"land": {"type": "GeometryCollection", "geometries": [{"type": "Polygon", "arcs": [[0, ~1]]}]}},
    }
    assert decode_arcs(topology)[0] == [(10.0, -4.0), (11.0, -4.0), (11.0, -2.0)]
    (ring,) = next(polygons(topology, "land"))
    assert ring == [(10.0, -4.0), (11.0, -4.0), (11.0, -2.0), (10.0, -2.0), (10.0, -4.0)]


def test_the_vendored_land_file_is_natural_earth_at_1_50m_with_its_licence() -> None:
    assert LAND_FILE.name == "land-50m.json"
    assert (LAND_FILE.parent / "LICENSE").read_text().startswith("Copyright")
    assert '"version": "2.0.2"' in (LAND_FILE.parent / "package.json").read_text()
    rings = land_rings()
    # Great Britain is an island: some ring lies wholly within its box.
    assert any(w > -7 and e < 2.5 and s > 49.8 and n < 59 and n - s > 8 for _, (w, s, e, n) in rings)


def test_lambert_conic_is_conformal_on_its_standard_parallels() -> None:
    conic = LambertConic(6.0, 45.0, 33.0, 58.0)
    assert conic(6.0, 45.0) == pytest.approx((0.0, 0.0), abs=1e-12)
    # North is up (y grows southward, as in SVG); east is to the right.
    assert conic(6.0, 50.0)[1] < 0 < conic(6.0, 40.0)[1]
    assert conic(10.0, 45.0)[0] > 0
    # On a standard parallel a small step east and one north cover the same distance on the map
    # when scaled by the cosine of the latitude (conformal, true scale there).
    for lat in (33.0, 58.0):
        x0, y0 = conic(6.0, lat)
        x1, _ = conic(6.01, lat)
        _, y2 = conic(6.0, lat + 0.01)
        east = math.hypot(x1 - x0, 0)
        north = abs(y2 - y0)
        assert east / north == pytest.approx(math.cos(math.radians(lat)), rel=1e-3)


def test_mercator_keeps_the_equator_at_zero() -> None:
    m = Mercator(60.0)
    assert m(60.0, 0.0) == pytest.approx((0.0, 0.0))
    assert m(61.0, 0.0)[0] == pytest.approx(math.radians(1.0))


def test_places_go_to_the_main_map_or_their_inset_and_stay_on_the_drawing() -> None:
    main = EUROPE.main
    toulon = EUROPE.place(5.93, 43.12)
    brest = EUROPE.place(-4.49, 48.38)
    kronstadt = EUROPE.place(29.77, 59.99)
    assert EUROPE.frame_for(5.93, 43.12) is main
    assert brest[0] < toulon[0] < kronstadt[0] and kronstadt[1] < brest[1] < toulon[1]
    americas, indies = EUROPE.insets
    assert EUROPE.frame_for(-63.57, 44.65) is americas  # Halifax
    assert EUROPE.frame_for(106.83, -6.13) is indies  # Batavia
    for frame, (lon, lat) in ((americas, (-63.57, 44.65)), (indies, (106.83, -6.13))):
        x, y = EUROPE.place(lon, lat)
        left, top, right, bottom = frame.rect
        assert left < x < right and top < y < bottom
    # The insets sit in the main map's empty south-western Atlantic, inside the drawing.
    for frame in EUROPE.insets:
        left, top, right, bottom = frame.rect
        assert left >= 0 and right < 250 and bottom <= EUROPE.height
    # A place outside every frame is drawn at the nearest edge, never off the drawing.
    x, y = EUROPE.place(150.0, 70.0)
    assert 0 < x <= EUROPE.width and 0 <= y < EUROPE.height


def test_clipping_keeps_the_part_of_a_ring_inside_the_rectangle() -> None:
    square = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)]
    clipped = _clip(square, (0.0, 0.0, 10.0, 10.0))
    assert sorted(set(clipped)) == [(0.0, 0.0), (0.0, 5.0), (5.0, 0.0), (5.0, 5.0)]
    assert _clip(square, (20.0, 20.0, 30.0, 30.0)) == []


def test_simplifying_drops_points_closer_than_the_tolerance_and_keeps_corners() -> None:
    wiggle = [(float(i), 0.05 * (-1) ** i) for i in range(11)] + [(10.0, 10.0)]
    simple = _simplify(wiggle, 0.25)
    assert simple == [(0.0, 0.05), (10.0, 0.05), (10.0, 10.0)]


def test_the_theatre_land_is_cached_clipped_and_light() -> None:
    land = theatre_land(EUROPE)
    assert theatre_land(EUROPE) is land  # cached in-process
    paths = dict(land)
    assert set(paths) == {"main", "americas", "east-indies"}
    # Every coordinate lies in its frame (clipped) and the whole stays light for a page.
    numbers = [float(n) for n in paths["main"].replace("M", " ").replace("l", " ").replace("z", " ").split()]
    assert numbers and all(abs(n) <= EUROPE.width for n in numbers)
    total = sum(len(p) for p in paths.values())
    assert 20_000 < total < 80_000, total
    # A coarser tolerance gives fewer bytes: simplification does its work.
    assert len(frame_land(EUROPE.main, 2.0)) < len(paths["main"]) / 2


def test_a_frame_is_fitted_to_its_width_with_its_own_height() -> None:
    frame = Frame("f", "", (-10.0, 35.0, 10.0, 45.0), Mercator(0.0), 100.0, 50.0, 300.0)
    left, top, right, bottom = frame.rect
    assert (left, top, right) == (100.0, 50.0, 400.0)
    x, _y = frame.project(-10.0, 40.0)
    assert x == pytest.approx(100.0)
    assert frame.project(0.0, 45.0)[1] == pytest.approx(50.0)
    assert bottom == pytest.approx(frame.project(0.0, 35.0)[1])
