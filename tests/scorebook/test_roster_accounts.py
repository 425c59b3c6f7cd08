"""Roster players and accounts: links, claims, one player per account, merges, the migration
that keeps one link per account, and a tournament's start that seats the linked player."""

from __future__ import annotations

import importlib
import json
import uuid

import pytest
from django.db import IntegrityError, transaction

from scorebook import hands, roster
from scorebook import services as core
from scorebook.errors import ServiceError
from scorebook.league import services as league
from scorebook.league.models import LeagueSession, PlayerSession, Rating, StaleFamily
from scorebook.models import Entry, Hand, Membership, Player, Role, SessionSeat
from scorebook.tournaments import services as tournaments
from scorebook.tournaments.models import Registration
from tests.tournaments.helpers import CREATED, START, at

migration = importlib.import_module("scorebook.migrations.0007_roster_accounts")


def member(club, make_user, username, **names):
    user = make_user(username, **names)
    Membership.objects.create(user=user, club=club, role=Role.VIEWER)
    return user


# --- Links and claims ---------------------------------------------------------------------


def test_an_admin_links_and_unlinks_a_player(club, players, members):
    ana = roster.link(player=players[0], user=members["viewer"])
    assert Player.objects.get(pk=ana.pk).user == members["viewer"]
    roster.link(player=ana, user=None)
    assert Player.objects.get(pk=ana.pk).user is None


def test_a_second_player_for_one_account_is_refused_with_a_message(club, players, members):
    roster.link(player=players[0], user=members["viewer"])
    with pytest.raises(ServiceError) as refused:
        roster.link(player=players[1], user=members["viewer"])
    assert refused.value.field == "user"
    assert "already plays as Ana" in refused.value.message
    assert Player.objects.get(pk=players[1].pk).user is None


def test_the_database_keeps_one_player_per_account_in_a_club(club, other_club, members):
    user = members["viewer"]
    Player.objects.create(club=club, name="Vida", user=user)
    Player.objects.create(club=other_club, name="Vida", user=user)  # another club: allowed
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="Vida 2", user=user)


def test_only_a_member_of_the_club_is_linked(club, players, members):
    with pytest.raises(ServiceError) as refused:
        roster.link(player=players[0], user=members["outsider"])
    assert refused.value.field == "user"


def test_a_member_claims_a_player_and_an_admin_confirms(club, players, members):
    vida = members["viewer"]
    roster.claim(club=club, player=players[4], user=vida)
    eva = Player.objects.get(pk=players[4].pk)
    assert eva.claimed_by == vida and eva.user is None

    roster.confirm_claim(player=eva)
    eva.refresh_from_db()
    assert eva.user == vida and eva.claimed_by is None
    with pytest.raises(ServiceError) as refused:
        roster.claim(club=club, player=players[3], user=vida)
    assert "You already play as Eva" in refused.value.message


def test_a_claim_is_refused_by_an_admin_and_one_claim_at_a_time(club, players, members):
    vida, saso = members["viewer"], members["scorekeeper"]
    roster.claim(club=club, player=players[4], user=vida)
    with pytest.raises(ServiceError, match="an admin will confirm"):
        roster.claim(club=club, player=players[3], user=vida)
    with pytest.raises(ServiceError, match="Somebody else has claimed Eva"):
        roster.claim(club=club, player=players[4], user=saso)
    roster.refuse_claim(player=Player.objects.get(pk=players[4].pk))
    assert Player.objects.get(pk=players[4].pk).claimed_by is None
    roster.claim(club=club, player=players[3], user=vida)  # free to claim again


def test_a_linked_player_cannot_be_claimed(club, players, members):
    roster.link(player=players[0], user=members["admin"])
    with pytest.raises(ServiceError, match="cannot be claimed"):
        roster.claim(club=club, player=players[0], user=members["viewer"])


# --- The migration's rule: one link per account, on the player with the most seats ---------


def test_the_migration_keeps_the_link_on_the_player_with_most_seats():
    # (player, club, user, seats): Ana and "ana (ana)" are one account in club 1.
    rows = [(1, 1, 7, 12), (2, 1, 7, 3), (3, 1, 8, 0), (4, 2, 7, 0), (5, 1, 9, 2), (6, 1, 9, 2)]
    assert migration.links_to_drop(rows) == [2, 6]  # on a tie the oldest keeps it


def test_the_migration_runs_on_the_rows_it_finds(club, players, session, members):
    """On today's rows (the constraint now forbids a duplicate) it unlinks nothing."""
    from django.apps import apps

    Player.objects.filter(pk=players[0].pk).update(user=members["viewer"])
    migration.keep_one_player_per_account(apps, None)
    assert Player.objects.get(pk=players[0].pk).user == members["viewer"]


# --- Tournaments seat the linked player -----------------------------------------------------


def a_tournament(club, organiser):
    return tournaments.create_tournament(
        club=club,
        user=organiser,
        name="Advent cup",
        variant="slovenian-4",
        starts_at=START,
        hands_per_table=1,
        rounds=1,
        capacity=4,
        seed=7,
        now=CREATED,
    )


