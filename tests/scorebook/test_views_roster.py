import datetime
import uuid

from django.urls import reverse

from scorebook import hands, services
from scorebook.models import Entry, Hand, Player, Session, SessionSeat


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def test_admin_adds_a_player(club, members, client_as):
    response = client_as(members["admin"]).post(url("player_add", club), {"name": " Zala "})
    assert response.status_code == 302
    assert Player.objects.get(club=club).name == "Zala"


def test_a_duplicate_name_is_an_error_at_the_name_field(club, players, members, client_as):
    response = client_as(members["admin"]).post(url("player_add", club), {"name": "ANA"})
    assert response.status_code == 200
    assert "already on the roster" in response.context["form"].errors["name"][0]
    assert 'aria-invalid="true"' in response.content.decode()
    assert Player.objects.filter(club=club).count() == 5


def test_rename_and_archive_and_restore(club, players, members, client_as):
    client = client_as(members["admin"])
    eva = players[4]
    assert client.get(url("player_edit", club, player=eva.pk)).status_code == 200
    assert client.post(url("player_edit", club, player=eva.pk), {"name": "Eva N."}).status_code == (
        302
    )
    eva.refresh_from_db()
    assert eva.name == "Eva N."
    response = client.post(url("player_edit", club, player=eva.pk), {"name": "ana"})
    assert response.status_code == 200
    client.post(url("player_archive", club, player=eva.pk), {"archived": "1"})
    eva.refresh_from_db()
    assert eva.archived
    client.post(url("player_archive", club, player=eva.pk), {"archived": "0"})
    eva.refresh_from_db()
    assert not eva.archived


def test_delete_only_a_player_without_hands(club, players, members, client_as):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    hands.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39},
        uuid.uuid4(),
        None,
    )
    client = client_as(members["admin"])
    response = client.post(url("player_delete", club, player=players[0].pk), follow=True)
    assert "archive the player instead" in response.content.decode()
    assert Player.objects.filter(pk=players[0].pk).exists()
    client.post(url("player_delete", club, player=players[4].pk))
    assert not Player.objects.filter(pk=players[4].pk).exists()


def played_at(club, four):
    """A session of `four` with one hand and its entries, made without the engine."""
    session = Session.objects.create(
        club=club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 27)
    )
    hand = Hand.objects.create(session=session, number=1, data={}, rules_version="test")
    for position, player in enumerate(four, start=1):
        SessionSeat.objects.create(session=session, player=player, position=position)
        Entry.objects.create(hand=hand, player=player, amount=0)


def test_the_roster_costs_the_same_few_queries_for_thirty_players(
    club, members, client_as, django_assert_max_num_queries
):
    """Delete is offered only to players without hands, without asking each player."""
    seated = [Player.objects.create(club=club, name=f"Player {n:02}") for n in range(32)]
    for table in range(8):
        four = seated[table * 4 : table * 4 + 4]
        played_at(club, four)
    fresh = [Player.objects.create(club=club, name=name) for name in ("Zala", "Žiga")]
    client = client_as(members["admin"])

    with django_assert_max_num_queries(8):
        page = client.get(url("roster", club)).content.decode()

    deletable = {p.pk for p in fresh}
    for player in seated + fresh:
        delete = url("player_delete", club, player=player.pk)
        assert (delete in page) == (player.pk in deletable), player.name
