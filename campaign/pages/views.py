"""The players' read pages: home, settings, dashboard, ready toggle, map, turn history.

Thin views: parse the request, call one selector (the ``*_for_player`` functions of the modules beside
this one, where permissions and fog of war are applied) or one service, render. HTMX requests get the
fragment they asked for; the same URLs work as plain pages and forms without JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_http_methods, require_POST

from battles.views import simulator_page
from campaign.accounts.api_tokens import api_token_create, api_token_revoke, api_tokens_of
from campaign.accounts.preferences import calendar_token_of, campaigns_of_user, profile_time_zone_set
from campaign.accounts.time_zone import time_zone_names, time_zone_of, time_zone_remember
from campaign.orders.errors import TurnClosed
from campaign.orders.turn_named import named_turn, turn_moved_answer
from campaign.page_header import page_context as _page_context
from campaign.page_header import with_nation as _with_nation
from campaign.pages.dashboard import dashboard_for_player
from campaign.pages.diplomacy import diplomacy_for_viewer
from campaign.pages.history import turn_history_for_player, turns_for_player
from campaign.pages.home import home_for_player
from campaign.pages.map.moves import MoveResult, map_move_submit, map_order_submit, map_withdraw_submit
from campaign.pages.map.page import map_for_player
from campaign.pages.next_strip import next_strip
from campaign.pages.rulebook.page import rules_for_player
from campaign.turn.lifecycle import TurnControlError, nation_ready_set
from campaign.viewer import NationNotChosen, acting_viewer_for_player, viewer_for_player


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: the campaigns the visitor plays or runs, with nation, turn and deadline."""
    rows = home_for_player(user=request.user)
    return render(request, "campaign/home.html", {"rows": rows})


def _attrs_html(attrs: dict[str, Any]) -> str:
    """An element's attributes as Django's ``django/forms/widgets/attrs.html`` writes them (escaped)."""
    return "".join(
        f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )


