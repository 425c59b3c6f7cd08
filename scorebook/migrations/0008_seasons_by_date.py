"""A session's season is the one covering its date (issue 13).

Files every existing session by its date, as services.file_sessions() does from now on, and
ends each open season the day before a later one starts. Sessions played before a season was
added were left outside it; the league's lines of a session follow it. Historical models only,
so the rule is restated here rather than imported.
"""

import datetime
from itertools import pairwise

from django.db import migrations

ONE_DAY = datetime.timedelta(days=1)


def _covering(seasons, date):
    covering = [
        s for s in seasons if s.starts_on <= date and (s.ends_on is None or date <= s.ends_on)
    ]
    return max(covering, key=lambda s: s.starts_on, default=None)


def file_by_date(apps, schema_editor):
    Club = apps.get_model("scorebook", "Club")
    Season = apps.get_model("scorebook", "Season")
    Session = apps.get_model("scorebook", "Session")
    ledgers = [apps.get_model("league", "PlayerSession"), apps.get_model("league", "ContractTally")]
    for club_id in Club.objects.values_list("pk", flat=True):
        seasons = list(Season.objects.filter(club_id=club_id).order_by("starts_on", "pk"))
        for earlier, later in pairwise(seasons):
            if earlier.ends_on is None and later.starts_on > earlier.starts_on:
                earlier.ends_on = later.starts_on - ONE_DAY
                earlier.save(update_fields=["ends_on"])
        moves = {}
        rows = Session.objects.filter(club_id=club_id).values_list("pk", "date", "season_id")
        for pk, date, filed in rows:
            season = _covering(seasons, date)
            if (season.pk if season else None) != filed:
                moves.setdefault(season.pk if season else None, []).append(pk)
        for season_id, session_ids in moves.items():
            for start in range(0, len(session_ids), 500):
                chunk = session_ids[start : start + 500]
                Session.objects.filter(pk__in=chunk).update(season_id=season_id)
                for ledger in ledgers:
                    ledger.objects.filter(session_id__in=chunk).update(season_id=season_id)


class Migration(migrations.Migration):
    dependencies = [("scorebook", "0007_roster_accounts"), ("league", "0004_stale_family")]

    operations = [migrations.RunPython(file_by_date, migrations.RunPython.noop)]