def test_a_linked_member_plays_a_tournament_as_his_player(club, players, members, make_user):
    ana_user = member(club, make_user, "ana")  # no full name: the username was "ana (ana)"
    roster.link(player=players[0], user=ana_user)
    newcomers = [member(club, make_user, n, first_name="Bor") for n in ("bor1", "bor2")]
    registrants = [ana_user, *newcomers, member(club, make_user, "zala", first_name="Zala")]
    tournament = a_tournament(club, members["admin"])
    for user in registrants:
        registration = tournaments.register(tournament, user, now=CREATED)
        tournaments.confirm_presence(registration, now=at(18, 50))

    tournaments.start_tournament(tournament, now=START)

    assert Registration.objects.get(user=ana_user).player_id == players[0].pk
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert names == {"Ana", "Bor", "Cene", "Dani", "Eva", "Bor 2", "Bor 3", "Zala"}
    assert not any("(" in name for name in names)


# --- Merging two players who are one person --------------------------------------------------


def record(session, data):
    return hands.record_hand(session, data, uuid.uuid4(), None)


@pytest.fixture
def duplicate(club, players, members):
    """Ana played one evening; her duplicate "Ana 2" (Vida's account) another, the next day."""
    import datetime

    twin = Player.objects.create(club=club, name="Ana 2", user=members["viewer"])
    first = core.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=players[:4],
        user=None,
        date=datetime.date(2026, 11, 1),
    )
    record(first, {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39})
    second = core.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=[twin, *players[1:4]],
        user=None,
        date=datetime.date(2026, 11, 2),
    )
    record(second, {"contract": "two", "declarer": "Ana 2", "partner": "Bor", "points": 41})
    record(second, {"contract": "three", "declarer": "Dani", "points": 30})
    league.rebuild_ratings(club)
    return twin, second


def test_a_merge_moves_seats_entries_league_rows_and_renames_the_hands(
    club, players, members, duplicate
):
    twin, second = duplicate
    ana = players[0]
    tournament = a_tournament(club, members["admin"])
    registration = Registration.objects.create(
        tournament=tournament, user=members["viewer"], player=twin, registered_at=CREATED
    )
    assert Rating.objects.filter(player=twin).exists()

    kept = roster.merge(merged=twin, kept=ana, user=members["admin"])

    assert not Player.objects.filter(pk=twin.pk).exists()  # deleted, its history kept
    assert kept.user == members["viewer"]  # the account follows to the kept player
    assert SessionSeat.objects.get(session=second, position=1).player == ana
    assert Entry.objects.filter(player=ana).count() == 3
    registration.refresh_from_db()
    assert registration.player == ana
    stored = json.dumps(list(Hand.objects.filter(session=second).values("data", "score")))
    assert "Ana 2" not in stored and '"Ana"' in stored
    assert Hand.objects.get(session=second, number=1).data["declarer"] == "Ana"
    # The league's rows moved at once; the ratings rebuild on the next league page.
    assert PlayerSession.objects.filter(player=ana).count() == 2
    assert not LeagueSession.objects.filter(session_id=second.pk).exists()
    assert StaleFamily.objects.filter(club=club, family="slovenian").exists()
    league.ensure_current(club)
    rating = Rating.objects.get(player=ana, family="slovenian")
    assert rating.hands == 3
    assert league.player_summary(club, ana)["summary"]["hands"] == 3
    reasons = list(ana.history.values_list("history_change_reason", flat=True))
    assert reasons[0] == "merged Ana 2 into Ana"
    assert twin.history.first().history_type == "-"


def test_the_merge_rebuilds_the_ratings_as_if_one_player_had_played(club, players, duplicate):
    twin, _second = duplicate
    roster.merge(merged=twin, kept=players[0])
    league.ensure_current(club)
    merged_ratings = dict(Rating.objects.values_list("player__name", "rating"))
    league.rebuild_ratings(club, full=True)
    assert dict(Rating.objects.values_list("player__name", "rating")) == merged_ratings


def test_a_merge_of_two_who_sat_in_one_session_is_refused(club, players, session):
    with pytest.raises(ServiceError) as refused:
        roster.merge(merged=players[1], kept=players[0])
    assert refused.value.field == "into"
    assert "sat at one table" in refused.value.message
    assert Player.objects.filter(pk=players[1].pk).exists()


def test_a_merge_of_two_in_one_tournament_is_refused(club, players, members, make_user):
    tournament = a_tournament(club, members["admin"])
    for player, user in ((players[0], members["viewer"]), (players[1], members["scorekeeper"])):
        Registration.objects.create(
            tournament=tournament, user=user, player=player, registered_at=CREATED
        )
    with pytest.raises(ServiceError, match="play in one tournament"):
        roster.merge(merged=players[1], kept=players[0])


def test_a_merge_of_two_accounts_and_of_a_player_with_himself_is_refused(club, players, members):
    roster.link(player=players[0], user=members["viewer"])
    roster.link(player=players[1], user=members["scorekeeper"])
    with pytest.raises(ServiceError, match="two accounts"):
        roster.merge(merged=players[1], kept=players[0])
    with pytest.raises(ServiceError, match="another player"):
        roster.merge(merged=players[0], kept=players[0])
