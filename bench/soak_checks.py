"""The soak's invariants (issue 25), checked after every step from the database and from what the
players' clients read. Each check raises :class:`bench.soak_web.Broken` with what it found.

The database is read here only as the oracle: every action of the soak goes through the public
interfaces (bench.soak).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from email.message import Message
from typing import Any

from bench.soak_web import Broken

BATTLE_LINK = re.compile(r"https?://[^/\s\"'<>]+(/campaigns/[\w-]+/battles/\d+/)")


def turns_resolved_once(campaign_id: int) -> None:
    """Every resolved turn ran each phase once and paid one income line a nation; the turns are numbered
    1..n without a gap or a twin; at most one turn is not resolved."""
    from campaign.models import Campaign, LedgerEntry, Nation, Turn, TurnPhase
    from campaign.turn.registry import PHASES

    campaign = Campaign.objects.get(pk=campaign_id)
    turns = list(Turn.objects.filter(campaign=campaign).order_by("number"))
    numbers = [t.number for t in turns]
    if numbers != list(range(1, len(numbers) + 1)):
        raise Broken(f"{campaign.slug}: turns numbered {numbers}")
    unresolved = [t for t in turns if t.status != Turn.Status.RESOLVED]
    if len(unresolved) > 1 or (unresolved and unresolved[0] is not turns[-1]):
        raise Broken(f"{campaign.slug}: turns not resolved: {[(t.number, t.status) for t in unresolved]}")
    phases = Counter(TurnPhase.objects.filter(turn__campaign=campaign).values_list("turn__number", "phase"))
    twice = [key for key, n in phases.items() if n > 1]
    if twice:
        raise Broken(f"{campaign.slug}: phases recorded twice (turn, phase): {twice}")
    nations = list(Nation.objects.filter(campaign=campaign).values_list("pk", "code"))
    income = Counter(LedgerEntry.objects.filter(campaign=campaign, kind="income").values_list("turn", "nation_id"))
    for turn in turns:
        if turn.status != Turn.Status.RESOLVED:
            continue
        done = sorted(p for (n, p) in phases if n == turn.number)
        if done != sorted(PHASES):
            raise Broken(f"{campaign.slug}: turn {turn.number} resolved with phases {done}")
        for pk, code in nations:
            if income[(turn.number, pk)] > 1:
                raise Broken(
                    f"{campaign.slug}: {code} paid income {income[(turn.number, pk)]} times in turn {turn.number}"
                )
    if turns and turns[-1].error:
        raise Broken(f"{campaign.slug}: turn {turns[-1].number} shows an error: {turns[-1].error[:800]}")


def ledger_is_treasury(campaign_id: int) -> None:
    from django.db.models import Sum

    from campaign.models import LedgerEntry, Nation

    sums = dict(
        LedgerEntry.objects.filter(campaign_id=campaign_id)
        .values("nation_id")
        .annotate(s=Sum("amount"))
        .values_list("nation_id", "s")
    )
    for nation in Nation.objects.filter(campaign_id=campaign_id):
        if nation.treasury != (sums.get(nation.pk) or 0) or nation.treasury < 0:
            raise Broken(f"{nation.code}: treasury {nation.treasury} EP, ledger sums to {sums.get(nation.pk) or 0}")


def ships_in_one_place(campaign_id: int) -> None:
    """An afloat ship is in exactly one fleet, its nation's, of its campaign; a keel is in a yard and no
    fleet; a fleet in port is in that port's zone; a land unit aboard a transport is in no port."""
    from fleets.models import Fleet, Ship
    from ports.models import LandUnit

    problems = []
    for ship in Ship.objects.filter(campaign_id=campaign_id).select_related("fleet"):
        afloat = ship.condition in Ship.AFLOAT
        if afloat and ship.fleet is None:
            problems.append(f"{ship.name} is afloat in no fleet")
        if ship.fleet is not None and (ship.fleet.campaign_id != campaign_id or ship.fleet.nation_id != ship.nation_id):
            problems.append(f"{ship.name} is in {ship.fleet.name}, not a fleet of its own nation and campaign")
        if ship.fleet is not None and ship.building_port_id is not None:
            problems.append(f"{ship.name} is both in {ship.fleet.name} and on the stocks")
    for fleet in Fleet.objects.filter(campaign_id=campaign_id).select_related("port"):
        if fleet.port is not None and fleet.port.sea_zone_id != fleet.sea_zone_id:
            problems.append(f"{fleet.name} is in port {fleet.port.name} but in another zone")
    aboard = LandUnit.objects.filter(campaign_id=campaign_id, transport__isnull=False, port__isnull=False)
    if aboard.exclude(state="aboard").exists():
        problems.append(f"{aboard.count()} land units both aboard a transport and in a port")
    if problems:
        raise Broken("; ".join(problems[:10]))


