"""The Celery app of the fleet-of-campaigns bench's workers: ``celery -A bench.fleet_worker worker``.

The site's own app (``config.celery``), plus one log line per turn or battle task with the SQL
queries it ran, its wall time and the process's RSS afterwards, which the bench reads back from the
worker's log. Nothing else differs from a production worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from celery.signals import task_postrun, task_prerun
from django.db import connection

from config.celery import app

__all__ = ["app"]

logger = logging.getLogger("bench.fleet_worker")
MEASURED_TASKS = ("campaign.turn_resolve", "battles.battle_resolve")
# This task's counters, by task id (no query wrapper for the tasks that are only timed).
_running: dict[str, tuple[float, list[int], Callable[..., Any] | None]] = {}


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@task_prerun.connect
def _count_queries(task_id: str, task: Any, args: tuple[Any, ...], **_: Any) -> None:
    if task.name not in MEASURED_TASKS:
        _running[task_id] = (time.perf_counter(), [0], None)  # timed and its RSS noted, not counted
        return
    counter = [0]

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        counter[0] += 1
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(wrapper)
    _running[task_id] = (time.perf_counter(), counter, wrapper)


@task_postrun.connect
def _report(task_id: str, task: Any, args: tuple[Any, ...], retval: Any = None, **_: Any) -> None:
    entry = _running.pop(task_id, None)
    if entry is None:
        return
    started, counter, wrapper = entry
    if wrapper is None:
        # Every other task (sweeps, mail): its RSS after it ran, to find which one makes a worker grow.
        logger.warning(
            "BENCH-OTHER name=%s seconds=%.4f rss_kb=%d", task.name, time.perf_counter() - started, _rss_kb()
        )
        return
    if wrapper in connection.execute_wrappers:
        connection.execute_wrappers.remove(wrapper)
    logger.warning(
        "BENCH-TASK name=%s turn=%s result=%s queries=%d seconds=%.4f rss_kb=%d",
        task.name,
        args[0] if args else "-",
        retval if isinstance(retval, str) else "-",
        counter[0],
        time.perf_counter() - started,
        _rss_kb(),
    )
