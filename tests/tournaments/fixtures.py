"""Fixtures shared by the tournament tests and the tournament's browser test.

Imported by name into tests/tournaments/conftest.py and tests/e2e/test_tournament.py.
"""

from __future__ import annotations

import pytest

from tests.conftest import new_user
from tests.tournaments.helpers import NAMES


def new_people(club) -> list:
    """Ten club members (viewers) named Ana … Jan; their roster players are made at the start."""
    from scorebook.models import Membership, Role

    users = []
    for name in NAMES:
        user = new_user(name.lower(), first_name=name)
        Membership.objects.create(user=user, club=club, role=Role.VIEWER)
        users.append(user)
    return users


def new_organiser(club):
    from scorebook.models import Membership, Role

    user = new_user("olivia")
    Membership.objects.create(user=user, club=club, role=Role.ADMIN)
    return user


@pytest.fixture
def people(club):
    return new_people(club)


@pytest.fixture
def organiser(club):
    return new_organiser(club)
