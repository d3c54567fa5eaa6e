"""The GM's page for a nation's orders that came by email (issue 29): paste the text or upload the JSON,
see every order in words (or every line refused), then confirm; entered through the order service
(campaign.orders.mail_entry) with the turn named, so nothing is stored for a turn that moved on."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from campaign.gm.admin.forms import MailOrdersForm
from campaign.gm.admin.nation_pages import NationPages
from campaign.models import Nation
from campaign.orders.deadline import late_entry_open
from campaign.orders.mail_entry import MailOrdersRefused, mail_orders_check, mail_orders_enter
from campaign.orders.turn_named import named_turn
from campaign.permissions import runs_campaign
from campaign.turn.lifecycle import open_turn


class MailOrdersPages(NationPages):
    """Adds "Orders by email" to the nation's GM pages."""

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/orders-by-email/",
                self.admin_site.admin_view(self.orders_by_mail_view),
                name="campaign_nation_orders_by_mail",
            ),
        ]
        return own + super().get_urls()

    def orders_by_mail_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        turn = open_turn(nation.campaign)
        confirming = request.method == "POST" and request.POST.get("confirmed") == "yes"
        form = MailOrdersForm(None if confirming else (request.POST or None), request.FILES or None)
        context: dict[str, Any] = {"nation": nation, "turn": turn, "form": form, "errors": [], "preview": None}
        if confirming:
            entered = self._enter(request, nation)
            if isinstance(entered, HttpResponse):
                return entered
            context["errors"] = entered
            form = MailOrdersForm(
                initial={"text": request.POST.get("payload", ""), "late_reason": request.POST.get("late_reason", "")}
            )
            context["form"] = form
        elif request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                context["preview"] = mail_orders_check(
                    nation=nation,
                    text=data["payload"],
                    as_json=data["as_json"],
                    actor=request.user,
                    named_turn=named_turn(request),
                    late_reason=data["late_reason"],
                ).lines
            except MailOrdersRefused as exc:
                context["errors"] = exc.errors
            context.update(payload=data["payload"], as_json=data["as_json"], late_reason=data["late_reason"])
        late, closed = late_entry_open(
            turn=turn, nation=nation, campaign=nation.campaign, is_gm=runs_campaign(request.user, nation.campaign_id)
        )
        context.update(late=late, closed=closed)
        return self._render_mail(request, context)

    def _enter(self, request: HttpRequest, nation: Nation) -> HttpResponse | list[str]:
        """Enter the previewed orders; the desk on success, else the refusals."""
        try:
            orders = mail_orders_enter(
                nation=nation,
                text=request.POST.get("payload", ""),
                as_json=request.POST.get("as_json") == "yes",
                actor=request.user,
                named_turn=named_turn(request),
                late_reason=request.POST.get("late_reason", ""),
            )
        except MailOrdersRefused as exc:
            return exc.errors
        count = len(orders)
        self.message_user(
            request,
            f"{count} order{'s' if count != 1 else ''} entered for {nation.name}; they replace its earlier orders.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[nation.campaign_id]))

    def _render_mail(self, request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
        nation = context["nation"]
        return TemplateResponse(
            request,
            "admin/campaign/orders_by_mail.html",
            {
                **self.admin_site.each_context(request),
                **context,
                "title": f"Orders by email for {nation.name}",
                "opts": self.model._meta,
            },
        )
