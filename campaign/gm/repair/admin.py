"""The GM's repair pages in the admin (issue 11): revert a campaign to the start of a turn, re-run the
open turn, re-fight a battle — each a form with a required reason, a confirmation page saying what will
be set aside, then one call of its service (campaign.gm.repair.services, .rerun, .refight) — and the
archive of reverts, where the GM reads the turns, battles, reports and ledger lines a revert took off the record.

:class:`RepairAdminMixin` gives the campaign's admin these pages; :class:`CampaignRevertAdmin` is the
archive's (read-only, scoped to the campaigns the user runs).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from campaign.gm.repair.refight import battle_label, battle_refight, refightable_battles
from campaign.gm.repair.rerun import turn_rerun
from campaign.gm.repair.services import (
    MAX_SEED,
    RepairError,
    archived_words,
    campaign_repair_closed,
    campaign_revert,
    revert_preview,
)
from campaign.models import Campaign, CampaignRevert, Delivery, MailEvent, Order, Turn
from campaign.permissions import CampaignScopedAdmin
from rules.turn_events import event_from_json

REASON_HELP = "Required. Told to the players and kept in the audit log."


def _reason_field() -> forms.CharField:
    return forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), help_text=REASON_HELP, strip=True
    )


def _seed_field(help_text: str) -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=0, max_value=MAX_SEED, help_text=help_text)


class RevertForm(forms.Form):
    turn = forms.TypedChoiceField(coerce=int, label="Back to the start of turn")
    reason = _reason_field()

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        turns = Turn.objects.filter(
            campaign=campaign, number__lt=campaign.turn_number, snapshot__isnull=False
        ).order_by("-number")
        turn_field = self.fields["turn"]
        assert isinstance(turn_field, forms.TypedChoiceField)
        turn_field.choices = [(t.number, f"Turn {t.number} ({t.get_season_display()} {t.year})") for t in turns]


class RerunForm(forms.Form):
    seed = _seed_field("Leave empty to keep the campaign's seed (the same orders then give the same result).")
    reason = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Required with a new seed. Kept in the audit log.",
    )


class RefightForm(forms.Form):
    battle = forms.TypedChoiceField(coerce=int, label="Battle")
    seed = _seed_field("Leave empty for a random new seed.")
    reason = _reason_field()

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        battle_field = self.fields["battle"]
        assert isinstance(battle_field, forms.TypedChoiceField)
        battle_field.choices = [(b.pk, battle_label(b)) for b in refightable_battles(campaign)]


class RepairAdminMixin(admin.ModelAdmin):
    """The revert, re-run and re-fight pages of the campaign's admin, and the action that opens the first."""

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/revert/", self.admin_site.admin_view(self.revert_view), name="campaign_campaign_revert"),
            path("<int:pk>/rerun/", self.admin_site.admin_view(self.rerun_view), name="campaign_campaign_rerun"),
            path("<int:pk>/refight/", self.admin_site.admin_view(self.refight_view), name="campaign_campaign_refight"),
        ]
        return own + super().get_urls()

    @admin.display(description="Repairs")
    def repair_links(self, obj: Campaign) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">Revert to the start of a turn</a> · <a href="{}">Re-run the open turn</a> · '
            '<a href="{}">Re-fight a battle</a> · <a href="{}">Archived turns (reverts)</a>',
            reverse("admin:campaign_campaign_revert", args=[obj.pk]),
            reverse("admin:campaign_campaign_rerun", args=[obj.pk]),
            reverse("admin:campaign_campaign_refight", args=[obj.pk]),
            reverse("admin:campaign_campaignrevert_changelist") + f"?campaign__id__exact={obj.pk}",
        )

    @admin.action(description="Revert the selected campaign to the start of a turn…")
    def revert_action(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one campaign to revert.", messages.ERROR)
            return None
        campaign = queryset.get()
        return HttpResponseRedirect(reverse("admin:campaign_campaign_revert", args=[campaign.pk]))

    def _repaired_campaign(self, request: HttpRequest, pk: int) -> Campaign:
        """The campaign, if the user runs it; a campaign of other GMs does not exist for them (404)."""
        campaign = get_object_or_404(Campaign, pk=pk)
        if not self.has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        return campaign

    def _page(self, request: HttpRequest, campaign: Campaign, **context: Any) -> HttpResponse:
        return TemplateResponse(
            request,
            "admin/campaign/repair.html",
            {**self.admin_site.each_context(request), "campaign": campaign, "opts": self.model._meta, **context},
        )

    def _done(self, request: HttpRequest, campaign: Campaign, text: str) -> HttpResponse:
        self.message_user(request, text, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[campaign.pk]))

    def revert_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._repaired_campaign(request, pk)
        closed = campaign_repair_closed(campaign)
        if closed is not None:  # said at once, not after a turn, a reason and a confirmation
            title = f"Revert {campaign.name} to the start of a turn"
            return self._page(request, campaign, title=title, intro="", closed=closed)
        form = RevertForm(request.POST or None, campaign=campaign)
        confirm: list[str] | None = None
        if request.method == "POST" and form.is_valid():
            number = form.cleaned_data["turn"]
            if request.POST.get("confirm") == "yes":
                try:
                    campaign_revert(
                        campaign=campaign, turn_number=number, reason=form.cleaned_data["reason"], actor=request.user
                    )
                except RepairError as exc:
                    form.add_error(None, str(exc))
                else:
                    return self._done(
                        request,
                        campaign,
                        f"{campaign.name} is back at the start of turn {number}; the players have been told. "
                        f"Turn {number} is open with its orders as they were at its deadline.",
                    )
            else:
                confirm = archived_words(revert_preview(campaign=campaign, turn_number=number)) or ["nothing"]
        return self._page(
            request,
            campaign,
            title=f"Revert {campaign.name} to the start of a turn",
            intro=(
                f"The open turn is {campaign.turn_number}. Going back sets aside everything from the chosen turn's "
                "resolution on — later turns and their orders, battles, reports and ledger lines — keeping it "
                "for you under Archived turns; the players no longer see it. The chosen turn opens again with "
                "its orders as they were at its deadline and a new deadline, and the players are told."
            ),
            form=form,
            confirm=confirm,
            submit="Revert",
            confirm_submit="Yes, revert",
        )

    def rerun_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._repaired_campaign(request, pk)
        form = RerunForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                result = turn_rerun(
                    campaign=campaign,
                    reason=form.cleaned_data["reason"],
                    seed=form.cleaned_data["seed"],
                    actor=request.user,
                )
            except RepairError as exc:
                form.add_error(None, str(exc))
            else:
                seed = "the campaign's seed" if result.seed == result.seed_before else f"the new seed {result.seed}"
                return self._done(
                    request,
                    campaign,
                    f"Turn {result.turn.number} of {campaign.name} is resolving again with {seed}; it is done "
                    "when its status reads resolved (Turns list).",
                )
        return self._page(
            request,
            campaign,
            title=f"Re-run the open turn of {campaign.name}",
            intro=(
                f"Resolves turn {campaign.turn_number} now, through the workers, as its deadline would. With the "
                f"campaign's seed ({campaign.seed}) the same orders give the same result; a new seed changes "
                "every die from this turn on."
            ),
            form=form,
            confirm=None,
            submit="Re-run now",
        )

    def refight_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._repaired_campaign(request, pk)
        initial = {"battle": request.GET.get("battle")} if request.GET.get("battle", "").isdigit() else None
        form = RefightForm(request.POST or None, campaign=campaign, initial=initial)
        confirm: list[str] | None = None
        if request.method == "POST" and form.is_valid():
            if request.POST.get("confirm") == "yes":
                try:
                    result = battle_refight(
                        campaign=campaign,
                        battle_id=form.cleaned_data["battle"],
                        reason=form.cleaned_data["reason"],
                        seed=form.cleaned_data["seed"],
                        actor=request.user,
                    )
                except RepairError as exc:
                    form.add_error(None, str(exc))
                else:
                    return self._done(
                        request,
                        campaign,
                        f"The {result.battle_label} is being fought again with seed {result.seed}; turn "
                        f"{result.turn.number} is resolving again and the players have been told.",
                    )
            else:
                preview = revert_preview(campaign=campaign, turn_number=campaign.turn_number - 1)
                confirm = archived_words(preview) or ["nothing"]
        latest = campaign.turn_number - 1
        return self._page(
            request,
            campaign,
            title=f"Re-fight a battle of {campaign.name}",
            intro=(
                f"Only a battle of the latest resolved turn (turn {latest}) can be re-fought; for an older one, "
                "revert to its turn first. The campaign goes back to the start of that turn — its results, and "
                f"turn {campaign.turn_number} with any orders given for it, are set aside under Archived turns — "
                "and the turn is resolved again at once with the same orders and dice, except the chosen "
                "battle's, which take the new seed. The players are told."
                if latest >= 1
                else "No turn has been resolved yet: there is no battle to re-fight."
            ),
            form=form,
            confirm=confirm,
            submit="Re-fight",
            confirm_submit="Yes, re-fight it",
        )


