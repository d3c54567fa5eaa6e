"""Pages of battles on the table (issue 15): the turn's markings, one battle with its result form,
and its battle pack as a printable page and a PDF. Thin: the services are in :mod:`campaign.tabletop.services`,
what is shown in :mod:`campaign.tabletop.pages`. Every action is a plain form POST (no JavaScript).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from battles.models import PackPdf, TabletopBattle
from campaign.pages.views import _page_context, _with_nation
from campaign.tabletop.pages import (
    FATE_CHOICES,
    TAKEN_IN_CHOICES,
    result_from_form,
    storming_result_from_form,
    table_for_player,
    tables_for_player,
)
from campaign.tabletop.pdf import PdfThrottled, pack_pdf_request
from campaign.tabletop.services import (
    TableResultRefused,
    table_fight_automatically,
    table_mark,
    table_pack_roll,
    table_request_decide,
    table_result_approve,
    table_result_confirm,
    table_result_dispute,
    table_result_enter,
    table_setup_dice_set,
    table_unmark,
)
from campaign.tabletop.thread import table_post_add


def _gm_only(is_gm: bool) -> None:
    if not is_gm:
        raise PermissionDenied("Only the game master can do that.")


@login_required
@require_http_methods(["GET", "POST"])
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's battles on the table; while a turn is open, send a place's battle to the table
    (the GM) or ask for it (a player)."""
    data = tables_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    viewer = data.viewer
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "mark":
                place = request.POST.get("place", "")
                kind = request.POST.get("kind", TabletopBattle.Kind.BATTLE)
                what = "That storming" if kind == TabletopBattle.Kind.STORMING else "That battle"
                if viewer.is_gm:
                    table_mark(campaign=viewer.campaign, place=place, kind=kind, actor=request.user)
                    messages.success(request, f"Marked: {what.lower()} goes to the table when the turn resolves.")
                else:
                    if viewer.nation.player_id != request.user.pk:
                        raise PermissionDenied("Only a nation's player can ask for its battles.")
                    table_mark(
                        campaign=viewer.campaign, place=place, nation=viewer.nation, kind=kind, actor=request.user
                    )
                    messages.success(request, "Asked: the game master decides whether it goes to the table.")
            else:
                _gm_only(viewer.is_gm)
                table = TabletopBattle.objects.get(campaign=viewer.campaign, pk=int(request.POST.get("table", "0")))
                if action in ("approve", "decline"):
                    table_request_decide(table=table, approve=action == "approve", actor=request.user)
                elif action == "unmark":
                    table_unmark(table=table, actor=request.user)
                elif action == "automatic":
                    table_fight_automatically(table=table, actor=request.user)
                else:
                    messages.error(request, f"Unknown action {action!r}.")
        except TableResultRefused as refused:
            messages.error(request, str(refused))
        except (TabletopBattle.DoesNotExist, ValueError):
            messages.error(request, "No such battle on the table in this campaign.")
        return HttpResponseRedirect(_with_nation(reverse("campaign:tables", args=[slug]), viewer))
    context = _page_context(request, viewer, "table", t=data)
    return render(request, "campaign/tables.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_detail(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One battle on the table: its state and deadline, its pack, and the result form."""
    data = table_for_player(user=request.user, slug=slug, table_id=table_id, nation_code=request.GET.get("nation"))
    viewer = data.viewer
    errors: list[str] = []
    if request.method == "POST":
        action = request.POST.get("action", "")
        table = data.table
        try:
            if action == "enter":
                _result_enter(request, data)
            elif action == "confirm":
                if data.my_side is None:
                    raise PermissionDenied("Only a player of a side can confirm.")
                table_result_confirm(table=table, side=data.my_side, actor=request.user)
                messages.success(request, "Confirmed.")
            elif action == "dispute":
                if data.my_side is None:
                    raise PermissionDenied("Only a player of a side can dispute.")
                table_result_dispute(
                    table=table, side=data.my_side, reason=request.POST.get("reason", ""), actor=request.user
                )
                messages.info(request, "Disputed: the game master decides.")
            elif action == "post":
                if not data.can_post:
                    raise PermissionDenied("Only the game master or a player of a side can post on this battle.")
                side = None if viewer.is_gm and data.my_side is None else data.my_side
                table_post_add(table=table, actor=request.user, side=side, body=request.POST.get("body", ""))
                messages.success(request, "Posted: the others are told by mail.")
            elif action == "approve":
                _gm_only(viewer.is_gm)
                battle = table_result_approve(table=table, actor=request.user)
                messages.success(request, "Approved and applied: the turn resolves on.")
                if battle is not None:
                    return HttpResponseRedirect(reverse("battles:detail", args=[slug, battle.pk]))
            elif action == "automatic":
                _gm_only(viewer.is_gm)
                table_fight_automatically(table=table, actor=request.user)
                messages.success(request, "The battle will be fought by the server's dice.")
            elif action == "roll":
                if not (viewer.is_gm or data.my_side is not None):
                    raise PermissionDenied("Only the game master or a player of a side can have the dice rolled.")
                table_pack_roll(table=table, actor=request.user)
                messages.success(request, "The server rolled the pack's dice.")
            elif action == "setup":
                if not (viewer.is_gm or data.my_side is not None):
                    raise PermissionDenied("Only the game master or a player of a side can enter the set-up dice.")
                post = request.POST
                given: dict[str, object] = {}
                if post.get("setup_attacker", "").strip() or post.get("setup_defender", "").strip():
                    given["attacker"] = _die(post.get("setup_attacker", ""))
                    given["defender"] = _dice(post.get("setup_defender", ""))
                if post.get("wind_initial", "").strip() or post.get("wind_speed", "").strip():
                    given["wind_initial"] = _dice(post.get("wind_initial", ""))
                    given["wind_speed"] = _dice(post.get("wind_speed", ""))
                if not given:
                    raise TableResultRefused("Enter the dice thrown at the table first.", field="dice")
                table_setup_dice_set(table=table, **given, actor=request.user)
                messages.success(request, "The pack shows what those dice give.")
            else:
                errors.append(f"Unknown action {action!r}.")
        except TableResultRefused as refused:
            errors.append(str(refused))
        if not errors:
            return HttpResponseRedirect(_with_nation(reverse("campaign:table", args=[slug, table_id]), viewer))
        data = table_for_player(user=request.user, slug=slug, table_id=table_id, nation_code=request.GET.get("nation"))
        if action == "enter" and data.storming is not None:
            _keep_storming(data, storming_result_from_form(request.POST))
        elif action == "enter":
            _keep_entered(data, result_from_form(request.POST))
    context = _page_context(
        request, viewer, "table", d=data, errors=errors, fates=FATE_CHOICES, taken_in=TAKEN_IN_CHOICES
    )
    return render(request, "campaign/table.html", context, status=400 if errors else 200)


def _result_enter(request: HttpRequest, data: Any) -> None:
    """Enter the result from the form: a side's player (the other side confirms) or the GM alone."""
    if not (data.viewer.is_gm or data.my_side is not None):
        # Whether a result may be entered now is the service's to say (a dispute stands…), by name.
        raise PermissionDenied("Only the game master or a player of a side can enter the result.")
    table = data.table
    body = storming_result_from_form(request.POST) if table.is_storming else result_from_form(request.POST)
    side = None if data.viewer.is_gm and data.my_side is None else data.my_side
    if data.viewer.is_gm and request.POST.get("as_gm"):
        side = None
    table_result_enter(table=table, body=body, side=side, by=request.user.get_username(), actor=request.user)
    messages.success(
        request,
        "Result entered and confirmed: the game master approves it."
        if side is None
        else "Result entered: the other side's player must confirm it.",
    )


def _die(text: str) -> object:
    """A die face typed in a form: a whole number, or the text itself for the service to refuse."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else text


def _dice(text: str) -> list[object]:
    """Dice typed in one field, separated by spaces or commas."""
    return [_die(x) for x in text.replace(",", " ").split()]


def _keep_entered(data: Any, body: dict[str, Any]) -> None:
    """Show a refused form as it was filled in, so nothing has to be entered twice."""
    rows = {r["ship"]: r for r in body["ships"]}
    for ship in data.ships:
        row = rows.get(ship.id)
        if row is not None:
            ship.fate = str(row.get("fate") or "intact")
            ship.captured_by = str(row.get("captured_by") or "")
            ship.taken_in = str(row.get("taken_in") or "")
    data.held_field = "" if body["held_field"] is None else str(body["held_field"])


def _keep_storming(data: Any, body: dict[str, Any]) -> None:
    """A refused storming form shown as it was filled in."""
    form = data.storming
    lost = body["besiegers_lost"]
    for line in form.besiegers:
        n = lost.get(line.code, 0)
        line.lost = n if isinstance(n, int) else 0
    form.garrison_lost = body["garrison_lost"] if isinstance(body["garrison_lost"], int) else 0
    form.port_taken = {True: "yes", False: "no"}.get(body["port_taken"], "")


def _pack_html(request: HttpRequest, slug: str, table_id: int, *, inline_css: bool = False) -> tuple[str, Any]:
    """The pack's page; for the PDF with its stylesheet inline (Chromium prints it from memory)."""
    data = table_for_player(user=request.user, slug=slug, table_id=table_id, nation_code=request.GET.get("nation"))
    if data.pack is None:
        if data.table.record:
            return _approved_pack(data.table.record, inline_css=inline_css), data
        raise PermissionDenied("This battle has no pack: it is not waiting at the table.")
    css = ""
    if inline_css:
        found = finders.find("pack.css")
        css = Path(str(found)).read_text(encoding="utf-8") if found else ""
    context = {"d": data, "p": data.pack, "campaign": data.viewer.campaign, "inline_css": css}
    template = "campaign/table_storming_pack.html" if data.table.is_storming else "campaign/table_pack.html"
    return render_to_string(template, context, request=request), data


def _approved_pack(record: str, *, inline_css: bool) -> str:
    """An approved battle's pack as it stood then, kept with its stylesheet inline (self-contained, as
    the PDF is printed from); the page a browser shows links the site's stylesheet instead, since the
    Content-Security-Policy takes styles only from the site's own files."""
    start, end = record.find("<style>"), record.find("</style>")
    if inline_css or start == -1 or end < start:
        return record
    return f'{record[:start]}<link rel="stylesheet" href="{static("pack.css")}">{record[end + len("</style>") :]}'


@login_required
def table_pack(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The battle pack as one printable page (its own print stylesheet)."""
    html, _ = _pack_html(request, slug, table_id)
    return HttpResponse(html)


@login_required
def table_pack_pdf(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The battle pack as a PDF: printed by a queued task from the same page (never inside this
    request); until it is ready the page says so and refreshes itself (a link too, without refresh)."""
    html, data = _pack_html(request, slug, table_id, inline_css=True)
    try:
        retry = request.GET.get("retry") == "1"
        pdf = pack_pdf_request(table=data.table, html=html, user=request.user, retry=retry)
    except PdfThrottled as throttled:
        response = _pdf_page(request, data, problem=str(throttled), status=429, throttled=True)
        response["Retry-After"] = str(throttled.retry_after)
        return response
    if pdf.state == PackPdf.State.READY:
        assert pdf.pdf is not None  # the database's constraint: a printed row has its PDF
        response = HttpResponse(bytes(pdf.pdf), content_type="application/pdf")
        name = f"battle-pack-{data.table.place}-turn-{data.table.turn.number}.pdf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    if pdf.state == PackPdf.State.FAILED:
        return _pdf_page(request, data, problem=pdf.error or "The PDF could not be printed.", status=503)
    return _pdf_page(request, data, problem="", status=202)


def _pdf_page(request: HttpRequest, data: Any, *, problem: str, status: int, throttled: bool = False) -> HttpResponse:
    """The page shown while the PDF is prepared (refreshing itself every few seconds), or why not."""
    context = _page_context(
        request, data.viewer, "table", d=data, problem=problem, preparing=status == 202, throttled=throttled
    )
    return render(request, "campaign/table_pdf.html", context, status=status)
