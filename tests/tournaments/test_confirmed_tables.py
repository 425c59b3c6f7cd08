"""A tournament's tables wait for the other side's word (issue 27): required by default for a
tournament made from now on, a table's round ends only when its hands are confirmed, a
registrant who is no member confirms on his own phone, and the tournament may refuse the phone
at the table or ask for each player's PIN there."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from scorebook import confirmations, hands
from scorebook import services as core
from scorebook.confirmations import BadInput, NotAllowed
from scorebook.models import Club, HandConfirmation, Membership, Role
from scorebook.tournaments import services
from scorebook.tournaments.models import Round, Tournament
from tests.tournaments.helpers import CREATED, START, at, klop, seated

pytestmark = pytest.mark.django_db


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


def words_of(table):
    return list(
        HandConfirmation.objects.filter(hand__session=table.session).values_list(
            "state", "player__name", "how"
        )
    )


def user_of(table, name):
    return next(p.user for p in table.session.seated_players() if p.name == name)


def test_a_new_tournament_requires_the_word_and_its_tables_ask_for_it(club, organiser):
    tournament = services.create_tournament(
        club=club,
        user=organiser,
        name="Advent cup",
        variant="slovenian-4",
        starts_at=START,
        hands_per_table=1,
        rounds=2,
        capacity=8,
        now=CREATED,
    )
    assert (tournament.confirmation, tournament.same_phone) == ("required", "allowed")
    page = reverse("scorebook:tournaments:create", kwargs={"club": club.slug})
    from django.test import Client

    client = Client()
    client.force_login(organiser)
    html = client.get(page).content.decode()
    assert '<option value="required" selected>' in html


def test_a_round_ends_only_when_its_tables_hands_are_confirmed(
    started, django_capture_on_commit_callbacks
):
    tournament = started(4, confirmation="required")
    (table,) = tables_of(tournament, 1)
    assert table.session.confirmation == "required"
    a, b, c, d = seated(table)
    with django_capture_on_commit_callbacks(execute=True):
        klop(table, **{a: 5, b: 10, c: 20, d: 35})
    table.refresh_from_db()
    assert table.finished_at is None  # played, not yet confirmed
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    with django_capture_on_commit_callbacks(execute=True):
        confirmations.confirm(table.session, 1, 1, user_of(table, b))
    table.refresh_from_db()
    assert table.finished_at is not None
    (table2,) = tables_of(tournament, 2)
    assert seated(table2) == [a, b, c, d]


def test_a_registrant_who_is_no_member_confirms_his_tables_hands_on_his_own_phone(
    club, organiser, make_user, people, client_as, django_capture_on_commit_callbacks
):
    tournament = services.create_tournament(
        club=club,
        user=organiser,
        name="Open cup",
        variant="slovenian-4",
        starts_at=START,
        hands_per_table=1,
        rounds=1,
        capacity=4,
        open_to_all=True,
        seed=7,
        now=CREATED,
    )
    guest = make_user("zoran", first_name="Zoran")
    for user in [*people[:3], guest]:
        services.confirm_presence(services.register(tournament, user, now=CREATED), now=at(18, 50))
    services.start_tournament(tournament, now=START)
    (table,) = tables_of(tournament, 1)
    assert not Membership.objects.filter(user=guest, club=club).exists()
    names = seated(table)
    with django_capture_on_commit_callbacks(execute=True):
        klop(table, **dict(zip(names, (5, 10, 20, 35), strict=True)))
    zoran = client_as(guest)
    mine = reverse(
        "scorebook:session_confirmations", kwargs={"club": club.slug, "session": table.session_id}
    )
    page = zoran.get(mine)
    assert page.status_code == 200 and 'name="answer" value="correct"' in page.content.decode()
    draw = reverse(
        "scorebook:tournaments:draw", kwargs={"club": club.slug, "tournament": tournament.pk}
    )
    assert f'href="{mine}"' in zoran.get(draw).content.decode()
    confirm = reverse(
        "scorebook:hand_confirm",
        kwargs={"club": club.slug, "session": table.session_id, "number": 1},
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = zoran.post(confirm, {"version": "1", "answer": "correct", "back": "sheet"})
    assert response.status_code == 302 and response["Location"] == mine  # no sheet for him
    assert words_of(table) == [("confirmed", "Zoran", "own-phone")]
    table.refresh_from_db()
    assert table.finished_at is not None
    # Somebody who is neither a member nor seated there sees nothing of it.
    stranger = client_as(make_user("stranger"))
    assert stranger.get(mine).status_code == 404
    assert stranger.post(confirm, {"version": "1", "answer": "correct"}).status_code == 404


@pytest.fixture
def pin_table(started, organiser):
    """A table of a tournament that asks for the player's PIN on the phone at the table."""
    tournament = started(4, confirmation="required", same_phone="pin")
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    table.session.refresh_from_db()
    return table


