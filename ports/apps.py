from django.apps import AppConfig


class PortsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ports"
