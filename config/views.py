"""Site-wide views that belong to no app: the published schemas of the documents Admiralty reads."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from campaign.schemas.campaign_document import SCHEMA_FILE


@require_safe
@cache_control(public=True, max_age=3600)
def campaign_document_schema(request: HttpRequest) -> HttpResponse:
    """The JSON Schema of the campaign document (export/import), public like any file format."""
    return HttpResponse(SCHEMA_FILE.read_bytes(), content_type="application/schema+json")
