"""Services: the rules of the club that no form or view may bypass."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.db.models import Sum

import rules
from scorebook import services
from scorebook.models import Entry, Hand, Membership, Player, Role

TWO_WON = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39}


@pytest.fixture
def started(club, players, members):
    return services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=players[:4],
        user=members["scorekeeper"],
        date=datetime.date(2026, 11, 28),
    )


def test_start_session_freezes_the_resolved_rules_and_seats_in_order(started, players):
    assert started.rules == rules.resolve_rules("slovenian-4", {"preset": "seed"})
    assert started.rules["preset"] == "seed"
    assert started.seated_players() == players[:4]


def test_start_session_accepts_a_fifth_who_sits_out_in_a_four_player_game(club, players, members):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players, user=None
    )
    assert len(session.seated_players()) == 5


@pytest.mark.parametrize("count", [2, 3, 6])
def test_start_session_refuses_the_wrong_number_of_players(club, players, members, count):
    seated = (players + [Player.objects.create(club=club, name="Fran")])[:count]
    with pytest.raises(services.ServiceError) as error:
        services.start_session(
            club=club, variant_id="slovenian-4", preset="seed", players=seated, user=None
        )
    assert error.value.field == "seats"
    assert "4 or 5" in error.value.message


def test_start_session_refuses_a_player_twice(club, players):
    with pytest.raises(services.ServiceError, match="one seat"):
        services.start_session(
            club=club,
            variant_id="slovenian-4",
            preset="seed",
            players=[players[0], players[1], players[2], players[0]],
            user=None,
        )


def test_start_session_refuses_another_clubs_or_an_archived_player(club, other_club, players):
    stranger = Player.objects.create(club=other_club, name="Tomo")
    with pytest.raises(services.ServiceError, match="roster"):
        services.start_session(
            club=club,
            variant_id="slovenian-4",
            preset="seed",
            players=[*players[:3], stranger],
            user=None,
        )
    services.set_player_archived(player=players[3], archived=True)
    with pytest.raises(services.ServiceError, match="archived"):
        services.start_session(
            club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
        )


def test_start_session_refuses_an_unknown_variant_or_preset(club, players):
    with pytest.raises(rules.RulesError):
        services.start_session(
            club=club, variant_id="bridge", preset="seed", players=players[:4], user=None
        )
    with pytest.raises(rules.RulesError):
        services.start_session(
            club=club, variant_id="slovenian-4", preset="nope", players=players[:4], user=None
        )


def test_record_hand_numbers_hands_and_writes_one_entry_per_player(started, members):
    user = members["scorekeeper"]
    first = services.record_hand(started, TWO_WON, uuid.uuid4(), user)
    second = services.record_hand(started, TWO_WON, uuid.uuid4(), user)
    assert (first.number, second.number) == (1, 2)
    assert first.rules_version == rules.RULES_VERSION
    assert first.data["variant"] == "slovenian-4"
    assert first.data["players"] == ["Ana", "Bor", "Cene", "Dani"]
    assert first.created_by == user
    expected = rules.score_hand(first.data).amounts
    entries = {e.player.name: e.amount for e in first.entries.select_related("player")}
    assert entries == {name: Decimal(amount) for name, amount in expected.items()}
    total = Entry.objects.filter(hand__session=started, player__name="Ana").aggregate(
        s=Sum("amount")
    )["s"]
    assert total == 2 * Decimal(expected["Ana"])
    assert services.session_totals(started)[first.entries.get(player__name="Ana").player_id] == (
        total
    )


def test_record_hand_is_idempotent_on_client_id(started, members):
    client_id = uuid.uuid4()
    first = services.record_hand(started, TWO_WON, client_id, members["scorekeeper"])
    again = services.record_hand(started, TWO_WON, str(client_id), members["scorekeeper"])
    assert again.pk == first.pk
    assert Hand.objects.count() == 1
    assert Entry.objects.count() == 4


def test_record_hand_rejects_a_wrong_hand_and_stores_nothing(started, members):
    with pytest.raises(rules.RulesError) as error:
        services.record_hand(
            started,
            {"contract": "two", "declarer": "Zoran", "points": 99},
            uuid.uuid4(),
            members["scorekeeper"],
        )
    assert error.value.problems
    assert not Hand.objects.exists()
    assert not Entry.objects.exists()


def test_record_hand_refuses_a_closed_session(started, members):
    services.close_session(session=started)
    with pytest.raises(services.ServiceError, match="closed"):
        services.record_hand(started, TWO_WON, uuid.uuid4(), members["scorekeeper"])


def test_add_and_rename_player_keep_names_unique_ignoring_case(club, players):
    with pytest.raises(services.ServiceError) as error:
        services.add_player(club=club, name="  ANA ")
    assert error.value.field == "name"
    with pytest.raises(services.ServiceError):
        services.rename_player(player=players[1], name="ana")
    assert services.add_player(club=club, name="  Nika   Novak ").name == "Nika Novak"
    assert services.rename_player(player=players[1], name="bor").name == "bor"


def test_a_player_with_hands_is_archived_not_deleted(started, players, members):
    services.record_hand(started, TWO_WON, uuid.uuid4(), members["scorekeeper"])
    with pytest.raises(services.ServiceError, match="archive"):
        services.delete_player(player=players[0])
    services.delete_player(player=players[4])
    assert not Player.objects.filter(name="Eva").exists()


def test_a_club_keeps_at_least_one_admin(club, members):
    admin = Membership.objects.get(user=members["admin"], club=club)
    with pytest.raises(services.ServiceError):
        services.change_role(membership=admin, role=Role.VIEWER)
    with pytest.raises(services.ServiceError):
        services.remove_member(membership=admin)
    services.change_role(membership=Membership.objects.get(user=members["viewer"]), role=Role.ADMIN)
    services.change_role(membership=admin, role=Role.VIEWER)


def test_add_member_creates_an_account_without_a_password(club):
    membership = services.add_member(
        club=club, username="novak", email="novak@example.org", role=Role.SCOREKEEPER
    )
    assert not membership.user.has_usable_password()
    with pytest.raises(services.ServiceError):
        services.add_member(club=club, username="NOVAK", role=Role.VIEWER)