class ManyOptionsSelect(forms.Select):
    """A ``<select>`` of many plain options, written here with exactly the markup of Django's
    ``select.html`` / ``select_option.html`` templates (the test of the Settings page compares them).

    Through the templates each option costs two template includes: the ~600 time zones of the Settings
    page took ~100 ms of CPU to render, far more than any other page. Options in groups (none here) are
    left to the templates.
    """

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group_name for group_name, _, _ in widget["optgroups"]):
            return super().render(name, value, attrs, renderer)
        # select_option.html ends in a newline, kept by the include; the whole is stripped, as a renderer does.
        options = "".join(
            f'\n  <option value="{conditional_escape(str(option["value"]))}"{_attrs_html(option["attrs"])}>'
            f"{conditional_escape(option['label'])}</option>\n"
            for _, group, _ in widget["optgroups"]
            for option in group
        )
        return mark_safe(  # every value above is escaped
            f'<select name="{conditional_escape(widget["name"])}"{_attrs_html(widget["attrs"])}>{options}\n</select>'
        )


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(
        label="Time zone",
        help_text="Deadlines and other times are shown in this zone.",
        choices=[("", "UTC (default)")] + [(name, name.replace("_", " ")) for name in time_zone_names()],
        required=False,
        widget=ManyOptionsSelect,
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
            # The dashboard's one-click offer of the browser's zone returns to the page it was on.
            back = request.POST.get("next", "")
            safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
            response = HttpResponseRedirect(back) if back and safe else redirect("campaign:settings")
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
    if getattr(request, "htmx", False) and request.GET.get("part") == "ledger":
        return render(request, "campaign/_ledger.html", context)
    context["dip"] = dip = diplomacy_for_viewer(data.viewer)
    context["strip"] = next_strip(
        data.viewer,
        orders_entered=data.orders_entered,
        answers_listed=data.answers_listed,
        dip=dip,
        report=data.report,
    )
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
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = _with_nation(reverse("campaign:dashboard", args=[slug]), viewer)
    try:
        state = nation_ready_set(
            nation=viewer.nation, ready=choice == "1", actor=request.user, named_turn=named_turn(request)
        )
        viewer.nation.ready = state.ready  # type: ignore[attr-defined]
        viewer.nation.ready_cleared = state.ready_cleared  # type: ignore[attr-defined]
    except TurnClosed as moved:
        # Pressed on a page of a turn that has resolved: the fresh page says so; nothing was marked.
        return turn_moved_answer(request, moved, target)
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
    return HttpResponseRedirect(target)


def _fleet_param(raw: str | None) -> int | None:
    return int(raw) if raw is not None and raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def _zoom(request: HttpRequest) -> tuple[str | None, str | None, str | None]:
    """The view the request asks the map to be drawn at: a form's or the script's (in a post's body),
    else the link's."""
    return tuple(request.POST.get(k) or request.GET.get(k) for k in ("zoom", "cx", "cy"))  # type: ignore[return-value]


def _map_page(
    request: HttpRequest, slug: str, *, nation: str | None, fleet: int | None, notice: Any = None
) -> HttpResponse:
    get = request.GET
    data = map_for_player(
        user=request.user,
        slug=slug,
        nation_code=nation,
        zone_key=get.get("zone") or None,
        fleet_id=fleet,
        zoom=_zoom(request),
        show_last=(request.POST.get("last") or get.get("last")) != "0",
    )
    context = _page_context(request, data.viewer, "map", m=data, fleet_asked=fleet, notice=notice)
    htmx = getattr(request, "htmx", False)
    if htmx and getattr(htmx, "target", None) == "map-area":
        return render(request, "campaign/_map_area.html", context)
    if htmx and data.selected is not None:
        return render(request, "campaign/_zone_panel.html", context)
    context["dip"] = diplomacy_for_viewer(data.viewer)
    return render(request, "campaign/map.html", context)


@login_required
def map_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as the nation sees it; ``?zone=KEY`` opens a zone's panel (a fragment under HTMX),
    ``?fleet=ID`` shows an own fleet's legal moves, ``?zoom=&cx=&cy=`` zooms (the whole map area
    under HTMX when it targets ``#map-area``)."""
    return _map_page(request, slug, nation=request.GET.get("nation"), fleet=_fleet_param(request.GET.get("fleet")))


@login_required
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's rules for players, every number this campaign's, house rules marked."""
    data = rules_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/rules.html", _page_context(request, data.viewer, "rules", r=data))


@login_required
@require_POST
def map_move(request: HttpRequest, slug: str) -> HttpResponse:
    """A move clicked on the map (``fleet``, ``path``): entered through the order form and service.
    Under HTMX the map area comes back with the outcome; otherwise post/redirect/get to the map."""
    nation = request.POST.get("as_nation") or request.GET.get("nation") or None
    fleet = request.POST.get("fleet", "")
    try:
        result = map_move_submit(
            user=request.user,
            slug=slug,
            nation_code=nation,
            fleet=fleet,
            path=request.POST.get("path", ""),
            named_turn=named_turn(request),
        )
    except TurnClosed as moved:
        # A move clicked on a map of a turn that has resolved: the fresh map says so; nothing entered.
        return _map_turn_moved(request, slug, nation, moved)
    # A move entered: the map shows it drawn, no fleet chosen; a refusal: the fleet's choices again.
    return _map_answer(request, slug, nation, None if result.ok else _fleet_param(fleet), result)


def _map_answer(
    request: HttpRequest, slug: str, nation: str | None, fleet: int | None, result: MoveResult
) -> HttpResponse:
    """The map after an order given on it, at the view it was given from, with the fleet still chosen
    (its panel shows the order, or the refusal beside its choices): the map area under HTMX, else
    post/redirect/get."""
    zoom, cx, cy = _zoom(request)
    pairs = (("nation", nation), ("fleet", str(fleet) if fleet else None), ("zoom", zoom), ("cx", cx), ("cy", cy))
    query = {k: v for k, v in pairs if v}
    url = reverse("campaign:map", args=[slug])
    url = f"{url}?{urlencode(query)}" if query else url
    if getattr(request, "htmx", False):
        response = _map_page(request, slug, nation=nation, fleet=fleet, notice=result)
        response["HX-Push-Url"] = url  # the address bar follows the map shown
        return response
    (messages.success if result.ok else messages.error)(request, result.message)
    return HttpResponseRedirect(url)


def _map_turn_moved(request: HttpRequest, slug: str, nation: str | None, moved: TurnClosed) -> HttpResponse:
    """An order given on a map of a turn that has resolved: the fresh map says so; nothing entered."""
    url = reverse("campaign:map", args=[slug])
    return turn_moved_answer(request, moved, f"{url}?{urlencode({'nation': nation})}" if nation else url)


@login_required
@require_POST
def map_order(request: HttpRequest, slug: str) -> HttpResponse:
    """Another fleet order from the fleet's panel on the map (``kind``: posture, run_guns, fireships,
    sally; the form's fields), entered through the order form and service."""
    nation = request.POST.get("as_nation") or request.GET.get("nation") or None
    fleet = _fleet_param(request.POST.get("fleet"))
    try:
        result = map_order_submit(
            user=request.user,
            slug=slug,
            nation_code=nation,
            kind=request.POST.get("kind", ""),
            data=request.POST,
            named_turn=named_turn(request),
        )
    except TurnClosed as moved:
        return _map_turn_moved(request, slug, nation, moved)
    return _map_answer(request, slug, nation, fleet, result)


@login_required
@require_POST
def map_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """Withdraw one of the nation's orders from the map (``order``), through the order service."""
    nation = request.POST.get("as_nation") or request.GET.get("nation") or None
    order_id = _fleet_param(request.POST.get("order"))
    if order_id is None:
        return HttpResponseBadRequest("Name the order to withdraw (its number).")
    try:
        result = map_withdraw_submit(
            user=request.user, slug=slug, nation_code=nation, order_id=order_id, named_turn=named_turn(request)
        )
    except TurnClosed as moved:
        return _map_turn_moved(request, slug, nation, moved)
    return _map_answer(request, slug, nation, _fleet_param(request.POST.get("fleet")), result)


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
        # A GM's nation rides along, so the header after a plain POST looks through the same nation.
        action=_with_nation(reverse("campaign:simulator", args=[slug]), viewer),
        rules_url=reverse("campaign:rules", args=[slug]),
        template="campaign/simulator.html",
        page=_page_context(request, viewer, "simulator"),
    )
