"""Live standings mark a table provisional while one of its hands waits for the other side's
word (issue 30, with issue 27's confirmations)."""

import pytest

from scorebook import hands
from scorebook.public.seams import is_provisional

pytestmark = pytest.mark.django_db


def _a_hand(session, user):
    hands.record_hand(
        session,
        {"contract": "three", "declarer": "Ana", "points": 40},
        "00000000-0000-4000-8000-00000000a001",
        user,
    )


def test_a_table_whose_hand_waits_is_provisional(session, members):
    type(session).objects.filter(pk=session.pk).update(confirmation="asked")
    session.refresh_from_db()
    assert not is_provisional(session.pk)  # no hand yet
    _a_hand(session, members["scorekeeper"])
    assert is_provisional(session.pk)


def test_without_confirmations_no_table_is_provisional(session, members):
    type(session).objects.filter(pk=session.pk).update(confirmation="off")
    session.refresh_from_db()
    _a_hand(session, members["scorekeeper"])
    assert not is_provisional(session.pk)
