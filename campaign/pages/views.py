"""The players' read pages: home, settings, dashboard, ready toggle, map, turn history.

Thin views: parse the request, call one selector (the ``*_for_player`` functions of the modules beside
this one, where permissions and fog of war are applied) or one service, render. HTMX requests get the
fragment they asked for; the same URLs work as plain pages and forms without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from battles.views import simulator_page
from campaign.accounts import calendar_token_of, campaigns_of_user, profile_time_zone_set
from campaign.api_tokens import api_token_create, api_token_revoke, api_tokens_of
from campaign.middleware import time_zone_names, time_zone_of, time_zone_remember
from campaign.pages.dashboard import dashboard_for_player
from campaign.pages.diplomacy import diplomacy_for_viewer
from campaign.pages.history import turn_history_for_player, turns_for_player
from campaign.pages.home import home_for_player
from campaign.pages.map import map_for_player
from campaign.pages.rulebook import rules_for_player
from campaign.turn.lifecycle import TurnControlError, nation_ready_set
from campaign.viewer import NationNotChosen, Viewer, acting_viewer_for_player, viewer_for_player


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: the campaigns the visitor plays or runs, with nation, turn and deadline."""
    rows = home_for_player(user=request.user)
    return render(request, "campaign/home.html", {"rows": rows})


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(
        label="Time zone",
        help_text="Deadlines and other times are shown in this zone.",
        choices=[("", "UTC (default)")] + [(name, name.replace("_", " ")) for name in time_zone_names()],
        required=False,
    )


@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> HttpResponse:
    """The viewer's settings: the time zone times are shown in (a signed cookie, and the account's for mail)."""
    if request.method == "POST":
        form = TimeZoneForm(request.POST)
        if form.is_valid():
            name = form.cleaned_data["time_zone"]
            if request.user.is_authenticated:  # kept on the account too: mail shows times in it
                profile_time_zone_set(user_id=request.user.pk, name=name)
            response = redirect("campaign:settings")
            time_zone_remember(response, name)
            messages.success(request, f"Times are now shown in {name or 'UTC'}.")
            return response
    else:
        form = TimeZoneForm(initial={"time_zone": time_zone_of(request)})
    mail: dict[str, Any] = {}
    if request.user.is_authenticated:
        token = calendar_token_of(request.user.pk)
        mail = {
            "mail_campaigns": campaigns_of_user(request.user.pk),
            "calendar_url": request.build_absolute_uri(reverse("campaign:calendar_feed", args=[token]))
            if token
            else None,
            "api_tokens": api_tokens_of(request.user.pk),
            # The whole token, once: it is in the session only between making it and this page.
            "new_api_token": request.session.pop(NEW_API_TOKEN_KEY, None),
        }
    return render(request, "campaign/settings.html", {"form": form, **mail})


NEW_API_TOKEN_KEY = "new_api_token"


