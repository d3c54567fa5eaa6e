"""Property tests: the management commands fed arbitrary text (NUL, lone surrogates, huge numbers, deep
JSON) either do their job or refuse with exit status 2 naming the problem — never a traceback — and a
refusal changes nothing in the database (issue 9). ``import_campaign`` has its own in
test_hostile_properties.py.

Commands run in-process (call_command): a refusal is a CommandError with ``returncode`` 2, exactly what
``manage.py`` turns into "CommandError: …" and exit 2; anything else raised would be a traceback.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from campaign.models.audit import AuditAction, AuditEntry
from tests.security.people import fingerprint
from tests.security.test_hostile_properties import JSON_VALUES, NASTY_TEXT
from tests.web.fog_worlds import fog_world

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BOUNDED = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
HUGE_NUMBERS = st.sampled_from(["9" * 30, "-" + "9" * 30, "1e309", "nan", "inf", "-1", "0", "2147483648"])
ARG = NASTY_TEXT.filter(lambda t: not t.startswith("-")) | HUGE_NUMBERS
DOCUMENT = st.one_of(NASTY_TEXT, JSON_VALUES.map(lambda v: json.dumps(v, ensure_ascii=True)))


@pytest.fixture
def world() -> Any:
    return fog_world()


def _run(*args: str) -> bool:
    """True if the command did its job; False if it refused with exit 2. Anything else fails the test."""
    try:
        call_command(*args, stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as refused:
        # A bad option value is argparse's to refuse: in-process Django raises "Error: …" with
        # returncode 1, where manage.py has argparse print the usage and exit 2.
        usage = str(refused).startswith("Error: ")
        assert refused.returncode == 2 or usage, (args, refused.returncode, str(refused))
        assert str(refused).strip(), "a refusal names the problem"
        return False
    except SystemExit as exited:  # simulate_battle prints one line and exits itself
        assert exited.code == 2, (args, exited.code)
        return False
    return True


def _refused_changes_nothing(*args: str) -> None:
    before = fingerprint()
    if not _run(*args):
        assert fingerprint() == before, args


def _file(tmp: Path, text: str) -> str:
    path = tmp / "input.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


@BOUNDED
@given(nation=st.sampled_from(["GB", "FR"]) | ARG, text=DOCUMENT)
def test_submit_orders(world: Any, tmp_path: Path, nation: str, text: str) -> None:
    _refused_changes_nothing("submit_orders", "channel-1805", "--nation", nation, _file(tmp_path, text))


@BOUNDED
@given(slug=st.just("channel-1805") | ARG, action=st.sampled_from(["pause", "resume", "extend"]), by=ARG)
def test_campaign_control(world: Any, slug: str, action: str, by: str) -> None:
    _refused_changes_nothing("campaign_control", slug, action, "--by", by)


@BOUNDED
@given(slug=ARG, timeout=ARG)
def test_resolve_turn(world: Any, slug: str, timeout: str) -> None:
    _refused_changes_nothing("resolve_turn", slug, "--timeout", timeout)


@BOUNDED
@given(timeout=HUGE_NUMBERS | ARG)
@example(timeout="1")  # a dry run that is done (and audited) every time, whatever Hypothesis draws
def test_resolve_turn_dry_run_of_a_real_campaign(world: Any, timeout: str) -> None:
    audit = AuditEntry.objects.filter(action=AuditAction.TURN_DRY_RUN)
    before, looks = _without_audit(fingerprint()), audit.count()
    done = _run("resolve_turn", "channel-1805", "--dry-run", "--timeout", timeout)
    # A dry run writes nothing of the game, done or refused; a GM's look at the turn is audited once
    # when it was done (campaign.gm.actions), never when the command refused its arguments.
    assert _without_audit(fingerprint()) == before
    assert audit.count() == looks + (1 if done else 0)


def _without_audit(fingerprint: tuple[Any, ...]) -> tuple[Any, ...]:
    counts, *rest = fingerprint
    return (tuple(c for c in counts if c[0] != "campaign.AuditEntry"), *rest)


@BOUNDED
@given(name=st.just("europe-1805") | ARG, slug=ARG, display=ARG, seed=HUGE_NUMBERS | ARG)
def test_load_scenario(world: Any, name: str, slug: str, display: str, seed: str) -> None:
    _refused_changes_nothing("load_scenario", name, "--slug", slug, "--name", display, "--seed", seed)


@BOUNDED
@given(slug=st.just("channel-1805") | ARG, turn=HUGE_NUMBERS | ARG)
def test_export_campaign(world: Any, slug: str, turn: str) -> None:
    _refused_changes_nothing("export_campaign", slug, "--turn", turn)


@BOUNDED
@given(text=DOCUMENT, option=st.sampled_from(["--seed", "--dice", "--runs"]), value=ARG)
# Each once crashed simulate_battle with a traceback: deep nesting, an integer too long to convert,
# a file that is not UTF-8 (the lone surrogate is written as its undecodable bytes).
@example(text="[" * 5000, option="--seed", value="1")
@example(text="9" * 5000, option="--seed", value="1")
@example(text="\ud800", option="--seed", value="1")
def test_simulate_battle(world: Any, tmp_path: Path, text: str, option: str, value: str) -> None:
    _refused_changes_nothing("simulate_battle", _file(tmp_path, text), option, value)


@BOUNDED
@given(slug=st.just("channel-1805") | ARG, turn=HUGE_NUMBERS | ARG, reason=ARG)
def test_revert_campaign(world: Any, slug: str, turn: str, reason: str) -> None:
    _refused_changes_nothing("revert_campaign", slug, "--turn", turn, "--reason", reason)


@BOUNDED
@given(slug=ARG, battle=HUGE_NUMBERS | ARG, seed=HUGE_NUMBERS | ARG, timeout=HUGE_NUMBERS)
def test_refight_battle_and_rerun_turn(world: Any, slug: str, battle: str, seed: str, timeout: str) -> None:
    """Bad text is refused before a worker is looked for (the real campaign's runs are the worker tests')."""
    _refused_changes_nothing("refight_battle", slug, battle, "--reason", "x", "--seed", seed, "--timeout", timeout)
    _refused_changes_nothing("rerun_turn", slug, "--seed", seed, "--reason", "x", "--timeout", timeout)
