"""The layout check (scripts/layout_check.py, run by ``make checks``) finds each kind of breach."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

CHECK = Path(__file__).resolve().parent.parent / "scripts" / "layout_check.py"


def _layout_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layout_check", CHECK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_each_kind_of_breach_is_named_with_its_size(tmp_path: Path) -> None:
    check = _layout_check()
    _write(tmp_path, "campaign/__init__.py", "")
    _write(tmp_path, "campaign/long.py", "x = 1\n" * 501)
    _write(tmp_path, "campaign/short.py", "x = 1\n" * 500)
    line = "    x = 1\n"
    # def + 80 body lines = 81 lines; def + 79 body lines = 80 lines, the most allowed.
    _write(tmp_path, "campaign/functions.py", "def too_long():\n" + line * 80 + "\n\ndef fits():\n" + line * 79)
    _write(tmp_path, "campaign/map.py", "")
    _write(tmp_path, "campaign/map_items.py", "")
    _write(tmp_path, "campaign/backup/__init__.py", "")
    _write(tmp_path, "campaign/backup_rows.py", "")
    _write(tmp_path, "campaign/migrations/0001_initial.py", "x = 1\n" * 900)
    modules = check.app_modules(tmp_path)

    assert check.long_modules(tmp_path, modules) == ["campaign/long.py: 501 lines (at most 500)"]
    assert check.long_functions(tmp_path, modules) == ["campaign/functions.py:1 too_long: 81 lines (at most 80)"]
    assert check.prefixed_names(tmp_path, modules) == [
        "campaign/backup_rows: named after campaign/backup (make backup a package)",
        "campaign/map_items: named after campaign/map (make map a package)",
    ]


def test_a_clean_tree_has_no_breach(tmp_path: Path) -> None:
    check = _layout_check()
    _write(tmp_path, "campaign/__init__.py", "")
    _write(tmp_path, "campaign/map/__init__.py", "")
    _write(tmp_path, "campaign/map/items.py", "def f():\n    return 1\n")
    _write(tmp_path, "campaign/mapping.py", "")
    modules = check.app_modules(tmp_path)
    found = (
        check.long_modules(tmp_path, modules)
        + check.long_functions(tmp_path, modules)
        + check.prefixed_names(tmp_path, modules)
    )
    assert found == []