@login_required
@require_POST
def api_tokens_manage(request: HttpRequest) -> HttpResponse:
    """Settings: make a named API token (shown once on the page it returns to) or revoke one."""
    assert request.user.pk is not None
    try:
        if request.POST.get("action") == "revoke":
            token = api_token_revoke(user_id=request.user.pk, token_id=_int(request.POST.get("token"), 0))
            messages.success(request, f"The token “{token.name}” is revoked: scripts using it are refused.")
        else:
            new = api_token_create(user_id=request.user.pk, name=request.POST.get("name", ""))
            request.session[NEW_API_TOKEN_KEY] = new.secret
            messages.success(request, f"The token “{new.token.name}” is made. Copy it now: it is not shown again.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(reverse("campaign:settings") + "#api-tokens")


def _int(value: str | None, default: int = 1) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _with_nation(url: str, viewer: Viewer, **params: str) -> str:
    """``url`` with the query a GM needs to keep looking through the same nation."""
    query = {**({"nation": viewer.nation.code} if viewer.is_gm else {}), **params}
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _paths(viewer: Viewer) -> dict[str, str]:
    """The campaign's page URLs without a query (``nq`` in the context adds a GM's nation)."""
    slug = viewer.campaign.slug
    paths = {
        "dashboard": reverse("campaign:dashboard", args=[slug]),
        "map": reverse("campaign:map", args=[slug]),
        "turns": reverse("campaign:turns", args=[slug]),
        "ready": reverse("campaign:ready", args=[slug]),
    }
    paths["orders"] = reverse("campaign:orders", args=[slug])
    paths["battles"] = reverse("battles:list", args=[slug])
    paths["simulator"] = reverse("campaign:simulator", args=[slug])
    paths["rules"] = reverse("campaign:rules", args=[slug])
    return paths


def _page_context(request: HttpRequest, viewer: Viewer, tab: str, **extra: Any) -> dict[str, Any]:
    """What every campaign page's template needs: the viewer, ``paths`` (plain URLs), ``links``
    (the same with a GM's ``?nation=``), ``nq`` (``nation=XX&`` for a GM, to prefix other
    parameters) and the current path for the ready form's return."""
    paths = _paths(viewer)
    return {
        "v": viewer,
        "paths": paths,
        "links": {name: _with_nation(url, viewer) for name, url in paths.items()},
        "nq": f"nation={viewer.nation.code}&" if viewer.is_gm else "",
        "tab": tab,
        "here": request.get_full_path(),
        **extra,
    }


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The nation dashboard (``?nation=CODE`` for a GM, ``?ledger=N`` for older ledger lines)."""
    data = dashboard_for_player(
        user=request.user,
        slug=slug,
        nation_code=request.GET.get("nation"),
        ledger_page=_int(request.GET.get("ledger")),
    )
    context = _page_context(request, data.viewer, "dashboard", d=data)
    if not (getattr(request, "htmx", False) and request.GET.get("part") == "ledger"):
        context["dip"] = diplomacy_for_viewer(data.viewer)
    if getattr(request, "htmx", False) and request.GET.get("part") == "ledger":
        return render(request, "campaign/_ledger.html", context)
    return render(request, "campaign/dashboard.html", context)


@login_required
@require_POST
def ready(request: HttpRequest, slug: str) -> HttpResponse:
    """Mark the nation ready or not for the open turn (``ready`` = 1 or 0; ``nation`` = CODE, which a GM
    who plays no nation here must give: 400 without it)."""
    choice = request.POST.get("ready")
    if choice not in ("0", "1"):
        return HttpResponseBadRequest("ready must be 0 or 1")
    try:
        viewer = acting_viewer_for_player(user=request.user, slug=slug, nation_code=request.POST.get("nation"))
    except NationNotChosen as refused:
        return HttpResponseBadRequest(str(refused))
    error = ""
    try:
        state = nation_ready_set(nation=viewer.nation, ready=choice == "1")
        viewer.nation.ready = state.ready  # type: ignore[attr-defined]
    except TurnControlError as refused:
        error = str(refused)
    if getattr(request, "htmx", False):
        context = _page_context(request, viewer, "", ready_error=error, here=request.POST.get("next", ""))
        return render(request, "campaign/_ready.html", context)
    if error:
        messages.error(request, error)
    elif choice == "1":
        messages.success(request, f"{viewer.nation.name} is ready: the turn may resolve before the deadline.")
    else:
        messages.info(request, f"{viewer.nation.name} is no longer marked ready.")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = _with_nation(reverse("campaign:dashboard", args=[slug]), viewer)
    return HttpResponseRedirect(target)


@login_required
def map_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as the nation sees it; ``?zone=KEY`` opens a zone's panel (a fragment under HTMX)."""
    data = map_for_player(
        user=request.user, slug=slug, nation_code=request.GET.get("nation"), zone_key=request.GET.get("zone") or None
    )
    context = _page_context(request, data.viewer, "map", m=data)
    if getattr(request, "htmx", False) and data.selected is not None:
        return render(request, "campaign/_zone_panel.html", context)
    context["dip"] = diplomacy_for_viewer(data.viewer)
    return render(request, "campaign/map.html", context)


@login_required
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's rules for players, every number this campaign's, house rules marked."""
    data = rules_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/rules.html", _page_context(request, data.viewer, "rules", r=data))


@login_required
def turn_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The resolved turns, newest first (``?page=N``)."""
    data = turns_for_player(
        user=request.user, slug=slug, nation_code=request.GET.get("nation"), page=_int(request.GET.get("page"))
    )
    return render(request, "campaign/turns.html", _page_context(request, data.viewer, "turns", t=data))


@login_required
def turn_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One past turn: the nation's report, its battles and the map as the turn left it."""
    data = turn_history_for_player(user=request.user, slug=slug, number=number, nation_code=request.GET.get("nation"))
    return render(request, "campaign/turn.html", _page_context(request, data.viewer, "turns", h=data))


@login_required
@require_http_methods(["GET", "POST"])
def simulator(request: HttpRequest, slug: str) -> HttpResponse:
    """The battle simulator under this campaign's rules, house rules included (RULES.md: every number is
    a campaign setting), for anyone who may see the campaign."""
    viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    campaign = viewer.campaign
    return simulator_page(
        request,
        ruleset=campaign.ruleset,
        rules_name=f"the rules of {campaign.name}",
        action=reverse("campaign:simulator", args=[slug]),
        rules_url=reverse("campaign:rules", args=[slug]),
    )
