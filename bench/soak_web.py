"""What the soak (``bench.soak``) plays through: a browser-like client (forms posted with their CSRF
token, as Chromium would post them), an API client with a player's token, a real SMTP server the
workers send their mail to, and real Celery worker and beat processes it can kill.

Every response passes :meth:`Soak.seen`: a 5xx anywhere is a broken invariant.
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


class Broken(AssertionError):
    """A broken invariant: the soak stops and prints the seed and step to replay it."""


# --- forms as a browser reads them ------------------------------------------------------------------


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)
    selects: dict[str, list[str]] = field(default_factory=dict)

    def data(self, overrides: dict[str, Any] | None = None, button: tuple[str, str] | None = None) -> dict[str, Any]:
        """The form's fields as a browser would submit them, ``overrides`` replacing (or adding) fields."""
        out: dict[str, Any] = {}
        for name, value in self.fields:
            out.setdefault(name, []).append(value)
        for name, value in (overrides or {}).items():
            if value is None:
                out.pop(name, None)
            else:
                out[name] = value if isinstance(value, list) else [str(value)]
        if button is not None and button[0]:
            out[button[0]] = [button[1]]
        return out


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = Form(action=a.get("action", ""), method=a.get("method", "get").lower())
            self.forms.append(self._form)
        if self._form is None or "disabled" in a:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image"):
                self._form.buttons.append((name, a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._form.fields.append((name, a.get("value", "on")))
            elif kind not in ("button", "reset", "file"):
                self._form.fields.append((name, a.get("value", "")))
        elif tag == "input" and a.get("type", "").lower() == "submit":
            self._form.buttons.append(("", ""))
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            self._form.buttons.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = (name, [], [])
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select[1].append(value)
            if "selected" in a:
                self._select[2].append(value)
        elif tag == "textarea" and name:
            self._textarea = (name, [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, options, selected = self._select
            self._form.selects[name] = options
            for value in selected or options[:1]:
                self._form.fields.append((name, value))
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._form.fields.append((self._textarea[0], "".join(self._textarea[1]).lstrip("\n")))
            self._textarea = None


def forms_of(html: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


# --- the soak's clients -----------------------------------------------------------------------------


class Soak:
    """What every client reports to: the requests made, and the first 5xx (a broken invariant)."""

    def __init__(self) -> None:
        self.requests = 0

    def seen(self, response: Any, what: str) -> Any:
        self.requests += 1
        if response.status_code >= 500:
            body = response.content.decode(errors="replace")[-1500:]
            raise Broken(f"{what} answered {response.status_code}: {body}")
        return response


class Browser:
    """A person at a browser: logs in through the login form, posts every form with its CSRF token."""

    def __init__(self, soak: Soak, username: str, password: str) -> None:
        self.soak = soak
        self.username = username
        self.client = Client(enforce_csrf_checks=True)
        page = self.get("/accounts/login/")
        login = next(f for f in forms_of(page.content.decode()) if "password" in dict(f.fields))
        done = self.submit("/accounts/login/", login, {"username": username, "password": password})
        if done.status_code != 302:
            raise Broken(f"{username} could not log in ({done.status_code})")

    def get(self, url: str, *, expect: tuple[int, ...] | None = None) -> Any:
        response = self.soak.seen(self.client.get(url), f"GET {url} as {self.username}")
        if expect is not None and response.status_code not in expect:
            raise Broken(f"GET {url} as {self.username}: {response.status_code}, expected {expect}")
        return response

    def submit(
        self, url: str, form: Form, overrides: dict[str, Any] | None = None, button: tuple[str, str] | None = None
    ) -> Any:
        target = form.action or url
        if not target.startswith("/"):
            target = url.rsplit("/", 1)[0] + "/" + target if target else url
        response = self.client.post(target, form.data(overrides, button))
        return self.soak.seen(response, f"POST {target} as {self.username}")

    def form(self, url: str, has: str) -> tuple[Form | None, str]:
        """The page at ``url`` and its first form with a field or button named ``has``."""
        html = self.get(url).content.decode()
        for form in forms_of(html):
            names = {n for n, _ in form.fields} | {n for n, _ in form.buttons} | set(form.selects)
            if has in names:
                return form, html
        return None, html


class Api:
    """A script with a player's (or the GM's) token: ``Authorization: Bearer``."""

    def __init__(self, soak: Soak, token: str, who: str) -> None:
        self.soak = soak
        self.who = who
        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def call(self, method: str, url: str, body: Any = None, **headers: str) -> Any:
        send: Callable[..., Any] = getattr(self.client, method.lower())
        json_body = {} if body is None else {"data": body, "content_type": "application/json"}
        response = send(url, **json_body, **headers)
        return self.soak.seen(response, f"{method} {url} as {self.who}")


# --- real SMTP ----------------------------------------------------------------------------------------


class SmtpSink:
    """A real SMTP server (aiosmtpd) on a free port of 127.0.0.1 that keeps every message received,
    each with ``X-Envelope-To`` (as the test suite's server does)."""

    def __init__(self) -> None:
        import logging
        import socket

        from aiosmtpd.controller import Controller

        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every line of every session

        self.messages: list[Message] = []
        with socket.socket() as probe:  # a free port (aiosmtpd checks its server by connecting to it)
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 Message accepted for delivery"

    def stop(self) -> None:
        self.controller.stop()


def smtp_env(port: int) -> dict[str, str]:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "EMAIL_USE_TLS": "false",
        "EMAIL_TIMEOUT": "5",
    }


# --- real workers -------------------------------------------------------------------------------------


#: One process a worker (as the test suite's workers), INFO so that every task's failure is logged.
WORKER_OPTIONS = ("--pool=solo", "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO")
#: Failures a worker's log shows (a task that raised, a turn that failed).
FAILURE_MARKS = ("raised unexpected", "Traceback (most recent call last)", "ERROR/")


class Processes:
    """Celery workers (``--pool=solo``) and one beat on the soak's database, queues and SMTP server;
    a killed worker's turn is resumed by the sweep once its short lease runs out."""

    def __init__(self, database_url: str, queue_prefix: str, smtp_port: int, label: str) -> None:
        self.label = label
        self.home = tempfile.TemporaryDirectory(prefix=f"soak-{label}-")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url,
            "CELERY_QUEUE_PREFIX": queue_prefix,
            "PYTHONDONTWRITEBYTECODE": "",
            "TURN_SWEEP_SECONDS": "1",
            "TURN_LEASE_SECONDS": "10",
            "TURN_BATTLE_GRACE_SECONDS": "10",
            "MAIL_SWEEP_SECONDS": "5",
            "SITE_URL": "http://testserver",
            **smtp_env(smtp_port),
        }
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}
        self.killed: list[str] = []
        self.count = 0
        self.failures_seen: dict[str, int] = {}

    def _start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = Path(self.home.name) / f"{name}.log"
        self.logs[name] = log
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *command],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.running[name] = process
        return process

    def worker(self) -> str:
        """Start a worker and wait until it answers; returns its node name."""
        from config.celery import app

        self.count += 1
        node = f"soak-{self.label}-{os.getpid()}-{self.count}@{os.uname().nodename}"
        self._start(node, ["worker", *WORKER_OPTIONS, "-n", node])
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.running[node].poll() is not None:
                raise Broken(f"worker {node} exited at start: {self.tail(node)}")
            if app.control.ping(destination=[node], timeout=0.2):
                return node
        raise Broken(f"worker {node} did not answer within 60 s")

    def beat(self) -> None:
        schedule = Path(self.home.name) / "beat-schedule"
        self._start("beat", ["beat", "--loglevel=WARNING", "--pidfile=", "-s", str(schedule)])

    def workers(self) -> list[str]:
        return [n for n, p in self.running.items() if n != "beat" and p.poll() is None]

    def kill(self, node: str) -> None:
        """SIGKILL, as an out-of-memory killer or a pulled plug would: no warm shutdown."""
        self.running[node].kill()
        self.running[node].wait(10)
        self.killed.append(node)

    def tail(self, name: str, lines: int = 30) -> str:
        return "\n".join(self.logs[name].read_text(errors="replace").splitlines()[-lines:])

    def failures(self) -> list[str]:
        """New failure lines in any log since the last call (a killed worker's log is not read past the kill)."""
        found = []
        for name, log in self.logs.items():
            text = log.read_text(errors="replace").splitlines()
            start = self.failures_seen.get(name, 0)
            self.failures_seen[name] = len(text)
            for i, line in enumerate(text[start:], start):
                if any(mark in line for mark in FAILURE_MARKS):
                    found.append(f"{name}: " + "\n".join(text[i : i + 12]))
        return found

    def dead(self) -> list[str]:
        return [n for n, p in self.running.items() if p.poll() is not None and n not in self.killed]

    def stop(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                process.terminate()
        for process in self.running.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        keep = os.environ.get("BENCH_KEEP_LOGS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for name, log in self.logs.items():
                (Path(keep) / f"{name.split('@')[0]}.log").write_bytes(log.read_bytes())
        self.home.cleanup()
