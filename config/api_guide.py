"""The API's guide, shown at the top of /api/docs/ and in the schema's ``info.description``: what a
program needs beyond the operations themselves (the README's "API" section says the same at length)."""

API_GUIDE = """Napoleonic naval campaign manager: everything a player does on the site, for programs.

**Authentication.** `Authorization: Bearer <token>` (make a token on the Settings page). Without one,
`401` with `WWW-Authenticate`. This schema itself needs no token.

**Playing from the API alone.** `GET /api/v1/campaigns/` lists your campaigns; for one campaign,
`nations/` says how each nation stands to yours (`war`, `peace`, `alliance`, `self`) with pending
offers and readiness; `rules/` gives every rule number (ship costs and build turns, raise and repair
costs, `movement.max_steps`, the quota table, every house option); `fleets/<id>/moves/` lists an own
fleet's legal move paths this turn; `orders/validate/` checks a whole list exactly as `PUT orders/`
would, storing nothing; `turns/` lists the turns and `turns/<n>/` is your report of one. A game master
who plays no nation adds `?nation=CODE`.

**Refusals.** Every 4xx and 5xx is `application/problem+json`:
`{"type", "title", "status", "detail", "errors": [{"index", "field", "code", "message", ...}]}`.
`index` is the refused order's place (from 0) in a list you sent (null otherwise); `field` is a path
into what you sent (`[2].path`); `code` is stable (`not_adjacent`, `unknown_key`, `not_enough_ep`, …);
the refusal's numbers are further members (`cost`, `available`, `limit`, `steps`, …).

**Headers.** Reads answer `ETag` (poll with `If-None-Match`: `304` while unchanged) and, where known,
`Last-Modified`. Writes take `Idempotency-Key` (a retry is answered, not run again: `Idempotent-Replayed`)
and `If-Match` with an ETag read in the turn (`409 turn_closed` after the turn resolved, `412` when
the order list changed). Too many writes: `429` with `Retry-After` seconds.

**Conventions.** Every path ends with `/` (a GET without it is redirected). Unknown query parameters
and unknown body keys are refused, never ignored. Seeds are strings of digits. Seasons are keys
(`high_summer`). Browsers may call the API only from the origins the site lists in its
`API_CORS_ORIGINS` setting (none by default)."""
