"""A webhook receiver for the tests: a real HTTP server (``http.server``, threaded) on 127.0.0.1 that keeps
every request it gets, answers with the status the test sets, and can be stopped and started again on
the same port (a receiver's outage). Nothing is ever sent beyond 127.0.0.1."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: str

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def signed_with(self, secret: str) -> bool:
        """Whether ``X-Admiralty-Signature`` is the HMAC-SHA256 of "<timestamp>.<body>" keyed with ``secret``."""
        message = f"{self.headers['X-Admiralty-Timestamp']}.{self.body}".encode()
        expected = "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, self.headers["X-Admiralty-Signature"])


class _ReusableServer(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True


class Receiver:
    """``received``: every request, in order; ``status``: what the next answers are."""

    def __init__(self) -> None:
        # The port stays ours while the receiver is down (a bound socket that does not listen: a
        # connection is refused, as from a stopped receiver), as the test SMTP server does.
        self._reserved = socket.socket()
        self._reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._reserved.bind(("127.0.0.1", 0))
        self.port: int = self._reserved.getsockname()[1]
        self.received: list[Received] = []
        self.status = 204
        self._server: _ReusableServer | None = None
        self._lock = threading.Lock()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode()
                with receiver._lock:
                    receiver.received.append(Received(self.path, dict(self.headers.items()), body))
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = _ReusableServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def close(self) -> None:
        self.stop()
        self._reserved.close()
