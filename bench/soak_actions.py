"""The soak's steps (bench.soak): each takes the campaign being played and does one thing a player or
the GM does, through the API, a web form, a management command or the admin. The database is read
only to choose what to do (which fleet, which place), as a player reads the map."""

from __future__ import annotations

import json
import tempfile
from typing import TYPE_CHECKING

from bench import soak_turns
from bench.soak_turns import open_number, settle, turn_status
from bench.soak_web import Broken, forms_of

if TYPE_CHECKING:
    from bench.soak import CampaignSoak, Player


def _some_players(run: CampaignSoak) -> list[Player]:
    return run.rng.sample(run.players, run.rng.randint(1, len(run.players)))


def orders(run: CampaignSoak) -> None:
    """Some players give their candidate orders for the open turn (every kind; some are refused): one at
    a time through the API, or the whole list through ``submit_orders``, all or nothing."""
    from campaign.models import Campaign, Nation
    from tests.support.random_orders import World, nation_orders

    number = open_number(run)
    if number is None:
        return
    world = World.read(Campaign.objects.get(pk=run.campaign_id))
    for player in _some_players(run):
        nation = Nation.objects.get(campaign_id=run.campaign_id, code=player.code)
        bodies = nation_orders(world, nation, number + run.step)
        if run.rng.random() < 0.2:
            with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
                json.dump(bodies, file)
                file.flush()
                run.command("submit_orders", run.slug, "--nation", player.code, file.name, refusals_ok=True)
            continue
        for body in bodies:
            answer = player.api.call("POST", f"{run.api}/orders/", body)
            run.env.stats["orders_accepted" if answer.status_code == 201 else "orders_refused"] += 1
            if answer.status_code not in (201, 400, 409):
                raise Broken(f"an order answered {answer.status_code}: {answer.content[:500]!r} for {body}")


def withdraw(run: CampaignSoak) -> None:
    """A player withdraws one order on the orders page, or all of them through the API (no orders: the
    missing-orders policy applies to the nation)."""
    player = run.rng.choice(run.players)
    if run.rng.random() < 0.3:
        player.api.call("PUT", f"{run.api}/orders/", [])
        return
    html = player.browser.get(f"{run.page}orders/").content.decode()
    forms = [f for f in forms_of(html) if f.action.endswith("/withdraw/")]
    if forms:
        form = run.rng.choice(forms)
        done = player.browser.submit(form.action, form)
        if done.status_code not in (200, 302):
            raise Broken(f"withdrawing an order on the page answered {done.status_code}")


def dispatch(run: CampaignSoak) -> None:
    """A player writes to one or two nations, or to all; another replies in the conversation."""
    sender = run.rng.choice(run.players)
    codes = [p.code for p in run.players if p is not sender]
    public = run.rng.random() < 0.25 or not codes
    to = [] if public else run.rng.sample(codes, min(len(codes), run.rng.randint(1, 2)))
    body: dict[str, object] = {
        "subject": f"Step {run.step}",
        "body": f"Our compliments, and a proposal for turn {open_number(run)}.",
        **({"public": True} if public else {"to": to}),
    }
    sent = sender.api.call("POST", f"{run.api}/dispatches/", body)
    run.env.stats[f"dispatches_{sent.status_code}"] += 1
    if sent.status_code == 201 and not public:
        reader = next(p for p in run.players if p.code in to)
        reply = {"conversation": sent.json()["conversation"], "body": "Received with thanks."}
        reader.api.call("POST", f"{run.api}/dispatches/", reply)


def ready(run: CampaignSoak) -> None:
    """A player marks the nation ready, or not ready, on the dashboard or through the API."""
    player = run.rng.choice(run.players)
    value = run.rng.random() < 0.7
    if run.rng.random() < 0.5:
        player.api.call("POST", f"{run.api}/ready/", {"ready": value})
        return
    form, _ = player.browser.form(run.page, "ready")
    if form is not None:
        player.browser.submit(f"{run.page}ready/", form, {"ready": "1" if value else "0"})


def policy(run: CampaignSoak) -> None:
    """The GM changes the missing-orders house option (and whether readiness shows) in the admin."""
    choice = run.rng.choice(("hold", "return_to_port", "ask_gm"))
    if choice == "return_to_port" and "return-to-port" in run.env.skip:
        choice = "hold"
    run.env.stats[f"policy_{choice}"] += 1
    run.admin_change({"nmr_policy": choice, "show_readiness": "on" if run.rng.random() < 0.8 else None})  # type: ignore[dict-item]


