"""The whole-campaign soak (issue 25): ``python -m bench soak [--campaigns N] [--turns T] [--seed S]
[--steps K]``.

A seeded, randomized driver that plays europe-1805 campaigns through the public interfaces only: the
players' API with their tokens and their web forms (posted with the CSRF token, as a browser would),
the management commands, and the GM's admin and table pages. Every feature is mixed in: every order
kind (tests/support/random_orders.py's candidates, some of them refused), war, peace and alliance
offers, dispatches, each missing-orders policy, readiness and early resolution, pause/resume/extend,
battles and stormings sent to the table (several a turn) with results entered, confirmed or disputed
and approved, or fought automatically, reverts, re-runs and re-fights, export → import → play on and
revert in the copy, a Celery worker killed (SIGKILL) mid-turn and a new one finishing the turn, and the
end of the campaign.

The players join as new ones do: the GM invites them (``invite_player``), the invitation arrives by
real SMTP from the worker, and they choose a password at its link. The starting position is the
scenario's with every ship commissioned and every fleet at sea seeking battle, and two sieges laid
(so that battles and stormings come in the first turns).

After every step: every turn resolved exactly once; every treasury equal to its ledger; no ship in two
places; every battle link in every mail sent still opens for its reader; no player reads another
nation's hidden fleets (API and pages); no 5xx; no task failed in a worker. The first campaign that plays
through is played twice from its seed, and the two exports must be the same campaign. A broken invariant prints
the seed and the step to replay it; the exit status is 1 if any campaign broke one.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.soak_checks import (
    battle_links,
    fog_leaks,
    fog_names,
    ledger_is_treasury,
    same_campaign,
    ships_in_one_place,
    turns_resolved_once,
)
from bench.soak_web import Api, Broken, Browser, Processes, SmtpSink, Soak

#: The database the soak drops and makes afresh; SOAK_DATABASE names another (two soaks at once).
DATABASE = os.environ.get("SOAK_DATABASE", "admiralty_soak")
# Unlike every soak address: Django's similarity check refused "soak-Trafalgar-1805" for some
# addresses (``fr-soak-7-<pid>-again``: the same letters and digits), so a run failed now and then.
PASSWORD = "Nelson at the Nile, 1798!"
#: The nations with players (more join by the seed's choice); the rest keep standing orders.
PLAYED = ("GB", "FR", "ES")
#: Every step the soak may take, with its weight.
ACTIONS: dict[str, int] = {
    "orders": 6,
    "withdraw": 1,
    "dispatch": 2,
    "ready": 1,
    "policy": 1,
    "clock": 1,
    "table": 2,
    "resolve": 4,
    "revert": 1,
    "refight": 1,
    "copy": 1,
}
#: Parts of the steps ``--skip`` can leave out.
PARTS = {
    "kill": "the worker killed mid-turn",
    "end-controls": "the checks that nothing moves after the end",
    "copy-revert": "the revert in an imported copy",
    "return-to-port": 'the missing-orders option "Fleets return to port"',
}


@dataclass
class Env:
    """What every campaign of a run shares: the clients' tally, SMTP, workers, counters."""

    soak: Soak
    smtp: Any  # has .messages
    processes: Processes
    skip: frozenset[str] = frozenset()
    extra_players: int = 2  # most players beyond PLAYED a campaign gets
    stats: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))  # wall time by action, checks too
    log: Any = print


@dataclass
class Player:
    code: str
    username: str
    email: str
    browser: Browser
    api: Api


