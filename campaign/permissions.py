"""Who may do what in a campaign: the one place the web pages, the API, the battle pages and the admin ask.

A campaign is run by its game masters — its owner (``Campaign.gm``) and any number of co-GMs
(``Campaign.co_gms``) — and played by its players (``Nation.player``, one nation each). A superuser
runs every campaign. Nobody else takes part, and being ``is_staff`` grants nothing by itself: it only
opens the admin site's door, behind which a staff account sees the campaigns it runs and nothing else.

* :func:`campaign_role` — the user's part in one campaign (none, player of a nation, co-GM, GM, superuser).
* :func:`campaigns_run_by` / :func:`campaigns_taken_part_in` — the campaigns as querysets, for lists.
* :func:`can_act_for` — whether the user may act in a nation's name (its player, or a GM of its campaign).
* :class:`CampaignScopedAdmin` — a ModelAdmin mixin that scopes change lists, change pages, actions and
  foreign-key choices to the campaigns the user runs; :class:`CampaignRunFilter`, its lists' campaign filter.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.forms import ModelChoiceField, ModelMultipleChoiceField
from django.http import Http404, HttpRequest

from campaign.audit import audit_record
from campaign.models import Campaign, Nation
from campaign.models.audit import AuditAction

User = AbstractBaseUser | AnonymousUser


class Part(enum.Enum):
    """A user's part in one campaign, weakest first."""

    NONE = "none"
    PLAYER = "player"
    CO_GM = "co-GM"
    GM = "GM"
    SUPERUSER = "superuser"


@dataclass(frozen=True)
class CampaignRole:
    """The user's part in a campaign and, if they play in it, their nation."""

    part: Part
    nation: Nation | None = None

    @property
    def runs(self) -> bool:
        """A game master of the campaign (owner, co-GM or superuser): sees and acts for every nation."""
        return self.part in (Part.GM, Part.CO_GM, Part.SUPERUSER)

    @property
    def takes_part(self) -> bool:
        return self.runs or self.nation is not None


NO_PART = CampaignRole(Part.NONE)


def is_superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def campaign_role(
    user: User, campaign: Campaign, *, nations: Iterable[Nation] | None = None, co_gm: bool | None = None
) -> CampaignRole:
    """The part ``user`` plays in ``campaign`` (at most two queries; ``nations``, when the caller has
    already read the campaign's nations, saves the player's one; ``co_gm``, when the caller read with
    the campaign whether the user co-runs it (:func:`co_gm_of`), saves the other).

    A GM who also plays a nation keeps the GM's part and their nation (their pages open on it).
    """
    if not user.is_authenticated:
        return NO_PART
    if nations is None:
        own = Nation.objects.filter(campaign=campaign, player_id=user.pk).first()
    else:
        own = next((n for n in nations if n.player_id is not None and n.player_id == user.pk), None)
    if is_superuser(user):
        return CampaignRole(Part.SUPERUSER, own)
    if campaign.gm_id is not None and campaign.gm_id == user.pk:
        return CampaignRole(Part.GM, own)
    if co_gm is None:
        co_gm = campaign.pk is not None and campaign.co_gms.filter(pk=user.pk).exists()
    if co_gm:
        return CampaignRole(Part.CO_GM, own)
    return CampaignRole(Part.PLAYER, own) if own is not None else NO_PART


def co_gm_of(user_id: int, campaign_ref: str = "pk") -> Exists:
    """An annotation: whether the user ``user_id`` co-runs the campaign ``campaign_ref`` names in the query
    (``"pk"`` on campaigns, ``"campaign_id"`` on a campaign's rows), read with them in one query."""
    return Exists(Campaign.co_gms.through.objects.filter(campaign_id=OuterRef(campaign_ref), user_id=user_id))


def campaigns_run_by(user: User) -> QuerySet[Campaign]:
    """The campaigns ``user`` runs: all for a superuser; those they own or co-run otherwise."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if is_superuser(user):
        return Campaign.objects.all()
    co_run = Campaign.co_gms.through.objects.filter(campaign_id=OuterRef("pk"), user_id=user.pk)
    return Campaign.objects.filter(Q(gm_id=user.pk) | Q(Exists(co_run)))


def campaigns_taken_part_in(user: User) -> QuerySet[Campaign]:
    """The campaigns ``user`` runs or plays a nation in (none for an anonymous visitor)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if is_superuser(user):
        return Campaign.objects.all()
    plays = Nation.objects.filter(campaign_id=OuterRef("pk"), player_id=user.pk)
    return campaigns_run_by(user) | Campaign.objects.filter(Exists(plays))


def runs_campaign(user: User, campaign_id: int) -> bool:
    return campaigns_run_by(user).filter(pk=campaign_id).exists()


def can_act_for(user: User, nation: Nation) -> bool:
    """Whether ``user`` may act in ``nation``'s name: its player, or a GM of its campaign."""
    if not user.is_authenticated:
        return False
    if nation.player_id is not None and nation.player_id == user.pk:
        return True
    return runs_campaign(user, nation.campaign_id)


