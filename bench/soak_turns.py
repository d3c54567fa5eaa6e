"""How the soak gets a turn resolved and its table battles settled (bench.soak): the GM's command, every
player ready (the sweep resolves it early), a re-run, or a worker killed part-way; a battle at the table
fought automatically, or entered by one side and confirmed, or disputed and decided by the GM."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from bench.soak_checks import tables_waiting
from bench.soak_web import ROOT, Broken

if TYPE_CHECKING:
    from bench.soak import CampaignSoak

#: The longest a turn may take from its claim to resolved (tables settled meanwhile), in seconds.
TURN_LIMIT = 150.0


def open_number(run: CampaignSoak) -> int | None:
    from campaign.models import Turn

    return (
        Turn.objects.filter(campaign_id=run.campaign_id, status=Turn.Status.OPEN)
        .values_list("number", flat=True)
        .first()
    )


def turn_status(run: CampaignSoak, number: int) -> str:
    from campaign.models import Turn

    return Turn.objects.filter(campaign_id=run.campaign_id, number=number).values_list("status", flat=True).get()


def settle(run: CampaignSoak, number: int) -> None:
    """Wait for turn ``number`` to be resolved, settling every battle it holds at the table."""
    end = time.monotonic() + TURN_LIMIT
    settled: set[int] = set()
    while time.monotonic() < end:
        status = turn_status(run, number)
        if status == "resolved":
            return
        if status == "table":
            for table in tables_waiting(run.campaign_id):
                if table.pk not in settled and table.status in ("waiting", "entered", "confirmed", "disputed"):
                    table_settle(run, table.pk)
                    settled.add(table.pk)
        dead = run.env.processes.dead()
        if dead:
            raise Broken(f"{dead[0]} exited: {run.env.processes.tail(dead[0])}")
        time.sleep(0.1)
    from campaign.models import Turn, TurnPhase

    turn = Turn.objects.get(campaign_id=run.campaign_id, number=number)
    done = sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
    raise Broken(
        f"turn {number} still {turn.status} after {TURN_LIMIT:.0f} s (phases done {done}; error {turn.error[:500]!r}; "
        f"tables {[(t.pk, t.kind, t.status) for t in tables_waiting(run.campaign_id)]})"
    )


def resolve(run: CampaignSoak, how: str) -> str:
    """Resolve the open turn one of the ways a campaign's turns end; returns how it went."""
    number = open_number(run)
    if number is None:
        return "no open turn"
    if how == "ready":
        for player in run.players:
            if run.rng.random() < 0.5:
                player.api.call("POST", f"{run.api}/ready/", {"ready": True})
            else:
                form, _ = player.browser.form(run.page, "ready")
                if form is not None:
                    player.browser.submit(f"{run.page}ready/", form, {"ready": "1"})
                else:
                    player.api.call("POST", f"{run.api}/ready/", {"ready": True})
        end = time.monotonic() + 8
        while time.monotonic() < end and turn_status(run, number) == "open":
            time.sleep(0.1)
        if turn_status(run, number) == "open":  # the GM is asked (a nation without orders), or paused
            how = "command"
    if how == "command":
        run.command("resolve_turn", run.slug, "--timeout", "1", refusals_ok=True, timeout_ok=True)
    elif how == "rerun":
        run.command("rerun_turn", run.slug, "--timeout", "1", refusals_ok=True, timeout_ok=True)
    elif how == "kill":
        kill_mid_turn(run, number)
    if turn_status(run, number) == "open":
        run.command("resolve_turn", run.slug, "--timeout", "1", timeout_ok=True)
    settle(run, number)
    return how


