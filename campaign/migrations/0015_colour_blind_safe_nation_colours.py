"""Nations still on the old default map colour of their navy get the colour-blind-safe one
(campaign.scenarios.loading.NAVY_COLORS); a colour a GM chose is kept. The old palette had Britain and
Denmark both red, Portugal and Russia both green."""

from __future__ import annotations

from typing import Any

from django.db import migrations

# The defaults before this migration, and after it (copied: a migration must not import code that
# may change later).
OLD_NAVY_COLORS = {
    "GB": "#c0392b",
    "FR": "#2c5aa0",
    "ES": "#d4a017",
    "RU": "#2e8b57",
    "OT": "#8e44ad",
    "NL": "#e67e22",
    "DK": "#a93226",
    "SE": "#1abc9c",
    "PT": "#27ae60",
    "NA": "#5d6d7e",
    "US": "#34495e",
    "PR": "#222222",
    "AT": "#bfa100",
    "EG": "#7d5ba6",
}
NEW_NAVY_COLORS = {
    "GB": "#D55E00",
    "FR": "#0072B2",
    "ES": "#F0E442",
    "RU": "#009E73",
    "OT": "#CC79A7",
    "NL": "#E69F00",
    "DK": "#882255",
    "SE": "#56B4E9",
    "PT": "#999933",
    "NA": "#000000",
    "US": "#332288",
    "PR": "#DDDDDD",
    "AT": "#DDCC77",
    "EG": "#AA4499",
}


def _swap(apps: Any, old: dict[str, str], new: dict[str, str]) -> None:
    nation_model = apps.get_model("campaign", "Nation")
    for navy, colour in old.items():
        nation_model.objects.filter(navy=navy, color__iexact=colour).update(color=new[navy])


def forwards(apps: Any, schema_editor: Any) -> None:
    _swap(apps, OLD_NAVY_COLORS, NEW_NAVY_COLORS)


def backwards(apps: Any, schema_editor: Any) -> None:
    _swap(apps, NEW_NAVY_COLORS, OLD_NAVY_COLORS)


class Migration(migrations.Migration):
    dependencies = [("campaign", "0014_dispatches_house_options_capitals")]

    operations = [migrations.RunPython(forwards, backwards)]
