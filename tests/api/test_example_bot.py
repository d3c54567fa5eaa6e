"""examples/bot.py plays two turns against a live server with a real Celery worker (issues 12 and 30):
from the API alone — who is at war, the rule numbers, each fleet's legal moves, orders validated before
they are stored — it moves toward the enemy, lays down a ship, marks ready, waits with conditional
GETs for each turn to resolve and prints the report; with nothing but the standard library and a token."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from campaign.accounts.api_tokens import api_token_create
from campaign.models import NationTurn, Order, Turn
from campaign.tasks import turns_sweep
from campaign.turn.lifecycle import nation_ready_set
from tests.web.fog_worlds import fog_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

BOT = Path(__file__).resolve().parent.parent.parent / "examples" / "bot.py"


def test_the_example_bot_is_short() -> None:
    assert len(BOT.read_text().splitlines()) < 150


def test_the_example_bot_plays_two_turns_and_prints_their_reports(live_server: Any, start_worker: Any) -> None:
    fw = fog_world()
    token = api_token_create(user_id=fw.nelson.pk, name="bot").secret
    start_worker("bot")
    args = ["--url", live_server.url, "--campaign", fw.campaign.slug, "--token", token, "--turns", "2"]
    bot = subprocess.Popen(
        [sys.executable, str(BOT), *args, "--interval", "0.3", "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # France plays each turn as it opens (others have no player); once Britain is ready, sweep as beat
    # would (tests run no beat) until the turn resolves.
    started = time.monotonic()
    while bot.poll() is None and time.monotonic() - started < 240:
        for turn in Turn.objects.filter(campaign=fw.campaign, status=Turn.Status.OPEN):
            if not NationTurn.objects.filter(turn=turn, nation=fw.w.fr, ready=True).exists():
                nation_ready_set(nation=fw.w.fr, ready=True)
            if NationTurn.objects.filter(turn=turn, nation=fw.w.gb, ready=True).exists():
                time.sleep(1.0)  # the bot polls an unchanged turn meanwhile: 304s
                turns_sweep.delay().get(timeout=30)
        time.sleep(0.3)
    out = bot.communicate(timeout=30)[0]
    assert bot.returncode == 0, out
    assert "Great Britain (GB), turn 1" in out and "Great Britain (GB), turn 2" in out, out
    assert "At war with: FR;" in out, out  # the Dutch are at peace, Portugal an ally: not targets
    assert "Channel Fleet heads for Bay of Biscay" in out, out
    assert "ordered: Order 1 (move, fleet 'Channel Fleet'): sea → biscay" in out, out
    assert "Laying down a 3rd rate (74/80) (10 EP) at Portsmouth." in out, out
    assert "Turn 1 resolved" in out and "Report of turn 1 (Spring 1805)" in out, out
    assert "Turn 2 resolved" in out and "Report of turn 2" in out, out
    polls = out.split("Turn 1 resolved (")[1]
    assert int(polls.split(" answered 304")[0].split(", ")[1]) >= 1, "waited with conditional GETs"
    assert Turn.objects.get(campaign=fw.campaign, number=2).status == Turn.Status.RESOLVED
    assert Order.objects.filter(turn__number=1, nation=fw.w.gb, kind="lay_down").count() == 1
