"""The battle simulator.

The battle report pages are the campaign's (:mod:`campaign.pages.battle_views`: they carry its header);
the simulator's form and chunked runs are in :mod:`battles.simulator`. The simulator fights at most
``MAX_RUNS_AT_ONCE`` runs in a plain request; with HTMX it fights ``CHUNK`` runs a request and shows
its progress, carrying the spec and the tally between requests in a signed token (so nothing is stored
and nothing can be forged).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from battles.engine import DEFAULT_RULESET, Ruleset, SpecError, parse_spec, render_odds, simulate_odds
from battles.simulator import CHUNK, MAX_RUNS, MAX_RUNS_AT_ONCE, SimulatorForm, Tally, odds_chunk, odds_rows
from config.rate_limits import rate_limit_hit
from rules.ruleset import RulesetError

_SALT = "battles.simulator"


def _result_context(spec_json: dict[str, Any], tally: Tally, seed: int) -> dict[str, Any]:
    spec = parse_spec(spec_json)
    odds = tally.odds(seed)
    return {"odds": odds, "rows": odds_rows(odds, spec), "text": render_odds(odds, spec), "draw": f"{odds.draw:.1%}"}


@login_required
@require_http_methods(["GET", "POST"])
def simulator(request: HttpRequest) -> HttpResponse:
    """Two fleets in, odds out (the engine's Monte-Carlo mode), under RULES.md's default rules."""
    return simulator_page(request, ruleset=DEFAULT_RULESET, rules_name=None, action=reverse("battles:simulator"))


def simulator_page(
    request: HttpRequest,
    *,
    ruleset: Ruleset,
    rules_name: str | None,
    action: str,
    rules_url: str | None = None,
    template: str = "battles/simulator.html",
    page: dict[str, Any] | None = None,
) -> HttpResponse:
    """The simulator under ``ruleset`` (a campaign's house rules when ``rules_name`` names them, told on
    the page at ``rules_url``); the caller has checked that the visitor may use those rules. A caller
    that frames the page (the campaign, with its header) gives its ``template``, which extends
    ``battles/simulator.html``, and that frame's context as ``page``."""
    htmx = bool(getattr(request, "htmx", False))
    if request.method == "POST":
        # The API's budget for simulations (API_THROTTLE_RATES["simulator"]) holds here too, per user;
        # the chunks of a batch already started have their own, wider one.
        refused = _throttled(request, "simulator_chunk" if "state" in request.POST else "simulator")
        if refused is not None:
            return refused
    if request.method == "POST" and "state" in request.POST:
        return _simulator_chunk(request)
    form = SimulatorForm(request.POST or None)
    context: dict[str, Any] = {
        **(page or {}),
        "form": form,
        "max_at_once": MAX_RUNS_AT_ONCE,
        "action": action,
        "rules_name": rules_name,
        "rules_url": rules_url,
        "house_rules": len(ruleset.overrides()),
    }
    if request.method == "POST" and form.is_valid():
        spec = form.spec()
        if spec is not None:
            seed = form.chosen_seed()
            runs = form.cleaned_data["runs"]
            spec_json = form.spec_json()
            if htmx:
                tally = odds_chunk(spec, seed=seed, stop=min(CHUNK, runs), tally=Tally(), ruleset=ruleset)
                return _progress(request, spec_json, seed, runs, tally, ruleset)
            if runs > MAX_RUNS_AT_ONCE:
                form.add_error(
                    "runs",
                    f"Without JavaScript the simulator fights at most {MAX_RUNS_AT_ONCE:,} runs at once "
                    f"(with it, up to {MAX_RUNS:,} with a progress bar).",
                )
            else:
                odds = simulate_odds(spec, runs, seed, ruleset)
                context.update(
                    {
                        "odds": odds,
                        "rows": odds_rows(odds, spec),
                        "text": render_odds(odds, spec),
                        "draw": f"{odds.draw:.1%}",
                    }
                )
    # A refused form (its errors shown next to the fields) is a 400, as every other refused page; HTMX
    # swaps only a 2xx into the page, so its fragment keeps 200.
    status = 400 if request.method == "POST" and form.errors and not htmx else 200
    return render(request, "battles/simulator_result.html" if htmx else template, context, status=status)


def _throttled(request: HttpRequest, scope: str) -> HttpResponse | None:
    """A 429 with Retry-After when the user has used up ``scope``'s rate, else None (counted)."""
    rate = settings.API_THROTTLE_RATES.get(scope)
    if rate is None:
        return None
    verdict = rate_limit_hit(scope, f"user-{request.user.pk}", rate)
    if verdict.allowed:
        return None
    response = HttpResponse(
        f"Too many simulations: at most {rate.replace('/', ' a ')}. "
        f"Try again in {verdict.retry_after} second{'' if verdict.retry_after == 1 else 's'}.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(verdict.retry_after)
    return response


def _progress(
    request: HttpRequest, spec_json: dict[str, Any], seed: int, runs: int, tally: Tally, ruleset: Ruleset
) -> HttpResponse:
    context: dict[str, Any] = {"runs": runs, "done": tally.done, "percent": 100 * tally.done // runs, "seed": seed}
    if tally.done >= runs:
        context.update(_result_context(spec_json, tally, seed))
    else:
        context["state"] = signing.dumps(
            # The rules travel signed with the batch, so a chunk cannot change them.
            {"spec": spec_json, "seed": seed, "runs": runs, "tally": tally.to_json(), "rules": ruleset.overrides()},
            salt=_SALT,
            compress=True,
        )
    return render(request, "battles/simulator_result.html", context)


def _simulator_chunk(request: HttpRequest) -> HttpResponse:
    """The next chunk of a batch started by an HTMX request."""
    try:
        state = signing.loads(request.POST["state"], salt=_SALT, max_age=3600)
        spec = parse_spec(state["spec"])
        tally = Tally.from_json(state["tally"])
        seed, runs = int(state["seed"]), int(state["runs"])
        ruleset = Ruleset.from_flat(state.get("rules") or {})
    except (signing.BadSignature, SpecError, RulesetError, KeyError, TypeError, ValueError):
        return HttpResponseBadRequest("This simulation has expired or is invalid; start it again.")
    odds_chunk(spec, seed=seed, stop=min(tally.done + CHUNK, runs), tally=tally, ruleset=ruleset)
    return _progress(request, state["spec"], seed, runs, tally, ruleset)
