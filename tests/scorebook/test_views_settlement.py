"""The settlement page: totals with closing penalties, nets and transfers."""

from __future__ import annotations

import datetime
import uuid

from django.urls import reverse

from scorebook import hands, services
from scorebook.models import Session

HANDS = [
    {"contract": "beggar", "declarer": "Ana", "made": True},
    {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
    {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30},
]


def test_settlement_page_shows_nets_and_transfers(club, players, members, client_as):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    for hand in HANDS:
        hands.record_hand(session, hand, uuid.uuid4(), None)
    services.close_session(session, members["scorekeeper"])
    url = reverse("scorebook:session_settlement", kwargs={"club": club.slug, "session": session.pk})
    response = client_as(members["viewer"]).get(url)
    assert response.status_code == 200
    page = response.content.decode()
    # Totals 120, −50, 50, −50; pairwise nets 410, −270, 130, −270.
    assert "Bor pays Ana 270" in page
    assert "Dani pays Ana 140" in page
    assert "Dani pays Cene 130" in page
    assert "410" in page
    assert ">History<" not in page  # a viewer does not read the history


def test_another_clubs_settlement_is_404(club, other_club, members, client_as):
    theirs = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    url = reverse("scorebook:session_settlement", kwargs={"club": club.slug, "session": theirs.pk})
    assert client_as(members["admin"]).get(url).status_code == 404
