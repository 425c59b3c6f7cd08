"""The organiser's day (RULES.md §8.1–8.2): the director's screen, ending a table, more
minutes, reseating, the hand after the time, presence at the door, withdrawals with a
substitute, and a message to every player."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from scorebook.errors import ServiceError
from scorebook.models import Player
from scorebook.tournaments import services
from scorebook.tournaments.models import Event, Registration, Round
from tests.tournaments.helpers import CREATED, START, at, klop, seated

D = Decimal


def url(name, tournament, **kwargs):
    return reverse(
        f"scorebook:tournaments:{name}",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk, **kwargs},
    )


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


def _klop(table, *piles):
    klop(table, **dict(zip(seated(table), piles, strict=True)))


def test_the_directors_screen_shows_every_table_with_its_hands(started, organiser, client_as):
    tournament = started(8, hands_per_table=2)
    one, two = tables_of(tournament, 1)
    _klop(one, 5, 10, 20, 35)
    page = client_as(organiser).get(url("director", tournament)).content.decode()
    assert "1 of 2 hands" in page
    assert "0 of 2 hands" in page
    assert ", ".join(seated(two)) in page
    # Table 2 has no hand yet: it may be reseated; table 1 may not.
    assert url("table_reseat", tournament, table=two.pk) in page
    assert url("table_reseat", tournament, table=one.pk) not in page


def test_ending_a_table_early_counts_its_hands_so_far(started, organiser, client_as):
    tournament = started(4, hands_per_table=2)
    (table,) = tables_of(tournament, 1)
    _klop(table, 5, 10, 20, 35)
    response = client_as(organiser).post(url("table_end", tournament, table=table.pk))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.finished_at is not None and table.ended_by_tap
    places = [p.place for p in table.placements.order_by("seat")]
    assert places == [1, 2, 3, 4]
    assert len(tables_of(tournament, 2)) == 1  # round 2 is drawn
    assert Event.objects.filter(tournament=tournament, kind=Event.Kind.ENDED).count() == 1


def test_a_timed_round_more_minutes_and_the_grace(started, organiser, people):
    tournament = started(4, round_minutes=30, grace_minutes=5)
    (table,) = tables_of(tournament, 1)
    assert table.ends_at == START + datetime.timedelta(minutes=30)
    services.more_minutes(tournament, table.pk, 10, organiser, now=at(19, 20))
    table.refresh_from_db()
    assert table.ends_at == at(19, 40)
    # Its time up for 4 minutes: a hand still saves in the grace of 5 minutes.
    type(table).objects.filter(pk=table.pk).update(
        ends_at=timezone.now() - datetime.timedelta(minutes=4)
    )
    _klop(table, 5, 10, 20, 35)
    type(table).objects.filter(pk=table.pk).update(
        ends_at=timezone.now() - datetime.timedelta(minutes=6)
    )
    with pytest.raises(ServiceError) as refused:
        _klop(table, 5, 10, 20, 35)
    assert "saved only by the tournament director" in refused.value.message
    # A timed table does not end by a count of hands: the director ends it.
    assert table.session.hands.count() == 1
    services.end_table(tournament, table.pk, organiser)
    table.refresh_from_db()
    assert table.finished_at is not None


def test_more_minutes_is_refused_for_a_round_by_hands(started, organiser):
    tournament = started(4)
    (table,) = tables_of(tournament, 1)
    with pytest.raises(ServiceError, match="played by hands"):
        services.more_minutes(tournament, table.pk, 5, organiser)
    with pytest.raises(ServiceError) as refused:
        services.more_minutes(tournament, table.pk, 0, organiser)
    assert refused.value.field == "minutes"


def test_a_table_is_reseated_before_its_first_hand_only(started, organiser):
    tournament = started(4, hands_per_table=2)
    (table,) = tables_of(tournament, 1)
    before = seated(table)
    new = services.reseat_table(tournament, table.pk, organiser)
    assert sorted(seated(new)) == sorted(before) and seated(new) != before
    assert new.number == 1
    _klop(new, 5, 10, 20, 35)
    with pytest.raises(ServiceError, match="can no longer be reseated"):
        services.reseat_table(tournament, new.pk, organiser)


def test_the_organiser_confirms_and_undoes_presence_before_the_start(
    make_tournament, people, organiser, client_as
):
    tournament = make_tournament(capacity=4)
    registrations = [services.register(tournament, user, now=CREATED) for user in people[:4]]
    ana = registrations[0]
    services.set_presence(ana, True, organiser, now=at(17, 0))
    ana.refresh_from_db()
    assert ana.confirmed_at == at(17, 0)
    services.set_presence(ana, False, organiser, now=at(17, 5))
    ana.refresh_from_db()
    assert ana.confirmed_at is None
    for registration in registrations:
        services.set_presence(registration, True, organiser, now=at(18, 55))
    services.start_tournament(tournament, now=START)
    with pytest.raises(ServiceError, match="presence is settled"):
        services.set_presence(ana, False, organiser, now=at(19, 1))


def test_a_withdrawn_player_is_replaced_by_a_substitute_from_the_next_round(started, organiser):
    tournament = started(4, rounds=3)
    (table,) = tables_of(tournament, 1)
    _klop(table, 5, 10, 20, 35)
    services.sync_tournament(tournament)
    (table2,) = tables_of(tournament, 2)
    dani = Registration.objects.get(tournament=tournament, player__name=seated(table)[3])
    # Round 2 has no hand yet: the substitute takes Dani's seat at once.
    sub = services.withdraw(dani, None, "Zala", organiser)
    assert "Zala" in seated(tables_of(tournament, 2)[0])
    assert dani.name not in seated(tables_of(tournament, 2)[0])
    dani.refresh_from_db()
    assert (dani.is_withdrawn, dani.withdrawn_after) == (True, 1)
    assert sub.substitute_for == dani and sub.player.name == "Zala"
    rows = {s.registration.name: s for s in services.standings(tournament)}
    assert rows[dani.name].points == D(0) and rows[dani.name].registration.is_withdrawn
    assert table2.pk != tables_of(tournament, 2)[0].pk  # a fresh sheet for the new seating


def test_a_withdrawal_without_a_substitute_before_the_table_began_is_refused(started, organiser):
    tournament = started(4)
    ana = Registration.objects.get(
        tournament=tournament, player__name=seated(tables_of(tournament, 1)[0])[0]
    )
    with pytest.raises(ServiceError, match="seat a substitute"):
        services.withdraw(ana, None, "", organiser)


def test_a_substitute_must_not_be_registered_already(started, organiser, club):
    tournament = started(4)
    a, b, _c, _d = [
        Registration.objects.get(tournament=tournament, player__name=name)
        for name in seated(tables_of(tournament, 1)[0])
    ]
    with pytest.raises(ServiceError) as refused:
        services.withdraw(a, b.player, "", organiser)
    assert refused.value.field == "player"
    assert not Player.objects.filter(club=club, name="Zala").exists()


def test_a_message_is_a_banner_until_dismissed_and_an_email(
    started, organiser, people, client_as, django_capture_on_commit_callbacks
):
    tournament = started(4)
    client = client_as(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("message", tournament), {"text": "Break until 20:15."})
    assert response.status_code == 302
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ana@example.org",
        "bor@example.org",
        "cene@example.org",
        "dani@example.org",
    ]
    assert mail.outbox[0].body == "Break until 20:15."
    ana = client_as(people[0])
    assert "Break until 20:15." in ana.get(url("detail", tournament)).content.decode()
    message = tournament.messages.get()
    ana.post(url("message_dismiss", tournament, message=message.pk))
    assert "Break until 20:15." not in ana.get(url("draw", tournament)).content.decode()
    # Another player still sees it.
    assert (
        "Break until 20:15." in client_as(people[1]).get(url("draw", tournament)).content.decode()
    )


def test_an_empty_message_is_refused_at_its_field(started, organiser, client_as):
    tournament = started(4)
    response = client_as(organiser).post(url("message", tournament), {"text": "  "})
    assert response.status_code == 200
    assert 'id="id_text_error"' in response.content.decode()


def test_the_players_page_says_first_where_he_goes(started, people, client_as):
    tournament = started(4)
    (table,) = tables_of(tournament, 1)
    me = people[0]
    others = [name for name in seated(table) if name != "Ana"]
    page = client_as(me).get(url("detail", tournament)).content.decode()
    expected = f"Round 1 — table 1 — with {', '.join(others)}"
    assert expected in page
    assert page.index(expected) < page.index("My registration")
    partial = client_as(me).get(url("where", tournament), HTTP_HX_REQUEST="true")
    assert expected in partial.content.decode()
    # Opened as a page (a bookmark, no JavaScript), it is the tournament's page that shows it.
    opened = client_as(me).get(url("where", tournament))
    assert opened.status_code == 302 and opened["Location"] == url("detail", tournament)


@pytest.mark.parametrize(
    ("language", "director", "where"),
    [
        ("en", "Tournament director", "Round 1 — table 1 — with"),
        ("sl", "Vodja turnirja", "Krog 1 — miza 1 — z:"),
        ("cs", "Ředitel turnaje", "Kolo 1 — stůl 1 — s:"),
        ("de", "Turnierleiter", "Runde 1 — Tisch 1 — mit"),
        ("fr", "Directeur du tournoi", "Tour 1 — table 1 — avec"),
    ],
)
def test_the_new_pages_in_each_readers_language(
    started, organiser, people, client_as, language, director, where
):
    from django.conf import settings

    tournament = started(4)
    organiser_client, player_client = client_as(organiser), client_as(people[0])
    for client in (organiser_client, player_client):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language  # each reader his own
    assert director in organiser_client.get(url("director", tournament)).content.decode()
    assert where in player_client.get(url("detail", tournament)).content.decode()


def test_the_director_sees_unconfirmed_hands_and_ends_a_table_only_once_they_are_settled(
    started, organiser, client_as
):
    """Confirmation required (issue 27): a hand waits for the other side; the director's
    screen counts it, and ending the table asks him to confirm or void it first."""
    tournament = started(4, hands_per_table=2, confirmation="required")
    (table,) = tables_of(tournament, 1)
    _klop(table, 5, 10, 20, 35)
    assert services.director_tables(tournament)[1][0].unconfirmed == 1
    page = client_as(organiser).get(url("director", tournament)).content.decode()
    assert "1 unconfirmed" in page
    with pytest.raises(ServiceError, match="Confirm or void this table's open hands first"):
        services.end_table(tournament, table.pk, organiser)


def test_the_directors_screen_asks_as_much_for_two_tables_as_for_one(started, organiser, client_as):
    """It refreshes every 10 seconds for a room of 100 tables: no statement per table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (4, 8):
        tournament = started(players, hands_per_table=2)
        for table in tables_of(tournament, 1):
            _klop(table, 5, 10, 20, 35)
        client = client_as(organiser)
        client.get(url("director", tournament))  # the events are seen on the first look
        with CaptureQueriesContext(connection) as statements:
            page = client.get(url("director", tournament)).content.decode()
        assert page.count("1 of 2 hands") == players // 4
        counts.append(len(statements))
    assert counts[0] == counts[1]
