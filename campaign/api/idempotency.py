"""``Idempotency-Key`` on the API's writes (issue 26): a retried POST/PUT/PATCH/DELETE runs once.

A write sent with ``Idempotency-Key: <key>`` claims the key for its user by inserting a row
(:class:`~campaign.models.idempotency.IdempotencyKey`, unique per user and key) before it runs, and
stores its answer (status, body, the headers a client reads) after. Within 24 hours:

* the same key with the same request (method, path and body) answers the stored answer again, with
  ``Idempotent-Replayed: true``, and changes nothing;
* the same key with another request: 422 ``idempotency_key_reused``;
* the same key while the first request still runs: the duplicate waits for it (a few seconds) and
  replays its answer, else 409 ``idempotency_key_in_use``. The unique constraint decides which of two
  concurrent requests runs: the other's insert fails.

An answer of 5xx is not kept (the key is released and a retry runs again); neither is a request that
dies. A claim left by a process that died mid-request is released after :data:`STALE`.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request

from battles.api.base import ApiView
from battles.api.problems import Problem, ProblemEntry
from campaign.models.idempotency import IdempotencyKey

HEADER = "Idempotency-Key"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEPT = timedelta(hours=24)
#: A claim still running after this long belongs to a request that died: it may be claimed again.
STALE = timedelta(minutes=5)
#: How long a duplicate waits for the first request's answer before 409.
WAIT_SECONDS = 10.0
#: The headers of the first answer a replay repeats (the body's media type is stored apart).
REPLAYED_HEADERS = ("ETag", "Location", "Admiralty-Ready", "Admiralty-Ready-Cleared", "WWW-Authenticate")

IDEMPOTENCY_KEY = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
    OpenApiParameter.HEADER,
    required=False,
    description="Any string of 1–255 visible characters, new for each distinct write (a UUID, say). Sent again "
    "with the same request within 24 hours, the write is not repeated: the first answer comes back (with "
    "Idempotent-Replayed: true). The same key with another request: 422 idempotency_key_reused. Keys are the "
    "caller's own.",
)


_WRITE_ANSWERS = {
    "409": "Idempotency-Key: a request with this key is still running (idempotency_key_in_use).",
    "422": "Idempotency-Key: the key was used for another request in the last 24 hours (idempotency_key_reused).",
}


def document_idempotency(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Schema post-processing: every operation taking Idempotency-Key documents its 409 and 422 (a
    problem, like every 4xx, by the hook that follows)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if any(p.get("name") == HEADER for p in operation.get("parameters", [])):
                for code, text in _WRITE_ANSWERS.items():
                    operation["responses"].setdefault(code, {"description": text})
    return result


class _Replay(Exception):
    def __init__(self, response: HttpResponseBase) -> None:
        self.response = response


@dataclass(frozen=True)
class _Claim:
    pk: int


def _key_of(request: Request) -> str | None:
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    if not 1 <= len(raw) <= 255 or not raw.isascii() or not raw.isprintable():
        message = f"{HEADER} must be 1–255 visible ASCII characters (a UUID, say)."
        raise Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry(HEADER, "invalid", message)])
    return raw


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256(f"{request.method} {request.get_full_path()}\n".encode())
    digest.update(request.body)
    return digest.hexdigest()


def _replayed(row: IdempotencyKey) -> HttpResponse:
    assert row.status is not None
    response = HttpResponse(row.body, status=row.status, content_type=row.content_type or None)
    for name, value in row.headers.items():
        response[name] = value
    response["Idempotent-Replayed"] = "true"
    return response


def _claim(request: Request, key: str) -> _Claim:
    """Claim ``key`` for this request, or raise the answer a duplicate gets (a replay, 409 or 422)."""
    user_id = request.user.pk
    assert user_id is not None  # authenticated first (initial): every write needs credentials
    fingerprint = _fingerprint(request)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        now = timezone.now()
        try:
            with transaction.atomic():
                row = IdempotencyKey.objects.create(user_id=user_id, key=key, fingerprint=fingerprint, created_at=now)
            # Keys kept past their day are forgotten as the user writes again (a table that stays small).
            IdempotencyKey.objects.filter(user_id=user_id, created_at__lt=now - KEPT).delete()
            return _Claim(row.pk)
        except IntegrityError:
            pass
        found = IdempotencyKey.objects.filter(user_id=user_id, key=key).first()
        if found is None:
            continue  # released meanwhile: claim it again
        expired = found.created_at < now - KEPT or (found.status is None and found.created_at < now - STALE)
        if expired:
            IdempotencyKey.objects.filter(pk=found.pk, created_at=found.created_at).delete()
            continue
        if found.fingerprint != fingerprint:
            message = (
                f"This {HEADER} was used for another request (another method, address or body) in the last "
                "24 hours; use a new key for a new write."
            )
            raise Problem(
                status.HTTP_422_UNPROCESSABLE_ENTITY,
                message,
                errors=[ProblemEntry(HEADER, "idempotency_key_reused", message)],
            )
        if found.status is not None:
            raise _Replay(_replayed(found))
        if time.monotonic() >= deadline:
            message = f"A request with this {HEADER} is still running; retry it in a moment to get its answer."
            raise Problem(
                status.HTTP_409_CONFLICT, message, errors=[ProblemEntry(HEADER, "idempotency_key_in_use", message)]
            )
        time.sleep(0.05)


def _keep(claim: _Claim, response: HttpResponseBase) -> None:
    if response.status_code >= 500:
        IdempotencyKey.objects.filter(pk=claim.pk).delete()
        return
    if hasattr(response, "render"):
        response.render()
    content = getattr(response, "content", b"")
    headers = {name: response[name] for name in REPLAYED_HEADERS if response.has_header(name)}
    IdempotencyKey.objects.filter(pk=claim.pk).update(
        status=response.status_code,
        content_type=response.get("Content-Type", ""),
        body=content.decode("utf-8"),
        headers=headers,
    )


class IdempotentApiView(ApiView):
    """An :class:`ApiView` whose writes honour ``Idempotency-Key``."""

    _idempotency_claim: _Claim | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authenticated first: keys are the user's own
        self._idempotency_claim = None
        if request.method in WRITES:
            key = _key_of(request)
            if key is not None:
                self._idempotency_claim = _claim(request, key)

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, _Replay):
            return exc.response
        return super().handle_exception(exc)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        claim, self._idempotency_claim = self._idempotency_claim, None
        if claim is not None:
            _keep(claim, response)
        return response

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().dispatch(request, *args, **kwargs)
        except BaseException:
            # A request that died (a 500): release the key, so that a retry runs again.
            claim, self._idempotency_claim = self._idempotency_claim, None
            if claim is not None:
                IdempotencyKey.objects.filter(pk=claim.pk).delete()
            raise
