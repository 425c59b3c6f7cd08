"""What every tournament service shares: the clock and the tournament's lock.

Every function that depends on the time takes `now` (None: the clock, `timezone.now()`), so
the scheduling rules are tested with a clock the test controls. Every change to a tournament's
state takes the lock on its row first, so two phones finishing two tables at once cannot draw
twice.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from scorebook.tournaments.models import Tournament


def clock(now: datetime.datetime | None) -> datetime.datetime:
    return now if now is not None else timezone.now()


def locked(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )
