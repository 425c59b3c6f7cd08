"""The club's own house rules (issue 13)."""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scorebook", "0005_members_get_in")]

    operations = [
        migrations.AddField(
            model_name="historicalsession",
            name="house_rules_name",
            field=models.CharField(
                blank=True, default="", max_length=60, verbose_name="house rules"
            ),
        ),
        migrations.AddField(
            model_name="session",
            name="house_rules_name",
            field=models.CharField(
                blank=True, default="", max_length=60, verbose_name="house rules"
            ),
        ),
        migrations.CreateModel(
            name="HouseRules",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("variant", models.CharField(max_length=40, verbose_name="variant")),
                ("name", models.CharField(max_length=60, verbose_name="name")),
                ("preset", models.CharField(max_length=40, verbose_name="preset")),
                (
                    "overrides",
                    models.JSONField(blank=True, default=dict, verbose_name="overrides"),
                ),
                (
                    "is_default",
                    models.BooleanField(default=False, verbose_name="the club's default"),
                ),
                ("changed_at", models.DateTimeField(auto_now=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="house_rules",
                        to="scorebook.club",
                    ),
                ),
            ],
            options={
                "verbose_name": "house rules",
                "verbose_name_plural": "house rules",
                "ordering": ["variant", django.db.models.functions.text.Lower("name")],
                "constraints": [
                    models.UniqueConstraint(
                        django.db.models.functions.text.Lower("name"),
                        models.F("club"),
                        models.F("variant"),
                        name="house_rules_unique_name_ci",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("is_default", True)),
                        fields=("club", "variant"),
                        name="house_rules_one_default",
                    ),
                ],
            },
        ),
    ]
