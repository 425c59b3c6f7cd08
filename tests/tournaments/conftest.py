"""Tournament fixtures: a club in Ljubljana, ten members with names, an organiser."""

from __future__ import annotations

import pytest

from tests.tournaments import fixtures
from tests.tournaments.helpers import CREATED, START, at

# The shared fixtures, under their own names so that pytest finds them here.
people = fixtures.people
organiser = fixtures.organiser


@pytest.fixture
def make_tournament(club, organiser):
    from scorebook.tournaments import services

    def make(**overrides):
        values = {
            "club": club,
            "user": organiser,
            "name": "Advent cup",
            "variant": "slovenian-4",
            "starts_at": START,
            "hands_per_table": 1,
            "rounds": 2,
            "capacity": 8,
            "seed": 7,
            "now": CREATED,
            # As tournaments were before their hands waited for the other side's word (issue
            # 27): tests/tournaments/test_confirmed_tables.py plays the tables that wait.
            "confirmation": "off",
        }
        values.update(overrides)
        return services.create_tournament(**values)

    return make


@pytest.fixture
def started(make_tournament, people):
    """make the tournament, register and confirm `n` people, start it at 19:00."""
    from scorebook.tournaments import services

    def run(n: int, **overrides):
        overrides.setdefault("capacity", max(n, 2))
        tournament = make_tournament(**overrides)
        for user in people[:n]:
            registration = services.register(tournament, user, now=CREATED)
            services.confirm_presence(registration, now=at(18, 50))
        return services.start_tournament(tournament, now=START)

    return run
