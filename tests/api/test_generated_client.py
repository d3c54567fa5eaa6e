"""A client generated from the OpenAPI schema parses every response of a played turn (issue 12).

openapi-python-client (pinned below) is installed once into a throwaway virtualenv in the user's cache
directory (``${XDG_CACHE_HOME:-~/.cache}/admiralty/``), named by a hash of the pin and the Python
interpreter so later runs and other clones on the machine reuse it; it generates a package from the
schema ``manage.py spectacular`` writes, and tests/api/generated_client_driver.py, run in that
virtualenv with only the generated package and three tokens (Britain's player, France's, the GM's),
plays a turn against a live server with a real Celery worker, calling every operation of the schema
and checking every body it parses: the turn has a fireship attack and a battle fought on the table,
so that the battle detail gives every kind of stored report.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from battles.models import Battle, TabletopBattle
from campaign.accounts.api_tokens import api_token_create
from campaign.models import NationTurn, Turn
from campaign.tabletop.services import table_mark
from campaign.tasks import turns_sweep
from campaign.turn.lifecycle import nation_ready_set
from tests.factories import PortFactory
from tests.support.sieges import ashore, garrison
from tests.worlds import World, fleet, two_sallies, zone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

#: The generator, pinned: a new version may name models differently. Its dependencies bring what the
#: generated package needs at run time (httpx, attrs).
GENERATOR = "openapi-python-client==0.29.1"
DRIVER = Path(__file__).resolve().parent / "generated_client_driver.py"
PACKAGE = "admiralty_client"
# No post-generation hooks: they would run ruff from the PATH, and the package is only imported.
GENERATOR_CONFIG = f"package_name_override: {PACKAGE}\npost_hooks: []\n"


def generator_home() -> Path:
    """Where the generator's virtualenvs live: the user's cache directory (XDG), not the checkout, so
    that every clone on the machine (CI makes a fresh one for each run) shares one install."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "admiralty" / "generated-client"


def generator_venv() -> Path:
    """The throwaway virtualenv holding the generator, made once per pin and Python interpreter; a
    run that cannot install it from PyPI fails (CI has PyPI), naming pip's complaint."""
    # The interpreter's own prefix too: a virtualenv runs on the interpreter it was made from.
    key = hashlib.sha256(f"{GENERATOR} {sys.version} {sys.base_prefix}".encode()).hexdigest()[:12]
    home = generator_home()
    venv = home / f"venv-{key}"
    stamp = venv / ".installed"
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two pytest runs (or clones) at once install it once
        if stamp.exists() and (venv / "bin" / "python").resolve().exists():
            return venv
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, capture_output=True)
        started = time.monotonic()
        pip = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", GENERATOR],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if pip.returncode != 0:
            pytest.fail(
                f"Could not install {GENERATOR} from PyPI into {venv} (this test needs PyPI):\n{pip.stderr[-3000:]}"
            )
        stamp.write_text(f"{GENERATOR} installed in {time.monotonic() - started:.1f} s\n")
    return venv


