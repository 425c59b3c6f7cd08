"""The admins' history of a session: every hand recorded, changed or voided, and by whom."""

from __future__ import annotations

import datetime
import uuid

from django.urls import reverse

from scorebook import services
from scorebook.models import Session


def test_history_lists_every_change_with_who_made_it(club, players, members, client_as):
    keeper, admin = members["scorekeeper"], members["admin"]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=keeper
    )
    first = services.record_hand(
        session, {"contract": "beggar", "declarer": "Ana", "made": True}, uuid.uuid4(), keeper
    )
    services.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
        uuid.uuid4(),
        keeper,
    )
    services.close_session(session, keeper)
    services.void_hand(first, "cards misdealt", 1, admin, is_admin=True)

    changes = services.session_history(session)
    assert [(c.what, c.hand, c.user) for c in changes][:2] == [
        ("voided", 1, admin),
        ("session closed", None, keeper),
    ]
    assert {(c.what, c.hand) for c in changes} >= {("recorded", 1), ("recorded", 2)}

    url = reverse("scorebook:session_history", kwargs={"club": club.slug, "session": session.pk})
    response = client_as(admin).get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "cards misdealt" in page and "beggar · Ana" in page and "alma" in page
    assert client_as(keeper).get(url).status_code == 403


def test_another_clubs_session_history_is_404(club, other_club, members, client_as):
    theirs = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    url = reverse("scorebook:session_history", kwargs={"club": club.slug, "session": theirs.pk})
    assert client_as(members["admin"]).get(url).status_code == 404
