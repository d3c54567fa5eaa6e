import gc

from django.apps import AppConfig


class CampaignConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaign"

    def ready(self) -> None:
        # The last app to load: what exists now (Django, the apps, the admin, the URL patterns, a few
        # hundred thousand objects) lives as long as the process. config/__init__.py let them pile up
        # uncollected while they loaded; frozen here, out of the collector's reach, they are never
        # scanned. Left in the young generations, the first collection of the process's work scanned
        # them all at once: half a second inside the first turn a worker resolved (bench turns: europe
        # 1.48 s -> 0.85 s).
        gc.freeze()
