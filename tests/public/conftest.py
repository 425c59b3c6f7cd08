"""A club that publishes, with a closed evening whose players chose differently.

Ana Kovač chose her full name, Bor Novak his initials, Cene Kralj nothing (hidden, the
default), and Dani Zupan agreed to initials on an admin's record, colliding with Dora
Zorman's. Cene plays under his account in another club too, where he chose his full name.
"""

from __future__ import annotations

import datetime
import uuid

import pytest

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


@pytest.fixture
def publish():
    def switch_on(club, **which):
        parts = which or {p: True for p in ("club", "sessions", "league", "tournaments")}
        for part, on in parts.items():
            setattr(club, f"publish_{part}", on)
        club.save()
        return club

    return switch_on


@pytest.fixture
def roster(club, other_club, make_user):
    from scorebook.models import Membership, Player, Role
    from scorebook.public.models import PublicName

    cene = make_user("cene.kralj.private", first_name="Cene", last_name="Kralj")
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