def test_the_phone_at_the_table_takes_a_word_only_with_the_players_pin(pin_table, organiser):
    session, name = pin_table.session, seated(pin_table)[1]
    word = {"player": name, "at_table": True}
    with pytest.raises(BadInput, match="four-digit PIN"):
        confirmations.confirm(session, 1, 1, organiser, pin="12", **word)
    with pytest.raises(NotAllowed, match="has set no PIN"):
        confirmations.confirm(session, 1, 1, organiser, pin="1234", **word)
    confirmations.set_pin(user_of(pin_table, name), "4711")
    with pytest.raises(NotAllowed, match=f"Wrong PIN for {name}"):
        confirmations.confirm(session, 1, 1, organiser, pin="1234", **word)
    assert words_of(pin_table) == []
    confirmations.confirm(session, 1, 1, organiser, pin="4711", **word)
    assert words_of(pin_table) == [("confirmed", name, "same-phone")]


def test_five_wrong_pins_refuse_the_pin_for_a_quarter_of_an_hour(pin_table, organiser):
    """Four digits are 10,000 guesses: the phone at the table gets five in a row."""
    from scorebook.models import Profile

    session, name = pin_table.session, seated(pin_table)[1]
    word = {"player": name, "at_table": True}
    player_user = user_of(pin_table, name)
    confirmations.set_pin(player_user, "4711")
    a, b, c, d = seated(pin_table)
    klop(pin_table, **{a: 35, b: 20, c: 10, d: 5})  # hand 2
    for wrong in ("0000", "1111", "2222", "3333"):
        with pytest.raises(NotAllowed, match=f"Wrong PIN for {name}"):
            confirmations.confirm(session, 1, 1, organiser, pin=wrong, **word)
    # A mistyped PIN is forgiven by the right one: the count starts again.
    confirmations.confirm(session, 1, 1, organiser, pin="4711", **word)
    for wrong in ("0000", "1111", "2222", "3333", "5555"):
        with pytest.raises(NotAllowed, match=f"Wrong PIN for {name}"):
            confirmations.confirm(session, 2, 1, organiser, pin=wrong, **word)
    with pytest.raises(NotAllowed, match=f"Too many wrong PINs for {name}"):
        confirmations.confirm(session, 2, 1, organiser, pin="4711", **word)
    assert [w[0] for w in words_of(pin_table)] == ["confirmed"]  # hand 2 still waits
    # His own phone still takes his word; and a quarter of an hour later, the PIN again.
    refused_until = Profile.objects.get(user=player_user).pin_refused_until
    assert refused_until - timezone.now() > datetime.timedelta(minutes=14)
    Profile.objects.filter(user=player_user).update(
        pin_refused_until=timezone.now() - datetime.timedelta(seconds=1)
    )
    confirmations.confirm(session, 2, 1, organiser, pin="4711", **word)
    assert [w[0] for w in words_of(pin_table)] == ["confirmed", "confirmed"]


def test_a_tournament_may_refuse_the_phone_at_the_table(pin_table, organiser, client_as):
    Tournament.objects.filter(pk=pin_table.round.tournament_id).update(same_phone="refused")
    session = core.Session.objects.get(pk=pin_table.session_id)
    name = seated(pin_table)[1]
    with pytest.raises(NotAllowed, match="each player confirms on his own phone"):
        confirmations.confirm(session, 1, 1, organiser, player=name, at_table=True)
    # His own phone still takes it.
    confirmations.confirm(session, 1, 1, user_of(pin_table, name))
    assert words_of(pin_table) == [("confirmed", name, "own-phone")]


def test_the_organisers_correction_after_the_round_ended_is_his_and_reopens_nothing(
    started, organiser, django_capture_on_commit_callbacks
):
    tournament = started(4, confirmation="required", rounds=1)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    hand = klop(table, **{a: 5, b: 10, c: 20, d: 35})
    with django_capture_on_commit_callbacks(execute=True):
        confirmations.confirm(table.session, 1, 1, user_of(table, a))
    table.refresh_from_db()
    finished = table.finished_at
    assert finished is not None
    assert Membership.objects.get(user=organiser).role == Role.ADMIN
    data = {"contract": "klop", "points_by_player": {a: 10, b: 5, c: 20, d: 35}}
    with django_capture_on_commit_callbacks(execute=True):
        hands.edit_hand(hand, data, 1, organiser, change_closed=True)
    table.refresh_from_db()
    assert table.finished_at == finished
    assert words_of(table)[-1] == ("confirmed", None, "admin")
    assert confirmations.all_confirmed(table.session)
    tournament.refresh_from_db()
    assert tournament.status == "finished"


@pytest.mark.django_db(transaction=True)
def test_the_tournaments_made_before_keep_off():
    """Migration 0004: a tournament announced before confirmations keeps its tables as they
    were; one made after it asks for the word."""
    executor = MigrationExecutor(connection)
    before = [("tournaments", "0003_table_names_in_words")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    club = Club.objects.create(name="Old", slug="old")  # the clubs' table is as it is now
    old.get_model("tournaments", "Tournament").objects.create(
        club_id=club.pk,
        name="Old cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=1),
        capacity=4,
        seed=1,
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Tournament.objects.get(name="Old cup").confirmation == "off"
    new = Tournament.objects.create(
        club_id=club.pk,
        name="New cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=1),
        capacity=4,
    )
    assert new.confirmation == "required"
