"""The admins' history of a session: every hand recorded, changed or voided, and by whom."""

from __future__ import annotations

import datetime
import uuid

from django.urls import reverse

from scorebook import hands, services, sheets
from scorebook.models import Session


def test_history_lists_every_change_with_who_made_it(club, players, members, client_as):
    keeper, admin = members["scorekeeper"], members["admin"]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=keeper
    )
    first = hands.record_hand(
        session, {"contract": "beggar", "declarer": "Ana", "made": True}, uuid.uuid4(), keeper
    )
    hands.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
        uuid.uuid4(),
        keeper,
    )
    services.close_session(session, keeper)
    hands.void_hand(first, "cards misdealt", 1, admin, change_closed=True)

    changes = sheets.session_history(session)
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


def test_a_long_history_comes_in_pages_and_any_page_number_answers(
    club, players, members, client_as
):
    keeper = members["scorekeeper"]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=keeper
    )
    for _ in range(50):  # with the session's start: 51 changes, one more than a page
        hands.record_hand(
            session, {"contract": "beggar", "declarer": "Ana", "made": True}, uuid.uuid4(), keeper
        )
    url = reverse("scorebook:session_history", kwargs={"club": club.slug, "session": session.pk})
    client = client_as(members["admin"])

    def page(number: str) -> str:
        response = client.get(url, {"page": number})
        assert response.status_code == 200, number
        return response.content.decode()

    first = client.get(url).content.decode()
    assert first.count("<td>recorded") == 50 and "session started" not in first
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    last = page("2")
    assert "session started" in last and "<td>recorded" not in last
    # Not a number: the first page. Out of range either way: the last.
    for strange in ("abc", "", "1.5", "9" * 5000):
        assert "Page 1 of 2" in page(strange)
    for out_of_range in ("-1", "0", "999999999999999999999"):
        assert "Page 2 of 2" in page(out_of_range)
