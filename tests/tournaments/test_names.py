"""The roster names a tournament's start gives to registrants who are not on the roster yet."""

from __future__ import annotations

from django.core.management import call_command
from django.utils import timezone

from scorebook.models import Membership, Player, Role
from scorebook.tournaments import services
from scorebook.tournaments.models import Status
from tests.tournaments.helpers import CREATED, START, at


def register_and_confirm(tournament, users):
    for user in users:
        registration = services.register(tournament, user, now=CREATED)
        services.confirm_presence(registration, now=at(18, 50))


def member(club, make_user, username, **names):
    user = make_user(username, **names)
    Membership.objects.create(user=user, club=club, role=Role.VIEWER)
    return user


def roster_name(user) -> str:
    return Player.objects.get(user=user).name


def test_a_long_username_that_starts_like_a_roster_name_gets_a_name_of_its_own(
    club, people, make_user, make_tournament
):
    taken = Player.objects.create(club=club, name="k" * 60)
    long_one = member(club, make_user, "K" * 60 + "2")
    tournament = make_tournament(capacity=4)
    register_and_confirm(tournament, [*people[:3], long_one])

    tournament = services.start_tournament(tournament, now=START)

    assert tournament.status == Status.RUNNING
    name = roster_name(long_one)
    assert len(name) <= 60
    assert name.lower() != taken.name.lower()
    assert name == "K" * 58 + " 2"


def test_registrants_with_the_same_long_name_each_get_a_free_name_that_fits(
    club, people, make_user, make_tournament
):
    full_name = {"first_name": "Bartholomew-Maximilian", "last_name": "von " + "Tarock" * 10}
    Player.objects.create(
        club=club, name=f"{full_name['first_name']} {full_name['last_name']}"[:60]
    )
    twins = [member(club, make_user, f"twin{n}", **full_name) for n in (1, 2)]
    tournament = make_tournament(capacity=4)
    register_and_confirm(tournament, [*people[:2], *twins])

    services.start_tournament(tournament, now=START)

    names = [roster_name(twin) for twin in twins]
    assert all(len(name) <= 60 for name in names)
    assert sorted(name[-2:] for name in names) == [" 2", " 3"]
    assert names[0].startswith("Bartholomew-Maximilian von Tarock")


def test_the_tick_starts_a_tournament_of_long_names(
    club, people, make_user, make_tournament, monkeypatch
):
    Player.objects.create(club=club, name="k" * 60)
    long_ones = [member(club, make_user, "k" * 60 + suffix) for suffix in ("a", "b", "c")]
    tournament = make_tournament(capacity=4)
    register_and_confirm(tournament, [people[0], *long_ones])
    monkeypatch.setattr(timezone, "now", lambda: START)

    call_command("tournament_tick")

    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
    names = {roster_name(user).lower() for user in long_ones}
    assert len(names) == 3 and "k" * 60 not in names
    assert all(len(name) <= 60 for name in names)
