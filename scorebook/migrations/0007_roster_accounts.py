"""Roster players linked to accounts, merges (issue 13).

A pending claim ("this is me") is `Player.claimed_by`; one account has at most one player per
club. Before that rule holds, today's duplicates (a tournament's start added "ana (ana)" beside
Ana) lose their link: the player with the most seats keeps it.
"""

from collections.abc import Iterable

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def links_to_drop(rows: Iterable[tuple[int, int, int, int]]) -> list[int]:
    """(player id, club id, user id, seats) of linked players -> the ids to unlink: of each
    account's players in a club all but the one with the most seats (the oldest on a tie)."""
    kept: dict[tuple[int, int], tuple[int, int]] = {}
    drop = []
    for player_id, club_id, user_id, seats in sorted(rows, key=lambda row: (-row[3], row[0])):
        if (club_id, user_id) in kept:
            drop.append(player_id)
        else:
            kept[club_id, user_id] = (player_id, seats)
    return sorted(drop)


def keep_one_player_per_account(apps, schema_editor):
    Player = apps.get_model("scorebook", "Player")
    rows = (
        Player.objects.filter(user__isnull=False)
        .annotate(seat_count=models.Count("seats"))
        .values_list("pk", "club_id", "user_id", "seat_count")
    )
    Player.objects.filter(pk__in=links_to_drop(rows)).update(user=None)


class Migration(migrations.Migration):
    dependencies = [
        ("scorebook", "0006_house_rules"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalplayer",
            name="claimed_by",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="claimed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="player_claims",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(keep_one_player_per_account, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("club", "user"),
                name="player_unique_user_per_club",
            ),
        ),
    ]