def can_appoint_gms(user: User, campaign: Campaign) -> bool:
    """Whether ``user`` may name the campaign's owner and co-GMs: its owner or a superuser, not a co-GM."""
    return campaign_role(user, campaign).part in (Part.GM, Part.SUPERUSER)


#: The attribute of a request that keeps its answers of the admin's scope questions (:func:`_scope_memo`).
_SCOPE_MEMO = "_admiralty_campaign_scope"


def _scope_memo(request: HttpRequest) -> dict[tuple[Any, ...], bool]:
    """This request's answers to "does the user run any campaign?" and "is this row in their campaigns?".

    Every admin page builds the app list (index and navigation sidebar) by asking each registered model
    admin for its module, view, change, add and delete permissions — about a hundred identical queries
    a page for a GM — and a change page asks again for its row and each inline. The answers do not change
    during a request unless the request itself writes in the admin, so they are kept on the request (keyed
    by the user, who changes when the login page logs in) and forgotten after every write
    (:func:`scope_forget`): saving a campaign may change its owner or co-GMs.
    """
    memo: dict[tuple[Any, ...], bool] | None = getattr(request, _SCOPE_MEMO, None)
    if memo is None:
        memo = {}
        setattr(request, _SCOPE_MEMO, memo)
    return memo


def scope_forget(request: HttpRequest) -> None:
    """Forget the request's kept scope answers (after a write that may change who runs what)."""
    if hasattr(request, _SCOPE_MEMO):
        delattr(request, _SCOPE_MEMO)


def runs_any_campaign(request: HttpRequest) -> bool:
    """Whether the request's user runs at least one campaign (asked once a request, see :func:`_scope_memo`)."""
    memo = _scope_memo(request)
    key = (request.user.pk, None)
    if key not in memo:
        memo[key] = campaigns_run_by(request.user).exists()
    return memo[key]


