"""A tournament table's session no longer stores its name in the language of whoever drew:
the name is said from the tournament, round and table numbers (Table.name) in each reader's
language. Existing labels are cleared from those numbers' side, never parsed."""

from django.db import migrations


def forget_stored_names(apps, schema_editor):
    Session = apps.get_model("scorebook", "Session")
    Table = apps.get_model("tournaments", "Table")
    Session.objects.filter(pk__in=Table.objects.values("session_id")).update(table_label="")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_day"),
        ("scorebook", "0011_stored_words"),
    ]

    operations = [migrations.RunPython(forget_stored_names, migrations.RunPython.noop)]
