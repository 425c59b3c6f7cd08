"""Languages (issue 14): a club's default language, and a person's own choice in his profile.

Existing clubs speak English, as every page did before; an admin changes it. Nobody gets a
profile row until he chooses a language (or logs in with a language cookie).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

LANGUAGES = [
    ("sl", "Slovenščina"),
    ("cs", "Čeština"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("en", "English"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("scorebook", "0009_hand_device"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="language",
            field=models.CharField(
                choices=LANGUAGES, default="en", max_length=10, verbose_name="language"
            ),
        ),
        migrations.CreateModel(
            name="Profile",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        blank=True, choices=LANGUAGES, max_length=10, verbose_name="language"
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="profile",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"verbose_name": "profile", "verbose_name_plural": "profiles"},
        ),
    ]
