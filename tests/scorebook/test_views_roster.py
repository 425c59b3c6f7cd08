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


# --- Accounts: link, claim, merge ------------------------------------------------------------


def test_admin_links_and_unlinks_a_player_on_his_page(club, players, members, client_as):
    client = client_as(members["admin"])
    ana, vida = players[0], members["viewer"]
    page = client.get(url("player_edit", club, player=ana.pk)).content.decode()
    assert f'<option value="{vida.pk}">vida</option>' in page
    response = client.post(url("player_link", club, player=ana.pk), {"user": vida.pk})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.user == vida
    client.post(url("player_link", club, player=ana.pk), {"user": ""})
    ana.refresh_from_db()
    assert ana.user is None


def test_a_second_player_for_one_account_is_refused_at_the_field(club, players, members, client_as):
    client = client_as(members["admin"])
    vida = members["viewer"]
    client.post(url("player_link", club, player=players[0].pk), {"user": vida.pk})
    response = client.post(url("player_link", club, player=players[1].pk), {"user": vida.pk})
    assert response.status_code == 200
    assert "already plays as Ana" in response.context["link_form"].errors["user"][0]
    for strange in ("", "x", "99999999999999999999", str(members["outsider"].pk)):
        response = client.post(url("player_link", club, player=players[1].pk), {"user": strange})
        assert response.status_code in (200, 302), strange
    assert Player.objects.get(pk=players[1].pk).user is None


def test_a_member_claims_a_player_and_the_admin_confirms(club, players, members, client_as):
    vida = client_as(members["viewer"])
    page = vida.get(url("roster", club)).content.decode()
    assert "This is me" in page
    response = vida.post(url("player_claim", club), {"player": players[4].pk}, follow=True)
    assert "an admin will confirm it" in response.content.decode()
    assert "This is me" not in response.content.decode()

    admin = client_as(members["admin"])
    assert "claimed by vida" in admin.get(url("roster", club)).content.decode()
    page = admin.get(url("player_edit", club, player=players[4].pk)).content.decode()
    assert "vida says this player is them." in page
    admin.post(url("player_claim_decide", club, player=players[4].pk), {"accept": "1"})
    eva = Player.objects.get(pk=players[4].pk)
    assert eva.user == members["viewer"] and eva.claimed_by is None
    assert "You play as Eva." in vida.get(url("roster", club)).content.decode()


def test_a_bad_claim_is_an_error_at_the_field(club, players, members, client_as):
    vida = client_as(members["viewer"])
    response = vida.post(url("player_claim", club), {"player": "Ana"})
    assert response.status_code == 200
    assert response.context["claim_form"].errors["player"]
    Player.objects.filter(pk=players[0].pk).update(archived=True)
    response = vida.post(url("player_claim", club), {"player": players[0].pk})
    assert "cannot be claimed" in response.context["claim_form"].errors["player"][0]


def test_another_clubs_player_is_404_to_claim_and_to_merge_into(
    club, other_club, players, members, client_as
):
    theirs = Player.objects.create(club=other_club, name="Tomo")
    vida = client_as(members["viewer"])
    assert vida.post(url("player_claim", club), {"player": theirs.pk}).status_code == 404
    admin = client_as(members["admin"])
    merge = url("player_merge", club, player=players[4].pk)
    assert admin.get(merge, {"into": theirs.pk}).status_code == 404
    assert admin.post(f"{merge}?into={theirs.pk}").status_code == 404
    assert admin.post(url("player_merge", club, player=theirs.pk) + "?into=1").status_code == 404
    assert Player.objects.filter(pk__in=[theirs.pk, players[4].pk]).count() == 2


def test_a_merge_asks_to_confirm_then_merges(club, players, members, client_as):
    twin = Player.objects.create(club=club, name="ana (ana)")
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=[twin, *players[1:4]], user=None
    )
    data = {"contract": "two", "declarer": "ana (ana)", "partner": "Cene", "points": 39}
    hands.record_hand(session, data, uuid.uuid4(), None)
    client = client_as(members["admin"])
    merge = url("player_merge", club, player=twin.pk)

    page = client.get(merge, {"into": players[0].pk})
    assert page.status_code == 200
    assert "Merge ana (ana) into Ana?" in page.content.decode()
    assert "1 session and 1 hand move to Ana" in page.content.decode()
    assert Player.objects.filter(pk=twin.pk).exists()  # asking changes nothing

    response = client.post(f"{merge}?into={players[0].pk}", follow=True)
    assert "ana (ana) is merged into Ana." in response.content.decode()
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert SessionSeat.objects.filter(player=players[0]).count() == 1
    assert Hand.objects.get(session=session).data["declarer"] == "Ana"


def test_a_merge_of_two_at_one_table_is_refused_at_the_field(club, players, members, client_as):
    played_at(club, players[:4])
    client = client_as(members["admin"])
    merge = url("player_merge", club, player=players[1].pk)
    for response in (
        client.get(merge, {"into": players[0].pk}),
        client.post(f"{merge}?into={players[0].pk}"),
    ):
        assert response.status_code == 200
        assert "sat at one table" in response.context["merge_form"].errors["into"][0]
    response = client.get(merge, {"into": "nobody"})
    assert response.context["merge_form"].errors["into"]
    assert Player.objects.filter(pk=players[1].pk).exists()