def clock(run: CampaignSoak) -> None:
    """The GM pauses or resumes the campaign, or extends the deadline (command or admin page)."""
    from campaign.models import Campaign

    status = Campaign.objects.values_list("status", flat=True).get(pk=run.campaign_id)
    if status == Campaign.Status.PAUSED:
        run.command("campaign_control", run.slug, "resume")
        return
    roll = run.rng.random()
    if roll < 0.35:
        run.command("campaign_control", run.slug, "pause", refusals_ok=True)
    elif roll < 0.7:
        run.command(
            "campaign_control", run.slug, "extend", "--by", run.rng.choice(("12h", "1d", "90m")), refusals_ok=True
        )
    else:
        url = f"/admin/campaign/campaign/{run.campaign_id}/extend/"
        form, _ = run.gm_browser.form(url, "days")
        if form is not None:
            run.gm_browser.submit(url, form, {"days": str(run.rng.randint(0, 2)), "hours": str(run.rng.randint(1, 12))})


def table(run: CampaignSoak) -> None:
    """The GM sends battles (and stormings) to the table for the open turn on the table page: places
    where fleets of nations at war are, and besieged ports; or a player asks and the GM approves."""
    from campaign.selectors import diplomacy_for_campaign
    from fleets.models import Fleet
    from ports.models import LandUnit

    if open_number(run) is None:
        return
    diplomacy = diplomacy_for_campaign(campaign_id=run.campaign_id)
    by_zone: dict[str, set[int]] = {}
    for key, nation in Fleet.objects.filter(campaign_id=run.campaign_id, ships__isnull=False).values_list(
        "sea_zone__key", "nation_id"
    ):
        by_zone.setdefault(key, set()).add(nation)
    contested = sorted(
        k for k, ns in by_zone.items() if any(diplomacy.state(a, b) == "war" for a in ns for b in ns if a < b)
    )
    besieged = sorted(
        {k for k, owner, n in LandUnit.objects.filter(campaign_id=run.campaign_id, state="ashore").values_list(
            "port__key", "port__owner_id", "nation_id") if diplomacy.state(owner, n) == "war"}
    )  # fmt: skip
    places = [(k, "battle") for k in run.rng.sample(contested, min(len(contested), run.rng.randint(1, 3)))]
    places += [(k, "storming") for k in besieged if run.rng.random() < 0.6]
    url = f"{run.page}table/"
    for place, kind in places:
        asker = run.rng.choice(run.players) if run.rng.random() < 0.2 else None
        browser = asker.browser if asker is not None else run.gm_browser
        form, _ = browser.form(url, "place")
        if form is None:
            raise Broken(f"the table page has no form to send a battle to the table (as {browser.username})")
        browser.submit(url, form, {"action": "mark", "place": place, "kind": kind})
        run.env.stats[f"marked_{kind}"] += 1
        if asker is not None:
            from battles.models import TabletopBattle

            asked = TabletopBattle.objects.filter(
                campaign_id=run.campaign_id, place=place, kind=kind, status="requested"
            )
            for pk in asked.values_list("pk", flat=True):
                form, _ = run.gm_browser.form(url, "table")
                run.gm_browser.submit(
                    url, form or forms_of("<form></form>")[0], {"action": "approve", "table": str(pk)}
                )


def resolve(run: CampaignSoak) -> None:
    """The open turn resolves: by the GM's command, every player ready, a re-run, or with its worker
    killed part-way (once a campaign, at a turn the seed picks)."""
    how = run.rng.choice(("command", "command", "ready", "rerun"))
    if not run.killed and run.resolved_turns() >= run.kill_at_turn:
        how = "kill"
        run.killed = True
    run.env.stats[f"resolved_by_{soak_turns.resolve(run, how)}"] += 1


