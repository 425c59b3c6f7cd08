"""Hands saved at the same moment from several phones get numbers 1..N without a gap."""

import threading
import uuid

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from scorebook import hands, services
from scorebook.context_processors import key_of
from scorebook.models import Entry, Hand

WRITERS = 8
HAND = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39}


@pytest.mark.django_db(transaction=True)
def test_concurrent_record_hand_numbers_without_gaps(club, players, members):
    if connection.vendor == "sqlite":
        # Threads need a database file they can all open; an in-memory one is per connection.
        assert "memory" not in str(connection.settings_dict["NAME"])
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    client_ids = [uuid.uuid4() for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def save(client_id):
        try:
            barrier.wait(timeout=10)
            hands.record_hand(session, HAND, client_id, None)
            # The same phone retrying at once must not add a hand.
            hands.record_hand(session, HAND, client_id, None)
        except BaseException as exc:  # reported below, with the thread's own traceback lost
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=save, args=(cid,)) for cid in client_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    numbers = sorted(Hand.objects.filter(session=session).values_list("number", flat=True))
    assert numbers == list(range(1, WRITERS + 1))
    assert Entry.objects.filter(hand__session=session).count() == WRITERS * 4


@pytest.mark.django_db(transaction=True)
def test_phones_saving_through_the_form_at_once_number_without_gaps(club, players, members):
    """Through the hand form, whose save holds the session's lock from its first read (the
    membership and the seats are read under it, once): the same numbers, and a retry is the
    first hand back."""
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    url = reverse("scorebook:hand_new", kwargs={"club": club.slug, "session": session.pk})
    keeper = members["scorekeeper"]
    fields = {"contract": "two", "declarer": "1", "partner": "3", "points": "39", "save": "1"}
    outbox = {"HTTP_X_SCOREBOOK_OUTBOX": "1", "HTTP_X_SCOREBOOK_USER": key_of(keeper)}
    barrier = threading.Barrier(WRITERS)
    answers: list[dict] = []
    errors: list[BaseException] = []

    def save():
        try:
            phone = Client()
            phone.force_login(keeper)
            posted = {**fields, "client_id": str(uuid.uuid4())}
            barrier.wait(timeout=10)
            answers.append(phone.post(url, posted, **outbox).json())
            answers.append(phone.post(url, posted, **outbox).json())  # sent again at once
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=save) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert sorted(a["number"] for a in answers if not a["repeat"]) == list(range(1, WRITERS + 1))
    assert [a["status"] for a in answers] == ["recorded"] * 2 * WRITERS
    assert sum(a["repeat"] for a in answers) == WRITERS
    assert Entry.objects.filter(hand__session=session).count() == WRITERS * 4
