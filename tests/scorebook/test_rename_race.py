"""Renaming a seated player while phones save hands into his session.

A stored hand and its row name the players, and a rename rewrites them. A save must never
depend on a name read before it holds the session: it stores the hand under the name of now,
and a rename waits for it (or it for the rename) without a deadlock on PostgreSQL.
"""

import threading
import uuid

import pytest
from django.db import close_old_connections, connection
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

import rules
from scorebook import hands, roster, services
from scorebook.context_processors import key_of
from scorebook.models import Entry, Hand, Player, Session

SAVERS = 4
SAVES = 8
RENAMES = 12


def _hand(names: list[str], turn: int) -> dict:
    """What the hand form posts, as names of the seats it was built with: seat 1 declares."""
    if turn % 3 == 2:
        points = dict(zip(names, (20, 15, 25, 10), strict=True))
        return {"contract": "klop", "points_by_player": points}
    return {"contract": "two", "declarer": names[0], "partner": names[2], "points": 40 + turn}


def _started(club, players):
    return services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )


def _assert_sheet_is_a_replay_naming(session: Session, name: str) -> None:
    session = Session.objects.get(pk=session.pk)  # afresh: an instance keeps its seat names
    stored, sheet = hands.evaluate_session(session)
    assert [hand.score["running"]["totals"] for hand in stored] == [
        dict(row.totals) for row in sheet.rows
    ]
    assert all(hand.data["players"][0] == name for hand in stored)
    entries = Entry.objects.filter(hand__session=session, hand__voided=False)
    assert {
        row["player__name"]: row["total"]
        for row in entries.values("player__name").annotate(total=Sum("amount"))
    } == dict(sheet.totals)


def test_a_hand_from_a_form_built_before_a_rename_is_stored_under_the_new_name(
    club, players, members
):
    session = _started(club, players)
    form_session = Session.objects.get(pk=session.pk)
    names = list(form_session.seat_names)  # what the view reads to build the form
    roster.rename_player(player=players[0], name="Ana Marija")
    hand = hands.record_hand(form_session, _hand(names, 0), uuid.uuid4(), None)
    assert hand.data["declarer"] == "Ana Marija"
    won = hand.score["amounts"]["Ana Marija"]
    assert won > 0 and hand.entries.get(player=players[0]).amount == won
    _assert_sheet_is_a_replay_naming(session, "Ana Marija")


def test_a_rename_writes_no_history_row_per_hand(club, players, members):
    session = _started(club, players)
    names = list(session.seat_names)
    for turn in range(6):
        hands.record_hand(session, _hand(names, turn), uuid.uuid4(), None)
    hand_history = Hand.history.count()
    roster.rename_player(player=players[0], name="Ana Marija", user=members["admin"])
    assert Hand.history.count() == hand_history
    renamed = players[0].history.order_by("-history_id").first()
    assert (renamed.name, renamed.history_user) == ("Ana Marija", members["admin"])
    _assert_sheet_is_a_replay_naming(session, "Ana Marija")


def _by_the_service(session_pk: int, turn: int) -> uuid.UUID:
    """A save as the view made it before issue 25: the session and the names of its seats
    read per request, before record_hand locks the session."""
    form_session = Session.objects.get(pk=session_pk)
    client_id = uuid.uuid4()
    hands.record_hand(form_session, _hand(list(form_session.seat_names), turn), client_id, None)
    return client_id


def _through_the_form(user, club):
    """A phone's outbox saving through the hand form, whose save reads the membership and the
    seats once, under the session's lock (hands.lock_for_save)."""
    phone = Client()
    phone.force_login(user)

    def save(session_pk: int, turn: int) -> uuid.UUID:
        url = reverse("scorebook:hand_new", kwargs={"club": club.slug, "session": session_pk})
        client_id = uuid.uuid4()
        fields = {"contract": "two", "declarer": "1", "partner": "3", "points": 40 + turn}
        answer = phone.post(
            url,
            {**fields, "client_id": str(client_id), "save": "1"},
            HTTP_X_SCOREBOOK_OUTBOX="1",
            HTTP_X_SCOREBOOK_USER=key_of(user),
        )
        if answer.json()["status"] != "recorded":
            raise services.ServiceError(answer.json()["message"])
        return client_id

    return save


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("via", ["service", "form"])
def test_saves_and_renames_at_the_same_time(club, players, members, via):
    if connection.vendor == "sqlite":
        # Threads need a database file they can all open; an in-memory one is per connection.
        assert "memory" not in str(connection.settings_dict["NAME"])
    session = _started(club, players)
    # A second session of the player: a rename locks both, in the order every writer uses.
    other = _started(club, [players[4], players[0], players[1], players[2]])
    barrier = threading.Barrier(SAVERS + 1)
    failures: list[BaseException] = []
    stored: list[uuid.UUID] = []
    refused: list[str] = []

    def save(turns: int, session_pk: int) -> None:
        try:
            one = (
                _by_the_service
                if via == "service"
                else _through_the_form(members["scorekeeper"], club)
            )
            barrier.wait(timeout=10)
            for turn in range(turns):
                try:
                    stored.append(one(session_pk, turn))
                except (services.ServiceError, rules.RulesError) as exc:
                    refused.append(str(exc))
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            close_old_connections()
            connection.close()

    def rename() -> None:
        try:
            barrier.wait(timeout=10)
            for turn in range(RENAMES):
                player = Player.objects.get(pk=players[0].pk)
                roster.rename_player(player=player, name=f"Ana {turn}")
        except BaseException as exc:
            failures.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [
        threading.Thread(target=save, args=(SAVES, session.pk if i % 2 else other.pk))
        for i in range(SAVERS)
    ]
    threads.append(threading.Thread(target=rename))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a writer is stuck"
    assert not failures, failures
    assert not refused, refused
    assert Hand.objects.filter(client_id__in=stored).count() == len(stored) == SAVERS * SAVES
    last = f"Ana {RENAMES - 1}"
    assert Player.objects.get(pk=players[0].pk).name == last
    _assert_sheet_is_a_replay_naming(session, last)
    other = Session.objects.get(pk=other.pk)
    stored, sheet = hands.evaluate_session(other)
    assert sheet.players[1] == last
    assert [hand.score["running"]["totals"] for hand in stored] == [
        dict(row.totals) for row in sheet.rows
    ]