def kill_mid_turn(run: CampaignSoak, number: int) -> None:
    """The GM resolves the turn from a shell (``manage.py resolve_turn``, another process); part-way
    through, the worker is killed (SIGKILL) and a new one started: the sweep hands the turn to it once
    the dead worker's lease runs out, and the command sees the turn resolved."""
    from campaign.models import TurnPhase

    processes = run.env.processes
    command = subprocess.Popen(
        [sys.executable, "manage.py", "resolve_turn", run.slug, "--timeout", str(TURN_LIMIT)],
        cwd=ROOT,
        env=processes.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    phases_before_kill = run.rng.randint(0, 4)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        status = turn_status(run, number)
        done = TurnPhase.objects.filter(turn__campaign_id=run.campaign_id, turn__number=number).count()
        if (status in ("resolving", "table") and done >= phases_before_kill) or status == "resolved":
            break
        time.sleep(0.01)
    mid = turn_status(run, number) != "resolved"
    for node in processes.workers():
        processes.kill(node)
    run.env.stats["kills"] += 1
    run.env.stats["kills_mid_turn"] += int(mid)
    processes.worker()
    try:
        settle(run, number)
        out, _ = command.communicate(timeout=TURN_LIMIT)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait(10)
    if command.returncode != 0:
        raise Broken(f"resolve_turn exited {command.returncode} after the worker was killed: {out.decode()[-1500:]}")


def table_settle(run: CampaignSoak, table_id: int) -> None:
    """One battle held at the table: fought automatically by the GM, or its result entered by a side's
    player and confirmed by the other, or disputed and decided by the GM, then approved."""
    gm = run.gm_api
    url = f"{run.api}/table/{table_id}/"
    state = gm.call("GET", url).json()
    storming = state.get("kind") == "storming"
    players = {}
    for player in run.players:
        mine = player.api.call("GET", url)
        if mine.status_code == 200 and mine.json().get("my_side") is not None:
            players[mine.json()["my_side"]] = player
    way = run.rng.choice(("automatic", "entered", "entered", "disputed", "gm"))
    run.env.stats[f"tables_{way}"] += 1
    if way == "automatic":
        form, _ = run.gm_browser.form(f"{run.page}table/{table_id}/", "action")
        run.gm_browser.submit(f"{run.page}table/{table_id}/", form or _no_form(table_id), {"action": "automatic"})
        return
    body = storming_result(run.rng, state) if storming else battle_result(run.rng, state)
    target = url + ("storming-result/" if storming else "result/")
    enterer = players.get(0) or players.get(1)
    if way in ("entered", "disputed") and enterer is not None:
        entered = enterer.api.call("POST", target, body)
        if entered.status_code == 400 and body.get("held_field") is not None:
            body = {**body, "held_field": None}  # the side chosen kept no ship fit to hold it: neither did
            entered = enterer.api.call("POST", target, body)
        if entered.status_code != 200:
            raise Broken(f"a valid result was refused ({entered.status_code}): {entered.content[:800]!r} for {body}")
        other = players.get(1 - entered.json()["my_side"])
        if other is not None and way == "entered":
            other.api.call("POST", url + "confirm/")
        elif other is not None:
            page = f"{run.page}table/{table_id}/"
            form, _ = other.browser.form(page, "reason")
            if form is not None:
                other.browser.submit(page, form, {"action": "dispute", "reason": "Our frigate was never taken."})
    if gm.call("GET", url).json().get("status") not in ("confirmed",):
        entered = gm.call("POST", target, body)  # the GM's entry stands for both sides
        if entered.status_code == 400 and body.get("held_field") is not None:
            body = {**body, "held_field": None}  # the side chosen kept no ship fit to hold it: neither did
            entered = gm.call("POST", target, body)
        if entered.status_code != 200:
            raise Broken(f"the GM's valid result was refused ({entered.status_code}): {entered.content[:800]!r}")
    approved = gm.call("POST", url + "approve/")
    if approved.status_code != 200:
        raise Broken(f"approving table battle {table_id}: {approved.status_code} {approved.content[:800]!r}")


def _no_form(table_id: int) -> Any:
    raise Broken(f"the GM's page of table battle {table_id} has no form to fight it automatically")


def battle_result(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for ship in state["ships"]:
        # "intact": as it came in (a ship already damaged may not come out better); sunk is always possible.
        fate = rng.choice(("intact", "intact", "intact", "intact", "sunk"))
        if ship.get("captors") and rng.random() < 0.1:
            rows.append(
                {"ship": ship["id"], "fate": "captured", "captured_by": ship["captors"][0], "taken_in": "damaged"}
            )
        else:
            rows.append({"ship": ship["id"], "fate": fate})
    return {"ships": rows, "admirals_lost": [], "held_field": rng.choice((0, 1, None))}


def storming_result(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    storming = state.get("storming") or {}
    garrison = int(storming.get("garrison") or 0)
    lost = {b["code"]: rng.randint(0, int(b["units"])) for b in storming.get("besiegers", [])}
    garrison_lost = rng.randint(0, garrison)
    return {
        "garrison_lost": garrison_lost,
        "besiegers_lost": lost,
        "port_taken": garrison_lost == garrison,  # §7: with no garrison unit left the port is taken
    }