def generate_client(venv: Path, where: Path) -> None:
    """The schema as ``manage.py spectacular`` writes it, and the package generated from it; any warning
    of the generator (a part of the schema it could not turn into code) fails the test."""
    call_command("spectacular", "--format", "openapi-json", "--file", str(where / "schema.json"))
    (where / "generator.yaml").write_text(GENERATOR_CONFIG)
    generated = subprocess.run(
        [
            str(venv / "bin" / "openapi-python-client"),
            "generate",
            "--path",
            str(where / "schema.json"),
            "--meta",
            "none",
            "--config",
            str(where / "generator.yaml"),
            "--output-path",
            str(where / PACKAGE),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0 and "Warning" not in generated.stdout, generated.stdout + generated.stderr


def played_world() -> World:
    """Two sallies for Britain's player to read: from Brest (fought by the dice) and from Calais (the
    GM sent the Channel to the table); a British squadron with fireships blockading Cherbourg, where
    French ships lie (the driver orders the attack); a battle on the table Britain asked for in the
    North Sea (none comes); Portsmouth besieged by France, its storming sent to the table; France ready,
    so Britain's ready ends the turn. Each nation has a player
    and the campaign a GM."""
    world = two_sallies()
    users = get_user_model().objects
    password = "a-long-test-password"
    world.gb.player = users.create_user("nelson", "nelson@example.org", password)
    world.gb.save(update_fields=["player"])
    world.fr.player = users.create_user("villeneuve", "villeneuve@example.org", password)
    world.fr.save(update_fields=["player"])
    world.campaign.gm = users.create_user("admiralty", "admiralty@example.org", password)
    world.campaign.save(update_fields=["gm"])
    cherbourg = PortFactory.create(
        owner=world.fr, sea_zone=zone(world, "approaches"), key="cherbourg", name="Cherbourg", dockyard=False
    )
    fleet(world, world.fr, "Cherbourg Squadron", "cherbourg", [("3rd-74", 2)])
    fleet(
        world,
        world.gb,
        "Fireship Squadron",
        "approaches",
        [("3rd-74", 1), ("fireship", 2)],
        posture="blockade",
        blockade_port=cherbourg,
    )
    table_mark(campaign=world.campaign, place="channel")
    # Britain asks for a battle where its own ships are (a nation asks only where it has forces).
    fleet(world, world.gb, "North Sea Squadron", "north-sea", [("frigate", 1)])
    table_mark(campaign=world.campaign, place="north-sea", nation=world.gb)
    # France's two units ashore before Portsmouth (Britain's one in garrison): its storming, marked for
    # the table, holds the turn after phase 6; Britain enters the result through the API.
    garrison(world.portsmouth, world.gb, 1)
    ashore(world.portsmouth, world.fr, 2)
    table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    nation_ready_set(nation=world.fr, ready=True)
    return world


def token(user: Any) -> str:
    return api_token_create(user_id=user.pk, name="generated client").secret


def test_a_generated_client_parses_every_response_of_a_played_turn(
    live_server: Any, start_worker: Any, tmp_path: Path
) -> None:
    venv = generator_venv()
    generate_client(venv, tmp_path)
    world = played_world()
    tokens = [token(world.gb.player), token(world.fr.player), token(world.campaign.gm)]
    start_worker("generated-client")
    driver = subprocess.Popen(
        [
            *(str(venv / "bin" / "python"), str(DRIVER), "--url", live_server.url, "--campaign", world.campaign.slug),
            *("--token", tokens[0], "--rival-token", tokens[1], "--gm-token", tokens[2]),
            *("--schema", str(tmp_path / "schema.json"), "--package", PACKAGE, "--timeout", "120"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Once Britain is ready, sweep as beat would (tests run no beat) until the driver has seen the turn
    # resolve and read its results.
    started = time.monotonic()
    ready = NationTurn.objects.filter(turn=world.turn, nation=world.gb, ready=True)
    while driver.poll() is None and not ready.exists() and time.monotonic() - started < 90:
        time.sleep(0.2)
    while driver.poll() is None and time.monotonic() - started < 180:
        turns_sweep.delay().get(timeout=30)
        time.sleep(0.5)
    out = driver.communicate(timeout=30)[0]
    assert driver.returncode == 0, out
    assert "MISMATCH" not in out and "Turn 1 resolved" in out, out
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVED
    # The sally from Brest (by the dice), the one from Calais (at the table), the fireships at Cherbourg:
    # each battle's detail read, one of each kind of stored report the turn gives.
    assert "Report of turn 1: " in out and "The battle at Calais was settled at the table" in out, out
    assert "The storming of Portsmouth was settled at the table" in out, out
    reports = out.split("Stored reports read: ")[1].split(".")[0].split(", ")
    assert {"EngagementReport", "FireshipReport", "TabletopReport"} <= set(reports), out
    assert Battle.objects.filter(turn=world.turn, kind=Battle.Kind.FIRESHIPS, place="cherbourg").exists()
    assert TabletopBattle.objects.get(turn=world.turn, kind="storming").status == TabletopBattle.Status.APPLIED
    world.portsmouth.refresh_from_db()
    assert world.portsmouth.owner_id == world.gb.pk  # entered as held
