"""examples/bot.py plays a turn against a live server with a real Celery worker (issue 12): it reads the
map, orders a move toward a known enemy and a lay-down, marks ready, waits with conditional GETs for
the turn to resolve and prints the report — with nothing but the standard library and a token."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from campaign.api_tokens import api_token_create
from campaign.models import NationTurn, Turn
from campaign.tasks import turns_sweep
from campaign.turn.lifecycle import nation_ready_set
from tests.web.fog_worlds import fog_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

BOT = Path(__file__).resolve().parent.parent.parent / "examples" / "bot.py"


def test_the_example_bot_plays_a_turn_and_prints_its_report(live_server: Any, start_worker: Any) -> None:
    fw = fog_world()
    token = api_token_create(user_id=fw.nelson.pk, name="bot").secret
    nation_ready_set(nation=fw.w.fr, ready=True)  # France has played; the bot's ready ends the turn
    start_worker("bot")
    bot = subprocess.Popen(
        [
            sys.executable,
            str(BOT),
            "--url",
            live_server.url,
            "--campaign",
            fw.campaign.slug,
            "--token",
            token,
            "--interval",
            "0.3",
            "--timeout",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Once Britain is ready, let the bot poll an unchanged turn for a while (each poll a 304), then
    # sweep as beat would (tests run no beat) until the bot has seen the turn resolve.
    started = time.monotonic()
    ready = NationTurn.objects.filter(turn__campaign=fw.campaign, nation=fw.w.gb, ready=True)
    while bot.poll() is None and not ready.exists() and time.monotonic() - started < 60:
        time.sleep(0.2)
    time.sleep(1.5)
    while bot.poll() is None and time.monotonic() - started < 150:
        turns_sweep.delay().get(timeout=30)
        time.sleep(0.5)
    out = bot.communicate(timeout=30)[0]
    assert bot.returncode == 0, out
    assert "Great Britain (GB), turn 1" in out or "(GB), turn 1" in out, out
    assert "ordered: Order 1 (move" in out and "heads for" in out, out
    assert "ordered: Order 2 (lay_down" in out and "Laying down at Portsmouth" in out, out
    assert "Marked ready" in out and "Turn 1 resolved" in out and "Report of turn 1" in out, out
    polls = out.split("Turn 1 resolved (")[1]
    assert int(polls.split(" answered 304")[0].split(", ")[1]) >= 1, "waited with conditional GETs"
    assert Turn.objects.get(campaign=fw.campaign, number=1).status == Turn.Status.RESOLVED
