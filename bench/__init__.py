"""Benchmarks for ``make bench``: ratios, medians and query counts measured in one run.

Each module in ``BENCHMARKS`` exposes ``main() -> None`` (``main(argv)`` if it takes options) and
prints its own figures.
"""

BENCHMARKS: tuple[str, ...] = ("bench.battles", "bench.turns", "bench.web", "bench.fleet_of_campaigns", "bench.soak")