def revert(run: CampaignSoak) -> None:
    """The GM turns the campaign back to an earlier turn (``revert_campaign``); its next step may re-run
    the reopened turn or let the players change their orders."""
    from campaign.gm.repair.services import revertible_turns
    from campaign.models import Campaign

    turns = revertible_turns(Campaign.objects.get(pk=run.campaign_id))
    if not turns or open_number(run) is None:
        return
    target = run.rng.choice(turns[-3:])
    run.command("revert_campaign", run.slug, "--turn", str(target), "--reason", f"Soak step {run.step}.")
    run.env.stats["reverts"] += 1
    if run.rng.random() < 0.5:
        seed = ["--seed", str(run.rng.randint(1, 10**9)), "--reason", "A new seed."] if run.rng.random() < 0.3 else []
        run.command("rerun_turn", run.slug, *seed, "--timeout", "1", timeout_ok=True)
        settle(run, target)
        run.env.stats["reruns"] += 1


def refight(run: CampaignSoak) -> None:
    """The GM re-fights a battle of the latest resolved turn with a new seed (``refight_battle``)."""
    from campaign.gm.repair.refight import refightable_battles
    from campaign.models import Campaign

    battles = refightable_battles(Campaign.objects.get(pk=run.campaign_id))
    if not battles or open_number(run) is None:
        return
    battle = run.rng.choice(battles)
    seed = str(run.rng.randint(1, 10**9))
    run.command(
        "refight_battle",
        run.slug,
        str(battle.pk),
        "--reason",
        "Refought in the soak.",
        "--seed",
        seed,
        "--timeout",
        "1",
        timeout_ok=True,
    )
    settle(run, battle.turn.number)
    run.env.stats["refights"] += 1


def copy(run: CampaignSoak) -> None:
    """Export the campaign, import it under a new slug, play a turn on in the copy and revert the copy."""
    if len(run.copies) >= 2 or open_number(run) is None:
        return
    slug = f"{run.slug}-copy{len(run.copies) + 1}"
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        file.write(run.command("export_campaign", run.slug))
        file.flush()
        players = [f"--player={p.code}={p.username}" for p in run.players]
        run.command("import_campaign", file.name, "--slug", slug, "--gm", f"gm-{run.slug}", *players)
    run.copies.append(slug)
    run.env.stats["copies"] += 1
    from campaign.models import Turn

    number = Turn.objects.filter(campaign__slug=slug, status="open").values_list("number", flat=True).first()
    if number is None:
        return
    in_copy = run.copy_of(slug)
    run.command("resolve_turn", slug, "--timeout", "1", timeout_ok=True)
    settle(in_copy, number)  # the battles the GM sent to the table came along in the export
    if "copy-revert" in run.env.skip:
        return
    opening = Turn.objects.filter(campaign__slug=run.slug, number=number).values_list("snapshot", flat=True).first()
    run.command("revert_campaign", slug, "--turn", str(number), "--reason", "Back in the copy.")
    run.env.stats["copy_reverts"] += 1
    if opening is not None:
        _same_state_as(slug, opening, f"{slug} reverted to turn {number} and {run.slug}'s snapshot of it")


def _same_state_as(slug: str, snapshot: dict[str, object], what: str) -> None:
    """The campaign ``slug``'s state is the one ``snapshot`` holds (ids aside), or the soak is broken."""
    from campaign.backup.document import campaign_export
    from campaign.models import Campaign
    from tests.repair.worlds import state_of
    from tests.support.exports import differences, strip_ids

    now = state_of(strip_ids(campaign_export(campaign=Campaign.objects.get(slug=slug), with_snapshots=False)))
    then = state_of(strip_ids(dict(snapshot)))
    if now != then:
        raise Broken(f"the states of {what} differ: {differences(now, then)}")


def end(run: CampaignSoak) -> None:
    """The GM ends the campaign; then nothing moves: no extension, no readiness, no revert."""
    number = open_number(run)
    if number is not None and turn_status(run, number) != "open":
        settle(run, number)
    run.command("end_campaign", run.slug, "--reason", "The soak's last step.")
    run.env.stats["ended"] += 1
    if "end-controls" in run.env.skip:
        return
    refused = run.command("campaign_control", run.slug, "extend", "--by", "1d", refusals_ok=True)
    if "now ends at" in refused:
        raise Broken(f"an ended campaign's deadline was extended: {refused}")
    player = run.rng.choice(run.players)
    marked = player.api.call("POST", f"{run.api}/ready/", {"ready": True})
    if marked.status_code == 200:
        raise Broken("a player marked ready in an ended campaign")
