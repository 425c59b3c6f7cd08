"""A tournament day at a real club (issue 13)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # French 5 seats five: any game's one table size of two or more.
        migrations.RemoveConstraint(model_name="tournament", name="tournament_table_size_2_to_4"),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_size__gte", 2)), name="tournament_table_size_at_least_2"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="registration_closes_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="registration closes"),
        ),
        # A walk-in has no account.
        migrations.AlterField(
            model_name="registration",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tournament_entries",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                fields=("tournament", "player"), name="registration_unique_tournament_player"
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("user__isnull", False), ("player__isnull", False), _connector="OR"
                ),
                name="registration_user_or_player",
            ),
        ),
    ]
