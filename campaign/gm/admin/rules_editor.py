"""The rules editor of a campaign: every setting grouped by rule section, with its help, default and the
house value side by side (campaign.gm.admin.forms.RulesetForm); saving calls gm_rules_update."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import ngettext

from campaign.gm.actions import gm_rules_update
from campaign.gm.admin.base import CampaignPages
from campaign.gm.admin.forms import RulesetForm
from rules.ruleset import RulesetError


class RulesEditorPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/rules/", self.admin_site.admin_view(self.rules_view), name="campaign_campaign_rules"),
        ]
        return own + super().get_urls()

    def rules_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        current = dict(campaign.ruleset.flat)
        form = RulesetForm(request.POST or None, current=current)
        if request.method == "POST" and form.is_valid():
            changed = {k: v for k, v in form.cleaned_data.items() if current.get(k) != v}
            try:
                gm_rules_update(campaign=campaign, actor=request.user, values=changed)
            except RulesetError as exc:
                form.add_error(None, str(exc))
            else:
                changes = ngettext("change", "changes", len(changed))
                self.message_user(request, f"Saved {len(changed)} {changes} to the rules of {campaign}.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Rules of {campaign}",
            "campaign": campaign,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/ruleset.html", context)
