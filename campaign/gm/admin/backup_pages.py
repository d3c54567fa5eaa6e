"""Backup and copy of a campaign in the admin, no shell (issue 29): download its export, and upload an
export as a copy under a new name and address, run by the GM who uploads it, its players mapped. Both
are audited services of :mod:`campaign.gm.backup`; re-running a turn with a new seed is the repair
pages' (``campaign.gm.repair.admin``)."""

from __future__ import annotations

import json

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from campaign.backup.document import MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH, BackupError
from campaign.gm.admin.base import CampaignPages
from campaign.gm.admin.forms import ImportCopyForm
from campaign.gm.backup import gm_campaign_export, gm_campaign_import
from campaign.permissions import is_superuser
from campaign.plumbing.json_text import forbidden_string, json_depth


class BackupPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/export/",
                self.admin_site.admin_view(require_POST(self.export_view)),
                name="campaign_campaign_export",
            ),
            path("import/", self.admin_site.admin_view(self.import_view), name="campaign_campaign_import"),
        ]
        return own + super().get_urls()

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The campaign's export document as a file to keep (a POST: the download is audited)."""
        campaign = self._campaign(request, pk)
        document = gm_campaign_export(campaign=campaign, actor=request.user)
        response = HttpResponse(
            json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
        )
        name = f"{campaign.slug}-turn-{campaign.turn_number}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload an export as a new campaign: a copy with its own name and address, run by the uploader."""
        if not (is_superuser(request.user) or request.user.is_staff):
            raise PermissionDenied
        form = ImportCopyForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                document = _document(data["document"].read(MAX_DOCUMENT_BYTES + 1))
                campaign = gm_campaign_import(
                    document=document,
                    name=data["name"],
                    slug=data["slug"],
                    gm=request.user,  # type: ignore[arg-type]
                    players=data["players"],
                    actor=request.user,
                )
            except BackupError as exc:
                form.add_error("document", str(exc).replace("\n  ", " · "))
            else:
                self.message_user(request, f"{campaign.name} is imported as a copy; you run it.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[campaign.pk]))
        return TemplateResponse(
            request,
            "admin/campaign/import.html",
            self._context(request, "Import a campaign as a copy", form=form),
            status=400 if request.method == "POST" else 200,
        )


def _document(raw: bytes) -> object:
    """The uploaded file's JSON, refused (BackupError) before decoding if too large or too deep, as the
    import command refuses it."""
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise BackupError(f"The file is larger than {MAX_DOCUMENT_BYTES} bytes; no campaign export is that large.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BackupError(
            f"The file is not UTF-8 text (byte {exc.start}); upload the export as it was downloaded."
        ) from exc
    if json_depth(text) > MAX_DOCUMENT_DEPTH:
        raise BackupError(f"The file is nested deeper than {MAX_DOCUMENT_DEPTH} levels; no campaign export is.")
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise BackupError(f"The file is not JSON ({exc}); upload the export as it was downloaded.") from exc
    problem = forbidden_string(document)
    if problem:
        raise BackupError(f"The export is incomplete or malformed: {problem}.")
    return document
