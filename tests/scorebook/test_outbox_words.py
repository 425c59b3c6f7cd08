"""A confirmation or dispute said without signal (issue 27, "Offline"): the phone's outbox
keeps it with its own client id and sends it later; the confirm view answers the outbox in
JSON with the words of scorebook/outbox.py. Stored once however often it is sent, refused
with its reason (and the hand as it is now, when it changed meanwhile), never a page."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scorebook import hands
from scorebook.models import HandConfirmation
from tests.scorebook import test_confirmations
from tests.scorebook.test_confirmations import record, words

pytestmark = pytest.mark.django_db

table = test_confirmations.table
OUTBOX = {"HTTP_X_SCOREBOOK_OUTBOX": "1", "HTTP_ACCEPT": "application/json"}
DEVICE = "6f1c1a52-3f2e-4a8e-9d59-0c1b6a1e2f30"


def confirm_url(session, number=1):
    return reverse(
        "scorebook:hand_confirm",
        kwargs={"club": session.club.slug, "session": session.pk, "number": number},
    )


def sent(client, session, number=1, headers=None, **fields):
    """The outbox's send of a word, as sender.js posts it."""
    posted = {"version": "1", "answer": "correct", "device_id": DEVICE, **fields}
    posted.setdefault("client_id", str(uuid.uuid4()))
    return client.post(confirm_url(session, number), posted, **OUTBOX, **(headers or {}))


def test_a_word_from_the_outbox_is_recorded_and_answered_in_json(table, client_as):
    record(table, table.users["Ana"])
    response = sent(client_as(table.users["Bor"]), table)
    assert response.status_code == 200
    assert response.json() == {
        "status": "recorded",
        "number": 1,
        "repeat": False,
        "message": "Hand 1 is confirmed.",
    }
    assert words(table) == [(1, 1, "confirmed", "Bor", "own-phone")]
    stored = HandConfirmation.objects.get()
    assert stored.device == DEVICE


def test_a_word_sent_twice_is_stored_once(table, client_as):
    """Its first send arrived, its answer did not: the second is answered "recorded" again."""
    record(table, table.users["Ana"])
    bor = client_as(table.users["Bor"])
    client_id = "0b7f7e0e-9a3c-4c55-8d0e-2a4f3b1c9d11"
    first = sent(bor, table, answer="wrong", reason="45, not 40", client_id=client_id)
    again = sent(bor, table, answer="wrong", reason="45, not 40", client_id=client_id)
    assert first.json()["status"] == "recorded" and first.json()["repeat"] is False
    assert again.status_code == 200
    assert again.json()["status"] == "recorded" and again.json()["repeat"] is True
    assert words(table) == [(1, 1, "disputed", "Bor", "own-phone")]


def test_a_word_on_a_hand_changed_meanwhile_is_refused_with_the_hand_as_it_is_now(table, client_as):
    hand = record(table, table.users["Ana"])
    changed = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 50}
    hands.edit_hand(hand, changed, 1, table.users["Ana"])  # the phone still shows version 1
    response = sent(client_as(table.users["Bor"]), table)
    assert response.status_code == 409
    assert response.json() == {
        "status": "conflict",
        "message": "Hand 1 changed meanwhile (now version 2): check it and confirm again.",
        "number": 1,
        "version": 2,
        "line": "two — Ana, Cene 50 — +35",
    }
    assert words(table) == []
    # Asked again, said of version 2: recorded.
    assert sent(client_as(table.users["Bor"]), table, version="2").json()["status"] == "recorded"


@pytest.mark.parametrize(
    "user, fields, code, status, reason",
    [
        ("Cene", {}, 409, "conflict", "on the side of the player who recorded hand 1"),
        ("Eva", {}, 409, "conflict", "You are at no seat of this table."),
        ("Bor", {"answer": "maybe"}, 422, "invalid", "Tap “Correct”"),
        ("Bor", {"answer": "wrong", "reason": ""}, 422, "invalid", "Say in a few words"),
    ],
)
def test_a_word_not_allowed_is_refused_never_kept_waiting(
    table, client_as, user, fields, code, status, reason
):
    """Refused for good (409, 422), never 403: the outbox keeps a 403 waiting for a login."""
    record(table, table.users["Ana"])
    response = sent(client_as(table.users[user]), table, **fields)
    assert response.status_code == code
    assert response.json()["status"] == status
    assert reason in response.json()["message"]
    assert words(table) == []


def test_a_word_on_no_hand_is_refused_in_json(table, client_as):
    record(table, table.users["Ana"])
    response = sent(client_as(table.users["Bor"]), table, number=7)
    assert response.status_code == 409
    assert response.json()["message"] == "There is no hand 7."


def test_a_client_id_of_another_hands_word_is_refused(table, client_as):
    record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    bor = client_as(table.users["Bor"])
    client_id = str(uuid.uuid4())
    assert sent(bor, table, client_id=client_id).json()["status"] == "recorded"
    response = sent(bor, table, number=2, client_id=client_id)
    assert response.status_code == 409
    assert "said of another hand" in response.json()["message"]
    assert words(table) == [(1, 1, "confirmed", "Bor", "own-phone")]


def test_logged_out_the_word_waits_for_the_login(table, client_as):
    record(table, table.users["Ana"])
    response = sent(client_as(None), table)
    assert response.status_code == 401
    assert response.json()["status"] == "login"
    assert response.json()["login"].startswith(reverse("login"))
    assert words(table) == []


def test_another_login_on_the_phone_waits_for_whose_word_it_is(table, client_as):
    record(table, table.users["Ana"])
    response = sent(
        client_as(table.users["Bor"]), table, headers={"HTTP_X_SCOREBOOK_USER": "someone-else"}
    )
    assert response.status_code == 409
    assert response.json()["status"] == "other-user"
    assert words(table) == []


def test_a_session_asking_for_no_word_refuses_it_in_json(table, client_as):
    record(table, table.users["Ana"])
    table.confirmation = "off"
    table.save()
    response = sent(client_as(table.users["Bor"]), table)
    assert response.status_code == 409
    assert response.json()["status"] == "conflict"
    assert words(table) == []


def test_a_plain_post_without_javascript_still_comes_back_to_the_sheet(table, client_as):
    record(table, table.users["Ana"])
    response = client_as(table.users["Bor"]).post(
        confirm_url(table), {"version": "1", "answer": "correct", "device_id": DEVICE}
    )
    assert response.status_code == 302
    assert HandConfirmation.objects.get().device == DEVICE
