"""Services: the rules of the club that no form or view may bypass."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.db.models import Sum

import rules
from scorebook import hands, roster, services
from scorebook.models import Entry, Hand, Membership, Player, Role, Session
from tests.rules.test_slovenian import RADELC_SHEET

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
    roster.set_player_archived(player=players[3], archived=True)
    with pytest.raises(services.ServiceError, match="archived"):
        services.start_session(
            club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
        )


def test_start_session_refuses_an_unknown_variant_or_preset(club, players):
    with pytest.raises(services.ServiceError, match="variant"):
        services.start_session(
            club=club, variant_id="bridge", preset="seed", players=players[:4], user=None
        )
    with pytest.raises(services.ServiceError, match="nope") as refused:
        services.start_session(
            club=club, variant_id="slovenian-4", preset="nope", players=players[:4], user=None
        )
    assert [problem.path for problem in refused.value.problems] == ["preset"]


def test_record_hand_numbers_hands_and_writes_one_entry_per_player(started, members):
    user = members["scorekeeper"]
    first = hands.record_hand(started, TWO_WON, uuid.uuid4(), user)
    second = hands.record_hand(started, TWO_WON, uuid.uuid4(), user)
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
    first = hands.record_hand(started, TWO_WON, client_id, members["scorekeeper"])
    again = hands.record_hand(started, TWO_WON, str(client_id), members["scorekeeper"])
    assert again.pk == first.pk
    assert Hand.objects.count() == 1
    assert Entry.objects.count() == 4


def test_record_hand_rejects_a_wrong_hand_and_stores_nothing(started, members):
    with pytest.raises(services.ServiceError) as error:
        hands.record_hand(
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
        hands.record_hand(started, TWO_WON, uuid.uuid4(), members["scorekeeper"])


def test_add_and_rename_player_keep_names_unique_ignoring_case(club, players):
    with pytest.raises(services.ServiceError) as error:
        roster.add_player(club=club, name="  ANA ")
    assert error.value.field == "name"
    with pytest.raises(services.ServiceError):
        roster.rename_player(player=players[1], name="ana")
    assert roster.add_player(club=club, name="  Nika   Novak ").name == "Nika Novak"
    assert roster.rename_player(player=players[1], name="bor").name == "bor"


def test_a_player_with_hands_is_archived_not_deleted(started, players, members):
    hands.record_hand(started, TWO_WON, uuid.uuid4(), members["scorekeeper"])
    with pytest.raises(services.ServiceError, match="archive"):
        roster.delete_player(player=players[0])
    roster.delete_player(player=players[4])
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


def _last_row(session):
    score = session.hands.order_by("-number").first().score
    return score["amounts"], score["running"]["totals"], score["running"]["carry"]


def test_each_hand_keeps_its_row_and_a_change_rescores_the_rows_after_it(club, players, members):
    """A new hand is scored from the row stored before it, so the stored rows must follow
    every void, edit and rename exactly as a replay of the whole sheet would."""
    keeper = members["scorekeeper"]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=keeper
    )
    for hand in RADELC_SHEET:
        hands.record_hand(session, hand, uuid.uuid4(), keeper)
    # tests/rules/test_slovenian.py RADELC_SHEET: the last beggar doubled by Ana's radelc.
    assert _last_row(session) == (
        {"Ana": 140, "Bor": 0, "Cene": 0, "Dani": 0},
        {"Ana": 280, "Bor": 30, "Cene": -20, "Dani": -50},
        {"Ana": 2, "Bor": 2, "Cene": 3, "Dani": 3},
    )

    first = session.hands.get(number=1)
    hands.void_hand(first, "misdeal", first.version, keeper)
    # Without the first beggar nobody holds a radelc until the klop: three +15 each, two
    # −25 each, klop Ana +70 and a radelc for all, the beggar doubled by Ana's: +140.
    assert _last_row(session) == (
        {"Ana": 140, "Bor": 0, "Cene": 0, "Dani": 0},
        {"Ana": 210, "Bor": 15, "Cene": -10, "Dani": -25},
        {"Ana": 1, "Bor": 2, "Cene": 2, "Dani": 2},
    )
    assert session.hands.get(number=1).score == {
        "running": {
            "totals": {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0},
            "carry": {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0},
            "dealer_seat": 0,
            "played": 0,
        }
    }

    third = session.hands.get(number=3)
    hands.edit_hand(third, {**RADELC_SHEET[2], "points": 40}, third.version, keeper)
    assert _last_row(session)[1] == {"Ana": 210, "Bor": 15, "Cene": 40, "Dani": 25}

    roster.rename_player(player=players[0], name="Ana Marija", user=keeper)
    assert _last_row(session)[1] == {"Ana Marija": 210, "Bor": 15, "Cene": 40, "Dani": 25}
    entries = Entry.objects.filter(hand__session=session, hand__voided=False)
    assert {
        row["player__name"]: row["total"]
        for row in entries.values("player__name").annotate(total=Sum("amount"))
    } == {"Ana Marija": 210, "Bor": 15, "Cene": 40, "Dani": 25}
    # The rows read back are the ones a replay of the whole sheet gives (a session read
    # afresh: an instance keeps the seat names it read).
    stored, sheet = hands.evaluate_session(Session.objects.get(pk=session.pk))
    assert [hand.score["running"]["totals"] for hand in stored] == [
        dict(row.totals) for row in sheet.rows
    ]


def test_hands_stored_before_rows_were_kept_get_them_on_the_next_save(club, players, members):
    keeper = members["scorekeeper"]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=keeper
    )
    for hand in RADELC_SHEET[:2]:
        hands.record_hand(session, hand, uuid.uuid4(), keeper)
    session.hands.update(score={})  # as a hand stored by an earlier version
    hands.record_hand(session, RADELC_SHEET[2], uuid.uuid4(), keeper)
    # The beggar +70 and a radelc each; Bor's three doubled +30; Cene's two lost, doubled −50.
    assert _last_row(session)[1] == {"Ana": 70, "Bor": 30, "Cene": -20, "Dani": -50}
    assert all("running" in hand.score for hand in session.hands.all())


def test_a_failing_listener_never_undoes_the_hand(session, members, caplog):
    """What the listeners of hands_changed write commits with the hand; one that fails is
    logged, its writes are rolled back, and the hand is kept."""
    from scorebook.signals import hands_changed

    def renames_then_fails(sender, session, **kwargs):
        Player.objects.filter(name="Eva").update(name="Eve")
        raise RuntimeError("listener broke")

    hands_changed.connect(renames_then_fails, dispatch_uid="test_failing_listener")
    try:
        hand = hands.record_hand(session, TWO_WON, uuid.uuid4(), members["scorekeeper"])
    finally:
        hands_changed.disconnect(dispatch_uid="test_failing_listener")
    assert Hand.objects.filter(pk=hand.pk).exists()
    assert Entry.objects.filter(hand=hand).count() == 4
    assert Player.objects.filter(name="Eva").exists()  # the listener's write rolled back
    assert "listener broke" in caplog.text
