"""``.env.example`` works when copied to ``.env`` as it says (issue 9).

base.py reads ``.env`` with django-environ, which keeps everything after ``=`` as the value: an
inline comment would become part of it (the secret key turned into comment text, every command
crashed). The test reads the file the same way and starts Django on it.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import environ
import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / ".env.example"


def _read_like_settings(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The variables as config/settings/base.py would read them from a copy named .env."""
    loaded: dict[str, str] = {}
    monkeypatch.setattr(environ.Env, "ENVIRON", loaded)
    environ.Env.read_env(EXAMPLE, overwrite=True)
    return loaded


def test_no_value_carries_a_comment(monkeypatch: pytest.MonkeyPatch) -> None:
    values = _read_like_settings(monkeypatch)
    assert values, "the example sets some variables"
    for name, value in values.items():
        assert "#" not in value, f"{name}={value!r}: an inline comment became part of the value"
        assert value == value.strip(), f"{name}={value!r}: surrounding spaces would be part of the value"


def test_every_variable_the_settings_read_is_listed() -> None:
    listed = EXAMPLE.read_text(encoding="utf-8")
    settings_text = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "config" / "settings").glob("*.py"))

    read = set(re.findall(r'env(?:\.\w+)?\("([A-Z_]+)"', settings_text)) - {
        "TEST_DATABASE_NAME",
    }
    missing = sorted(name for name in read if f"{name}=" not in listed)
    assert not missing, f"not in .env.example: {missing}"


def test_django_starts_with_the_example_as_its_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    values = _read_like_settings(monkeypatch)
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=keep | values,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
