"""Fill ``Battle.seen_by`` of the battles fought before it existed from their participants.

Who was allied to a side at the time was not recorded then, so old battles open to the nations
that fought in them (and, as before, to those whose turn report noted them).
"""

from typing import Any

from django.db import migrations


def seen_by_from_sides(apps: Any, schema_editor: Any) -> None:
    Battle = apps.get_model("battles", "Battle")
    changed = []
    for battle in Battle.objects.filter(seen_by=[]).only("pk", "sides"):
        sides = battle.sides if isinstance(battle.sides, list) else []
        codes = {
            code
            for side in sides
            if isinstance(side, dict)
            for code in side.get("nations") or []
            if isinstance(code, str)
        }
        if codes:
            battle.seen_by = sorted(codes)
            changed.append(battle)
    Battle.objects.bulk_update(changed, ["seen_by"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0003_battle_seen_by"),
    ]

    operations = [
        migrations.RunPython(seen_by_from_sides, migrations.RunPython.noop),
    ]
