"""``python -m bench [name [--option ...] ...]`` runs every benchmark (or the named ones) and prints the
figures; options after a name go to that benchmark (``python -m bench fleet-of-campaigns --workers 2``)."""

import importlib
import sys

from bench import BENCHMARKS, ON_DEMAND


def main(argv: list[str]) -> None:
    wanted: list[tuple[str, list[str]]] = []
    for word in argv:
        if word.startswith("-") or (wanted and wanted[-1][1] and wanted[-1][1][-1].startswith("--")):
            if not wanted:
                sys.exit(f"{word}: options follow the name of a benchmark, e.g. fleet-of-campaigns --workers 2")
            wanted[-1][1].append(word)
        else:
            wanted.append((f"bench.{word.replace('-', '_')}", []))
    for name, options in wanted or [(name, []) for name in BENCHMARKS]:
        if name not in BENCHMARKS + ON_DEMAND:
            known = ", ".join(n.removeprefix("bench.").replace("_", "-") for n in BENCHMARKS + ON_DEMAND)
            sys.exit(f"{name.removeprefix('bench.')}: no such benchmark; there are {known}")
        print(f"== {name} ==", flush=True)
        module = importlib.import_module(name)
        module.main(options) if options else module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
