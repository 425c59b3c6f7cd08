"""Database constraints: the last line behind the services' own checks."""

import datetime
import uuid

import pytest
from django.db import IntegrityError, transaction

from scorebook.models import Entry, Hand, Membership, Player, Role, Season, Session, SessionSeat


def test_player_names_are_unique_per_club_ignoring_case(club, other_club):
    Player.objects.create(club=club, name="Ana")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="ana")
    # Another club may have its own Ana.
    Player.objects.create(club=other_club, name="Ana")


def test_membership_is_unique_per_user_and_club(club, make_user):
    user = make_user("mia")
    Membership.objects.create(user=user, club=club, role=Role.VIEWER)
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=user, club=club, role=Role.ADMIN)


def test_a_seat_holds_one_player_and_a_player_one_seat(session, players):
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionSeat.objects.create(session=session, player=players[4], position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionSeat.objects.create(session=session, player=players[0], position=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionSeat.objects.create(session=session, player=players[4], position=0)
    SessionSeat.objects.create(session=session, player=players[4], position=5)
    assert [p.name for p in session.seated_players()] == ["Ana", "Bor", "Cene", "Dani", "Eva"]


def test_hand_client_id_is_unique_across_sessions(session, club):
    other = Session.objects.create(club=club, variant="slovenian-4", date=session.date)
    client_id = uuid.uuid4()
    Hand.objects.create(session=session, number=1, data={}, rules_version="x", client_id=client_id)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            session=other, number=1, data={}, rules_version="x", client_id=client_id
        )


def test_hand_numbers_are_unique_per_session_and_start_at_one(session):
    Hand.objects.create(session=session, number=1, data={}, rules_version="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(session=session, number=1, data={}, rules_version="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(session=session, number=0, data={}, rules_version="x")


def test_one_entry_per_player_and_hand(session, players):
    hand = Hand.objects.create(session=session, number=1, data={}, rules_version="x")
    Entry.objects.create(hand=hand, player=players[0], amount="12.50")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(hand=hand, player=players[0], amount=1)


def test_a_player_with_hands_cannot_be_deleted_alone_but_with_his_club(session, players):
    from django.db.models import RestrictedError

    hand = Hand.objects.create(session=session, number=1, data={}, rules_version="x")
    Entry.objects.create(hand=hand, player=players[0], amount=5)
    with pytest.raises(RestrictedError):
        players[0].delete()
    session.club.delete()
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_season_cannot_end_before_it_starts(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=club,
            name="Backwards",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=datetime.date(2026, 8, 1),
        )