# --- the archive ----------------------------------------------------------------------------------


@admin.register(CampaignRevert)
class CampaignRevertAdmin(CampaignScopedAdmin):
    """What each revert set aside, for the GM: read-only (nothing here can be edited or deleted)."""

    list_display = ("created_at", "campaign", "kind", "to_turn", "from_turn", "actor_name", "battle")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind")
    list_select_related = ("campaign",)
    fields = (
        "campaign",
        "kind",
        "to_turn",
        "from_turn",
        "reason",
        "actor_name",
        "created_at",
        "battle",
        "battle_seed",
        "archived_counts",
        "archived_battles",
        "archived_reports",
        "archived_ledger",
        "archived_orders",
        "archived_mail",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[CampaignRevert]:
        # The list never loads the archives themselves (a campaign's whole export each).
        rows: QuerySet[CampaignRevert] = super().get_queryset(request)
        return (
            rows if request.resolver_match and "object_id" in request.resolver_match.kwargs else rows.defer("archive")
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Set aside")
    def archived_counts(self, obj: CampaignRevert) -> str:
        return ", ".join(archived_words(obj.archive.get("archived", {}))) or "nothing"

    @admin.display(description="Battles")
    def archived_battles(self, obj: CampaignRevert) -> str:
        rows = obj.archived("battles")
        if not rows:
            return "None."
        names = _Names(obj)
        return _table(
            ("Battle", "Turn", "Kind", "Where", "Winner", "Seed", "Ships not intact"),
            [
                (
                    b.get("id"),
                    b.get("turn"),
                    str(b.get("type", "")).replace("_", " ").capitalize(),
                    names.place(b),
                    names.winner(b),
                    b.get("seed"),
                    "; ".join(
                        f"{s.get('name')}: {s.get('fate')}"
                        for s in b.get("report", {}).get("ships", [])
                        if s.get("fate") != "intact"
                    )
                    or "all intact",
                )
                for b in rows
            ],
        )

    @admin.display(description="Reports")
    def archived_reports(self, obj: CampaignRevert) -> str:
        rows = obj.archived("reports")
        if not rows:
            return "None."
        names = _Names(obj)
        return _table(
            ("Turn", "Nation", "What the nation was told"),
            [
                (
                    r.get("turn"),
                    names.nation(r.get("nation")),
                    " · ".join(_event_text(e) for e in r.get("body", {}).get("events", [])),
                )
                for r in rows
            ],
        )

    @admin.display(description="Ledger lines")
    def archived_ledger(self, obj: CampaignRevert) -> str:
        lines = obj.archive.get("document", {}).get("ledger") or []
        rows = lines[len(lines) - obj.archive.get("archived", {}).get("ledger lines", 0) :]
        if not rows:
            return "None."
        names = _Names(obj)
        return _table(
            ("Nation", "Turn", "Amount (EP)", "Reason", "Balance (EP)"),
            [
                (
                    names.nation(e.get("nation")),
                    e.get("turn"),
                    f"{e.get('amount', 0):+d}",
                    e.get("reason"),
                    e.get("balance"),
                )
                for e in rows
            ],
        )

    @admin.display(description="Orders")
    def archived_orders(self, obj: CampaignRevert) -> str:
        rows = obj.archived("orders")
        if not rows:
            return "None."
        names = _Names(obj)
        return _table(
            ("Turn", "Nation", "#", "Kind", "Outcome", "Note"),
            [
                (o.get("turn"), names.nation(o.get("nation")), o.get("position"),
                 ORDER_KINDS.get(str(o.get("kind")), o.get("kind")),
                 ORDER_OUTCOMES.get(str(o.get("outcome")), o.get("outcome")), o.get("outcome_note"))
                for o in rows
            ],
        )  # fmt: skip

    @admin.display(description="Mail of those turns")
    def archived_mail(self, obj: CampaignRevert) -> str:
        rows = obj.archive.get("deliveries", [])
        if not rows:
            return "None."
        names = _Names(obj)
        return _table(
            ("Turn", "To", "Nation", "What", "State"),
            [(d.get("turn"), d.get("recipient"), names.nation(d.get("nation")),
              MAIL_EVENTS.get(str(d.get("event")), str(d.get("event", ""))),
              DELIVERY_STATES.get(str(d.get("state")), d.get("state"))) for d in rows],
        )  # fmt: skip


MAIL_EVENTS = {str(value): str(label) for value, label in MailEvent.choices}
DELIVERY_STATES = {str(value): str(label) for value, label in Delivery.State.choices}
ORDER_KINDS = {str(value): str(label) for value, label in Order.Kind.choices}
ORDER_OUTCOMES = {str(value): str(label) for value, label in Order.Outcome.choices}


class _Names:
    """Names for the keys an archived export uses (nation codes, zone and port keys)."""

    def __init__(self, revert: CampaignRevert) -> None:
        document = revert.archive.get("document", {})
        self._nations = {n.get("code"): n.get("name") for n in document.get("nations", []) if isinstance(n, dict)}
        self._zones = {z.get("key"): z.get("name") for z in document.get("sea_zones", []) if isinstance(z, dict)}
        self._ports = {p.get("key"): p.get("name") for p in document.get("ports", []) if isinstance(p, dict)}

    def nation(self, code: Any) -> str:
        return "" if code is None else str(self._nations.get(code, code))

    def place(self, battle: dict[str, Any]) -> str:
        zone = str(self._zones.get(battle.get("sea_zone"), battle.get("sea_zone") or ""))
        port = battle.get("port")
        return f"{self._ports.get(port, port)} ({zone})" if port else zone

    def winner(self, battle: dict[str, Any]) -> str:
        winner, sides = battle.get("winner"), battle.get("sides") or []
        if winner in (0, 1) and len(sides) > winner and isinstance(sides[winner], dict):
            return (
                " and ".join(self.nation(code) for code in sides[winner].get("nations") or []) or f"side {winner + 1}"
            )
        return "neither side"


def _event_text(event: Any) -> str:
    try:
        return event_from_json(event).text
    except (KeyError, TypeError, ValueError):
        return str(event.get("text", "")) if isinstance(event, dict) else ""


def _table(head: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    return format_html(
        '<div style="overflow-x:auto;max-width:100%"><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>',
        format_html_join("", "<th>{}</th>", ((h,) for h in head)),
        format_html_join(
            "",
            "<tr>{}</tr>",
            ((format_html_join("", "<td>{}</td>", (("" if v is None else v,) for v in row)),) for row in rows),
        ),
    )
