"""What a save sends to the database (issue 25): the phone's outbox POST and the htmx save,
pinned, so that a statement added to every hand is a decision and not an accident. The four
of every request (session, user, the membership with the seated session) come first."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.urls import reverse

from scorebook import hands
from scorebook.context_processors import key_of
from scorebook.models import Hand

pytestmark = pytest.mark.django_db

FIELDS = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}

# The login's session and user; then in one transaction (its begin and its end, a savepoint
# inside the test's own): on PostgreSQL the session's lock, then the membership with the
# seated session (one statement, read once: under the lock), the hands a new hand meets (with
# the sheet's latest rows for an htmx save), the hand, its history row, its entries, the
# league's stale mark. The htmx save reads nothing more for the sheet it answers with.
LOCK = 1 if connection.features.has_select_for_update else 0  # SQLite's IMMEDIATE holds it
OUTBOX_STATEMENTS = 10 + LOCK
HTMX_STATEMENTS = 10 + LOCK


@pytest.fixture
def keeper(client, session, members):
    """A scorekeeper's phone at a table whose evening has begun (a hand, the league marked)."""
    first = {"contract": "three", "declarer": "Ana", "partner": "Cene", "points": 50}
    hands.record_hand(session, first, uuid.uuid4(), members["scorekeeper"])
    client.force_login(members["scorekeeper"])
    return client


def _form_url(session) -> str:
    return reverse("scorebook:hand_new", kwargs={"club": session.club.slug, "session": session.pk})


def test_the_outbox_post_of_a_hand(keeper, session, members, django_assert_num_queries):
    with django_assert_num_queries(OUTBOX_STATEMENTS):
        answer = keeper.post(
            _form_url(session),
            {**FIELDS, "client_id": str(uuid.uuid4()), "device_id": str(uuid.uuid4()), "save": "1"},
            HTTP_X_SCOREBOOK_OUTBOX="1",
            HTTP_X_SCOREBOOK_USER=key_of(members["scorekeeper"]),
        )
    assert answer.json() == {"status": "recorded", "number": 2, "repeat": False}


def test_the_htmx_save_of_a_hand(keeper, session, django_assert_num_queries):
    with django_assert_num_queries(HTMX_STATEMENTS):
        answer = keeper.post(
            _form_url(session), {**FIELDS, "client_id": str(uuid.uuid4())}, HTTP_HX_REQUEST="true"
        )
    assert answer.status_code == 200
    assert answer.content.count(b'<tbody class="hand') == 2
    assert Hand.objects.filter(session=session).count() == 2