def same_campaign(first: dict[str, Any], second: dict[str, Any]) -> str:
    """Where two exports differ once ids, slugs, names and wall-clock times are set aside ('' when equal)."""
    from tests.support.exports import differences, same_run

    def without_times(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: without_times(v)
                for k, v in value.items()
                if not (k.endswith("_at") or k in ("deadline", "paused_at", "created", "audit", "stamp", "at"))
            }
        if isinstance(value, list):
            return [without_times(v) for v in value]
        return value

    def without_people(doc: dict[str, Any]) -> dict[str, Any]:
        # The two runs' accounts have their own names (one nation each per campaign and address).
        doc["campaign"].pop("gm", None)
        doc["campaign"].pop("co_gms", None)
        for nation in doc.get("nations", []):
            nation.pop("player", None)
        # A table battle's record names the accounts that entered, acted and wrote on it.
        for table in doc.get("table_battles", []):
            table.pop("entered_by", None)
            table.pop("record", None)  # the approved pack as printed: the run's campaign, people and times
            for entry in table.get("history", []):
                entry.pop("by", None)
                entry.pop("who", None)
            for post in table.get("posts", []):
                post.pop("author", None)
        return doc

    a, b = (without_times(without_people(json.loads(json.dumps(same_run(doc))))) for doc in (first, second))
    return "" if a == b else differences(a, b)


def battle_links(messages: list[Message]) -> list[tuple[str, str]]:
    """(recipient address, path) of every link to a battle page in the messages' text and HTML parts."""
    found: list[tuple[str, str]] = []
    for message in messages:
        to = str(message["X-Envelope-To"] or "")
        for part in message.walk():
            if part.get_content_type() not in ("text/plain", "text/html"):
                continue
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                for path in BATTLE_LINK.findall(payload.decode(errors="replace")):
                    found.append((to, path))
    return sorted(set(found))


def fog_names(campaign_id: int, code: str) -> tuple[set[str], set[str]]:
    """(names of fleets the nation may know, names of other nations' fleets hidden from it).

    It may know its own and its allies' fleets (the fleet list's rule, ``Viewer.friendly``), and every
    fleet named in an event it was shown (phase summaries' events for it or for all, its reports, the
    battles it fought), or in a port it blockades. The rest is fog."""
    from battles.models import Battle
    from campaign.models import Nation, Relation, TurnPhase, TurnReport
    from fleets.models import Fleet

    nation = Nation.objects.get(campaign_id=campaign_id, code=code)
    allies = set(
        Relation.objects.filter(campaign_id=campaign_id, state=Relation.State.ALLIANCE, a=nation).values_list(
            "b", flat=True
        )
    ) | set(
        Relation.objects.filter(campaign_id=campaign_id, state=Relation.State.ALLIANCE, b=nation).values_list(
            "a", flat=True
        )
    )
    friendly = {nation.pk, *allies}
    texts: list[str] = []
    for summary in TurnPhase.objects.filter(turn__campaign_id=campaign_id).values_list("summary", flat=True):
        texts += [json.dumps(e) for e in summary.get("events", []) if e.get("nations") is None or code in e["nations"]]
    texts += [json.dumps(b) for b in TurnReport.objects.filter(nation=nation).values_list("body", flat=True)]
    for report, sides in Battle.objects.filter(campaign_id=campaign_id).values_list("report", "sides"):
        if any(code in side.get("nations", []) for side in sides):
            texts.append(json.dumps(report))
    blob = "\n".join(texts)
    known: set[str] = set()
    hidden: set[str] = set()
    blockaded = set(
        Fleet.objects.filter(campaign_id=campaign_id, nation_id__in=friendly, blockade_port__isnull=False).values_list(
            "blockade_port", flat=True
        )
    )
    for name, nation_id, port_id in Fleet.objects.filter(campaign_id=campaign_id).values_list(
        "name", "nation_id", "port_id"
    ):
        if nation_id in friendly or name in blob or (port_id is not None and port_id in blockaded):
            known.add(name)
        else:
            hidden.add(name)
    # A fleet named after its port ("Washington Navy Yard") is told by the port's name on every map.
    from ports.models import Port, SeaZone

    places = set(Port.objects.filter(campaign_id=campaign_id).values_list("name", flat=True))
    places |= set(SeaZone.objects.filter(campaign_id=campaign_id).values_list("name", flat=True))
    known |= places & hidden
    hidden -= places
    # A hidden name that is part of a known one ("Channel Fleet" in "Channel Fleet (2)") cannot be told apart.
    hidden = {h for h in hidden if h not in known and not any(h in k for k in known)}
    return known, hidden


def fog_leaks(text: str, hidden: set[str]) -> list[str]:
    return sorted(h for h in hidden if re.search(rf"(?<![\w]){re.escape(h)}(?![\w])", text))


def tables_waiting(campaign_id: int) -> list[Any]:
    """The table battles not yet applied (pk, kind, status), oldest first."""
    from battles.models import TabletopBattle

    return list(
        TabletopBattle.objects.filter(
            campaign_id=campaign_id, status__in=("waiting", "entered", "confirmed", "disputed")
        )
        .order_by("pk")
        .values_list("pk", "kind", "status", named=True)
    )
