"""Fixtures shared by the tournament tests and the tournament's browser test.

Imported by name into tests/tournaments/conftest.py and tests/e2e/test_tournament.py.
"""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import NAMES


@pytest.fixture
def people(club, make_user):
    """Ten club members (viewers) named Ana … Jan; their roster players are made at the start."""
    from scorebook.models import Membership, Role

    users = []
    for name in NAMES:
        user = make_user(name.lower(), first_name=name)
        Membership.objects.create(user=user, club=club, role=Role.VIEWER)
        users.append(user)
    return users


@pytest.fixture
def organiser(club, make_user):
    from scorebook.models import Membership, Role

    user = make_user("olivia")
    Membership.objects.create(user=user, club=club, role=Role.ADMIN)
    return user
