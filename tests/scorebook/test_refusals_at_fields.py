"""Every refusal reaches the hand form as a message at its field (or above the fields), the
club's as well as the engine's, and never as a server error; a hand voided on another phone
while its edit form was open stays voided and the edit page says so (issue 22, part 1)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scorebook import hands, services
from scorebook.errors import ServiceError
from scorebook.models import Hand, Profile, Session

pytestmark = pytest.mark.django_db

THREE = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}


def url(name, session, **kwargs):
    return reverse(name, kwargs={"club": session.club.slug, "session": session.pk, **kwargs})


@pytest.fixture
def keeper(members, client_as):
    return client_as(members["scorekeeper"])


@pytest.fixture
def recorded(session, keeper):
    response = keeper.post(url("scorebook:hand_new", session), {"client_id": uuid.uuid4(), **THREE})
    assert response.status_code == 302
    return Hand.objects.get(session=session, number=1)


def void_on_another_phone(session, hand, members):
    other = Client()
    other.force_login(members["admin"])
    response = other.post(
        url("scorebook:hand_void", session, number=hand.number),
        {"reason": "misdeal", "version": str(hand.version)},
    )
    assert response.status_code == 302


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize(
    "fields",
    [{**THREE, "points": "50"}, {"contract": "redeal"}],
    ids=["edit", "redeal"],
)
@pytest.mark.parametrize("version", ["current", "old"])
def test_editing_a_hand_voided_on_another_phone_says_so_and_changes_nothing(
    session, recorded, members, keeper, htmx, fields, version
):
    edit_page = keeper.get(url("scorebook:hand_edit", session, number=1))
    assert 'name="version" value="1"' in edit_page.content.decode()
    void_on_another_phone(session, recorded, members)
    posted_version = "2" if version == "current" else "1"  # the void made it version 2
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = keeper.post(
        url("scorebook:hand_edit", session, number=1),
        {**fields, "version": posted_version},
        **headers,
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "This hand was voided on another phone." in html
    assert "Somebody changed this hand meanwhile" not in html
    assert f'href="{url("scorebook:sheet", session)}"' in html
    hand = Hand.objects.get(pk=recorded.pk)
    assert hand.voided and hand.void_reason == "misdeal"
    assert hand.data == recorded.data and hand.version == 2
    assert hand.history.count() == 2  # recorded, voided: the refused edit wrote nothing


def test_the_voided_message_is_in_the_users_language(session, recorded, members, client_as):
    Profile.objects.update_or_create(user=members["scorekeeper"], defaults={"language": "sl"})
    void_on_another_phone(session, recorded, members)
    response = client_as(members["scorekeeper"]).post(
        url("scorebook:hand_edit", session, number=1), {**THREE, "version": "2"}
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert 'lang="sl"' in html
    assert "To igro so razveljavili na drugem telefonu." in html


def test_a_session_closed_mid_edit_is_said_above_the_fields(session, recorded, keeper, monkeypatch):
    """The edit page was allowed (the session open), and the session closed before the save
    took its lock: the service's SessionClosed, a reason without an engine code."""
    edit_hand = hands.edit_hand

    def closing_meanwhile(hand, *args, **kwargs):
        Session.objects.filter(pk=hand.session_id).update(is_closed=True)
        return edit_hand(hand, *args, **kwargs)

    monkeypatch.setattr(hands, "edit_hand", closing_meanwhile)
    response = keeper.post(
        url("scorebook:hand_edit", session, number=1), {**THREE, "points": "50", "version": "1"}
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "This session is closed; only a club admin can change it." in html
    assert Hand.objects.get(pk=recorded.pk).data["points"] == 40


def test_a_refusal_at_the_players_field_lands_at_who_sits_out(
    club, players, members, client_as, monkeypatch
):
    """record_hand's own ServiceError(…, "players"), through the view's save."""
    five = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=players[:5],
        user=members["scorekeeper"],
    )

    def refuse(*args, **kwargs):
        raise ServiceError("Only seated players can be dealt in.", "players")

    monkeypatch.setattr(hands, "record_hand", refuse)
    response = client_as(members["scorekeeper"]).post(
        url("scorebook:hand_new", five),
        {"client_id": uuid.uuid4(), **THREE, "sits_out": "5"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "Only seated players can be dealt in." in html
    assert not Hand.objects.filter(session=five).exists()


def test_a_refusal_of_the_preview_is_shown_in_the_score_box(session, keeper, monkeypatch):
    """hands.preview's own ServiceError (a hand before could not be scored) → form.described."""

    def refuse(*args, **kwargs):
        raise ServiceError("A hand before this one could not be scored; edit or void it.")

    monkeypatch.setattr(hands, "preview", refuse)
    response = keeper.post(url("scorebook:hand_preview", session), THREE, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert (
        "A hand before this one could not be scored; edit or void it." in response.content.decode()
    )
