"""Celery beat's periodic tasks and schedules in the admin: superusers only (issues 9 and 11).

Its periodic tasks run code for every campaign at once, so no campaign's GM — staff or not — may see
or change them. django_celery_beat registers its admins when the admin site discovers it (before the
campaign app, by INSTALLED_APPS order); campaign.admin then swaps each for a superusers-only subclass.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib import admin
from django.http import HttpRequest

from campaign.permissions import is_superuser


def _superusers_only(model_admin: type[admin.ModelAdmin[Any]]) -> type[admin.ModelAdmin[Any]]:
    class SuperusersOnly(model_admin):  # type: ignore[valid-type, misc]
        def has_module_permission(self, request: HttpRequest) -> bool:
            return is_superuser(request.user)

        def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
            return is_superuser(request.user)

        def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
            return is_superuser(request.user)

        def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
            return is_superuser(request.user)

        def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
            return is_superuser(request.user)

    SuperusersOnly.__name__ = f"SuperusersOnly{model_admin.__name__}"
    return SuperusersOnly


def beat_admin_for_superusers_only(site: admin.AdminSite) -> None:
    """Re-register every django_celery_beat model on ``site`` with a superusers-only admin."""
    for model in apps.get_app_config("django_celery_beat").get_models():
        if site.is_registered(model):
            registered = type(site.get_model_admin(model))
            site.unregister(model)
            site.register(model, _superusers_only(registered))


__all__ = ["beat_admin_for_superusers_only"]
