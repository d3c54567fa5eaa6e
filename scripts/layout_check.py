"""The layout's static rules (README "Layout", docs/architecture.md), checked by ``make checks``.

* no module of an app longer than 500 lines (the scenario's data tables excepted);
* no function or method longer than 80 lines, from its ``def`` to its last line;
* no module whose name carries a sibling module's or package's name as a prefix (``map.py`` beside
  ``map_items.py``): such a family is a package.

Prints each breach with its size and exits 1 if there is any.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

APPS = ("campaign", "battles", "fleets", "ports", "rules", "config")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
# Data, not code: the europe-1805 scenario's ship and admiral tables with their sources.
DATA_TABLES = {Path("campaign/scenarios/build_europe_1805.py")}


def app_modules(root: Path) -> list[Path]:
    """Every Python module of the apps, migrations left out (Django writes them)."""
    return sorted(
        path.relative_to(root) for app in APPS for path in (root / app).rglob("*.py") if "migrations" not in path.parts
    )


def long_modules(root: Path, modules: list[Path]) -> list[str]:
    found = []
    for module in modules:
        lines = len((root / module).read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES and module not in DATA_TABLES:
            found.append(f"{module}: {lines} lines (at most {MAX_MODULE_LINES})")
    return found


def long_functions(root: Path, modules: list[Path]) -> list[str]:
    found = []
    for module in modules:
        tree = ast.parse((root / module).read_text(encoding="utf-8"), filename=str(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    found.append(f"{module}:{node.lineno} {node.name}: {lines} lines (at most {MAX_FUNCTION_LINES})")
    return found


def prefixed_names(root: Path, modules: list[Path]) -> list[str]:
    """Names in one folder where one is another's name followed by an underscore."""
    names_by_folder: dict[Path, set[str]] = {}
    for module in modules:
        folder = module.parent
        names = names_by_folder.setdefault(folder, set())
        if module.stem != "__init__":
            names.add(module.stem)
        elif folder.parent != Path("."):
            names_by_folder.setdefault(folder.parent, set()).add(folder.name)
    found = []
    for folder, names in sorted(names_by_folder.items()):
        for name in sorted(names):
            for other in sorted(names):
                if other.startswith(f"{name}_"):
                    found.append(f"{folder}/{other}: named after {folder}/{name} (make {name} a package)")
    return found


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    modules = app_modules(root)
    breaches = long_modules(root, modules) + long_functions(root, modules) + prefixed_names(root, modules)
    for breach in breaches:
        print(breach)
    print(f"layout: {len(modules)} modules read, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
