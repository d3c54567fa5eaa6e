"""Who may read the API's docs page: logged-in users, or anyone when API_DOCS_PUBLIC is set (the schema
itself is public: config/urls.py)."""

from typing import Any

from django.conf import settings
from rest_framework.permissions import BasePermission
from rest_framework.request import Request


class ApiDocsPermission(BasePermission):
    """Read on every request, so the setting can change without a restart of the URL configuration."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(settings.API_DOCS_PUBLIC or (request.user and request.user.is_authenticated))
