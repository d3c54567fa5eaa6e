"""``python -m bench [name ...]`` runs every benchmark (or the named ones) and prints the figures."""

import importlib
import sys

from bench import BENCHMARKS


def main(argv: list[str]) -> None:
    wanted = [f"bench.{n}" for n in argv] or list(BENCHMARKS)
    for name in wanted:
        print(f"== {name} ==", flush=True)
        importlib.import_module(name).main()


if __name__ == "__main__":
    main(sys.argv[1:])
