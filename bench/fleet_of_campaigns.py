"""A hundred campaigns at one deadline (issue 14): ``python -m bench fleet-of-campaigns
[--campaigns N] [--workers N]``.

N europe-1805 campaigns in a general war with every fleet at sea (``bench.turns.everyone_at_sea``,
about 16–20 battles a turn), all due at the same instant, resolved by real Celery worker processes
(``--pool=solo``: one process each, its own ``--hostname``, temporary directory, HOME and TMPDIR, and
an environment of only the shared settings) and a real ``celery beat`` sweeping every 5 s, on
PostgreSQL and Redis. Run once with one worker and once with ``--workers`` (default 2), each on N
fresh campaigns, and prints for each run: time from the deadline to the last turn opened, turns per
minute, p50/p95 of the turns' latency (deadline → next turn open), battles per second, SQL queries
and worker seconds per turn (turn and battle tasks, counted in the workers by ``bench.fleet_worker``),
peak RSS per worker process; then the throughput ratio, and one worker's RSS after 10 and after 100
turns. Every turn is checked resolved exactly once (one turn 2, each phase once, treasuries equal to
their ledgers). Goals: within 2 minutes for 100 campaigns; ratio ≥ 1.7; RSS growth ≤ 20 %.

``--kill-one-after N`` adds a third run with ``--workers`` workers in which one worker is killed (SIGKILL)
part-way, once N turns have resolved, and a new one started in its place, as a process supervisor would: every
turn must still resolve exactly once. That run gives its workers a 15 s lease and battle grace (the
default 120 s lease would hold the killed worker's turn for two minutes before the sweep resumes it).

``BENCH_KEEP_LOGS=DIR`` keeps each worker's and beat's log there (every task's RSS after it ran is in
the worker's log: ``BENCH-TASK`` lines for turns and battles, ``BENCH-OTHER`` for the rest).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.turns import bench_database_prepare, everyone_at_sea

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "admiralty_fleet_bench"
SWEEP_SECONDS = "5"
TASK_LINE = re.compile(
    r"BENCH-TASK name=(?P<name>\S+) turn=(?P<turn>\S+) result=(?P<result>\S+) queries=(?P<queries>\d+) "
    r"seconds=(?P<seconds>[\d.]+) rss_kb=(?P<rss>\d+)"
)


@dataclass
class Process:
    """A celery worker or beat, in its own temporary directory with only the shared settings."""

    name: str
    popen: subprocess.Popen[bytes]
    home: tempfile.TemporaryDirectory[str]
    log: Path
    peak_rss_kb: int = 0
    tasks: list[dict[str, str]] = field(default_factory=list)


def _environment(home: str, database_url: str, prefix: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "HOME": home,
        "TMPDIR": home,
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/5"),
        "CELERY_QUEUE_PREFIX": prefix,
        "DATABASE_CONN_MAX_AGE": "60",
        "TURN_SWEEP_SECONDS": SWEEP_SECONDS,
        "LOG_LEVEL": "WARNING",
    }


#: What the kill run gives its workers: a killed worker's turn and battles go to the others in seconds.
QUICK_RESCUE = {"TURN_LEASE_SECONDS": "15", "TURN_BATTLE_GRACE_SECONDS": "15"}


def _start(name: str, command: list[str], database_url: str, prefix: str, extra: dict[str, str]) -> Process:
    home = tempfile.TemporaryDirectory(prefix=f"{name}-")
    log = Path(home.name) / "log.txt"
    with log.open("wb") as out:
        popen = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "bench.fleet_worker", *command],
            cwd=home.name,
            env={**_environment(home.name, database_url, prefix), **extra},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Process(name, popen, home, log)


def _proc_status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _stop(process: Process) -> None:
    process.peak_rss_kb = _proc_status_kb(process.popen.pid, "VmHWM")
    process.popen.terminate()
    try:
        process.popen.wait(30)
    except subprocess.TimeoutExpired:
        process.popen.kill()
        process.popen.wait(10)
    process.tasks = [m.groupdict() for m in TASK_LINE.finditer(process.log.read_text(errors="replace"))]
    keep = os.environ.get("BENCH_KEEP_LOGS")
    if keep:  # a folder to keep each worker's and beat's log in (its own goes with it)
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(process.log, Path(keep) / f"{process.name}.log")
    process.home.cleanup()


def _wait_ready(app: Any, nodes: list[str], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    waiting = set(nodes)
    while waiting and time.monotonic() < end:
        for reply in app.control.ping(destination=list(waiting), timeout=1.0) or []:
            waiting -= set(reply)
    if waiting:
        raise RuntimeError(f"workers not answering: {sorted(waiting)}")


def _check_exactly_once(campaign_ids: list[int]) -> None:
    from campaign.models import LedgerEntry, Nation, Turn, TurnPhase
    from campaign.turn.registry import PHASES

    for campaign_id in campaign_ids:
        turn = Turn.objects.get(campaign_id=campaign_id, number=1)
        phases = sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
        assert phases == sorted(PHASES), f"campaign {campaign_id}: phases {phases}"
        assert Turn.objects.filter(campaign_id=campaign_id, number=2, status=Turn.Status.OPEN).count() == 1
        for nation in Nation.objects.filter(campaign_id=campaign_id):
            ledger = sum(LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True))
            assert nation.treasury == ledger >= 0, f"campaign {campaign_id}, {nation.code}"
            assert LedgerEntry.objects.filter(nation=nation, kind="income", turn=1).count() == 1


def _worker(label: str, n: int, database_url: str, prefix: str, extra: dict[str, str]) -> tuple[str, Process]:
    host = f"fleet-{label}-{n}@{os.uname().nodename}"
    command = ["worker", "--pool=solo", "--without-gossip", "--without-mingle", "-n", host]
    return host, _start(host.split("@")[0], command, database_url, prefix, extra)


def _run(
    *, label: str, campaigns: int, workers: int, database_url: str, kill_after: int | None = None
) -> dict[str, Any]:
    from django.utils import timezone

    from battles.models import Battle
    from campaign.models import Turn
    from config.celery import app

    started = time.perf_counter()
    ids = [everyone_at_sea(f"{label}-{i}", 1).pk for i in range(campaigns)]
    print(f"  {campaigns} campaigns built in {time.perf_counter() - started:.0f} s", flush=True)
    prefix = f"bench-fleet-{os.getpid()}-{label}-"
    app.conf.task_queues = None  # this process only reads; its workers get their queues from the prefix
    extra = QUICK_RESCUE if kill_after is not None else {}
    started_workers = [_worker(label, n, database_url, prefix, extra) for n in range(1, workers + 1)]
    hosts = [host for host, _ in started_workers]
    processes = [process for _, process in started_workers]
    killed: Process | None = None
    try:
        _wait_ready(app, hosts)
        beat = _start(f"beat-{label}", ["beat", "--loglevel=WARNING", "--pidfile="], database_url, prefix, extra)
        processes.append(beat)
        deadline = timezone.now() + timedelta(seconds=3)
        Turn.objects.filter(campaign_id__in=ids, number=1).update(deadline=deadline)
        resolved = Turn.objects.filter(campaign_id__in=ids, number=1, status=Turn.Status.RESOLVED)
        limit = time.monotonic() + 30 * 60
        peak_connections = 0
        while resolved.count() < campaigns:
            peak_connections = max(peak_connections, _connections_open())
            if time.monotonic() > limit:
                raise RuntimeError(f"{label}: {resolved.count()} of {campaigns} turns resolved after 30 minutes")
            done = resolved.count()
            if kill_after is not None and killed is None and done >= kill_after:
                killed = processes[0]
                killed.popen.kill()
                _, spare = _worker(label, workers + 1, database_url, prefix, extra)
                processes.append(spare)
                print(f"  killed {killed.name} with {done} of {campaigns} turns resolved; {spare.name} started")
            dead = [p for p in processes if p is not killed and p.popen.poll() is not None]
            if dead:
                # Its home (and log) goes with it when stopped: print the end of the log now.
                tail = "\n".join(dead[0].log.read_text(errors="replace").splitlines()[-40:])
                code = dead[0].popen.returncode
                raise RuntimeError(f"{label}: {dead[0].name} exited (code {code}); its log ends:\n{tail}")
            time.sleep(0.5)
    finally:
        for process in processes:
            _stop(process)
    _check_exactly_once(ids)
    latencies = sorted(
        (t - deadline).total_seconds() for t in resolved.values_list("resolved_at", flat=True) if t is not None
    )
    last = latencies[-1]
    worker_processes = [p for p in processes if not p.name.startswith("beat-")]
    worker_tasks = [task for process in worker_processes for task in process.tasks]
    per_turn_queries: dict[str, int] = {}
    per_turn_seconds: dict[str, float] = {}
    for task in worker_tasks:
        per_turn_queries[task["turn"]] = per_turn_queries.get(task["turn"], 0) + int(task["queries"])
        per_turn_seconds[task["turn"]] = per_turn_seconds.get(task["turn"], 0.0) + float(task["seconds"])
    battles = Battle.objects.filter(turn__campaign_id__in=ids, turn__number=1).count()
    return {
        "workers": workers,
        "last": last,
        "turns_per_minute": campaigns / last * 60,
        "p50": statistics.median(latencies),
        "p95": latencies[max(0, round(0.95 * len(latencies)) - 1)],
        "battles": battles,
        "battles_per_second": battles / last,
        "queries_per_turn": statistics.median(per_turn_queries.values()) if per_turn_queries else 0,
        "worker_seconds_per_turn": statistics.median(per_turn_seconds.values()) if per_turn_seconds else 0,
        "peak_rss_mb": [round(p.peak_rss_kb / 1024) for p in worker_processes if p is not killed],
        "killed": killed is not None,
        "rss_by_turn": _rss_after_turns(processes[0].tasks),
        "peak_connections": peak_connections,
    }


def _connections_open() -> int:
    """PostgreSQL connections to the bench database now (this process's, the workers' and beat's)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def _rss_after_turns(tasks: list[dict[str, str]]) -> dict[int, float]:
    """One worker's RSS (MB) after its 10th and 100th finished turn (or its last, if fewer), by count."""
    done = [int(t["rss"]) / 1024 for t in tasks if t["name"] == "campaign.turn_resolve" and t["result"] == "done"]
    return {min(n, len(done)): done[min(n, len(done)) - 1] for n in (10, 100) if done}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench fleet-of-campaigns", description=__doc__.split("\n")[0])
    parser.add_argument("--campaigns", type=int, default=100, help="campaigns due at once (default 100)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the second run (default 2)")
    parser.add_argument(
        "--kill-one-after",
        type=int,
        metavar="N",
        help="a third run with --workers workers, one of them killed once N turns have resolved, and replaced",
    )
    args = parser.parse_args(argv or [])
    if args.campaigns < 1 or args.workers < 1:
        parser.error("--campaigns and --workers must be at least 1")
    if args.kill_one_after is not None and not 0 <= args.kill_one_after < args.campaigns:
        parser.error("--kill-one-after must be a number of turns from 0 to one less than --campaigns")
    database_url = bench_database_prepare(DATABASE)
    from django.conf import settings

    settings.DEBUG = False
    runs = [_run(label="w1", campaigns=args.campaigns, workers=1, database_url=database_url)]
    if args.workers != 1:
        runs.append(
            _run(label=f"w{args.workers}", campaigns=args.campaigns, workers=args.workers, database_url=database_url)
        )
    if args.kill_one_after is not None:
        kill_run = _run(
            label=f"k{args.workers}",
            campaigns=args.campaigns,
            workers=args.workers,
            database_url=database_url,
            kill_after=args.kill_one_after,
        )
    for r in [*runs, *([kill_run] if args.kill_one_after is not None else [])]:
        killed = ", one killed and replaced" if r["killed"] else ""
        print(
            f"{r['workers']} worker{'s' if r['workers'] > 1 else ''}{killed}: {args.campaigns} turns, "
            f"{r['battles']} battles, each turn resolved exactly once; "
            f"deadline → last turn opened {r['last']:.1f} s (goal ≤ 120 s for 100); "
            f"{r['turns_per_minute']:.1f} turns/min; latency p50 {r['p50']:.1f} s, p95 {r['p95']:.1f} s; "
            f"{r['battles_per_second']:.1f} battles/s; {r['queries_per_turn']:.0f} SQL queries and "
            f"{r['worker_seconds_per_turn']:.2f} worker-s per turn (median); peak RSS per worker "
            f"{', '.join(f'{mb} MB' for mb in r['peak_rss_mb'])}; at most {r['peak_connections']} PostgreSQL "
            "connections",
            flush=True,
        )
    if len(runs) == 2:
        ratio = runs[1]["turns_per_minute"] / runs[0]["turns_per_minute"]
        print(f"throughput {args.workers} workers / 1 worker: {ratio:.2f}× (goal ≥ 1.7 for 2 workers)")
    rss = runs[0]["rss_by_turn"]
    if len(rss) == 2:
        (early, first), (late, last) = sorted(rss.items())
        print(
            f"one worker's RSS after {early} turns {first:.0f} MB, after {late} turns {last:.0f} MB: "
            f"{(last / first - 1) * 100:+.1f} % (goal ≤ 20 % from 10 to 100 turns)"
        )
