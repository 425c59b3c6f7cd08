"""Confirmed hands (issue 27): a tournament's tables wait for the other side's word on every
hand, by default, from the tournaments created from now on. The tournaments already made were
announced without it and keep off: the column is added with "off" in every row there is, and
only then takes "required" as the default of new rows."""

from django.db import migrations, models

CHOICES = [
    ("off", "off: a hand counts as it is recorded"),
    ("asked", "asked: a hand shows as unconfirmed until the other side confirms it"),
    ("required", "required: a session closes only when the other side has confirmed every hand"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_table_names_in_words"),
        ("scorebook", "0012_confirmations"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="confirmation",
            field=models.CharField(
                choices=CHOICES,
                default="off",
                max_length=10,
                verbose_name="confirmation of hands",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="confirmation",
            field=models.CharField(
                choices=CHOICES,
                default="required",
                max_length=10,
                verbose_name="confirmation of hands",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="same_phone",
            field=models.CharField(
                choices=[
                    ("allowed", "allowed"),
                    ("pin", "with the player's four-digit PIN"),
                    ("refused", "refused: each player confirms on his own phone"),
                ],
                default="allowed",
                max_length=10,
                verbose_name="confirming on the recording phone",
            ),
        ),
    ]
