"""Schema post-processing (issue 30): the published schema says what the server enforces and sends, in
shapes strict OpenAPI 3.0.3 tools read the same way.

- :func:`typed_nullables`: ``nullable`` is ignored by strict 3.0.3 tools beside a ``$ref`` or an
  ``allOf`` without ``type``; each such schema becomes a ``oneOf`` of the reference and a typed null.
- :func:`strict_bodies`: the bodies whose unknown keys the server refuses (every order kind, the ready
  mark, a new listed order) say ``additionalProperties: false``; a reorder's ``order`` is required; an
  order's text fields are never empty (the order check refuses an empty string).
- :func:`declare_headers`: the headers the API sends are declared on the answers that carry them
  (ETag, Last-Modified, Cache-Control on a conditional read; ETag and the ready mark on an order
  write; Idempotent-Replayed on a replay; Retry-After on 429; WWW-Authenticate on 401), and every
  operation documents a 500 and a 503 as problems.
"""

from __future__ import annotations

from typing import Any

from battles.api.problems import PROBLEM_CONTENT_TYPE

_REF = "#/components/schemas/"
_PROBLEM = _REF + "Problem"
#: Request bodies whose unknown keys are refused (``unknown_key``), besides the order kinds.
_CLOSED_BODIES = ("Ready", "PatchedOrderReorder")


def _walk(node: Any, visit: Any) -> None:
    if isinstance(node, dict):
        visit(node)
        for value in node.values():
            _walk(value, visit)
    elif isinstance(node, list):
        for value in node:
            _walk(value, visit)


def typed_nullables(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A nullable reference as ``oneOf: [the reference, null]``, where null is a typed schema that
    allows only null: what strict 3.0.3 tools and client generators (openapi-python-client gives
    ``Admiral | None``) read alike. Giving the ``allOf`` a ``type`` instead made the generator drop
    the null."""
    schemas = result.get("components", {}).get("schemas", {})

    def visit(node: dict[str, Any]) -> None:
        if not node.get("nullable") or "type" in node:
            return
        refs = [node["$ref"]] if "$ref" in node else [part.get("$ref", "") for part in node.get("allOf", [])]
        if len(refs) != 1 or not refs[0].startswith(_REF):
            return
        kind = schemas.get(refs[0].removeprefix(_REF), {}).get("type", "object")
        for key in ("$ref", "allOf", "nullable"):
            node.pop(key, None)
        node["oneOf"] = [{"$ref": refs[0]}, {"type": kind, "nullable": True, "enum": [None]}]

    _walk(result, visit)
    return result


def _order_kinds(schemas: dict[str, Any]) -> list[str]:
    body = schemas.get("OrderBody", {})
    return [part["$ref"].removeprefix(_REF) for part in body.get("oneOf", []) if "$ref" in part]


def strict_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    schemas = result.get("components", {}).get("schemas", {})
    kinds = _order_kinds(schemas)
    for name in (*kinds, *_CLOSED_BODIES):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    for name in kinds:
        for prop in schemas[name].get("properties", {}).values():
            if prop.get("type") == "string" and "enum" not in prop:
                prop.setdefault("minLength", 1)
    reorder = schemas.get("PatchedOrderReorder")
    if reorder is not None:
        reorder["required"] = ["order"]
    return result


def _header(description: str) -> dict[str, Any]:
    return {"schema": {"type": "string"}, "description": description}


_ETAG = _header("The strong ETag of this answer: send it back as If-None-Match (304 while unchanged).")
_LAST_MODIFIED = _header("When what this answer shows last changed (an HTTP date), for If-Modified-Since.")
_CACHE_CONTROL = _header("private, no-cache: revalidate with If-None-Match before reusing a copy.")
_LIST_ETAG = _header("The order list's ETag: send it as If-Match on the next write (412 if the list changed).")
_READY = _header("true or false: the nation's ready mark after this write.")
_READY_CLEARED = _header("true when this write cleared the nation's ready mark.")
_REPLAYED = _header("true on the stored answer of an Idempotency-Key already used for this request.")
_RETRY_AFTER = _header("Seconds to wait before the next write.")
_WWW_AUTHENTICATE = _header("How to authenticate: Bearer (a personal API token) or Basic.")
_SERVER_ERROR = "The server failed: a problem (server_error). Retry with the same Idempotency-Key."
_UNAVAILABLE = "A service the site needs (Redis) is down: a problem (service_unavailable); try again later."


def _parameter_names(operation: dict[str, Any]) -> set[str]:
    return {p.get("name", "") for p in operation.get("parameters", []) if isinstance(p, dict)}


def declare_headers(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            names = _parameter_names(operation)
            ok = next((responses[s] for s in ("200", "201", "204") if s in responses), None)
            if ok is not None:
                headers = ok.setdefault("headers", {})
                if "If-None-Match" in names:
                    headers.update({"ETag": _ETAG, "Last-Modified": _LAST_MODIFIED, "Cache-Control": _CACHE_CONTROL})
                    if "304" in responses:
                        responses["304"].setdefault("headers", {})["ETag"] = _ETAG
                writes_orders = method != "get" and "/orders/{order_id}/" in path
                if path.endswith("/orders/") or writes_orders:
                    headers["ETag"] = _LIST_ETAG
                    if method != "get":
                        headers.update({"Admiralty-Ready": _READY, "Admiralty-Ready-Cleared": _READY_CLEARED})
                if "Idempotency-Key" in names:
                    headers["Idempotent-Replayed"] = _REPLAYED
                if not headers:
                    del ok["headers"]
            if "429" in responses:
                responses["429"].setdefault("headers", {})["Retry-After"] = _RETRY_AFTER
            if "401" in responses:
                responses["401"].setdefault("headers", {})["WWW-Authenticate"] = _WWW_AUTHENTICATE
            problem = {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": _PROBLEM}}}
            responses.setdefault("500", {"description": _SERVER_ERROR, "content": problem})
            responses.setdefault("503", {"description": _UNAVAILABLE, "content": problem})
    return result