class CampaignScopedAdmin(admin.ModelAdmin):
    """A ModelAdmin for rows of one campaign, seen only by the campaign's GMs (and superusers).

    ``campaign_field`` is the lookup from the model to its Campaign (``"campaign"``, or ``""`` for the
    Campaign model itself). Django's model permissions still apply to superusers' peers as usual; for
    everyone else running the campaign is what grants viewing and changing its rows, and adding or
    deleting needs the model permission as well. Rows of other campaigns do not exist here: their
    change pages answer "does not exist", and actions never receive them (they act on this queryset).
    """

    campaign_field = "campaign"

    def _campaign_lookup(self, suffix: str) -> str:
        return f"{self.campaign_field}__{suffix}" if self.campaign_field else suffix

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)
        if is_superuser(request.user):
            return rows
        run = campaigns_run_by(request.user).values("pk")
        return rows.filter(**{self._campaign_lookup("pk__in"): run})

    def _in_scope(self, request: HttpRequest, obj: Any) -> bool:
        if is_superuser(request.user):
            return True
        if obj is None:
            return runs_any_campaign(request)
        if obj.pk is None:
            return self.get_queryset(request).filter(pk=obj.pk).exists()
        memo = _scope_memo(request)
        key = (request.user.pk, type(self), type(obj), obj.pk)
        if key not in memo:
            memo[key] = self.get_queryset(request).filter(pk=obj.pk).exists()
        return memo[key]

    def has_module_permission(self, request: HttpRequest) -> bool:
        if is_superuser(request.user):
            return super().has_module_permission(request)
        return self._in_scope(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request.user):
            return super().has_view_permission(request, obj)
        return self._in_scope(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request.user):
            return super().has_change_permission(request, obj)
        return self._in_scope(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and self._in_scope(request, None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._in_scope(request, obj)

    # --- the audit log: every row a GM adds, changes or deletes here is recorded (issue 11) ---------

    def _campaign_of(self, obj: Any) -> Campaign | None:
        if not self.campaign_field:
            return obj if isinstance(obj, Campaign) else None
        campaign = obj
        for part in self.campaign_field.split("__"):
            campaign = getattr(campaign, part, None)
        return campaign if isinstance(campaign, Campaign) else None

    def _audit(self, request: HttpRequest, obj: Any, action: str, verb: str, **change: Any) -> None:
        campaign = self._campaign_of(obj)
        if campaign is None:
            return
        fields = sorted(set(change.get("after") or {}) | set(change.get("before") or {}))
        label = f"{self.model._meta.verbose_name.capitalize()} {obj} {verb}"
        audit_record(
            campaign=campaign,
            actor=request.user,
            action=action,
            summary=f"{label} in the admin" + (f": {', '.join(fields)}." if fields else "."),
            **change,
        )

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        changed = list(form.changed_data)
        before = {name: _initial(form, name) for name in changed} if change else None
        super().save_model(request, obj, form, change)
        scope_forget(request)  # a campaign's GM may have changed: the page after asks afresh
        if change and not changed:
            return
        after = {name: _plain(form.cleaned_data.get(name)) for name in changed}
        if change:
            self._audit(request, obj, AuditAction.RECORD_CHANGED, "changed", before=before, after=after)
        else:
            self._audit(request, obj, AuditAction.RECORD_ADDED, "added", after=after)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """Rows changed inline (a fleet's ships …) are recorded one by one, as on their own pages."""
        edits = [
            (f.instance, {n: _initial(f, n) for n in f.changed_data}, f.changed_data, f.cleaned_data)
            for f in formset.forms
            if f.has_changed() and f.instance.pk is not None and not f.cleaned_data.get("DELETE")
        ]
        super().save_formset(request, form, formset, change)
        scope_forget(request)
        campaign = self._campaign_of(form.instance)
        for obj, before, names, data in edits:
            if campaign is not None:
                audit_record(
                    campaign=campaign,
                    actor=request.user,
                    action=AuditAction.RECORD_CHANGED,
                    summary=f"{obj._meta.verbose_name.capitalize()} {obj} changed in the admin: {', '.join(names)}.",
                    before=before,
                    after={n: _plain(data.get(n)) for n in names},
                )

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        scope_forget(request)  # the co-GMs are saved here, after the row itself

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self._audit(request, obj, AuditAction.RECORD_DELETED, "deleted", before={"record": str(obj)})
        super().delete_model(request, obj)
        scope_forget(request)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self._audit(request, obj, AuditAction.RECORD_DELETED, "deleted", before={"record": str(obj)})
        super().delete_queryset(request, queryset)
        scope_forget(request)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """A GM picks only among their own campaigns' rows (a campaign, a nation, a fleet …)."""
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and not is_superuser(request.user):
            field.queryset = scoped_to_campaigns_run(field.queryset, request.user)
        return field

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if field is not None and not is_superuser(request.user):
            field.queryset = scoped_to_campaigns_run(field.queryset, request.user)
        return field


class CampaignRunFilter(admin.SimpleListFilter):
    """An admin list's "campaign" filter offering the campaigns the user runs, by name. Asked for a
    campaign the user does not run, the list answers 404, as that campaign's rows would (a superuser may
    name any id, e.g. a deleted campaign's audit entries)."""

    title = "campaign"
    parameter_name = "campaign__id__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        return [(c.pk, c.name) for c in campaigns_run_by(request.user).order_by("name")]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        value = self.value()
        if not value:
            return queryset
        if not str(value).isdigit() or not (is_superuser(request.user) or runs_campaign(request.user, int(value))):
            raise Http404("No such campaign among those you run.")
        return queryset.filter(campaign_id=int(value))


class CampaignScopedInline(admin.TabularInline):
    """An inline on a :class:`CampaignScopedAdmin` page: its parent page already decided the campaign, so
    a GM who runs campaigns sees and changes the rows inline; adding and deleting need the model
    permission as well."""

    def _runs_any(self, request: HttpRequest) -> bool:
        return is_superuser(request.user) or runs_any_campaign(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) if is_superuser(request.user) else self._runs_any(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) if is_superuser(request.user) else self._runs_any(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_add_permission(request, obj) and self._runs_any(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._runs_any(request)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and not is_superuser(request.user):
            field.queryset = scoped_to_campaigns_run(field.queryset, request.user)
        return field


def _initial(form: Any, name: str) -> Any:
    """A field's value before the edit, as :func:`_plain` shows it (a form keeps related rows as ids)."""
    value = form.initial.get(name)
    field = form.fields.get(name)
    if isinstance(field, ModelChoiceField) and field.queryset is not None and value is not None:
        ids = [getattr(v, "pk", v) for v in value] if isinstance(field, ModelMultipleChoiceField) else [value]
        ids = [getattr(v, "pk", v) for v in ids]
        rows = {row.pk: row for row in field.queryset.model._default_manager.filter(pk__in=ids)}
        shown = [str(rows.get(i, i)) for i in ids]
        return shown if isinstance(field, ModelMultipleChoiceField) else shown[0]
    return _plain(value)


def _plain(value: Any) -> Any:
    """A form value as the audit log keeps it: rows by their names, lists of rows as lists of names."""
    if isinstance(value, QuerySet | list | tuple | set):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def scoped_to_campaigns_run(rows: QuerySet[Any] | None, user: User) -> QuerySet[Any] | None:
    """``rows`` limited to the campaigns ``user`` runs, if the model belongs to a campaign (else unchanged)."""
    if rows is None:
        return None
    model = rows.model
    if model is Campaign:
        return rows.filter(pk__in=campaigns_run_by(user).values("pk"))
    names = {f.name for f in model._meta.get_fields()}
    if "campaign" in names:
        return rows.filter(campaign__in=campaigns_run_by(user).values("pk"))
    return rows


__all__ = [
    "NO_PART",
    "CampaignRole",
    "CampaignRunFilter",
    "CampaignScopedAdmin",
    "CampaignScopedInline",
    "Part",
    "User",
    "campaign_role",
    "campaigns_run_by",
    "campaigns_taken_part_in",
    "can_act_for",
    "can_appoint_gms",
    "is_superuser",
    "runs_any_campaign",
    "runs_campaign",
    "scope_forget",
    "scoped_to_campaigns_run",
]
