"""Helpers for the tournament tests: the clock and quick hands."""

from __future__ import annotations

import datetime
import uuid
import zoneinfo

LJ = zoneinfo.ZoneInfo("Europe/Ljubljana")
# The tournament starts on Saturday 5 December 2026 at 19:00 in Ljubljana (18:00 UTC).
START = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=LJ)
CREATED = datetime.datetime(2026, 12, 1, 12, 0, tzinfo=LJ)
NAMES = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran", "Gal", "Hana", "Iva", "Jan"]


def at(hour: int, minute: int = 0, second: int = 0, day: int = 5) -> datetime.datetime:
    """A moment in Ljubljana in December 2026."""
    return datetime.datetime(2026, 12, day, hour, minute, second, tzinfo=LJ)


def announce(club, user, **overrides):
    """A Slovenian four-player Swiss announced for three days from now, by the real clock."""
    from django.utils import timezone

    from scorebook.tournaments import services

    values = {
        "name": "Advent cup",
        "variant": "slovenian-4",
        "starts_at": timezone.now() + datetime.timedelta(days=3),
        "hands_per_table": 1,
        "rounds": 2,
        "capacity": 4,
        "seed": 7,
        "confirmation": "off",  # the tables finish on their last hand, as before issue 27
    }
    values.update(overrides)
    return services.create_tournament(club=club, user=user, **values)


def record(table, data: dict, user=None):
    from scorebook import hands

    return hands.record_hand(table.session, data, uuid.uuid4(), user)


def klop(table, **points):
    """A klop: every player scores minus his own card points (Slovenian, preset seed)."""
    return record(table, {"contract": "klop", "points_by_player": points})


def seated(table) -> list[str]:
    return [p.name for p in table.session.seated_players()]
