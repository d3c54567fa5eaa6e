"""Site-wide views that belong to no app: the published schemas of the documents Admiralty reads, and
``/healthz`` for load balancers and monitoring."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from campaign.backup.schemas.campaign_document import SCHEMA_FILE
from config.health import health_check


@require_safe
@cache_control(public=True, max_age=3600)
def campaign_document_schema(request: HttpRequest) -> HttpResponse:
    """The JSON Schema of the campaign document (export/import), public like any file format."""
    return HttpResponse(SCHEMA_FILE.read_bytes(), content_type="application/schema+json")


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the broker and the beat sweep are fine; 503 naming the failing parts."""
    report = health_check()
    body = {"status": "ok" if report.ok else "failing", "failing": report.failing, "checks": report.checks}
    return JsonResponse(body, status=200 if report.ok else 503)
