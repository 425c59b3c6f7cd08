"""A club that publishes, with a closed evening whose players chose differently.

Ana Kovač chose her full name, Bor Novak his initials, Cene Kralj nothing (hidden, the
default), and Dani Zupan agreed to initials on an admin's record, colliding with Dora
Zorman's. Cene plays under his account in another club too, where he chose his full name.
"""

from __future__ import annotations

import datetime
import uuid

import pytest

from tests.conftest import new_user

# What never appears on a public page (no username, e-mail, note or reason).
SECRETS = (
    "cene.kralj.private",  # Cene's username
    "@example.org",  # every account's e-mail
    "Cene Kralj",  # a hidden player's name
    "Kralj",
    "left early to catch the bus",  # an adjustment's reason
    "wrong declarer oops",  # a void reason
    "the secret evening note",  # a session's notes
)


# Each publish_<part> switch of a club.
PARTS = ("club", "sessions", "league", "tournaments", "series")


def switch_on(target, **which):
    """Each publish_<part> of `target` as in `which`, or every one on."""
    parts = which or {p: True for p in PARTS}
    for part, on in parts.items():
        setattr(target, f"publish_{part}", on)
    target.save()
    return target


@pytest.fixture
def publish(db):
    return switch_on


@pytest.fixture
def roster(club, other_club):
    return new_roster(club, other_club)


def new_roster(club, other_club) -> dict:
    from scorebook.models import Membership, Player, Role
    from scorebook.public.models import PublicName

    cene = new_user("cene.kralj.private", first_name="Cene", last_name="Kralj")
    Membership.objects.create(user=cene, club=club, role=Role.VIEWER)
    names = ["Ana Kovač", "Bor Novak", "Cene Kralj", "Dani Zupan", "Dora Zorman"]
    players = {n.split()[0]: Player.objects.create(club=club, name=n) for n in names}
    players["Cene"].user = cene
    players["Cene"].save()
    elsewhere = Player.objects.create(club=other_club, name="Cene Kralj", user=cene)
    PublicName.objects.create(player=elsewhere, shown="full", agreed="player")
    PublicName.objects.create(player=players["Ana"], shown="full", agreed="player")
    PublicName.objects.create(player=players["Bor"], shown="initials", agreed="player")
    PublicName.objects.create(player=players["Dani"], shown="initials", agreed="admin")
    PublicName.objects.create(player=players["Dora"], shown="initials", agreed="admin")
    return players


@pytest.fixture
def evening(club, roster, members):
    return new_evening(club, roster, members)


def new_evening(club, roster, members):
    """A closed evening: a won three, a mondfang, an adjustment with its reason, a voided hand."""
    from scorebook import hands, services

    seated = [roster[n] for n in ("Ana", "Bor", "Cene", "Dani")]
    session = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="tarzs",
        players=seated,
        user=members["scorekeeper"],
        date=datetime.date(2026, 11, 27),
        notes="the secret evening note",
    )
    who = members["scorekeeper"]
    record = lambda data: hands.record_hand(session, data, uuid.uuid4(), who)  # noqa: E731
    record({"contract": "three", "declarer": "Ana Kovač", "points": 40})
    record(
        {
            "contract": "three",
            "declarer": "Cene Kralj",
            "points": 40,
            "bonuses": [{"name": "mondfang", "player": "Cene Kralj"}],
        }
    )
    record(
        {
            "contract": "adjustment",
            "adjustments": [
                {"player": "Cene Kralj", "amount": 5, "reason": "left early to catch the bus"}
            ],
        }
    )
    voided = record({"contract": "three", "declarer": "Bor Novak", "points": 40})
    hands.void_hand(voided, "wrong declarer oops", voided.version, who)
    return services.close_session(session, who)


# The tournament fixtures (ten members Ana … Jan, an organiser), under their own names here.
from tests.tournaments import fixtures  # noqa: E402

people = fixtures.people
organiser = fixtures.organiser


@pytest.fixture
def cup(club, people, organiser):
    return new_cup(club, people, organiser)


def new_cup(club, people, organiser):
    """A running Swiss cup: four members registered and confirmed, round 1 drawn, one hand in.
    Fran chose his full name as he registered; the others chose nothing."""
    from scorebook.public import choices
    from scorebook.tournaments import services
    from tests.tournaments.helpers import CREATED, START, at, record

    tournament = services.create_tournament(
        club=club,
        user=organiser,
        name="Advent cup",
        variant="slovenian-4",
        starts_at=START,
        hands_per_table=2,
        rounds=2,
        capacity=4,
        seed=7,
        now=CREATED,
    )
    for user in people[2:6]:  # Cene … Fran
        registration = services.register(tournament, user, now=CREATED)
        if user.first_name == "Fran":
            choices.registration_choice(registration, user, "full")
        services.confirm_presence(registration, now=at(18, 50))
    tournament = services.start_tournament(tournament, now=START)
    table = tournament.round_set.get().tables.get()
    seated = [p.name for p in table.session.seated_players()]
    record(table, {"contract": "three", "declarer": seated[0], "points": 40})
    return tournament


@pytest.fixture
def theirs(other_club, make_user):
    """The other club, publishing everything: a closed session, a shown player, a tournament."""
    from django.utils import timezone

    from scorebook import services
    from scorebook.models import Player
    from scorebook.public.models import PublicName
    from scorebook.series.models import Series
    from scorebook.tournaments.models import Tournament

    for part in PARTS:
        setattr(other_club, f"publish_{part}", True)
    other_club.save()
    players = [
        Player.objects.create(club=other_club, name=n) for n in ("Tomo", "Uroš", "Vesna", "Žan")
    ]
    PublicName.objects.create(player=players[0], shown="full", agreed="admin")
    session = services.start_session(
        club=other_club, variant_id="slovenian-4", preset="seed", players=players, user=None
    )
    services.close_session(session)
    tournament = Tournament.objects.create(
        club=other_club,
        name="Their cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=3),
        capacity=8,
    )
    series = Series.objects.create(club=other_club, name="Their series")
    season = series.seasons.create(
        name="2026/27", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2027, 6, 30)
    )
    return {
        "session": session.pk,
        "player": players[0].pk,
        "tournament": tournament.pk,
        "series": series.pk,
        "series_season": season.pk,
    }


@pytest.fixture
def winter_series(club):
    return new_winter_series(club)


def new_winter_series(club) -> dict:
    """The club's cup series with a season and nothing played yet."""
    from scorebook.series.models import Series

    series = Series.objects.create(club=club, name="Winter cup series")
    season = series.seasons.create(
        name="2026/27", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2027, 6, 30)
    )
    return {"series": series.pk, "series_season": season.pk}
