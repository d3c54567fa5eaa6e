from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.permissions import AllowAny

from campaign.api.views import api_not_found
from config.accounts import ThrottledPasswordResetView
from config.permissions import ApiDocsPermission
from config.views import campaign_document_schema, healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/password_reset/", ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("schemas/campaign-document.json", campaign_document_schema, name="campaign-document-schema"),
    # The schema is public (a bot is written from it before its author has a token); the docs page
    # follows API_DOCS_PUBLIC.
    path(
        "api/schema/",
        SpectacularAPIView.as_view(permission_classes=[AllowAny], authentication_classes=[]),
        name="schema",
    ),
    # The split view serves its start-up script as a file: the docs page needs no inline script.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", permission_classes=[ApiDocsPermission]),
        name="api-docs",
    ),
    path("api/v1/", include("campaign.api.urls")),
    path("api/v1/", include("battles.api.urls")),
    re_path(r"^api/", api_not_found),
    path("", include("campaign.urls")),
    # The battles namespace is served by the campaign: its battle pages carry the campaign's header.
    path("", include("campaign.pages.battle_urls")),
]

# An unhandled exception under /api/ answers problem+json like every other API error.
handler500 = "config.api_edges.api_server_error"