class CampaignSoak:
    """One campaign played from its seed."""

    def __init__(self, env: Env, *, seed: int, slug: str, turns: int, steps: int) -> None:
        self.env = env
        self.seed = seed
        self.slug = slug
        self.turns = turns
        self.steps = steps
        self.rng = random.Random(f"soak/{seed}")
        self.step = 0
        self.action = "setup"
        self.players: list[Player] = []
        self.copies: list[str] = []
        self.links_checked: set[tuple[str, str]] = set()
        self.api = f"/api/v1/campaigns/{slug}"
        self.page = f"/campaigns/{slug}/"
        self.killed = "kill" in env.skip
        self.kill_at_turn = self.rng.randrange(turns)

    # --- the public interfaces --------------------------------------------------------------------

    def command(self, name: str, *args: str, refusals_ok: bool = False, timeout_ok: bool = False) -> str:
        """A management command as the GM types it; a refusal (CommandError) is fine when ``refusals_ok``,
        any other exception is a broken invariant (a traceback at the shell)."""
        from django.core.management import CommandError, call_command

        out = io.StringIO()
        try:
            call_command(name, *args, stdout=out, stderr=out)
        except CommandError as refused:
            if refusals_ok or (timeout_ok and "still resolving" in str(refused)):
                self.env.stats[f"refused:{name}"] += 1
                return str(refused)
            raise Broken(f"{name} {' '.join(args)} refused: {refused}") from refused
        except SystemExit as exit_:
            if refusals_ok and exit_.code not in (0, None):
                self.env.stats[f"refused:{name}"] += 1
                return out.getvalue()
            raise Broken(f"{name} {' '.join(args)} exited {exit_.code}: {out.getvalue()[-800:]}") from exit_
        except Exception as crash:
            raise Broken(f"{name} {' '.join(args)} crashed: {type(crash).__name__}: {crash}") from crash
        return out.getvalue()

    def mail_to(self, address: str, contains: str, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for message in list(self.env.smtp.messages):
                if address in str(message["X-Envelope-To"]):
                    for part in message.walk():
                        payload = part.get_payload(decode=True)
                        if isinstance(payload, bytes) and contains in payload.decode(errors="replace"):
                            return payload.decode(errors="replace")
            time.sleep(0.1)
        raise Broken(f"no mail to {address} with {contains!r} within {timeout:.0f} s")

    # --- setting up ---------------------------------------------------------------------------------

    def setup(self) -> None:
        from django.contrib.auth import get_user_model

        from campaign.models import Campaign

        started = time.monotonic()
        self.command("load_scenario", "europe-1805", "--start", "--slug", self.slug, "--seed", str(self.seed))
        self.campaign_id = Campaign.objects.values_list("pk", flat=True).get(slug=self.slug)
        starting_position(self.campaign_id)
        gm = f"gm-{self.slug}"
        os.environ["DJANGO_SUPERUSER_PASSWORD"] = PASSWORD
        self.command("createsuperuser", "--no-input", "--username", gm, "--email", f"{gm}@example.org")
        self.gm_browser = Browser(self.env.soak, gm, PASSWORD)
        self.gm_api = Api(self.env.soak, self.command("api_token", gm, "--name", "soak").strip(), gm)
        gm_id = get_user_model().objects.values_list("pk", flat=True).get(username=gm)
        self.admin_change({"gm": str(gm_id), "nmr_policy": "hold", "show_readiness": "on"})
        extra = self.rng.sample(
            ("RU", "NL", "DK", "SE", "PT", "NA", "US", "OT"), self.rng.randint(0, self.env.extra_players)
        )
        for code in (*PLAYED, *sorted(extra)):
            self.players.append(self.join(code))
        self.env.seconds["setup"] += time.monotonic() - started

    def join(self, code: str) -> Player:
        """The GM invites an address to play ``code``; the mail's link; a password chosen there."""
        from django.test import Client

        address = f"{code.lower()}-{self.slug}@example.org"
        self.command("invite_player", self.slug, "--nation", code, "--email", address)
        body = self.mail_to(address, "/invitations/")
        link = "/invitations/" + body.split("/invitations/", 1)[1].split("/", 1)[0] + "/"
        client = Client(enforce_csrf_checks=True)
        page = self.env.soak.seen(client.get(link), f"GET {link}")
        from bench.soak_web import forms_of

        form = next(f for f in forms_of(page.content.decode()) if "password1" in dict(f.fields))
        accepted = self.env.soak.seen(
            client.post(link, form.data({"password1": PASSWORD, "password2": PASSWORD})), f"POST {link}"
        )
        if accepted.status_code != 302:
            raise Broken(f"accepting the invitation to {code} answered {accepted.status_code}")
        from campaign.models import Nation

        player = Nation.objects.select_related("player").get(campaign_id=self.campaign_id, code=code).player
        if player is None:
            raise Broken(f"{code} has no player after its invitation was accepted")
        username = player.get_username()
        token = self.command("api_token", username, "--name", "soak").strip()
        return Player(
            code, username, address, Browser(self.env.soak, username, PASSWORD), Api(self.env.soak, token, username)
        )

    def admin_change(self, values: dict[str, str]) -> None:
        url = f"/admin/campaign/campaign/{self.campaign_id}/change/"
        form, html = self.gm_browser.form(url, "nmr_policy")
        if form is None:
            raise Broken(f"the campaign's admin page has no house options form: {html[:300]}")
        done = self.gm_browser.submit(url, form, values, button=("_continue", "Save and continue editing"))
        if done.status_code != 302:
            raise Broken(
                f"saving the campaign's admin form answered {done.status_code}: {done.content.decode()[-2000:]}"
            )

    # --- playing ------------------------------------------------------------------------------------

    def resolved_turns(self) -> int:
        from campaign.models import Turn

        return Turn.objects.filter(campaign_id=self.campaign_id, status=Turn.Status.RESOLVED).count()

    def play(self) -> None:
        from bench import soak_actions

        self.setup()
        self.check(full=True)
        while self.resolved_turns() < self.turns and self.step < self.steps:
            self.step += 1
            names = [a for a in ACTIONS if a not in self.env.skip]
            self.action = self.rng.choices(names, weights=[ACTIONS[a] for a in names])[0]
            started = time.monotonic()
            getattr(soak_actions, self.action)(self)
            self.env.stats["steps"] += 1
            self.check(full=self.action in ("resolve", "revert", "refight", "copy"))
            self.env.seconds[self.action] += time.monotonic() - started
        self.step += 1
        self.action = "end"
        soak_actions.end(self)
        self.check(full=True)

    def check(self, *, full: bool) -> None:
        for campaign_id in (self.campaign_id, *self.copy_ids()):
            turns_resolved_once(campaign_id)
            ledger_is_treasury(campaign_id)
            ships_in_one_place(campaign_id)
        failures = self.env.processes.failures()
        if failures:
            raise Broken("a task failed in a worker:\n" + "\n".join(failures[:3]))
        self.check_links(recheck=full)
        players = self.players if full else [self.rng.choice(self.players)]
        for player in players:
            self.check_fog(player)

    def copy_ids(self) -> list[int]:
        from campaign.models import Campaign

        return list(Campaign.objects.filter(slug__in=self.copies).values_list("pk", flat=True))

    def check_links(self, *, recheck: bool) -> None:
        """Every battle link in a mail opens for the person it was sent to (a set-aside battle may say so
        with 410); ``recheck``: the links already seen too (after a revert, re-run or re-fight)."""
        readers = {p.email: p.browser for p in self.players}
        readers[f"gm-{self.slug}@example.org"] = self.gm_browser
        for address, path in battle_links(self.env.smtp.messages):
            if f"/campaigns/{self.slug}/" not in path or address not in readers:
                continue
            if (address, path) in self.links_checked and not recheck:
                continue
            self.links_checked.add((address, path))
            answer = readers[address].get(path)
            if answer.status_code == 302:  # a re-fought battle's link leads to its new fight
                answer = readers[address].get(answer["Location"])
            status = answer.status_code
            self.env.stats["links_opened"] += 1
            if status not in (200, 410):
                raise Broken(f"the battle link {path} mailed to {address} answers {status}")

    def check_fog(self, player: Player) -> None:
        _, hidden = fog_names(self.campaign_id, player.code)
        if not hidden:
            return
        reads = {
            "fleets API": player.api.call("GET", f"{self.api}/fleets/"),
            "zones API": player.api.call("GET", f"{self.api}/zones/"),
            "ports API": player.api.call("GET", f"{self.api}/ports/"),
            "dashboard": player.browser.get(self.page),
            "map": player.browser.get(f"{self.page}map/"),
            "orders page": player.browser.get(f"{self.page}orders/"),
        }
        self.env.stats["fog_reads"] += len(reads)
        for what, response in reads.items():
            if response.status_code != 200:
                continue
            leaks = fog_leaks(response.content.decode(errors="replace"), hidden)
            if leaks:
                raise Broken(f"{player.code}'s {what} names fleets hidden from it: {', '.join(leaks[:5])}")

    def copy_of(self, slug: str) -> CampaignSoak:
        """The same players and GM, acting in the imported copy ``slug``."""
        from campaign.models import Campaign

        other = copy.copy(self)
        other.slug, other.api, other.page = slug, f"/api/v1/campaigns/{slug}", f"/campaigns/{slug}/"
        other.campaign_id = Campaign.objects.values_list("pk", flat=True).get(slug=slug)
        return other

    def export(self) -> dict[str, Any]:
        return json.loads(self.command("export_campaign", self.slug))


def starting_position(campaign_id: int) -> None:
    """The scenario as loaded, with every ship commissioned, every fleet at sea seeking battle, and two
    sieges laid (three French units, a siege train among them, before the first British port in a zone
    with a French port nearby; the same for Spain): battles and stormings from the first turns."""
    from django.db import transaction

    from campaign.models import Nation
    from fleets.models import Fleet, Ship
    from ports.models import LandUnit, Port

    with transaction.atomic():
        Ship.objects.filter(campaign_id=campaign_id).update(in_ordinary=False)
        Fleet.objects.filter(campaign_id=campaign_id).update(port=None, posture=Fleet.Posture.SEEK, blockade_port=None)
        nations = {n.code: n for n in Nation.objects.filter(campaign_id=campaign_id)}
        gb_ports = list(Port.objects.filter(campaign_id=campaign_id, owner=nations["GB"]).order_by("key"))
        for besieger, port in (("FR", gb_ports[0]), ("ES", gb_ports[-1])):
            for train in (False, False, True):
                LandUnit.objects.create(
                    campaign_id=campaign_id, nation=nations[besieger], state="ashore", port=port, siege_train=train
                )


def run(
    *,
    seed: int,
    campaigns: int,
    turns: int,
    steps: int,
    env: Env,
    twin: bool = True,
) -> list[str]:
    """Play ``campaigns`` campaigns (seeds ``seed``, ``seed + 1``…); returns the failures, each with the
    seed and step to replay it."""
    failures: list[str] = []
    twinned = not twin
    for i in range(campaigns):
        campaign_seed = seed + i
        played = CampaignSoak(
            env, seed=campaign_seed, slug=f"soak-{campaign_seed}-{os.getpid()}", turns=turns, steps=steps
        )
        replay = f"python -m bench soak --seed {campaign_seed} --turns {turns} --steps {{step}}"
        try:
            played.play()
            if not twinned:  # the first campaign that played through is played again from its seed
                twinned = True
                again = CampaignSoak(
                    env, seed=campaign_seed, slug=f"soak-{campaign_seed}-{os.getpid()}-again", turns=turns, steps=steps
                )
                again.play()
                differ = same_campaign(played.export(), again.export())
                if differ:
                    raise Broken(f"the same seed gave another campaign: {differ}")
        except Broken as broken:
            failures.append(
                f"seed {campaign_seed}, step {played.step} ({played.action}): {broken}\n"
                f"  replay: {replay.format(step=played.step)}"
            )
            env.log(f"FAILED {failures[-1]}", flush=True)
            settle_broken(played, env)
        turns_played = played.resolved_turns() if hasattr(played, "campaign_id") else 0
        env.stats["turns"] += turns_played
        env.log(f"seed {campaign_seed}: {played.step} steps, {turns_played} turns resolved", flush=True)
    return failures


def settle_broken(played: CampaignSoak, env: Env) -> None:
    """A campaign that broke an invariant is ended (its stuck turn would keep failing in the worker, and
    the next campaign would be blamed), and the failures its worker logged so far are set aside."""
    if hasattr(played, "campaign_id"):
        with contextlib.suppress(Broken):
            played.command("end_campaign", played.slug, "--reason", "Broke an invariant in the soak.", refusals_ok=True)
    time.sleep(2)
    env.processes.failures()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench soak", description=__doc__.split("\n")[0])
    parser.add_argument("--campaigns", type=int, default=1, help="campaigns to play, one seed each (default 1)")
    parser.add_argument("--turns", type=int, default=6, help="turns each campaign plays before it ends (default 6)")
    parser.add_argument("--seed", type=int, default=1805, help="the first campaign's seed (default 1805)")
    parser.add_argument("--steps", type=int, default=200, help="most steps a campaign takes (default 200)")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=sorted([*ACTIONS, *PARTS]),
        help="leave out an action or a part of one (for a local run past a known defect): "
        + "; ".join(f"{k}: {v}" for k, v in PARTS.items()),
    )
    parser.add_argument("--no-twin", action="store_true", help="do not play the first seed twice to compare")
    args = parser.parse_args(argv or [])
    if args.campaigns < 1 or args.turns < 1 or args.steps < 1:
        parser.error("--campaigns, --turns and --steps must be at least 1")
    os.environ.setdefault("CELERY_QUEUE_PREFIX", f"admiralty-soak-{os.getpid()}-")
    from bench.turns import bench_database_prepare

    url = bench_database_prepare(DATABASE)
    import logging

    from django.conf import settings

    from config.celery import app

    for noisy in ("mail.log", "axes", "axes.watch_login", "django.request"):  # aiosmtpd's every SMTP line, every login
        logging.getLogger(noisy).setLevel(logging.ERROR)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    smtp = SmtpSink()
    for key, value in {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "127.0.0.1",
                       "EMAIL_PORT": smtp.port, "EMAIL_USE_TLS": False, "EMAIL_TIMEOUT": 5}.items():  # fmt: skip
        setattr(settings, key, value)
    processes = Processes(url, settings.CELERY_QUEUE_PREFIX, smtp.port, "bench")
    env = Env(soak=Soak(), smtp=smtp, processes=processes, skip=frozenset(args.skip))
    started = time.monotonic()
    try:
        app.control.purge()
        processes.worker()
        processes.beat()
        failures = run(
            seed=args.seed, campaigns=args.campaigns, turns=args.turns, steps=args.steps, env=env, twin=not args.no_twin
        )
    finally:
        processes.stop()
        smtp.stop()
    report(env, failures, time.monotonic() - started)
    if failures:
        raise SystemExit(1)


def report(env: Env, failures: list[str], seconds: float) -> None:
    from battles.models import Battle

    s = env.stats
    print(
        f"soak: {s['steps']} steps, {s['turns']} turns, {Battle.objects.count()} battles "
        f"({sum(v for k, v in s.items() if k.startswith('tables_'))} at the table), {len(failures)} failures, "
        f"{seconds:.0f} s; {env.soak.requests} requests, {len(env.smtp.messages)} mails, "
        f"{s['links_opened']} mailed battle links opened, {s['kills']} workers killed "
        f"({s['kills_mid_turn']} mid-turn)",
        flush=True,
    )
    print("  " + ", ".join(f"{k} {v}" for k, v in sorted(s.items()) if k not in ("steps", "turns")), flush=True)
    print(
        "  seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(env.seconds.items(), key=lambda kv: -kv[1])),
        flush=True,
    )
    for failure in failures:
        print(f"FAILURE {failure}", flush=True)
