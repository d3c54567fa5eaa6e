"""Benchmarks for ``make bench``: ratios, medians and query counts measured in one run.

Each module in ``BENCHMARKS`` exposes ``main() -> None`` (``main(argv)`` if it takes options) and
prints its own figures.
"""

BENCHMARKS: tuple[str, ...] = ("bench.battles", "bench.turns", "bench.web", "bench.fleet_of_campaigns")
# Run only when named (``python -m bench first-start``, ``python -m bench soak``): not part of ``make bench``.
ON_DEMAND: tuple[str, ...] = ("bench.first_start", "bench.soak")
